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

// History is a store's prompt history (docs/history.md): the prompts a user typed, in one SQLite
// database per store with a full-text index. Add returns at once (a background thread of the
// handle writes); Flush waits for what was added. Safe for concurrent use: calls on one History
// are serialised, as on a Session. Independent of its Store once opened.
type History struct {
	h handle[C.xs_history]
}

// HistoryFlags are the XS_HISTORY_* flags of HistoryOptions.
type HistoryFlags uint32

// History flags.
const (
	// HistorySync makes a flushed prompt survive power loss too (SQLite's synchronous=FULL); by
	// default (NORMAL) it survives the process's crash or kill -9.
	HistorySync HistoryFlags = C.XS_HISTORY_SYNC
)

// HistoryOptions configures Store.OpenHistory; nil and HistoryOptions{} both mean the library's
// defaults (xs_history_options_init).
type HistoryOptions struct {
	Flags HistoryFlags // HistorySync, or 0
	// Path is the database file; "" = <root>/history.db (required with a StoreInMemory store).
	// Its directory is created.
	Path string
	// BusyTimeout is how long a call waits for another writer; 0 = the library's 5 s.
	// Millisecond precision, rounded up; negative or over 2^32-1 ms is ErrInvalid.
	BusyTimeout time.Duration
	// MaxPromptBytes is the longest prompt Add takes; 0 = the library's 1 MiB.
	MaxPromptBytes uint32
}

