package xsession

/*
#include <pthread.h>
#include <stdint.h>
#include <xsession.h>

// Exported by retention_callback.go (a file with //export may declare C functions, not define them).
extern void xsGoProgress(uint64_t done, uint64_t total, void *user, uintptr_t thread);

// The xs_archive_progress_fn and xs_import_progress_fn (the same shape; import.go declares it):
// hands the Go side the calling thread as well (see handle.reentered).
void xs_go_progress_fn(uint64_t done, uint64_t total, void *user) {
	xsGoProgress(done, total, user, (uintptr_t)pthread_self());
}

// user is a cgo.Handle (0 = no progress function): an integer, made a pointer here so that Go
// never converts one.
static xs_status xs_go_store_archive(xs_store *st, xs_archive_options o, uintptr_t user, char *buf, size_t cap,
                                     size_t *out_len) {
	if (user != 0) {
		o.progress = xs_go_progress_fn;
		o.progress_user = (void *)user;
	}
	return xs_store_archive(st, &o, buf, cap, out_len);
}
*/
import "C"

import "time"

// Retention (docs/retention.md): nothing is deleted by age alone. Archive compresses idle
// sessions to "<file>.jsonl.gz" (verified to inflate to the exact original bytes before the
// original is removed); Prune deletes only such archives. An archive stays in List
// ("archived": true), resolves by id, and opens (by path, id or prefix) as a read-only session
// whose Info shows "archived": true and on which every write is ErrReadOnly.

// ArchiveOptions configures Store.Archive and Store.Prune; nil means the defaults.
type ArchiveOptions struct {
	DryRun bool      // report what would be archived (pruned) and change nothing
	Now    time.Time // "now" for the age test; the zero Time = the system clock

	// Progress, if not nil, is called by Archive (not Prune) with done of total candidates: once
	// before the first (0) and after each. It runs on the calling goroutine while the store is
	// busy with the call: a call on the same store from inside it fails with ErrMisuse, and it
	// must not wait for another goroutine that uses the store, nor call runtime.Goexit. A panic
	// in it is recovered (see Archive).
	Progress func(done, total uint64)
}

func (o *ArchiveOptions) toC(op string, olderThan time.Duration) (C.xs_archive_options, error) {
	var c C.xs_archive_options
	if rc := C.xs_archive_options_init(&c, C.XS_ARCHIVE_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: op, Message: "xs_archive_options_init failed"}
	}
	// Milliseconds truncates toward zero: a negative limit must stay negative (refused), never
	// become 0 (everything is old enough).
	c.older_than_ms = C.int64_t(olderThan.Milliseconds())
	if olderThan < 0 && c.older_than_ms == 0 {
		c.older_than_ms = -1
	}
	if o == nil {
		return c, nil
	}
	if o.DryRun {
		c.flags |= C.XS_ARCHIVE_DRY_RUN
	}
	c.now_ms = nowMs(o.Now)
	return c, nil
}

// Archive archives every live session whose last activity is more than olderThan before now
// (xs_store_archive; millisecond precision, and a negative olderThan is ErrInvalid: the limit is
// always the caller's choice). Each is archived under its writer lock; one another process holds
// open for writing is skipped, and a failure with one session skips it and goes on. The report
// lists both in path order. A dry run reports exactly what a real run would.
//
// The library cannot be stopped from the progress function. If it panics, it is not called
// again, the archive runs to its end, and Archive returns the report together with an ErrError
// whose message names the panic (and which unwraps to the panic's value when that is an error).
func (st *Store) Archive(olderThan time.Duration, opts *ArchiveOptions) (*ArchiveReport, error) {
	const op = "Store.Archive"
	o, err := opts.toC(op, olderThan)
	if err != nil {
		return nil, err
	}
	var fn func(done, total uint64)
	if opts != nil {
		fn = opts.Progress
	}
	pr := newProgressCall(fn, &st.h)
	defer pr.free()
	raw, err := st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_go_store_archive(p, o, C.uintptr_t(pr.user()), b, c, n)
	})
	report, err := decodeObject[ArchiveReport](op, raw, err)
	return report, pr.panicError(op, err)
}

// Prune deletes the archives whose file was last modified (when it was archived) more than
// olderThan before now, never a live session (xs_store_prune; a negative olderThan is
// ErrInvalid). opts.Progress is not called. The report lists them in path order; a dry run
// lists exactly what a real run deletes. ErrIO when a removal failed (the message says how many went before).
func (st *Store) Prune(olderThan time.Duration, opts *ArchiveOptions) (*PruneReport, error) {
	const op = "Store.Prune"
	o, err := opts.toC(op, olderThan)
	if err != nil {
		return nil, err
	}
	raw, err := st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_store_prune(p, &o, b, c, n)
	})
	return decodeObject[PruneReport](op, raw, err)
}
