package xsession

/*
#include <pthread.h>
#include <stdint.h>
#include <xsession.h>

// The calling thread, as a number (pthread_t is an integer on Linux, a pointer elsewhere).
static uintptr_t xs_go_thread(void) { return (uintptr_t)pthread_self(); }
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// handle is what Store, Session, History and Index share: the C pointer, the mutex that
// serialises its use, and the scratch buffer of its reads.
//
// The C library serialises calls on a handle itself, but a handle's error text and its kept
// XS_EBUFS result belong to whichever call ran last on it. Holding mu across the call, the copy
// of the message and the buffer retry is what makes both belong to *this* call. xs_*_close and
// xs_store_free must not run concurrently with anything else on the handle: mu covers that too.
type handle[T any] struct {
	mu      sync.Mutex
	p       *T                   // nil once closed (and in a zero Store, Session, History or Index)
	errmsg  func(*T) *C.char     // xs_store_errmsg, xs_session_errmsg, xs_history_errmsg or xs_index_errmsg
	errcode func(*T) C.xs_status // xs_store_errcode, xs_session_errcode, xs_history_errcode or xs_index_errcode
	scratch []byte               // see fill in buffers.go

	// The thread running a KeyUpdate, archive or import progress function of this handle, 0 when none;
	// see reentered.
	callbackThread atomic.Uintptr
}

// reentered refuses a call made from inside a KeyUpdate, archive or import progress function on this
// very handle: that call's goroutine holds mu until the function returns, so locking it again
// would wait for ever.
//
// Go has no goroutine identity, but a goroutine running a cgo callback is locked to the thread
// that made the C call, and that thread runs nothing else until the callback returns: a call
// on this handle from that thread is the callback's own goroutine; any other goroutine is on
// another thread, and waits for mu as usual. The check costs one atomic load when no callback
// runs.
func (h *handle[T]) reentered(op string) error {
	if t := h.callbackThread.Load(); t != 0 && t == uintptr(C.xs_go_thread()) {
		return &Error{Code: CodeMisuse, Op: op,
			Message: "called from inside a callback (KeyUpdate, Archive's or Import's progress) of the same store, which holds its lock until the callback returns"}
	}
	return nil
}

// enter locks the handle and returns its pointer; on a closed handle it unlocks and fails.
func (h *handle[T]) enter(op string) (*T, error) {
	if err := h.reentered(op); err != nil {
		return nil, err
	}
	h.mu.Lock()
	if h.p == nil {
		h.mu.Unlock()
		return nil, closedError(op, h.noun())
	}
	return h.p, nil
}

// noun names the handle's kind in the closed error.
func (h *handle[T]) noun() string {
	switch any(h).(type) {
	case *handle[C.xs_store]:
		return "store"
	case *handle[C.xs_history]:
		return "history"
	case *handle[C.xs_index]:
		return "index"
	}
	return "session"
}

// check turns a status into an error with the handle's message. The caller holds mu, so the
// message is the one this call left.
func (h *handle[T]) check(op string, rc C.xs_status) error {
	if rc == C.XS_OK {
		return nil
	}
	return &Error{Code: Code(rc), Op: op, Message: C.GoString(h.errmsg(h.p))}
}

// do runs one C call on the handle under its lock and reports its status.
func (h *handle[T]) do(op string, call func(p *T) C.xs_status) error {
	p, err := h.enter(op)
	if err != nil {
		return err
	}
	defer h.mu.Unlock()
	err = h.check(op, call(p))
	// The finalizer of the Store, Session, History or Index that embeds h must not run while C uses p.
	runtime.KeepAlive(h)
	return err
}

// read runs a (buf, cap, out_len) call under the lock and returns the whole result.
func (h *handle[T]) read(op string, call func(p *T, buf *C.char, cap C.size_t, n *C.size_t) C.xs_status) ([]byte, error) {
	p, err := h.enter(op)
	if err != nil {
		return nil, err
	}
	defer h.mu.Unlock()
	out, rc := h.fill(func(buf *C.char, cap C.size_t, n *C.size_t) C.xs_status { return call(p, buf, cap, n) })
	err = h.check(op, rc)
	runtime.KeepAlive(h)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readObject is a reader's object output (read's), decoded into a fresh T with its Raw.
func readObject[T, H any](h *handle[H], op string, call func(p *H, buf *C.char, cap C.size_t, n *C.size_t) C.xs_status) (*T, error) {
	raw, err := h.read(op, call)
	return decodeObject[T](op, raw, err)
}

// lastError is the error the handle holds from its last call (xs_*_errcode and xs_*_errmsg),
// nil after a success.
func (h *handle[T]) lastError(op string) error {
	p, err := h.enter(op)
	if err != nil {
		return err
	}
	defer h.mu.Unlock()
	err = h.check(op, h.errcode(p))
	runtime.KeepAlive(h)
	return err
}

// close frees the C handle once; later calls find p nil. The caller holds mu.
func (h *handle[T]) close(free func(*T)) {
	if h.p != nil {
		free(h.p)
		h.p = nil
		h.scratch = nil
	}
}
