package xsession

/*
#include <xsession.h>
*/
import "C"

import (
	"context"
	"math"
	"runtime"
	"time"
)

// Index is a store's session index (docs/search.md): a row per session and per entry in one
// SQLite database per store, with a full-text index over what each entry says, so that listing
// sessions and searching every transcript read one database instead of every file. Derived data
// only: Rebuild makes it again from the session files, Refresh brings it up to date with them.
// With IndexOptions.FollowWrites it indexes what the Store's sessions write as they write it
// (Flush waits for that); otherwise, and for other processes' writes, refresh before searching
// to see them. Safe for concurrent use
// (calls on one Index are serialised, as on a Session); independent of its Store once opened.
type Index struct {
	h handle[C.xs_index]
}

// IndexOptions configures Store.OpenIndex; nil and IndexOptions{} both mean the library's
// defaults (xs_index_options_init).
type IndexOptions struct {
	// Path is the database file; "" = <root>/index.db (required with a StoreInMemory store or a
	// store on a host's Storage). Its directory is created.
	Path string
	// BusyTimeout is how long a call waits for another writer; 0 = the library's 5 s.
	// Millisecond precision, rounded up; negative or over 2^32-1 ms is ErrInvalid.
	BusyTimeout time.Duration
	// FollowWrites indexes, while the Index is open, what sessions of the same Store write: a
	// thread of the library does it shortly after each write, which never waits for it
	// (XS_INDEX_FOLLOW_WRITES). Flush waits for it. Other processes' writes still need Refresh.
	FollowWrites bool
}

// busyTimeoutArg is a busy timeout as the C options' milliseconds, rounded up: a positive
// timeout under a millisecond must not become "the default".
func busyTimeoutArg(a *cargs, field string, d time.Duration) C.uint32_t {
	if d < 0 || d > math.MaxUint32*time.Millisecond {
		if a.err == nil {
			a.err = argError(a.op, field+" is negative or over 2^32-1 ms")
		}
		return 0
	}
	return C.uint32_t((d + time.Millisecond - 1) / time.Millisecond)
}

