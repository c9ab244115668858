package xsession

// The prompt history through the binding: exact JSON and typed results, the snippet markers, the
// filters and flags, every refusal's status and message, the duplicate rule, Close, contexts.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// openTestHistory opens the history of a fresh store (nil options: the defaults), closed at the
// end of the test.
func openTestHistory(t *testing.T, opts *HistoryOptions) (*History, *Store, string) {
	t.Helper()
	st, root := openTestStore(t)
	hist, err := st.OpenHistory(opts)
	if err != nil {
		t.Fatalf("OpenHistory: %v", err)
	}
	t.Cleanup(func() { hist.Close() })
	return hist, st, root
}

// sameJSONValues fails the test unless typed encodes to the library's JSON raw as values: objects
// regardless of member order, numbers by value (the library writes a score as %.9g, Go as its
// shortest float64 spelling).
func sameJSONValues(t *testing.T, what string, typed any, raw []byte) {
	t.Helper()
	enc, err := json.Marshal(typed)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var a, b any
	readJSON(t, enc, &a)
	readJSON(t, raw, &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s: typed\n%s\nlibrary\n%s", what, enc, raw)
	}
}

// noErrs fails the test at the first error.
func noErrs(t *testing.T, errs ...error) {
	t.Helper()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
}

func TestHistoryAddFlushSearchRecentInfo(t *testing.T) {
	hist, _, root := openTestHistory(t, nil)
	noErrs(t, hist.AddAt("deploy the staging server", "/w/app", time.UnixMilli(1000)),
		hist.AddAt("write a unit test", "", time.UnixMilli(2000)), hist.Flush())

	const all = `[{"id":2,"prompt":"write a unit test","createdAt":2000,"cwd":null},` +
		`{"id":1,"prompt":"deploy the staging server","createdAt":1000,"cwd":"/w/app"}]`
	if raw := must(hist.RecentJSON(nil))(t); string(raw) != all {
		t.Errorf("recent\n%s", raw)
	}
	recent := must(hist.Recent(nil))(t)
	if len(recent) != 2 || recent[0].ID != 2 || recent[0].Prompt != "write a unit test" || recent[0].Cwd != nil ||
		recent[1].ID != 1 || *recent[1].Cwd != "/w/app" || !recent[1].Created().Equal(time.UnixMilli(1000)) {
		t.Errorf("recent %+v", recent)
	}
	sameJSONValues(t, "recent", recent, []byte(all))
	if raw := must(hist.RecentJSON(&HistoryRecentOptions{Limit: 1}))(t); string(raw) != all[:strings.Index(all, "},")+1]+"]" {
		t.Errorf("recent, limit 1\n%s", raw)
	}

	raw := must(hist.SearchJSON("stag*", nil))(t)
	const prefix = `[{"id":1,"prompt":"deploy the staging server","createdAt":1000,"cwd":"/w/app","score":`
	if !strings.HasPrefix(string(raw), prefix) || !strings.HasSuffix(string(raw), `,"snippet":"deploy the \u0002staging\u0003 server"}]`) {
		t.Errorf("search\n%s", raw)
	}
	hits := must(hist.Search("stag*", nil))(t)
	if len(hits) != 1 || hits[0].ID != 1 || hits[0].Prompt != "deploy the staging server" || hits[0].CreatedAt != 1000 ||
		*hits[0].Cwd != "/w/app" || hits[0].Score >= 0 ||
		hits[0].Snippet != "deploy the \x02staging\x03 server" || HistoryMatchStart != "\x02" || HistoryMatchEnd != "\x03" {
		t.Errorf("hits %+v", hits)
	}
	sameJSONValues(t, "search", hits, raw)

	info := must(hist.Info())(t)
	wantInfo := `{"path":"` + filepath.Join(root, "history.db") +
		`","schemaVersion":3,"count":2,"pending":0,"synchronous":"normal","damaged":null}`
	if string(info.Raw) != wantInfo || info.Path != filepath.Join(root, "history.db") || info.SchemaVersion != 3 ||
		info.Count != 2 || info.Pending != 0 || info.Synchronous != "normal" || info.Damaged != nil {
		t.Errorf("info %+v\n%s", info, info.Raw)
	}
	sameJSONValues(t, "info", info, info.Raw)
}