func (o *HistoryOptions) toC(a *cargs) (C.xs_history_options, error) {
	var c C.xs_history_options
	if rc := C.xs_history_options_init(&c, C.XS_HISTORY_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: a.op, Message: "xs_history_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	c.flags = C.uint32_t(o.Flags)
	c.path = a.opt("Path", o.Path) // copied by xs_history_open
	c.busy_timeout_ms = busyTimeoutArg(a, "HistoryOptions.BusyTimeout", o.BusyTimeout)
	c.max_prompt_bytes = C.uint32_t(o.MaxPromptBytes)
	return c, a.err
}

// OpenHistory opens (creating) the store's prompt history (xs_history_open). A file of an older
// schema is migrated; a damaged one is renamed "<path>.damaged-<UTC time>" and a fresh one
// started (Info reports it in Damaged). ErrVersion: a file a newer xsession wrote; ErrLocked:
// another process kept it locked past BusyTimeout; ErrInvalid: a StoreInMemory store without
// opts.Path. Close the History when done: it has a writer thread.
func (st *Store) OpenHistory(opts *HistoryOptions) (*History, error) {
	a := newArgs("Store.OpenHistory")
	defer a.free()
	o, err := opts.toC(a)
	if err != nil {
		return nil, err
	}
	var out *C.xs_history
	if err := st.h.do(a.op, func(p *C.xs_store) C.xs_status { return C.xs_history_open(p, &o, &out) }); err != nil {
		return nil, err
	}
	hist := &History{h: handle[C.xs_history]{
		p:       out,
		errmsg:  func(p *C.xs_history) *C.char { return C.xs_history_errmsg(p) },
		errcode: func(p *C.xs_history) C.xs_status { return C.xs_history_errcode(p) },
	}}
	// Only a safety net: a forgotten history keeps its writer thread and database open until the
	// collector gets to it, and the error of its last flush is lost.
	runtime.SetFinalizer(hist, (*History).Close)
	return hist, nil
}

// discardHistory closes a history opened after its caller gave up (a variable for the tests).
var discardHistory = func(hist *History) { hist.Close() }

// OpenHistoryContext is OpenHistory with a context (an open may wait BusyTimeout for another
// process's lock). A history opened after ctx is done is closed.
func (st *Store) OpenHistoryContext(ctx context.Context, opts *HistoryOptions) (*History, error) {
	return withContext(ctx, func() (*History, error) { return st.OpenHistory(opts) }, discardHistory)
}

// Close flushes the history, stops its writer thread and frees the handle (xs_history_flush,
// xs_history_close). The handle is released even when the flush fails; the error is the
// flush's: the writer's sticky error, and then the prompts it names were not written. Closing
// again does nothing and returns nil.
func (hist *History) Close() error {
	hist.h.mu.Lock()
	defer hist.h.mu.Unlock()
	if hist.h.p == nil {
		return nil
	}
	// xs_history_close returns the flush's status but its message dies with the handle: flushing
	// first is how Close reports the text as well.
	err := hist.h.check("History.Close", C.xs_history_flush(hist.h.p))
	var rc C.xs_status
	hist.h.close(func(p *C.xs_history) { rc = C.xs_history_close(p) })
	if err == nil && rc != C.XS_OK {
		err = &Error{Code: Code(rc), Op: "History.Close", Message: StatusString(Code(rc))}
	}
	runtime.SetFinalizer(hist, nil)
	return err
}

// LastError is the error the history's last call left (xs_history_errcode, xs_history_errmsg);
// nil after a success. Calls report their own errors, so this is for diagnostics only.
func (hist *History) LastError() error { return hist.h.lastError("History.LastError") }

// Add queues one prompt typed now in working directory cwd ("" = none) and returns without
// waiting for the disk (xs_history_add); see AddAt.
func (hist *History) Add(prompt, cwd string) error {
	return hist.add("History.Add", prompt, cwd, 0)
}

// AddAt is Add with the time the prompt was typed (the zero Time = now). ErrInvalid: an empty
// prompt, a NUL byte in it or in cwd, invalid UTF-8, a time before 1970; ErrLimit: a prompt over
// MaxPromptBytes or a cwd over 64 KiB. A prompt equal to the last one this handle added with the
// same cwd is skipped (nil). A failure of the writer thread is sticky: this and every later Add
// and Flush return it (the message starts "history writer: "); reopen the history to write again.
func (hist *History) AddAt(prompt, cwd string, at time.Time) error {
	var ms int64
	if !at.IsZero() {
		ms = at.UnixMilli()
	}
	return hist.add("History.AddAt", prompt, cwd, ms)
}

func (hist *History) add(op, prompt, cwd string, ms int64) error {
	a := newArgs(op)
	defer a.free()
	ccwd := a.opt("cwd", cwd)
	if a.err != nil {
		return a.err
	}
	// A (pointer, length) copy: the library, not the binding, judges NUL bytes in the prompt.
	cp, n := a.text(prompt)
	return hist.h.do(op, func(p *C.xs_history) C.xs_status {
		return C.xs_history_add(p, cp, n, ccwd, C.int64_t(ms))
	})
}

// Flush waits until every prompt this handle added before the call is committed
// (xs_history_flush): from then on they survive a crash of the process and other handles'
// searches find them. The error is the writer's sticky one.
func (hist *History) Flush() error {
	return hist.h.do("History.Flush", func(p *C.xs_history) C.xs_status { return C.xs_history_flush(p) })
}

// FlushContext is Flush with a context. A flush that goes on after ctx is done still commits.
func (hist *History) FlushContext(ctx context.Context) error {
	_, err := withContext(ctx, func() (struct{}, error) { return struct{}{}, hist.Flush() }, nil)
	return err
}

// HistorySearchOptions configures History.Search; nil means the defaults.
type HistorySearchOptions struct {
	Cwd string // only the prompts added with this working directory; "" = every prompt
	// Literal takes the query as plain words, not FTS5 syntax: each word must occur (quotes and
	// operators are ordinary characters), the last one as a prefix (XS_HISTORY_LITERAL).
	Literal bool
	Limit   int // at most this many; 0 = 20; at most 10000 (more is ErrInvalid)
}

// HistoryRecentOptions configures History.Recent; nil means the defaults.
type HistoryRecentOptions struct {
	Cwd   string // only the prompts added with this working directory; "" = every prompt
	Limit int    // at most this many; 0 = 20; at most 10000 (more is ErrInvalid)
}

// limitArg is a limit as the C API's uint32; one out of its range goes on as MaxUint32 so that
// the library refuses it with its own message. Negative is refused here.
func limitArg(a *cargs, limit int) C.uint32_t {
	if limit < 0 {
		if a.err == nil {
			a.err = argError(a.op, "Limit is negative")
		}
		return 0
	}
	if uint64(limit) > math.MaxUint32 {
		return math.MaxUint32
	}
	return C.uint32_t(limit)
}

// Search is the committed prompts matching query, best first (xs_history_search; bm25, ties
// newest first). query is FTS5's syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(...)) unless
// opts.Literal. A query FTS5 refuses is ErrInvalid with the message "bad history query: " and
// SQLite's words. Flush first to find this handle's own latest prompts.
func (hist *History) Search(query string, opts *HistorySearchOptions) ([]HistoryHit, error) {
	raw, err := hist.SearchJSON(query, opts)
	return decodeResult[[]HistoryHit]("History.Search", raw, err)
}

// SearchJSON is Search as the library's JSON (capi/schema/history-search.schema.json).
func (hist *History) SearchJSON(query string, opts *HistorySearchOptions) ([]byte, error) {
	a := newArgs("History.Search")
	defer a.free()
	if opts == nil {
		opts = &HistorySearchOptions{}
	}
	cq, ccwd, limit := a.str("query", query), a.opt("Cwd", opts.Cwd), limitArg(a, opts.Limit)
	var flags C.uint32_t
	if opts.Literal {
		flags |= C.XS_HISTORY_LITERAL
	}
	if a.err != nil {
		return nil, a.err
	}
	return hist.h.read(a.op, func(p *C.xs_history, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_history_search(p, cq, ccwd, flags, limit, b, c, n)
	})
}

// SearchContext is Search with a context.
func (hist *History) SearchContext(ctx context.Context, query string, opts *HistorySearchOptions) ([]HistoryHit, error) {
	return withContext(ctx, func() ([]HistoryHit, error) { return hist.Search(query, opts) }, nil)
}

// Recent is the newest committed prompts, newest first (xs_history_recent).
func (hist *History) Recent(opts *HistoryRecentOptions) ([]HistoryItem, error) {
	raw, err := hist.RecentJSON(opts)
	return decodeResult[[]HistoryItem]("History.Recent", raw, err)
}

// RecentJSON is Recent as the library's JSON (capi/schema/history-recent.schema.json).
func (hist *History) RecentJSON(opts *HistoryRecentOptions) ([]byte, error) {
	a := newArgs("History.Recent")
	defer a.free()
	if opts == nil {
		opts = &HistoryRecentOptions{}
	}
	ccwd, limit := a.opt("Cwd", opts.Cwd), limitArg(a, opts.Limit)
	if a.err != nil {
		return nil, a.err
	}
	return hist.h.read(a.op, func(p *C.xs_history, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_history_recent(p, ccwd, limit, b, c, n)
	})
}

// RecentContext is Recent with a context.
func (hist *History) RecentContext(ctx context.Context, opts *HistoryRecentOptions) ([]HistoryItem, error) {
	return withContext(ctx, func() ([]HistoryItem, error) { return hist.Recent(opts) }, nil)
}

// Info is facts about the history (xs_history_info).
func (hist *History) Info() (*HistoryInfo, error) {
	raw, err := hist.h.read("History.Info", func(p *C.xs_history, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_history_info(p, b, c, n)
	})
	return decodeObject[HistoryInfo]("History.Info", raw, err)
}

// HistoryItem is one prompt (History.Recent; capi/schema/history-recent.schema.json).
type HistoryItem struct {
	ID        int64   `json:"id"`        // row id: increasing in the order prompts were written
	Prompt    string  `json:"prompt"`    // the prompt as added, exactly
	CreatedAt int64   `json:"createdAt"` // when it was typed, ms since the epoch
	Cwd       *string `json:"cwd"`       // the working directory it was typed in; nil: none
}

// Created is CreatedAt as a time.
func (it HistoryItem) Created() time.Time { return time.UnixMilli(it.CreatedAt) }

// HistoryHit is one prompt a search found (History.Search;
// capi/schema/history-search.schema.json): the prompt's members, then the match's.
type HistoryHit struct {
	HistoryItem         // id, prompt, createdAt, cwd
	Score       float64 `json:"score"`   // bm25 of the match: lower (more negative) is better
	Snippet     string  `json:"snippet"` // the prompt around the matches, each between U+0002 and U+0003; cuts shown as "…"
}

// Snippet markers: a match in HistoryHit.Snippet starts with HistoryMatchStart and ends with
// HistoryMatchEnd.
const (
	HistoryMatchStart = "\u0002" // start of a match
	HistoryMatchEnd   = "\u0003" // end of a match
)

// HistoryInfo is facts about a history (History.Info; capi/schema/history-info.schema.json).
type HistoryInfo struct {
	Path          string          `json:"path"`          // the database file
	SchemaVersion int64           `json:"schemaVersion"` // the file's schema version (PRAGMA user_version)
	Count         int64           `json:"count"`         // committed prompts in the file
	Pending       int64           `json:"pending"`       // this handle's prompts not yet written
	Synchronous   string          `json:"synchronous"`   // "normal", or "full" with HistorySync
	Damaged       *HistoryDamaged `json:"damaged"`       // nil, or the damaged file the open kept aside
	rawField
}

// HistoryDamaged is a damaged history file that OpenHistory renamed before starting a fresh one.
type HistoryDamaged struct {
	Path   string `json:"path"`   // where the damaged file is now
	Reason string `json:"reason"` // why it was set aside
}
