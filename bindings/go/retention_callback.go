package xsession

// The Go side of the progress callbacks of xs_store_archive and xs_import (the same shape), in a
// file of its own: a file with //export may only declare C functions in its preamble, so the C
// trampoline that calls this is in retention.go.

/*
#include <stdint.h>
#include <xsession.h>
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// progressCall is what Archive or Import shares with its progress callback, through a cgo.Handle.
// A nil *progressCall is a call without a progress function.
type progressCall struct {
	fn         func(done, total uint64)
	h          *handle[C.xs_store]
	handle     cgo.Handle
	panicked   bool
	panicValue any
}

// newProgressCall returns nil when fn is nil; otherwise the caller must free it.
func newProgressCall(fn func(done, total uint64), h *handle[C.xs_store]) *progressCall {
	if fn == nil {
		return nil
	}
	pr := &progressCall{fn: fn, h: h}
	pr.handle = cgo.NewHandle(pr)
	return pr
}

// user is the C progress_user (as an integer; 0 = no progress function).
func (pr *progressCall) user() cgo.Handle {
	if pr == nil {
		return 0
	}
	return pr.handle
}

func (pr *progressCall) free() {
	if pr != nil {
		pr.handle.Delete()
	}
}

// panicError is err, or when the call succeeded but the progress function panicked, an ErrError
// whose message names the panic (and which unwraps to the panic's value when that is an error).
func (pr *progressCall) panicError(op string, err error) error {
	if err != nil || pr == nil || !pr.panicked {
		return err
	}
	xe := &Error{Code: CodeError, Op: op, Message: fmt.Sprintf("the progress function panicked: %v", pr.panicValue)}
	xe.cause, _ = pr.panicValue.(error)
	return xe
}

// xsGoProgress runs an ArchiveOptions.Progress or ImportOptions.Progress function for the
// library. Nothing may unwind out of it into C (the store and a session's writer lock would stay
// held), so a panic is recovered and remembered; the function is not called again.
//
//export xsGoProgress
func xsGoProgress(done, total C.uint64_t, user unsafe.Pointer, thread C.uintptr_t) {
	pr := cgo.Handle(uintptr(user)).Value().(*progressCall)
	if pr.panicked {
		return
	}
	pr.h.callbackThread.Store(uintptr(thread))
	defer pr.h.callbackThread.Store(0)
	defer func() {
		if p := recover(); p != nil {
			pr.panicked, pr.panicValue = true, p
		}
	}()
	pr.fn(uint64(done), uint64(total))
}
