package xsession

// The session index's refusals (exact statuses and messages), options, Close, an index outliving
// its store, a damaged file, contexts and goroutines.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestIndexSearchRefusals(t *testing.T) {
	ix, st, _ := openTestIndex(t)
	writeIndexedSession(t, st, 1, "/w/app", "deploy the staging server", "staging is deployed")
	must(ix.Refresh())(t)

	for _, q := range []string{"(", `"open`, "a AND", "NEAR("} {
		e := wantErr(t, must2(ix.Search(q, nil)), ErrInvalid)
		if e.Code != CodeInvalid || e.Name() != "XS_EINVAL" || e.Op != "Index.Search" ||
			!strings.HasPrefix(e.Message, "bad search query: ") {
			t.Errorf("%q: %#v", q, e)
		}
		if last := wantErr(t, ix.LastError(), ErrInvalid); last.Message != e.Message || last.Op != "Index.LastError" {
			t.Errorf("%q: LastError %#v, the call %q", q, last, e.Message)
		}
	}
	if e := wantErr(t, must2(ix.SearchJSON(`"open`, nil)), ErrInvalid); e.Message != "bad search query: unterminated string" {
		t.Errorf("message %q", e.Message)
	}
	// The same words are plain text with Literal.
	if got := must(ix.Search(`"staging`, &SearchOptions{Literal: true}))(t); len(got) != 2 || ix.LastError() != nil {
		t.Errorf("literal: %+v, %v", got, ix.LastError())
	}

	for _, c := range []struct {
		what    string
		query   string
		opts    SearchOptions
		message string // "" = any
	}{
		{"a role that is none of the five", "staging", SearchOptions{Role: "robot"}, ""},
		{"a message's role", "staging", SearchOptions{Role: "toolResult"}, ""},
		{"an empty query", "", SearchOptions{}, ""},
		{"a limit over 10000", "staging", SearchOptions{Limit: 10001}, ""},
		{"a limit over 2^32", "staging", SearchOptions{Limit: 1 << 40}, ""},
		{"a time before 1970", "staging", SearchOptions{Since: time.UnixMilli(-1)}, ""},
		{"a negative limit", "staging", SearchOptions{Limit: -1}, "Limit is negative"},
		{"a NUL in the query", "stag\x00ing", SearchOptions{}, "query contains a NUL byte"},
		{"a NUL in Cwd", "staging", SearchOptions{Cwd: "/w\x00"}, "Cwd contains a NUL byte"},
		{"a NUL in Role", "staging", SearchOptions{Role: "user\x00"}, "Role contains a NUL byte"},
		{"a NUL in SessionID", "staging", SearchOptions{SessionID: "s\x001"}, "SessionID contains a NUL byte"},
	} {
		e := wantErr(t, must2(ix.Search(c.query, &c.opts)), ErrInvalid)
		if e.Op != "Index.Search" || (c.message != "" && e.Message != c.message) {
			t.Errorf("%s: %#v", c.what, e)
		}
	}
	if got := must(ix.Search("staging", &SearchOptions{Limit: 10000}))(t); len(got) != 2 {
		t.Errorf("limit 10000: %+v", got)
	}
	for _, limit := range []int{-1, 10001} {
		if e := wantErr(t, must2(ix.List(&IndexListOptions{Limit: limit})), ErrInvalid); e.Op != "Index.List" {
			t.Errorf("list limit %d: %#v", limit, e)
		}
	}
	if e := wantErr(t, must2(ix.ListJSON(&IndexListOptions{Cwd: "a\x00"})), ErrInvalid); e.Message != "Cwd contains a NUL byte" {
		t.Errorf("list cwd %q", e.Message)
	}
	if ix.LastError() == nil {
		t.Errorf("LastError after the refused list")
	}
	must(ix.Info())(t)
	if err := ix.LastError(); err != nil {
		t.Errorf("LastError after a success: %v", err)
	}
}