func (o *IndexOptions) toC(a *cargs) (C.xs_index_options, error) {
	var c C.xs_index_options
	if rc := C.xs_index_options_init(&c, C.XS_INDEX_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: a.op, Message: "xs_index_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	c.path = a.opt("Path", o.Path) // copied by xs_index_open
	c.busy_timeout_ms = busyTimeoutArg(a, "IndexOptions.BusyTimeout", o.BusyTimeout)
	if o.FollowWrites {
		c.flags |= C.XS_INDEX_FOLLOW_WRITES
	}
	return c, a.err
}

// OpenIndex opens (creating) the store's session index (xs_index_open). It is not read or brought
// up to date here: a new index is empty until Rebuild or Refresh. A file of an older schema is
// migrated; a damaged one is renamed "<path>.damaged-<UTC time>" and a fresh one started (Info
// reports it in Damaged). ErrInvalid: a StoreInMemory store (or one on a host's Storage) without
// opts.Path; ErrVersion: a file a newer xsession wrote; ErrLocked: another process kept it
// locked past BusyTimeout. The index reads the sessions through the store's files, which it
// keeps alive after the Store is closed. Close the Index when done.
func (st *Store) OpenIndex(opts *IndexOptions) (*Index, error) {
	a := newArgs("Store.OpenIndex")
	defer a.free()
	o, err := opts.toC(a)
	if err != nil {
		return nil, err
	}
	var out *C.xs_index
	if err := st.h.do(a.op, func(p *C.xs_store) C.xs_status { return C.xs_index_open(p, &o, &out) }); err != nil {
		return nil, err
	}
	ix := &Index{h: handle[C.xs_index]{
		p:       out,
		errmsg:  func(p *C.xs_index) *C.char { return C.xs_index_errmsg(p) },
		errcode: func(p *C.xs_index) C.xs_status { return C.xs_index_errcode(p) },
	}}
	// Only a safety net: a forgotten index keeps its database connections open until the
	// collector gets to it.
	runtime.SetFinalizer(ix, (*Index).Close)
	return ix, nil
}

// discardIndex closes an index opened after its caller gave up (a variable for the tests).
var discardIndex = func(ix *Index) { ix.Close() }

// OpenIndexContext is OpenIndex with a context (an open may wait BusyTimeout for another
// process's lock). An index opened after ctx is done is closed.
func (st *Store) OpenIndexContext(ctx context.Context, opts *IndexOptions) (*Index, error) {
	return withContext(ctx, func() (*Index, error) { return st.OpenIndex(opts) }, discardIndex)
}

// Close frees the handle and its database connections (xs_index_close). The index file stays:
// it is there for the next OpenIndex. Closing again does nothing; it always returns nil (an
// io.Closer).
func (ix *Index) Close() error {
	ix.h.mu.Lock()
	defer ix.h.mu.Unlock()
	ix.h.close(func(p *C.xs_index) { C.xs_index_close(p) })
	runtime.SetFinalizer(ix, nil)
	return nil
}

// LastError is the error the index's last call left (xs_index_errcode, xs_index_errmsg); nil
// after a success. Calls report their own errors, so this is for diagnostics only.
func (ix *Index) LastError() error { return ix.h.lastError("Index.LastError") }

// Rebuild makes the index again from nothing (xs_index_rebuild): every session of the store, live
// and archived, read whole. The report counts the session files by what became of them.
func (ix *Index) Rebuild() (*IndexReport, error) {
	return readObject[IndexReport](&ix.h, "Index.Rebuild", func(p *C.xs_index, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_index_rebuild(p, b, c, n)
	})
}

// Refresh brings the index up to date with the files (xs_index_refresh): unchanged files are not
// read, files grown in place only from their last indexed byte, others whole; rows of files gone
// are removed. The report is Rebuild's.
func (ix *Index) Refresh() (*IndexReport, error) {
	return readObject[IndexReport](&ix.h, "Index.Refresh", func(p *C.xs_index, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_index_refresh(p, b, c, n)
	})
}

// RebuildContext is Rebuild with a context. A rebuild that goes on after ctx is done completes.
func (ix *Index) RebuildContext(ctx context.Context) (*IndexReport, error) {
	return withContext(ctx, ix.Rebuild, nil)
}

// RefreshContext is Refresh with a context. A refresh that goes on after ctx is done completes.
func (ix *Index) RefreshContext(ctx context.Context) (*IndexReport, error) {
	return withContext(ctx, ix.Refresh, nil)
}

// Flush waits until what the Store's sessions wrote before the call is in the index
// (xs_index_flush), so that a search finds a host's own last append; without
// IndexOptions.FollowWrites there is nothing to wait for. A write the library's thread could not
// index is left for the next Refresh, and the first such failure since the last Flush is returned
// here, once, with its status (ErrLocked, ErrIO, ...) and a message starting "indexing what
// sessions wrote: ".
func (ix *Index) Flush() error {
	return ix.h.do("Index.Flush", func(p *C.xs_index) C.xs_status { return C.xs_index_flush(p) })
}

// FlushContext is Flush with a context. A flush that goes on after ctx is done completes.
func (ix *Index) FlushContext(ctx context.Context) error {
	_, err := withContext(ctx, func() (struct{}, error) { return struct{}{}, ix.Flush() }, nil)
	return err
}

// Verify is every difference between the index and the files, changing nothing
// (xs_index_verify). Differences are not an error: read OK.
func (ix *Index) Verify() (*IndexVerifyReport, error) {
	return readObject[IndexVerifyReport](&ix.h, "Index.Verify", func(p *C.xs_index, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_index_verify(p, b, c, n)
	})
}

// VerifyContext is Verify with a context.
func (ix *Index) VerifyContext(ctx context.Context) (*IndexVerifyReport, error) {
	return withContext(ctx, ix.Verify, nil)
}

// Info is facts about the index (xs_index_info).
func (ix *Index) Info() (*IndexInfo, error) {
	return readObject[IndexInfo](&ix.h, "Index.Info", func(p *C.xs_index, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_index_info(p, b, c, n)
	})
}

// IndexListOptions configures Index.List; nil means the defaults.
type IndexListOptions struct {
	Cwd   string // only the sessions of this working directory (the header's); "" = every session
	Limit int    // at most this many; 0 = 20; at most 10000 (more is ErrInvalid)
}

// List is the indexed sessions, newest first (file mtime, then creation), from the index alone
// (xs_index_list): nothing the last Rebuild or Refresh did not see.
func (ix *Index) List(opts *IndexListOptions) ([]IndexedSession, error) {
	raw, err := ix.ListJSON(opts)
	return decodeResult[[]IndexedSession]("Index.List", raw, err)
}

// ListJSON is List as the library's JSON (capi/schema/index-sessions.schema.json).
func (ix *Index) ListJSON(opts *IndexListOptions) ([]byte, error) {
	a := newArgs("Index.List")
	defer a.free()
	if opts == nil {
		opts = &IndexListOptions{}
	}
	ccwd, limit := a.opt("Cwd", opts.Cwd), limitArg(a, opts.Limit)
	if a.err != nil {
		return nil, a.err
	}
	return ix.h.read(a.op, func(p *C.xs_index, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_index_list(p, ccwd, limit, b, c, n)
	})
}

// ListContext is List with a context.
func (ix *Index) ListContext(ctx context.Context, opts *IndexListOptions) ([]IndexedSession, error) {
	return withContext(ctx, func() ([]IndexedSession, error) { return ix.List(opts) }, nil)
}

// Role is the kind of text an indexed entry holds (docs/search.md#what-is-indexed): a closed set,
// not a message's role ("toolResult" and "bashExecution" are RoleTool, compactions and branch
// summaries RoleSummary).
type Role string

// The roles of indexed entries.
const (
	RoleUser      Role = "user"      // user messages, and custom messages that reach the model as such
	RoleAssistant Role = "assistant" // assistant text (and tool calls beside it)
	RoleTool      Role = "tool"      // tool calls alone, tool results, bash and python executions
	RoleSummary   Role = "summary"   // compaction and branch summaries
	RoleLabel     Role = "label"     // labels
)

// SearchOptions configures Index.Search; nil means the defaults (every session, 20 hits).
type SearchOptions struct {
	Cwd  string // only sessions of this working directory (the header's, exact); "" = every one
	Role Role   // only entries of this role; "" = every role (another value is ErrInvalid)
	// Since keeps only entries stamped at or after this time; the zero Time = no bound. Entries
	// are stamped to the millisecond, so a time between two is rounded up; one before 1970 is
	// ErrInvalid.
	Since     time.Time
	SessionID string // only this session (its id); "" = every session
	Limit     int    // at most this many hits; 0 = 20; at most 10000 (more is ErrInvalid)
	// Literal takes the query as plain words, not FTS5 syntax: each word must occur (quotes and
	// operators are ordinary characters), the last one as a prefix (XS_SEARCH_LITERAL).
	Literal bool
}

// sinceArg is Since as since_ms: 0 for the zero Time, else rounded up to the millisecond.
func sinceArg(t time.Time) C.int64_t {
	if t.IsZero() {
		return 0
	}
	ms := t.UnixMilli()
	if t.Sub(time.UnixMilli(ms)) > 0 {
		ms++
	}
	return C.int64_t(ms)
}

// Search is the entries matching query, best first (xs_search; bm25, ties newest first). query is
// FTS5's syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(...)) unless opts.Literal. An empty
// query, or one FTS5 refuses, is ErrInvalid (the latter's message is "bad search query: " and
// SQLite's words). Only the newest 1,000 matches that pass the filters are ranked
// (docs/search.md#ranking). Refresh first to find what was appended since.
func (ix *Index) Search(query string, opts *SearchOptions) ([]SearchHit, error) {
	raw, err := ix.SearchJSON(query, opts)
	return decodeResult[[]SearchHit]("Index.Search", raw, err)
}

// SearchJSON is Search as the library's JSON (capi/schema/search-hits.schema.json).
func (ix *Index) SearchJSON(query string, opts *SearchOptions) ([]byte, error) {
	a := newArgs("Index.Search")
	defer a.free()
	var o C.xs_search_options
	if rc := C.xs_search_options_init(&o, C.XS_SEARCH_OPTIONS_VERSION); rc != C.XS_OK {
		return nil, &Error{Code: Code(rc), Op: a.op, Message: "xs_search_options_init failed"}
	}
	if opts == nil {
		opts = &SearchOptions{}
	}
	cq := a.str("query", query)
	// Text in the struct is C memory (cgo's pointer rules); the library copies what it keeps.
	o.cwd, o.role, o.session_id = a.opt("Cwd", opts.Cwd), a.opt("Role", string(opts.Role)), a.opt("SessionID", opts.SessionID)
	o.since_ms, o.limit = sinceArg(opts.Since), limitArg(a, opts.Limit)
	if opts.Literal {
		o.flags |= C.XS_SEARCH_LITERAL
	}
	if a.err != nil {
		return nil, a.err
	}
	return ix.h.read(a.op, func(p *C.xs_index, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_search(p, cq, &o, b, c, n)
	})
}

// SearchContext is Search with a context.
func (ix *Index) SearchContext(ctx context.Context, query string, opts *SearchOptions) ([]SearchHit, error) {
	return withContext(ctx, func() ([]SearchHit, error) { return ix.Search(query, opts) }, nil)
}
