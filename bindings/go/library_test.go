package xsession

// The session library's calls beyond what the conformance cases replay: argument errors, the
// archive progress function (its calls, re-entry, a panic), and the binding's own conversions.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func third[T, U any](_ T, _ U, err error) error { return err }

var year2100 = time.UnixMilli(4102444800000)

func TestDefaultCompactionSettingsAreTheLibrarys(t *testing.T) {
	want := CompactionSettings{ReserveTokens: 16384, ReserveFloor: 20000, KeepRecentTokens: 20000, SoftThresholdTokens: 4000}
	if got := DefaultCompactionSettings(); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	c := DefaultCompactionSettings()
	c.ContextWindow = 100000 // threshold 100000 - max(16384, 20000) = 80000; flush from 76000
	for tokens, want := range map[int64]bool{80000: false, 80001: true} {
		if got, err := ShouldCompact(c, tokens); err != nil || got != want {
			t.Errorf("ShouldCompact(%d) = %v, %v; want %v", tokens, got, err, want)
		}
	}
	for _, tc := range []struct {
		tokens, count, last int64
		want                bool
	}{{76000, 0, -1, false}, {76001, 0, -1, true}, {76001, 2, 2, false}, {76001, 3, 2, true}} {
		if got, err := ShouldFlushMemory(c, tc.tokens, tc.count, tc.last); err != nil || got != tc.want {
			t.Errorf("ShouldFlushMemory(%+v) = %v, %v", tc, got, err)
		}
	}
}

func TestDecisionsReportTheirArgumentErrors(t *testing.T) {
	c := DefaultCompactionSettings() // no context window
	_, err := ShouldCompact(c, 1)
	xe := wantErr(t, err, ErrInvalid)
	if xe.Op != "ShouldCompact" || err.Error() != "xsession: ShouldCompact: XS_EINVAL: invalid argument (xs_should_compact keeps no error text)" {
		t.Errorf("error %q (op %q)", err, xe.Op)
	}
	c.ContextWindow = 1000
	_, err = ShouldFlushMemory(c, 10, 1, -2)
	wantErr(t, err, ErrInvalid)
	_, err = ShouldCompact(c, -1)
	wantErr(t, err, ErrInvalid)
	c.ReserveTokens = -1
	_, err = ShouldCompact(c, 1)
	wantErr(t, err, ErrInvalid)
	c = DefaultCompactionSettings()
	c.ContextWindow, c.version = 1000, 99 // a struct newer than the library
	_, err = ShouldCompact(c, 1)
	wantErr(t, err, ErrVersion)
}

func TestCompactionPlanAndResumeCheckOfAnUnknownLeaf(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(0))
	_, err := s.CompactionPlan("nope", DefaultCompactionSettings())
	wantErr(t, err, ErrNotFound)
	_, err = s.ResumeCheck("nope")
	wantErr(t, err, ErrNotFound)
	_, err = s.ResumeCheck("a\x00b")
	wantErr(t, err, ErrInvalid)
	plan := must(s.CompactionPlan("", DefaultCompactionSettings()))(t)
	if string(plan.Raw) != `{"needed":false,"firstKeptEntryId":null,"toSummarise":[],"tokensBefore":0,"keptTokens":0}` {
		t.Errorf("plan of an empty session: %s", plan.Raw)
	}
	if got := must(s.ResumeCheck(""))(t); string(got.Raw) != `{"leafId":null,"orphans":[],"pendingToolCalls":[]}` {
		t.Errorf("resume check of an empty session: %s", got.Raw)
	}
}

func TestKeyClaimMemoryFlushOncePerCycle(t *testing.T) {
	st, _ := openTestStore(t)
	noErr(t, st.KeyPut("k", []byte(`{"sessionId":"s","compactionCount":2}`)))
	c := DefaultCompactionSettings()
	c.ContextWindow = 100000
	at := time.UnixMilli(1767225600000)
	if run, err := st.KeyClaimMemoryFlush("k", c, 76001, at); err != nil || !run {
		t.Fatalf("first claim: %v %v", run, err)
	}
	if run, err := st.KeyClaimMemoryFlush("k", c, 90000, at); err != nil || run {
		t.Fatalf("second claim in the same cycle: %v %v", run, err)
	}
	want := `{"sessionId":"s","compactionCount":2,"memoryFlushAt":1767225600000,"memoryFlushCompactionCount":2}`
	if got := must(st.KeyGet("k"))(t); string(got) != want {
		t.Errorf("record %s, want %s", got, want)
	}
	_, err := st.KeyClaimMemoryFlush("none", c, 76001, at)
	wantErr(t, err, ErrNotFound)
	_, err = st.KeyClaimMemoryFlush("a/b", c, 76001, at)
	wantErr(t, err, ErrInvalid)
}

