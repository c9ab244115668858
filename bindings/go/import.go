package xsession

/*
#include <stdbool.h>
#include <stdint.h>
#include <xsession.h>

// Defined in retention.go: the progress trampoline, shared with Archive.
extern void xs_go_progress_fn(uint64_t done, uint64_t total, void *user);

// user is a cgo.Handle (0 = no progress function): an integer, made a pointer here so that Go
// never converts one.
static xs_status xs_go_import(xs_store *st, bool importing, const char *kind, const char *path, xs_import_options o,
                              uintptr_t user, char *buf, size_t cap, size_t *out_len) {
	if (user != 0) {
		o.progress = xs_go_progress_fn;
		o.progress_user = (void *)user;
	}
	if (importing) return xs_import(st, kind, path, &o, buf, cap, out_len);
	return xs_foreign_list(st, kind, path, &o, buf, cap, out_len);
}
*/
import "C"

import "time"

// Import (docs/import.md): another agent's store read into native sessions of this one. The
// source is only ever read: its files are opened read-only, and a host's index lock is looked
// at, never taken or removed.

// ImportKind names the kind of store an import or a listing reads.
type ImportKind string

// The kinds of foreign store the library reads. Any other ImportKind is ErrInvalid.
const (
	// ImportClaude is Claude Code's ~/.claude/projects (docs/import-claude.md): the path is one
	// project directory (it holds a *.jsonl file or sessions-index.json directly) or the projects
	// root holding such directories.
	ImportClaude ImportKind = "claude"
	// ImportMyAgents is ~/.myagents: the directory holding sessions.json and sessions/.
	ImportMyAgents ImportKind = "myagents"
	// ImportGateway is a gateway state directory such as ~/.openclaw (docs/import-hosts.md): the
	// state directory holding agents/, the agents/ directory itself or one agents/<id>/sessions/.
	ImportGateway ImportKind = "gateway"
	// ImportCodex is Codex CLI's sessions directory, $CODEX_HOME/sessions or ~/.codex/sessions
	// (docs/import-codex.md): every rollout-*.jsonl under the path, at any depth, is read.
	ImportCodex ImportKind = "codex"
)

// ImportOptions configures Store.Import and Store.ForeignList; nil means DefaultImportOptions().
// A literal ImportOptions{} differs from the defaults in LockWait only: 0 reads a locked index at
// once (with a note) instead of waiting for its writer.
type ImportOptions struct {
	DryRun bool // report what would be imported and write nothing, not even the store's directory

	// TargetCwd ("claude" only) is the cwd of every imported session; "" = each conversation's
	// own (else the index's originalPath). An absolute path without "." or ".." components.
	TargetCwd string
	// FallbackCwd ("gateway", "myagents" and "codex" only) is the cwd of a session whose source names
	// none (their transcripts keep their own); "" = the source directory. Absolute, as TargetCwd.
	FallbackCwd string

	// LockWait is how long to wait for a host's index lock (held while it writes the index)
	// before reading the index anyway, with a note; millisecond precision, negative is
	// ErrInvalid. A lock older than 30 s is stale and not waited for.
	LockWait time.Duration
	Now      time.Time // "now" for a lock's age; the zero Time = the system clock

	// Progress, if not nil, is called by Import (never by ForeignList) with done of total bytes
	// of the source's transcripts (docs/import.md#progress): once with 0 when the source has been
	// found, about once per thousandth of the total, and once with done == total at the end. It
	// runs on the calling goroutine while the store is busy with the call: a call on the same
	// store from inside it fails with ErrMisuse, and it must not wait for another goroutine that
	// uses the store, nor call runtime.Goexit. A panic in it is recovered (see Import).
	Progress func(done, total uint64)

	version uint32 // the C struct's version; 0 = the header's (tests set others)
}

// DefaultImportOptions are the library's defaults (xs_import_options_init): no dry run, the
// sessions' own cwds, a lock wait of 2 s, the system clock.
func DefaultImportOptions() ImportOptions {
	var c C.xs_import_options
	C.xs_import_options_init(&c, C.XS_IMPORT_OPTIONS_VERSION)
	return ImportOptions{
		DryRun:   c.flags&C.XS_IMPORT_DRY_RUN != 0,
		LockWait: time.Duration(c.lock_wait_ms) * time.Millisecond,
	}
}