func TestIndexOptionsAndStores(t *testing.T) {
	st, root := openTestStore(t)
	path := filepath.Join(root, "elsewhere", "ix.db")
	ix := must(st.OpenIndex(&IndexOptions{Path: path, BusyTimeout: time.Microsecond}))(t)
	defer ix.Close()
	if info := must(ix.Info())(t); info.Path != path {
		t.Errorf("info %s", info.Raw)
	}
	if _, err := os.Stat(filepath.Join(root, "index.db")); !os.IsNotExist(err) {
		t.Errorf("the default file was made too (%v)", err)
	}
	for _, o := range []IndexOptions{{BusyTimeout: -time.Millisecond}, {BusyTimeout: 1 << 33 * time.Millisecond}} {
		e := wantErr(t, must2(st.OpenIndex(&o)), ErrInvalid)
		if e.Op != "Store.OpenIndex" || e.Message != "IndexOptions.BusyTimeout is negative or over 2^32-1 ms" {
			t.Errorf("%+v: %#v", o, e)
		}
	}
	if e := wantErr(t, must2(st.OpenIndex(&IndexOptions{Path: "a\x00b"})), ErrInvalid); e.Message != "Path contains a NUL byte" {
		t.Errorf("path %q", e.Message)
	}

	// An in-memory store has no directory for index.db: it must be named.
	mem := must(OpenStore("", &StoreOptions{Flags: StoreInMemory}))(t)
	defer mem.Close()
	e := wantErr(t, must2(mem.OpenIndex(nil)), ErrInvalid)
	if e.Op != "Store.OpenIndex" || e.Message != "an in-memory store keeps no index.db: name a path in the options" {
		t.Errorf("in memory %#v", e)
	}
	memPath := filepath.Join(root, "mem", "index.db")
	memIx := must(mem.OpenIndex(&IndexOptions{Path: memPath}))(t)
	defer memIx.Close()
	noErrs(t, mem.Close()) // the index keeps what it reads through
	if r := must(memIx.Refresh())(t); string(r.Raw) != reportJSON(0, 0, 0, 0, 0) {
		t.Errorf("refresh of an empty in-memory store %s", r.Raw)
	}
	if _, err := os.Stat(memPath); err != nil {
		t.Errorf("the named file: %v", err)
	}
	if e := wantErr(t, must2(mem.OpenIndex(nil)), ErrClosed); e.Message != "the store is closed" || e.Op != "Store.OpenIndex" {
		t.Errorf("closed store %#v", e)
	}
}

// The index reads the sessions after its store handle is released; Close is idempotent, and a
// closed index refuses every call with ErrClosed.
func TestIndexOutlivesItsStoreAndClosesOnce(t *testing.T) {
	st, root := openTestStore(t)
	writeIndexedSession(t, st, 1, "/w/app", "deploy the staging server", "staging is deployed")
	ix := must(st.OpenIndex(nil))(t)
	noErrs(t, st.Close())
	if r := must(ix.Rebuild())(t); string(r.Raw) != reportJSON(1, 0, 0, 1, 2) {
		t.Errorf("rebuild after the store's release %s", r.Raw)
	}
	if got := must(ix.Search("staging", &SearchOptions{Role: RoleUser}))(t); hitSessions(got) != "s1" {
		t.Errorf("search after the store's release %+v", got)
	}
	if got := must(ix.List(nil))(t); len(got) != 1 || got[0].ID != "s1" {
		t.Errorf("list %+v", got)
	}

	noErrs(t, ix.Close(), ix.Close())
	e := wantErr(t, must2(ix.Search("x", nil)), ErrClosed)
	if e.Name() != "XS_ECLOSED" || e.Message != "the index is closed" || e.Op != "Index.Search" || !errors.Is(e, ErrMisuse) {
		t.Errorf("closed %#v", e)
	}
	bg := context.Background()
	for name, err := range map[string]error{"Rebuild": must2(ix.Rebuild()), "Refresh": must2(ix.Refresh()),
		"Verify": must2(ix.Verify()), "Info": must2(ix.Info()), "List": must2(ix.List(nil)),
		"ListJSON": must2(ix.ListJSON(nil)), "SearchJSON": must2(ix.SearchJSON("x", nil)), "LastError": ix.LastError(),
		"RefreshContext": must2(ix.RefreshContext(bg)), "SearchContext": must2(ix.SearchContext(bg, "x", nil)),
		"Flush": ix.Flush(), "FlushContext": ix.FlushContext(bg)} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close: %v", name, err)
		}
	}
	var zero Index
	if !errors.Is(must2(zero.Info()), ErrClosed) || zero.Close() != nil {
		t.Errorf("a zero Index")
	}

	// The file stays for the next open, as its rows do.
	st = must(OpenStore(root, nil))(t)
	defer st.Close()
	again := must(st.OpenIndex(nil))(t)
	defer again.Close()
	if info := must(again.Info())(t); info.Sessions != 1 || info.Entries != 2 {
		t.Errorf("after reopening %s", info.Raw)
	}
}