// Several matches are ranked by bm25 (lower first); the snippet marks each matched word.
func TestHistorySearchRanksAndMarksEveryMatch(t *testing.T) {
	hist, _, _ := openTestHistory(t, nil)
	noErrs(t, hist.Add("fix the parser", ""), hist.Add("fix the parser in the parser tests", ""),
		hist.Add("unrelated", ""), hist.Flush())
	hits := must(hist.Search("parser", &HistorySearchOptions{Limit: 5}))(t)
	if len(hits) != 2 || hits[0].Score > hits[1].Score {
		t.Fatalf("hits %+v", hits)
	}
	for _, h := range hits {
		if strings.Count(h.Snippet, HistoryMatchStart) != strings.Count(h.Prompt, "parser") ||
			strings.ReplaceAll(strings.ReplaceAll(h.Snippet, HistoryMatchStart, ""), HistoryMatchEnd, "") != h.Prompt {
			t.Errorf("snippet %q of %q", h.Snippet, h.Prompt)
		}
	}
	if got := must(hist.Search("parser", &HistorySearchOptions{Limit: 1}))(t); len(got) != 1 || got[0].ID != hits[0].ID {
		t.Errorf("limit 1: %+v", got)
	}
}

func TestHistoryCwdFilter(t *testing.T) {
	hist, _, _ := openTestHistory(t, nil)
	noErrs(t, hist.Add("build it", "/a"), hist.Add("build it", "/b"), hist.Add("build it again", ""), hist.Flush())
	if got := must(hist.Recent(&HistoryRecentOptions{Cwd: "/b"}))(t); len(got) != 1 || got[0].ID != 2 || *got[0].Cwd != "/b" {
		t.Errorf("recent /b: %+v", got)
	}
	if got := must(hist.Search("build", &HistorySearchOptions{Cwd: "/a"}))(t); len(got) != 1 || got[0].ID != 1 {
		t.Errorf("search /a: %+v", got)
	}
	if raw := must(hist.SearchJSON("build", &HistorySearchOptions{Cwd: "/elsewhere"}))(t); string(raw) != "[]" {
		t.Errorf("search /elsewhere: %s", raw)
	}
	if got := must(hist.Search("build", &HistorySearchOptions{Cwd: "/elsewhere"}))(t); got == nil || len(got) != 0 {
		t.Errorf("no hits should be an empty slice: %#v", got)
	}
	if got := must(hist.Search("build", nil))(t); len(got) != 3 {
		t.Errorf("search everywhere: %+v", got)
	}
}

// With Literal, quotes and operators are ordinary characters; without, they are FTS5's syntax.
func TestHistoryLiteralQueries(t *testing.T) {
	hist, _, _ := openTestHistory(t, nil)
	noErrs(t, hist.Add(`grep "needle" AND haystack`, ""), hist.Add("needle haystack", ""),
		hist.Add("a unit test", ""), hist.Flush())
	literal := &HistorySearchOptions{Literal: true}
	if got := must(hist.Search(`"needle" AND`, literal))(t); len(got) != 1 || got[0].ID != 1 {
		t.Errorf(`literal "needle" AND: %+v`, got)
	}
	if got := must(hist.Search(`needle OR zzz`, literal))(t); len(got) != 0 {
		t.Errorf("literal OR is a word that must occur: %+v", got)
	}
	if got := must(hist.Search(`needle OR zzz`, nil))(t); len(got) != 2 {
		t.Errorf("FTS5 OR: %+v", got)
	}
	if got := must(hist.Search("unit te", literal))(t); len(got) != 1 || got[0].ID != 3 {
		t.Errorf("literal last word as a prefix: %+v", got)
	}
	if got := must(hist.Search("unit te", nil))(t); len(got) != 0 {
		t.Errorf("FTS5 without * takes whole words: %+v", got)
	}
	e := wantErr(t, must2(hist.Search(`"needle" AND`, nil)), ErrInvalid)
	if e.Code != CodeInvalid || e.Name() != "XS_EINVAL" || e.Op != "History.Search" ||
		e.Message != `bad history query: fts5: syntax error near ""` {
		t.Errorf("FTS5 syntax error: %#v", e)
	}
}

