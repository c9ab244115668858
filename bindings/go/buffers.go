package xsession

/*
#include <stdlib.h>
#include <xsession.h>
*/
import "C"

import "unsafe"

// scratchSize is the first buffer a read is given. Most results (ids, headers, small contexts)
// fit, so they take one C call; a larger one takes exactly two.
const scratchSize = 16 << 10

// fill calls a (buf, cap, out_len) function and returns a copy of the full result. The caller
// holds the handle's lock.
//
// The first call writes into the handle's scratch buffer, reused across calls so small reads
// allocate only their result. On XS_EBUFS *n is the size needed and the library has kept the
// result on the handle: the immediate retry into a buffer of exactly that size copies it without
// rebuilding (nothing else can touch the handle in between, we hold its lock). A large result is
// written straight into the slice returned, never into scratch, so scratch stays small.
func (h *handle[T]) fill(call func(buf *C.char, cap C.size_t, n *C.size_t) C.xs_status) ([]byte, C.xs_status) {
	if h.scratch == nil {
		h.scratch = make([]byte, scratchSize)
	}
	var n C.size_t
	rc := call(bytePtr(h.scratch), C.size_t(len(h.scratch)), &n)
	if rc == C.XS_OK {
		return append([]byte(nil), h.scratch[:n]...), rc
	}
	// The header says to loop: a result recomputed because the handle changed may have grown.
	// Under our lock that cannot happen, so the loop is bounded only as a guard against a bug.
	for tries := 0; rc == C.XS_EBUFS && tries < 4; tries++ {
		out := make([]byte, int(n))
		rc = call(bytePtr(out), C.size_t(len(out)), &n)
		if rc == C.XS_OK {
			return out[:n], rc
		}
	}
	return nil, rc
}

// emptyByte gives a valid non-NULL pointer for empty input: the C API reads NULL as "absent"
// (or refuses it), which an empty but present slice is not.
var emptyByte = (*C.char)(C.calloc(1, 1))

// bytePtr points C at a Go byte slice's memory for the duration of one call. That is legal
// under the cgo pointer rules: bytes hold no Go pointers, and the library keeps no pointer it
// was given after the call returns.
func bytePtr(b []byte) *C.char {
	if len(b) == 0 {
		return emptyByte
	}
	return (*C.char)(unsafe.Pointer(&b[0]))
}

// jsonArg is a (pointer, length) argument over Go memory: nil stays NULL ("absent").
func jsonArg(b []byte) (*C.char, C.size_t) {
	if b == nil {
		return nil, 0
	}
	return bytePtr(b), C.size_t(len(b))
}
