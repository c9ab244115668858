package xsession

// The Go side of xs_keys_update's callback, in a file of its own: a file with //export may only
// declare C functions in its preamble (it is copied into _cgo_export.h), so the C trampoline that
// calls this is in keys.go.

/*
#include <stdint.h>
#include <xsession.h>
*/
import "C"

import (
	"errors"
	"runtime/cgo"
	"unsafe"
)

// xsGoKeyUpdate runs a KeyUpdate function for the library and hands over its decision. Nothing
// may unwind out of it into C (the library's lock would stay held), so a panic is recovered and
// becomes a status that cancels.
//
//export xsGoKeyUpdate
func xsGoKeyUpdate(user unsafe.Pointer, thread C.uintptr_t, current *C.char, n C.size_t, next **C.char, nextLen *C.size_t) (rc C.xs_status) {
	u := cgo.Handle(uintptr(user)).Value().(*keyUpdate)
	u.h.callbackThread.Store(uintptr(thread))
	defer u.h.callbackThread.Store(0)
	defer func() {
		if p := recover(); p != nil {
			u.panicked, u.panicValue = true, p
			rc = C.XS_ERROR
		}
	}()

	var cur []byte
	ok := current != nil
	if ok {
		cur = make([]byte, int(n))
		copy(cur, unsafe.Slice((*byte)(unsafe.Pointer(current)), int(n)))
	}
	record, remove, err := u.fn(cur, ok)
	switch {
	case err != nil:
		u.err = err
		var xe *Error
		if errors.As(err, &xe) && xe.Code < 0 {
			return C.xs_status(xe.Code)
		}
		return C.XS_ERROR
	case remove:
		*next, *nextLen = nil, 0
	case record != nil:
		// The library borrows the text until this returns, from C memory: a Go pointer may not
		// be stored where C can see it. An empty record must not become NULL (remove).
		u.next = unsafe.Pointer(emptyByte)
		if len(record) > 0 {
			u.next = C.CBytes(record)
		}
		*next, *nextLen = (*C.char)(u.next), C.size_t(len(record))
	}
	// Neither: *next is still the current record (or NULL), which keeps it.
	return C.XS_OK
}