// must2 is the error of a (value, error) pair.
func must2[T any](_ T, err error) error { return err }

func TestHistoryBadQueryStatusAndMessage(t *testing.T) {
	hist, _, _ := openTestHistory(t, nil)
	noErrs(t, hist.Add("ok", ""), hist.Flush())
	for _, q := range []string{`"open`, "a AND", "NEAR(", "*"} {
		e := wantErr(t, must2(hist.SearchJSON(q, nil)), ErrInvalid)
		if e.Code != CodeInvalid || !strings.HasPrefix(e.Message, "bad history query: ") {
			t.Errorf("%q: %#v", q, e)
		}
		if last := wantErr(t, hist.LastError(), ErrInvalid); last.Message != e.Message {
			t.Errorf("%q: LastError %q, the call %q", q, last.Message, e.Message)
		}
	}
	e := wantErr(t, must2(hist.Search(`"open`, nil)), ErrInvalid)
	if e.Message != "bad history query: unterminated string" {
		t.Errorf("message %q", e.Message)
	}
	if got := must(hist.Search("ok", nil))(t); len(got) != 1 || hist.LastError() != nil {
		t.Errorf("a good query after bad ones: %+v, %v", got, hist.LastError())
	}
}

func TestHistoryAddRefusals(t *testing.T) {
	hist, _, _ := openTestHistory(t, nil)
	for _, c := range []struct {
		prompt, cwd string
		at          time.Time
		code        Code
		message     string
	}{
		{"", "", time.Time{}, CodeInvalid, "the prompt is empty"},
		{"a\x00b", "", time.Time{}, CodeInvalid, "the prompt contains a NUL byte"},
		{"\xc0\xaf", "", time.Time{}, CodeInvalid, "the prompt is not valid UTF-8"},
		{"x", "/w\x00", time.Time{}, CodeInvalid, "cwd contains a NUL byte"},
		{"x", "\xff", time.Time{}, CodeInvalid, ""},
		{"x", "", time.UnixMilli(-5), CodeInvalid, "time_ms is negative"},
		{strings.Repeat("p", 1<<20+1), "", time.Time{}, CodeLimit, "the prompt has 1048577 bytes; the limit is 1048576"},
		{"x", strings.Repeat("d", 64<<10+1), time.Time{}, CodeLimit, ""},
	} {
		err := hist.AddAt(c.prompt, c.cwd, c.at)
		if codeOf(t, err) != c.code {
			t.Errorf("%.20q in %.20q: %v, want %v", c.prompt, c.cwd, err, c.code)
			continue
		}
		if e := err.(*Error); e.Op != "History.AddAt" || e.Message == "" || (c.message != "" && e.Message != c.message) {
			t.Errorf("%.20q: %#v", c.prompt, e)
		}
	}
	// The default limit is 1 MiB, inclusive; nothing refused was queued.
	noErrs(t, hist.Add(strings.Repeat("p", 1<<20), ""), hist.Flush())
	if info := must(hist.Info())(t); info.Count != 1 {
		t.Errorf("info %s", info.Raw)
	}
	if hist.LastError() != nil {
		t.Errorf("LastError after a success: %v", hist.LastError())
	}
}