func TestIndexDamagedFileIsKeptAside(t *testing.T) {
	st, root := openTestStore(t)
	writeFile(t, filepath.Join(root, "index.db"), []byte(strings.Repeat("x", 4096)))
	ix := must(st.OpenIndex(nil))(t)
	defer ix.Close()
	info := must(ix.Info())(t)
	if info.Damaged == nil || !strings.HasPrefix(info.Damaged.Path, filepath.Join(root, "index.db.damaged-")) ||
		info.Damaged.Reason == "" || info.Sessions != 0 {
		t.Fatalf("info %s", info.Raw)
	}
	var note *DamagedFile = info.Damaged // the history's type
	sameJSONValues(t, "info with damaged", info, info.Raw)
	if kept := must(os.ReadFile(note.Path))(t); string(kept) != strings.Repeat("x", 4096) {
		t.Errorf("the damaged file holds %.20q", kept)
	}
}

func TestIndexContextVariants(t *testing.T) {
	ix, st, root := openTestIndex(t)
	writeIndexedSession(t, st, 1, "/w/app", "in context", "an answer")
	bg := context.Background()
	if r := must(ix.RebuildContext(bg))(t); r.Added != 1 {
		t.Errorf("rebuild %s", r.Raw)
	}
	if r := must(ix.RefreshContext(bg))(t); r.Unchanged != 1 {
		t.Errorf("refresh %s", r.Raw)
	}
	if v := must(ix.VerifyContext(bg))(t); !v.OK {
		t.Errorf("verify %s", v.Raw)
	}
	if got := must(ix.SearchContext(bg, "context", nil))(t); hitSessions(got) != "s1" {
		t.Errorf("search %+v", got)
	}
	if got := must(ix.ListContext(bg, nil))(t); len(got) != 1 {
		t.Errorf("list %+v", got)
	}
	noErrs(t, ix.FlushContext(bg))

	ix.h.mu.Lock() // another goroutine's call in progress
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	defer cancel()
	prompt(t, "RebuildContext", context.DeadlineExceeded, func() error { return must2(ix.RebuildContext(ctx)) })
	prompt(t, "RefreshContext", context.DeadlineExceeded, func() error { return must2(ix.RefreshContext(ctx)) })
	prompt(t, "VerifyContext", context.DeadlineExceeded, func() error { return must2(ix.VerifyContext(ctx)) })
	prompt(t, "SearchContext", context.DeadlineExceeded, func() error { return must2(ix.SearchContext(ctx, "x", nil)) })
	prompt(t, "ListContext", context.DeadlineExceeded, func() error { return must2(ix.ListContext(ctx, nil)) })
	prompt(t, "FlushContext", context.DeadlineExceeded, func() error { return ix.FlushContext(ctx) })
	ix.h.mu.Unlock()
	if info := must(ix.Info())(t); info.Sessions != 1 || info.Entries != 2 {
		t.Errorf("info after the abandoned calls %s", info.Raw)
	}

	done, stop := context.WithCancel(bg)
	stop()
	path := filepath.Join(root, "never", "ix.db")
	if _, err := st.OpenIndexContext(done, &IndexOptions{Path: path}); !errors.Is(err, context.Canceled) {
		t.Fatalf("OpenIndexContext: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the cancelled open made %s (%v)", path, err)
	}
	noErrs(t, must(st.OpenIndexContext(bg, &IndexOptions{Path: path}))(t).Close())
}

// Goroutines share one Index: refreshes take turns, and each error is its own call's.
func TestIndexIsSafeForConcurrentUse(t *testing.T) {
	ix, st, _ := openTestIndex(t)
	writeIndexedSession(t, st, 1, "/w/app", "deploy the staging server", "staging is deployed")
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if _, err := ix.Refresh(); err != nil {
					t.Error(err)
				}
				var e *Error
				if _, err := ix.Search(`"bad`, nil); !errors.As(err, &e) || e.Message != "bad search query: unterminated string" {
					t.Errorf("a bad query: %v", err)
				}
				if hits, err := ix.Search("staging", nil); err != nil || len(hits) > 2 {
					t.Errorf("search: %v %+v", err, hits)
				}
			}
		}()
	}
	wg.Wait()
	if v := must(ix.Verify())(t); !v.OK || v.Indexed != 1 {
		t.Errorf("verify %s", v.Raw)
	}
	if got := must(ix.Search("staging", nil))(t); len(got) != 2 {
		t.Errorf("%d hits", len(got))
	}
}