// toC fills the C options; the cwd strings are copied into a's C memory (a struct in Go memory
// may not point at Go memory), which lives until the call returns.
func (o *ImportOptions) toC(a *cargs) (C.xs_import_options, error) {
	var c C.xs_import_options
	if rc := C.xs_import_options_init(&c, C.XS_IMPORT_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: a.op, Message: "xs_import_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	if o.version != 0 {
		c.version = C.uint32_t(o.version)
	}
	if o.DryRun {
		c.flags |= C.XS_IMPORT_DRY_RUN
	}
	c.target_cwd = a.opt("TargetCwd", o.TargetCwd)
	c.fallback_cwd = a.opt("FallbackCwd", o.FallbackCwd)
	// Milliseconds truncates toward zero: a negative wait must stay negative (refused).
	c.lock_wait_ms = C.int64_t(o.LockWait.Milliseconds())
	if o.LockWait < 0 && c.lock_wait_ms == 0 {
		c.lock_wait_ms = -1
	}
	c.now_ms = nowMs(o.Now)
	return c, a.err
}

// Import imports the store of kind at sourcePath into st (xs_import): every conversation becomes
// a native session (created, or continued by a re-import, which adds only what is new: importing
// twice imports nothing the second time), every host index key a key of the keyed store. A
// relative sourcePath is relative to the process's working directory.
//
// The report (docs/import.md#the-report) accounts for every row read. Bad rows and files inside the source
// are in the report, never an error.
//
// ErrInvalid: an unknown kind, an empty sourcePath or one that is a file, a cwd of the wrong kind
// (TargetCwd for "gateway"), relative or with ".." components, a negative LockWait. ErrNotFound:
// sourcePath does not exist (for "myagents", a directory with neither sessions.json nor
// sessions/). A failed write to the store is returned; the sessions written before it stay whole.
//
// The library cannot be stopped from the progress function. If it panics, it is not called
// again, the import runs to its end, and Import returns the report together with an ErrError
// whose message names the panic (and which unwraps to the panic's value when that is an error).
func (st *Store) Import(kind ImportKind, sourcePath string, opts *ImportOptions) (*ImportReport, error) {
	const op = "Store.Import"
	pr := opts.progress(&st.h)
	defer pr.free()
	raw, err := st.foreign(op, kind, sourcePath, opts, true, pr)
	report, err := decodeObject[ImportReport](op, raw, err)
	return report, pr.panicError(op, err)
}

// ForeignList is what the store of kind at sourcePath holds, read only (xs_foreign_list): the
// listing of docs/import-claude.md#the-listing or docs/import-hosts.md#listing-json. Nothing is
// written anywhere, st's store included. Of opts only LockWait and Now matter: Progress is passed
// on, and the library never calls it from a listing. Errors as Import's.
func (st *Store) ForeignList(kind ImportKind, sourcePath string, opts *ImportOptions) (*ForeignListing, error) {
	pr := opts.progress(&st.h)
	defer pr.free()
	raw, err := st.foreign("Store.ForeignList", kind, sourcePath, opts, false, pr)
	return decodeObject[ForeignListing]("Store.ForeignList", raw, err)
}

// progress is the call's progress function (nil for none); the caller frees it.
func (o *ImportOptions) progress(h *handle[C.xs_store]) *progressCall {
	if o == nil {
		return nil
	}
	return newProgressCall(o.Progress, h)
}

// foreign runs xs_import or xs_foreign_list with pr's progress function.
func (st *Store) foreign(op string, kind ImportKind, sourcePath string, opts *ImportOptions, importing bool,
	pr *progressCall) ([]byte, error) {
	a := newArgs(op)
	defer a.free()
	ckind := a.str("kind", string(kind))
	// "" is passed as such (not NULL): the library refuses an empty path with its own message.
	cpath := a.str("sourcePath", sourcePath)
	if a.err != nil {
		return nil, a.err
	}
	o, err := opts.toC(a)
	if err != nil {
		return nil, err
	}
	return st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_go_import(p, C.bool(importing), ckind, cpath, o, C.uintptr_t(pr.user()), b, c, n)
	})
}