func TestHistoryOptions(t *testing.T) {
	st, root := openTestStore(t)
	path := filepath.Join(root, "elsewhere", "h.db")
	hist := must(st.OpenHistory(&HistoryOptions{Flags: HistorySync, Path: path, BusyTimeout: time.Microsecond, MaxPromptBytes: 4}))(t)
	defer hist.Close()
	if e := wantErr(t, hist.Add("12345", ""), ErrLimit); e.Message != "the prompt has 5 bytes; the limit is 4" {
		t.Errorf("limit %q", e.Message)
	}
	noErrs(t, hist.Add("1234", ""), hist.Flush())
	info := must(hist.Info())(t)
	if info.Path != path || info.Synchronous != "full" || info.Count != 1 {
		t.Errorf("info %s", info.Raw)
	}
	if _, err := os.Stat(filepath.Join(root, "history.db")); !os.IsNotExist(err) {
		t.Errorf("the default file was made too (%v)", err)
	}

	for _, o := range []HistoryOptions{{BusyTimeout: -time.Millisecond}, {BusyTimeout: 1 << 33 * time.Millisecond}} {
		if e := wantErr(t, must2(st.OpenHistory(&o)), ErrInvalid); e.Op != "Store.OpenHistory" {
			t.Errorf("%+v: %#v", o, e)
		}
	}
	if e := wantErr(t, must2(st.OpenHistory(&HistoryOptions{Flags: 0x100})), ErrInvalid); e.Message != "unknown bits in xs_history_options.flags" {
		t.Errorf("flags %q", e.Message)
	}
	if e := wantErr(t, must2(st.OpenHistory(&HistoryOptions{Path: "a\x00b"})), ErrInvalid); e.Message != "Path contains a NUL byte" {
		t.Errorf("path %q", e.Message)
	}
	for _, limit := range []int{-1, 10001, 1 << 40} {
		wantErr(t, must2(hist.Recent(&HistoryRecentOptions{Limit: limit})), ErrInvalid)
		wantErr(t, must2(hist.Search("x", &HistorySearchOptions{Limit: limit})), ErrInvalid)
	}
	if got := must(hist.Recent(&HistoryRecentOptions{Limit: 10000}))(t); len(got) != 1 {
		t.Errorf("limit 10000: %+v", got)
	}

	mem := must(OpenStore("", &StoreOptions{Flags: StoreInMemory}))(t)
	defer mem.Close()
	e := wantErr(t, must2(mem.OpenHistory(nil)), ErrInvalid)
	if e.Message != "an in-memory store keeps no history.db: name a path in the options" {
		t.Errorf("in memory %q", e.Message)
	}
	memHist := must(mem.OpenHistory(&HistoryOptions{Path: filepath.Join(root, "mem.db")}))(t)
	noErrs(t, memHist.Close())
	noErrs(t, mem.Close())
	if e := wantErr(t, must2(mem.OpenHistory(nil)), ErrClosed); e.Message != "the store is closed" {
		t.Errorf("closed store %q", e.Message)
	}
}

// A prompt equal to the last one added with the same cwd is skipped; so is a new handle's first
// add equal to the file's last row.
func TestHistoryConsecutiveDuplicateSkipped(t *testing.T) {
	hist, st, _ := openTestHistory(t, nil)
	for _, p := range [][2]string{{"same", "/w"}, {"same", "/w"}, {"same", "/x"}, {"same", "/x"}, {"other", ""},
		{"same", "/w"}} {
		noErrs(t, hist.AddAt(p[0], p[1], time.UnixMilli(7)))
	}
	noErrs(t, hist.Close())
	second := must(st.OpenHistory(nil))(t)
	defer second.Close()
	noErrs(t, second.AddAt("same", "/w", time.UnixMilli(8)), second.Flush())
	const want = `[{"id":4,"prompt":"same","createdAt":7,"cwd":"/w"},{"id":3,"prompt":"other","createdAt":7,"cwd":null},` +
		`{"id":2,"prompt":"same","createdAt":7,"cwd":"/x"},{"id":1,"prompt":"same","createdAt":7,"cwd":"/w"}]`
	if raw := must(second.RecentJSON(nil))(t); string(raw) != want {
		t.Errorf("recent\n%s", raw)
	}
}