func TestResetReasonNames(t *testing.T) {
	for r, want := range map[ResetReason]string{ResetContinued: "continued", ResetNew: "new", ResetDaily: "daily",
		ResetIdle: "idle", ResetForced: "forced", 77: "unknown"} {
		if r.String() != want {
			t.Errorf("%d: %q, want %q", uint32(r), r.String(), want)
		}
	}
}

func TestOpenStoreRefusesABadResetPolicy(t *testing.T) {
	for _, p := range []ResetPolicy{{Daily: true, DailyHour: 24}, {Daily: true, DailyHour: -2},
		{Daily: true, DailyHour: 4, TimeZone: "Mars/Olympus_Mons"}, {IdleMinutes: -1}, {TimeZone: "a\x00b"}} {
		p := p
		_, err := OpenStore(t.TempDir(), &StoreOptions{ResetPolicy: &p})
		wantErr(t, err, ErrInvalid)
	}
	// An hour the C struct cannot hold is refused, not wrapped round to a valid one.
	_, err := OpenStore(t.TempDir(), &StoreOptions{ResetPolicy: &ResetPolicy{Daily: true, DailyHour: 1<<32 + 4}})
	wantErr(t, err, ErrInvalid)
	// Without Daily the hour is not read.
	st, err := OpenStore(t.TempDir(), &StoreOptions{ResetPolicy: &ResetPolicy{DailyHour: 99}})
	noErr(t, err)
	st.Close()
}

func TestSessionForKeyArgumentsAndReasons(t *testing.T) {
	st, root := openTestStore(t)
	now := time.UnixMilli(1767225600000)
	o := fixedOptions(0)
	refused := map[string]error{
		"NUL in the key": third(st.SessionForKey("a\x00b", now, nil, 0, o)),
		"bad key":        third(st.SessionForKey("a/b", now, nil, 0, o)),
		"read-only":      third(st.SessionForKey("k", now, nil, 0, fixedOptions(SessionReadOnly))),
		"another key":    third(st.SessionForKey("k", now, nil, 0, &SessionOptions{Key: "j"})),
		"bad policy":     third(st.SessionForKey("k", now, &ResetPolicy{Daily: true, DailyHour: 25}, 0, o)),
		"unknown flags":  third(st.SessionForKey("k", now, nil, 8, o)),
		"negative now":   third(st.SessionForKey("k", time.UnixMilli(-1), nil, 0, o)),
	}
	for what, err := range refused {
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", what, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "sessions.json")); !os.IsNotExist(err) {
		t.Fatalf("a refused call wrote the document: %v", err)
	}

	o.Cwd = "/w"
	first, reason, err := st.SessionForKey("k", now, nil, 0, o)
	noErr(t, err)
	id := sessionID(t, first)
	noErr(t, first.Close())
	if reason != ResetNew {
		t.Errorf("first reason %v", reason)
	}
	again, reason, err := st.SessionForKey("k", now.Add(time.Minute), &ResetPolicy{IdleMinutes: 60}, 0, o)
	noErr(t, err)
	if reason != ResetContinued || sessionID(t, again) != id {
		t.Errorf("second call: %v, %s (first %s)", reason, sessionID(t, again), id)
	}
	noErr(t, again.Close())
	o.IDSeed = 2 // seed 1 would give the key's current id again (ErrExists)
	forced, reason, err := st.SessionForKey("k", now.Add(2*time.Minute), nil, ResetForce, o)
	noErr(t, err)
	if reason != ResetForced || sessionID(t, forced) == id {
		t.Errorf("forced: %v, %s (old %s)", reason, sessionID(t, forced), id)
	}
	noErr(t, forced.Close())
	var rec struct {
		SessionID          string   `json:"sessionId"`
		PreviousSessionIDs []string `json:"previousSessionIds"`
	}
	readJSON(t, must(st.KeyGet("k"))(t), &rec)
	if rec.SessionID == id || len(rec.PreviousSessionIDs) != 1 || rec.PreviousSessionIDs[0] != id {
		t.Errorf("record after the forced reset: %+v (old %s)", rec, id)
	}
}

