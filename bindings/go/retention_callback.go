package xsession

// The Go side of xs_store_archive's progress callback, in a file of its own: a file with //export
// may only declare C functions in its preamble, so the C trampoline that calls this is in
// retention.go.

/*
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

// xsGoArchiveProgress runs an ArchiveOptions.Progress function for the library. Nothing may
// unwind out of it into C (the store and a session's writer lock would stay held), so a panic is
// recovered and remembered; the function is not called again.
//
//export xsGoArchiveProgress
func xsGoArchiveProgress(done, total C.uint64_t, user unsafe.Pointer, thread C.uintptr_t) {
	pr := cgo.Handle(uintptr(user)).Value().(*archiveProgress)
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
