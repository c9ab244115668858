package xsession

/*
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <xsession.h>

// Exported by keys_callback.go (a file with //export may declare C functions, not define them).
extern xs_status xsGoKeyUpdate(void *user, uintptr_t thread, char *current, size_t len, char **next,
                               size_t *next_len);

// The xs_keys_update_fn: hands the Go side the calling thread as well (see handle.reentered).
static xs_status xs_go_key_update_fn(void *user, const char *current, size_t len, const char **next,
                                     size_t *next_len) {
	return xsGoKeyUpdate(user, (uintptr_t)pthread_self(), (char *)current, len, (char **)next, next_len);
}

// user is a cgo.Handle: an integer, made a pointer here so that Go never converts one.
static xs_status xs_go_keys_update(xs_store *st, const char *key, uintptr_t user) {
	return xs_keys_update(st, key, xs_go_key_update_fn, (void *)user);
}
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/cgo"
	"unsafe"
)

// The keyed session store (docs/keyed-store.md): one JSON document, <root>/sessions.json unless
// StoreOptions.KeysPath names another, mapping a host's session keys ("agent:<id>:main",
// "cron:<job>") to records. A record is a JSON object with a string "sessionId"; the fields the
// library knows (title, updatedAt, token counters, ...) must have their types, and every other
// field is the host's, kept token for token and in order. Keys are 1 to 256 bytes of printable
// UTF-8 without '/' or '\'. Every change locks the document against other processes and handles,
// reads it afresh and publishes it atomically; readers take no lock. A refused change (ErrInvalid)
// leaves the document byte for byte; a damaged document gives ErrCorrupt, and the first change
// that meets it moves it aside as "<document>.corrupt-<time>".

// KeyRecord is one record of KeyList.
type KeyRecord struct {
	Key    string          `json:"key"`    // the session key
	Record json.RawMessage `json:"record"` // the record as the library returns it: minified, tokens as stored
}

// KeyGet is the record of key as minified JSON (xs_keys_get); ErrNotFound when there is none.
func (st *Store) KeyGet(key string) ([]byte, error) {
	a := newArgs("Store.KeyGet")
	defer a.free()
	ck := a.str("key", key)
	if a.err != nil {
		return nil, a.err
	}
	return st.h.read(a.op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_keys_get(p, ck, b, c, n)
	})
}

// KeyList is the records whose keys start with prefix ("" = all), in the document's order.
func (st *Store) KeyList(prefix string) ([]KeyRecord, error) {
	const op = "Store.KeyList"
	raw, err := st.keyList(op, prefix)
	if err != nil {
		return nil, err
	}
	var records []KeyRecord
	if err := json.Unmarshal(raw, &records); err != nil {
		return nil, &Error{Code: CodeInternal, Op: op, Message: "xs_keys_list: " + err.Error()}
	}
	return records, nil
}

// KeyListJSON is KeyList as the library's exact JSON, [{"key":...,"record":{...}},...]
// (xs_keys_list).
func (st *Store) KeyListJSON(prefix string) ([]byte, error) {
	return st.keyList("Store.KeyListJSON", prefix)
}

func (st *Store) keyList(op, prefix string) ([]byte, error) {
	a := newArgs(op)
	defer a.free()
	cp := a.opt("prefix", prefix)
	if a.err != nil {
		return nil, a.err
	}
	return st.h.read(a.op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_keys_list(p, cp, b, c, n)
	})
}

// KeyPut replaces the record of key with record, a JSON object; a new key goes last
// (xs_keys_put).
func (st *Store) KeyPut(key string, record []byte) error {
	a := newArgs("Store.KeyPut")
	defer a.free()
	ck := a.str("key", key)
	if a.err != nil {
		return a.err
	}
	return st.h.do(a.op, func(p *C.xs_store) C.xs_status {
		return C.xs_keys_put(p, ck, bytePtr(record), C.size_t(len(record)))
	})
}

// KeyPatch merges patch into the record of key as a JSON merge patch (RFC 7386): null removes a
// field, objects merge, anything else replaces; fields keep their places, new ones go last. A
// missing record starts as {} (so the patch must give it a "sessionId") (xs_keys_patch).
func (st *Store) KeyPatch(key string, patch []byte) error {
	a := newArgs("Store.KeyPatch")
	defer a.free()
	ck := a.str("key", key)
	if a.err != nil {
		return a.err
	}
	return st.h.do(a.op, func(p *C.xs_store) C.xs_status {
		return C.xs_keys_patch(p, ck, bytePtr(patch), C.size_t(len(patch)))
	})
}

// KeyDelete removes the record of key (xs_keys_delete); ErrNotFound when there is none.
func (st *Store) KeyDelete(key string) error {
	a := newArgs("Store.KeyDelete")
	defer a.free()
	ck := a.str("key", key)
	if a.err != nil {
		return a.err
	}
	return st.h.do(a.op, func(p *C.xs_store) C.xs_status { return C.xs_keys_delete(p, ck) })
}

// KeyUpdateFunc decides what a record becomes (KeyUpdate). current is a copy of the record
// (minified) and ok says there is one. It returns one of:
//   - next != nil: the new record (JSON), added last if there was none;
//   - remove: no record (nothing happens if there was none);
//   - neither: the record stays as it is, and nothing is written;
//   - err != nil: cancel. Nothing is written, and KeyUpdate returns an *Error whose Code is
//     err's if err is an *Error (else CodeError) and which unwraps to err.
type KeyUpdateFunc func(current []byte, ok bool) (next []byte, remove bool, err error)

// KeyUpdate runs fn once, under the document's lock, and applies what it decides: a
// read-modify-write that no other process or handle can interleave with (xs_keys_update).
//
// fn runs on the calling goroutine while the store is locked, so it should be quick. A call on
// the same store from inside fn fails with ErrMisuse instead of waiting for ever; fn must not
// wait for another goroutine that uses the store either, nor call runtime.Goexit (t.FailNow).
// A panic in fn is recovered: nothing is written, and KeyUpdate returns an ErrError whose message
// names the panic (and which unwraps to the panic's value when that is an error).
func (st *Store) KeyUpdate(key string, fn KeyUpdateFunc) error {
	a := newArgs("Store.KeyUpdate")
	defer a.free()
	ck := a.str("key", key)
	if a.err != nil {
		return a.err
	}
	if fn == nil {
		return argError(a.op, "fn is nil")
	}
	u := &keyUpdate{fn: fn, h: &st.h}
	user := cgo.NewHandle(u)
	defer user.Delete()
	defer u.freeNext()
	err := st.h.do(a.op, func(p *C.xs_store) C.xs_status {
		return C.xs_go_keys_update(p, ck, C.uintptr_t(user))
	})
	var xe *Error
	if err == nil || !errors.As(err, &xe) || (!u.panicked && u.err == nil) {
		return err
	}
	if u.panicked {
		xe.Message = fmt.Sprintf("the update function panicked: %v", u.panicValue)
		xe.cause, _ = u.panicValue.(error)
		return xe
	}
	xe.cause = u.err
	var ce *Error
	switch {
	case !errors.As(u.err, &ce):
		xe.Message = "the update function cancelled: " + u.err.Error()
	case ce.Message != "":
		xe.Message = ce.Message
	}
	return xe
}

// keyUpdate is what KeyUpdate shares with its callback, through a cgo.Handle (C may not hold
// a Go pointer).
type keyUpdate struct {
	fn         KeyUpdateFunc
	h          *handle[C.xs_store]
	next       unsafe.Pointer // C copy of the new record: the library borrows it until the callback returns
	err        error          // fn's error
	panicked   bool
	panicValue any
}

func (u *keyUpdate) freeNext() {
	if u.next != nil && u.next != unsafe.Pointer(emptyByte) {
		C.free(u.next)
	}
	u.next = nil
}