func sessionID(t *testing.T, s *Session) string {
	t.Helper()
	var info struct {
		ID string `json:"id"`
	}
	readJSON(t, must(s.Info())(t).Raw, &info)
	return info.ID
}

func TestASessionBoundToAKeyWritesItsStats(t *testing.T) {
	st, _ := openTestStore(t)
	o := fixedOptions(0)
	o.Key = "agent:1:main"
	s := mustCreate(t, st, "/w", o)
	must(s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
	must(s.AppendMessage([]byte(`{"role":"assistant","content":[{"type":"text","text":"yo"}],` +
		`"usage":{"input":7,"output":3,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.5}}}`)))(t)
	stats := must(s.Stats())(t)
	noErr(t, s.Close())
	var got, rec map[string]json.RawMessage
	readJSON(t, stats.Raw, &got)
	readJSON(t, must(st.KeyGet("agent:1:main"))(t), &rec)
	for _, f := range []string{"inputTokens", "outputTokens", "totalTokens", "contextTokens", "cost"} {
		if string(got[f]) != string(rec[f]) || string(got[f]) == "0" {
			t.Errorf("%s: stats %s, record %s", f, got[f], rec[f])
		}
	}
	if string(got["inputTokens"]) != "7" || string(got["outputTokens"]) != "3" {
		t.Errorf("stats %s", stats.Raw)
	}
	_, err := st.Open("/nowhere.jsonl", &SessionOptions{Flags: SessionReadOnly, Key: "k"})
	wantErr(t, err, ErrInvalid)
	report := must(st.KeyFixStats("agent:"))(t)
	if string(report.Raw) != `{"checked":1,"fixed":[],"skipped":[]}` {
		t.Errorf("fix report of current stats: %s", report.Raw)
	}
}

// idleSessions makes closed sessions, with id seeds first to first+n-1, whose last activity is
// 2026-01-01.
func idleSessions(t *testing.T, st *Store, first, n int) {
	t.Helper()
	for i := first; i < first+n; i++ {
		o := fixedOptions(SessionNoDefer)
		o.IDSeed = uint64(i + 1)
		s := mustCreate(t, st, "/w", o)
		must(s.AppendMessage([]byte(fmt.Sprintf(`{"role":"user","content":"task %d"}`, i))))(t)
		noErr(t, s.Close())
	}
}

type archiveReport struct {
	DryRun   bool `json:"dryRun"`
	Archived []struct {
		Path string `json:"path"`
	} `json:"archived"`
	Skipped []json.RawMessage `json:"skipped"`
}

func TestArchiveCallsProgressBeforeTheFirstAndAfterEach(t *testing.T) {
	st, _ := openTestStore(t)
	idleSessions(t, st, 0, 3)
	var calls []string
	progress := func(done, total uint64) { calls = append(calls, fmt.Sprintf("%d/%d", done, total)) }
	dry := must(st.Archive(24*time.Hour, &ArchiveOptions{DryRun: true, Now: year2100, Progress: progress}))(t)
	var rep archiveReport
	readJSON(t, dry.Raw, &rep)
	if !rep.DryRun || len(rep.Archived) != 3 || len(rep.Skipped) != 0 {
		t.Fatalf("dry run: %s", dry.Raw)
	}
	calls = nil
	real := must(st.Archive(24*time.Hour, &ArchiveOptions{Now: year2100, Progress: progress}))(t)
	if strings.Join(calls, " ") != "0/3 1/3 2/3 3/3" {
		t.Errorf("progress calls %q", calls)
	}
	readJSON(t, real.Raw, &rep)
	if rep.DryRun || len(rep.Archived) != 3 {
		t.Fatalf("archive: %s", real.Raw)
	}
	// An archive opens read-only, says so, and refuses writes.
	s, err := st.Open(rep.Archived[0].Path+".gz", nil)
	noErr(t, err)
	defer s.Close()
	var info struct {
		Archived bool `json:"archived"`
		ReadOnly bool `json:"readOnly"`
	}
	readJSON(t, must(s.Info())(t).Raw, &info)
	if !info.Archived || !info.ReadOnly {
		t.Errorf("info of an archive: %+v", info)
	}
	_, err = s.AppendMessage([]byte(`{"role":"user","content":"x"}`))
	wantErr(t, err, ErrReadOnly)

	calls = nil
	pruned := must(st.Prune(24*time.Hour, &ArchiveOptions{DryRun: true, Now: year2100, Progress: progress}))(t)
	var pr struct {
		DryRun bool              `json:"dryRun"`
		Pruned []json.RawMessage `json:"pruned"`
	}
	if readJSON(t, pruned.Raw, &pr); !pr.DryRun || len(pr.Pruned) != 3 || calls != nil {
		t.Errorf("prune dry run: %s (progress calls %q)", pruned.Raw, calls)
	}
}

func TestArchiveAndPruneNeedALimit(t *testing.T) {
	st, _ := openTestStore(t)
	idleSessions(t, st, 0, 1)
	// -1 ns is 0 ms after truncation, which would archive everything: it must stay refused.
	for _, d := range []time.Duration{-time.Nanosecond, -time.Millisecond, -time.Hour} {
		_, err := st.Archive(d, &ArchiveOptions{Now: year2100})
		wantErr(t, err, ErrInvalid)
		_, err = st.Prune(d, nil)
		wantErr(t, err, ErrInvalid)
	}
	var rep archiveReport
	if readJSON(t, must(st.Archive(0, &ArchiveOptions{DryRun: true, Now: year2100}))(t).Raw, &rep); len(rep.Archived) != 1 {
		t.Errorf("the session is not there to archive: %+v", rep)
	}
}

func TestArchiveProgressCallingTheSameStoreIsMisuseNotADeadlock(t *testing.T) {
	st, _ := openTestStore(t)
	other, _ := openTestStore(t)
	idleSessions(t, st, 0, 1)
	var inner map[string]error
	var otherErr, err error
	var report *ArchiveReport
	withDeadline(func() {
		report, err = st.Archive(time.Hour, &ArchiveOptions{Now: year2100, Progress: func(done, total uint64) {
			if done == 0 {
				inner = storeCalls(st)
				inner["Store.Close"] = st.Close()
				otherErr = other.KeyPut("j", []byte(`{"sessionId":"j"}`)) // another store: another lock
			}
		}})
	})
	noErr(t, err)
	for op, err := range inner {
		var xe *Error
		if !errors.As(err, &xe) || xe.Code != CodeMisuse || errors.Is(err, ErrClosed) || xe.Op != op {
			t.Errorf("%s from inside the progress function: %#v", op, err)
		}
	}
	noErr(t, otherErr)
	if len(report.Archived) != 1 {
		t.Errorf("report %s", report.Raw)
	}
	must(st.List(nil))(t) // the store is open and usable
}

func TestAPanicInTheProgressFunctionIsReturnedWithTheReport(t *testing.T) {
	st, _ := openTestStore(t)
	idleSessions(t, st, 0, 2)
	boom := errors.New("boom")
	calls := 0
	report, err := st.Archive(time.Hour, &ArchiveOptions{Now: year2100, Progress: func(done, total uint64) {
		calls++
		panic(boom)
	}})
	xe := wantErr(t, err, ErrError)
	if !errors.Is(err, boom) || xe.Op != "Store.Archive" || !strings.Contains(xe.Message, "progress function panicked: boom") {
		t.Errorf("error %#v", err)
	}
	if calls != 1 {
		t.Errorf("the panicking function was called %d times", calls)
	}
	var rep archiveReport
	if readJSON(t, report.Raw, &rep); len(rep.Archived) != 2 {
		t.Errorf("the archive did not run to its end: %s", report.Raw)
	}
	// A panic with a value that is not an error.
	idleSessions(t, st, 2, 1)
	_, err = st.Archive(time.Hour, &ArchiveOptions{Now: year2100, Progress: func(uint64, uint64) { panic(42) }})
	if xe := wantErr(t, err, ErrError); errors.Unwrap(err) != nil || !strings.Contains(xe.Message, "panicked: 42") {
		t.Errorf("error %#v", err)
	}
	must(st.List(nil))(t)
}