// Close flushes and reports nil; again it does nothing; a closed history refuses every call with
// ErrClosed. A history outlives its store, and its prompts outlive the handle.
func TestHistoryCloseAfterClose(t *testing.T) {
	st, root := openTestStore(t)
	hist := must(st.OpenHistory(nil))(t)
	noErrs(t, st.Close()) // the history is independent of the store once open
	noErrs(t, hist.AddAt("kept by Close", "", time.UnixMilli(3)))
	noErrs(t, hist.Close(), hist.Close())
	e := wantErr(t, hist.Add("x", ""), ErrClosed)
	if e.Name() != "XS_ECLOSED" || e.Message != "the history is closed" || e.Op != "History.Add" || !errors.Is(e, ErrMisuse) {
		t.Errorf("closed %#v", e)
	}
	for name, err := range map[string]error{"Flush": hist.Flush(), "LastError": hist.LastError(),
		"Search": must2(hist.Search("x", nil)), "Recent": must2(hist.Recent(nil)), "Info": must2(hist.Info()),
		"FlushContext": hist.FlushContext(context.Background())} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close: %v", name, err)
		}
	}

	st = must(OpenStore(root, nil))(t)
	defer st.Close()
	again := must(st.OpenHistory(nil))(t)
	defer again.Close()
	if raw := must(again.RecentJSON(nil))(t); string(raw) != `[{"id":1,"prompt":"kept by Close","createdAt":3,"cwd":null}]` {
		t.Errorf("after reopening\n%s", raw)
	}
}

func TestHistoryDamagedFileIsKeptAside(t *testing.T) {
	st, root := openTestStore(t)
	writeFile(t, filepath.Join(root, "history.db"), []byte("garbage that is not a database"))
	hist := must(st.OpenHistory(nil))(t)
	defer hist.Close()
	info := must(hist.Info())(t)
	if info.Damaged == nil || !strings.HasPrefix(info.Damaged.Path, filepath.Join(root, "history.db.damaged-")) ||
		info.Damaged.Reason == "" || info.Count != 0 {
		t.Fatalf("info %s", info.Raw)
	}
	sameJSONValues(t, "info with damaged", info, info.Raw)
	if kept := must(os.ReadFile(info.Damaged.Path))(t); string(kept) != "garbage that is not a database" {
		t.Errorf("the damaged file holds %q", kept)
	}
}

func TestHistoryContextVariants(t *testing.T) {
	hist, st, root := openTestHistory(t, nil)
	noErrs(t, hist.Add("in context", ""), hist.FlushContext(context.Background()))
	if got := must(hist.SearchContext(context.Background(), "context", nil))(t); len(got) != 1 {
		t.Errorf("search %+v", got)
	}
	hist.h.mu.Lock() // another goroutine's call in progress
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	prompt(t, "FlushContext", context.DeadlineExceeded, func() error { return hist.FlushContext(ctx) })
	prompt(t, "SearchContext", context.DeadlineExceeded, func() error { return must2(hist.SearchContext(ctx, "x", nil)) })
	prompt(t, "RecentContext", context.DeadlineExceeded, func() error { return must2(hist.RecentContext(ctx, nil)) })
	hist.h.mu.Unlock()
	if got := must(hist.RecentContext(context.Background(), nil))(t); len(got) != 1 || got[0].Prompt != "in context" {
		t.Errorf("recent after the abandoned calls %+v", got)
	}

	done, stop := context.WithCancel(context.Background())
	stop()
	path := filepath.Join(root, "never", "h.db")
	if _, err := st.OpenHistoryContext(done, &HistoryOptions{Path: path}); !errors.Is(err, context.Canceled) {
		t.Fatalf("OpenHistoryContext: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the cancelled open made %s (%v)", path, err)
	}
	other := must(st.OpenHistoryContext(context.Background(), &HistoryOptions{Path: path}))(t)
	noErrs(t, other.Close())
}

// Goroutines share one History: every add lands, and each error is its own call's.
func TestHistoryIsSafeForConcurrentUse(t *testing.T) {
	hist, _, _ := openTestHistory(t, nil)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				if err := hist.Add(fmt.Sprintf("worker%d prompt %d", g, i), ""); err != nil {
					t.Error(err)
				}
				var e *Error
				if _, err := hist.Search(`"bad`, nil); !errors.As(err, &e) || e.Message != "bad history query: unterminated string" {
					t.Errorf("a bad query: %v", err)
				}
			}
		}(g)
	}
	wg.Wait()
	noErrs(t, hist.Flush())
	if info := must(hist.Info())(t); info.Count != 100 || info.Pending != 0 {
		t.Errorf("info %s", info.Raw)
	}
	if got := must(hist.Search("worker3", &HistorySearchOptions{Limit: 100}))(t); len(got) != 25 {
		t.Errorf("%d hits", len(got))
	}
}
