package xsession

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The pi dialect through the Go API (docs/dialects.md): which dialect a session writes, pi's
// titles as session_info entries, and the calls a dialect refuses with ErrDialect.

// openPiStore opens a store whose new sessions default to pi, closed at the end of the test.
func openPiStore(t *testing.T) *Store {
	t.Helper()
	st, err := OpenStore(t.TempDir(), &StoreOptions{Flags: StoreDialectPi})
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// infoOf is the fields of Info that these tests read.
type infoOf struct {
	Title      *string `json:"title"`
	Dialect    string  `json:"dialect"`
	EntryCount int     `json:"entryCount"`
	LeafID     string  `json:"leafId"`
}

func sessionInfo(t *testing.T, s *Session) infoOf {
	t.Helper()
	var v infoOf
	readJSON(t, must(s.Info())(t).Raw, &v)
	return v
}

func TestDialectNames(t *testing.T) {
	for d, want := range map[Dialect]string{DialectAuto: "auto", DialectOmp: "omp", DialectPi: "pi", 7: "Dialect(7)"} {
		if got := d.String(); got != want {
			t.Errorf("Dialect(%d).String() = %q, want %q", int(d), got, want)
		}
	}
	if DialectAuto != 0 || DialectOmp != 1 || DialectPi != 2 {
		t.Error("the dialects are not xsession.h's values")
	}
}

func TestStoreDefaultAndForcedDialectDecideANewSession(t *testing.T) {
	omp, _ := openTestStore(t)
	pi := openPiStore(t)
	for _, c := range []struct {
		store  *Store
		forced Dialect
		want   Dialect
	}{
		{omp, DialectAuto, DialectOmp},
		{omp, DialectPi, DialectPi},
		{pi, DialectAuto, DialectPi},
		{pi, DialectOmp, DialectOmp},
	} {
		o := fixedOptions(0)
		o.Dialect = c.forced
		s := mustCreate(t, c.store, "/w", o)
		if got := must(s.Dialect())(t); got != c.want {
			t.Errorf("forced %v: dialect %v, want %v", c.forced, got, c.want)
		}
		if got := sessionInfo(t, s).Dialect; got != c.want.String() {
			t.Errorf("forced %v: info dialect %q, want %q", c.forced, got, c.want)
		}
	}
	mem, err := OpenStore("", &StoreOptions{Flags: StoreInMemory | StoreDialectPi})
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	if got := must(mustCreate(t, mem, "/w", nil).Dialect())(t); got != DialectPi {
		t.Errorf("in-memory pi store: dialect %v", got)
	}
}

func TestAnExistingFileKeepsItsDialectAndAForkTakesItsSources(t *testing.T) {
	pi := openPiStore(t)
	o := fixedOptions(SessionNoDefer)
	o.SessionID = "pi-1"
	s := mustCreate(t, pi, "/w", o)
	must(s.AppendSessionInfo("First"))(t)
	path := must(s.FilePath())(t)
	fork := must(s.Fork(&SessionOptions{SessionID: "pi-fork"}))(t)
	if got := must(fork.Dialect())(t); got != DialectPi {
		t.Errorf("fork of a pi session: %v", got)
	}
	fork.Close()
	s.Close()

	// An omp-default store reads the file's session_info line as pi's mark, read-only too.
	omp, _ := openTestStore(t)
	reader := must(omp.Open(path, &SessionOptions{Flags: SessionReadOnly}))(t)
	defer reader.Close()
	if got := must(reader.Dialect())(t); got != DialectPi {
		t.Errorf("detected %v, want pi", got)
	}
	forced := must(omp.Open(path, &SessionOptions{Dialect: DialectOmp}))(t)
	defer forced.Close()
	if got := must(forced.Dialect())(t); got != DialectOmp {
		t.Errorf("forced omp: %v", got)
	}
}

func TestAppendSessionInfoWritesPisTitleEntryAndTheTitleFollows(t *testing.T) {
	o := fixedOptions(SessionNoDefer)
	o.SessionID = "pi-2"
	s := mustCreate(t, openPiStore(t), "/w", o)
	if got, want := string(must(s.Header())(t).Raw), `{"type":"session","version":3,"id":"pi-2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`; got != want {
		t.Errorf("header %s, want %s", got, want)
	}
	id := must(s.AppendSessionInfo("  Fix the build\n"))(t)
	want := fmt.Sprintf(`{"type":"session_info","id":"%s","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","name":"Fix the build"}`, id)
	if got := string(must(s.Entry(id, ReadAsStored))(t).Raw); got != want {
		t.Errorf("entry %s, want %s", got, want)
	}
	if info := sessionInfo(t, s); info.Title == nil || *info.Title != "Fix the build" || info.LeafID != id {
		t.Errorf("info after AppendSessionInfo: %+v", info)
	}

	// SetTitle in a pi session appends one more entry rather than rewriting the header.
	if err := s.SetTitle("Renamed"); err != nil {
		t.Fatal(err)
	}
	info := sessionInfo(t, s)
	if info.Title == nil || *info.Title != "Renamed" || info.EntryCount != 2 {
		t.Errorf("info after SetTitle: %+v", info)
	}
	want = fmt.Sprintf(`{"type":"session_info","id":"%s","parentId":"%s","timestamp":"2026-01-01T00:00:02.000Z","name":"Renamed"}`, info.LeafID, id)
	if got := string(must(s.Entry(info.LeafID, ReadAsStored))(t).Raw); got != want {
		t.Errorf("entry %s, want %s", got, want)
	}
	if h := string(must(s.Header())(t).Raw); strings.Contains(h, "title") {
		t.Errorf("a pi header got a title: %s", h)
	}
	// An empty name clears the title.
	must(s.AppendSessionInfo(""))(t)
	if info := sessionInfo(t, s); info.Title != nil {
		t.Errorf("title %q after an empty name", *info.Title)
	}
}

func TestEachDialectRefusesTheOthersFormsAndChangesNothing(t *testing.T) {
	st := openPiStore(t)
	pi := mustCreate(t, st, "/w", fixedOptions(0))
	must(pi.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
	for name, call := range map[string]func() (string, error){
		"ttsr_injection": func() (string, error) { return pi.AppendTTSRInjection([]byte(`["rule"]`)) },
		"mode_change":    func() (string, error) { return pi.AppendModeChange("plan", nil) },
		"model role":     func() (string, error) { return pi.AppendModelChange("anthropic/claude-x", "smol") },
	} {
		_, err := call()
		if xe := wantErr(t, err, ErrDialect); xe.Code != CodeDialect || xe.Name() != "XS_EDIALECT" {
			t.Errorf("%s: %#v", name, xe)
		}
		if errors.Is(err, ErrInvalid) {
			t.Errorf("%s: an XS_EDIALECT error matches ErrInvalid", name)
		}
	}
	// The handle holds the error of its last call, the refused append.
	wantErr(t, pi.LastError(), ErrDialect)
	if n := sessionInfo(t, pi).EntryCount; n != 1 {
		t.Errorf("%d entries after refused appends, want 1", n)
	}

	o := fixedOptions(0)
	o.Dialect = DialectOmp
	omp := mustCreate(t, st, "/w", o)
	_, err := omp.AppendSessionInfo("A title")
	wantErr(t, err, ErrDialect)
	if n := sessionInfo(t, omp).EntryCount; n != 0 {
		t.Errorf("%d entries after a refused session_info, want 0", n)
	}
}

func TestTheContextOfAPiSessionCarriesPisModel(t *testing.T) {
	s := mustCreate(t, openPiStore(t), "/w", fixedOptions(0))
	want := `{"leafId":null,"messages":[],"thinkingLevel":"off","model":null,"models":{},"injectedTtsrRules":[],"mode":"none"}`
	if got := string(must(s.BuildContext(""))(t).Raw); got != want {
		t.Errorf("empty context %s, want %s", got, want)
	}
	must(s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
	must(s.AppendMessage([]byte(`{"role":"assistant","content":[],"provider":"anthropic","model":"claude-x"}`)))(t)
	var ctx struct {
		Model map[string]string `json:"model"`
	}
	readJSON(t, must(s.BuildContext(""))(t).Raw, &ctx)
	if ctx.Model["provider"] != "anthropic" || ctx.Model["modelId"] != "claude-x" || len(ctx.Model) != 2 {
		t.Errorf("model %v", ctx.Model)
	}
}
