package xsession

/*
#include <xsession.h>
*/
import "C"

import "runtime"

// Store is an open store: a root directory holding sessions/, blobs/ and terminal-sessions/.
// Safe for concurrent use; see the package documentation.
type Store struct {
	h handle[C.xs_store]
}

// OpenStore opens the store rooted at root (xs_store_new + xs_store_open). Nothing is written
// until needed; a missing root is created on the first write. With StoreInMemory root may be "".
// A ResetPolicy the library refuses (an hour outside 0-23, an unknown time zone) is ErrInvalid.
// With a Storage, root is a path in it: OpenStore stats it (a file there is ErrInvalid).
func OpenStore(root string, opts *StoreOptions) (*Store, error) {
	const op = "OpenStore"
	a := newArgs(op)
	defer a.free()
	croot := a.opt("root", root)
	if a.err != nil {
		return nil, a.err
	}
	var o C.xs_store_options
	if rc := C.xs_store_options_init(&o, C.XS_STORE_OPTIONS_VERSION); rc != C.XS_OK {
		return nil, &Error{Code: Code(rc), Op: op, Message: "xs_store_options_init failed"}
	}
	if opts != nil {
		o.flags = C.uint32_t(opts.Flags)
		o.keys_path = a.opt("KeysPath", opts.KeysPath) // copied by xs_store_open
		o.reset_policy = a.policy(opts.ResetPolicy)    // copied by xs_store_open
		if a.err != nil {
			return nil, a.err
		}
	}
	undo := func() {}
	if opts != nil && opts.Storage != nil {
		t, u, err := storageTable(a, opts.Storage) // the table is copied by xs_store_open
		if err != nil {
			return nil, err
		}
		o.storage, undo = t, u
	}
	p := C.xs_store_new()
	if p == nil {
		undo()
		return nil, &Error{Code: CodeNoMem, Op: op, Message: "xs_store_new: out of memory"}
	}
	if rc := C.xs_store_open(p, croot, &o); rc != C.XS_OK {
		err := &Error{Code: Code(rc), Op: op, Message: C.GoString(C.xs_store_errmsg(p))}
		C.xs_store_free(p)
		undo() // a failed open leaves the table's user to us; Release does not run
		return nil, err
	}
	st := &Store{h: handle[C.xs_store]{
		p:       p,
		errmsg:  func(p *C.xs_store) *C.char { return C.xs_store_errmsg(p) },
		errcode: func(p *C.xs_store) C.xs_status { return C.xs_store_errcode(p) },
	}}
	runtime.SetFinalizer(st, (*Store).Close)
	return st, nil
}

// Close releases the store (xs_store_free). Sessions and histories opened from it stay valid and
// must still be closed. Closing again does nothing. It returns nil, except from inside a KeyUpdate or
// archive progress function of this store (ErrMisuse: the store stays open).
func (st *Store) Close() error {
	if err := st.h.reentered("Store.Close"); err != nil {
		return err
	}
	st.h.mu.Lock()
	defer st.h.mu.Unlock()
	st.h.close(func(p *C.xs_store) { C.xs_store_free(p) })
	runtime.SetFinalizer(st, nil)
	return nil
}

// LastError is the error the store's last call left (xs_store_errcode, xs_store_errmsg); nil
// after a success. Calls report their own errors, so this is for diagnostics only.
func (st *Store) LastError() error { return st.h.lastError("Store.LastError") }

// SessionDir is the directory that holds the sessions of working directory cwd
// (xs_store_session_dir).
func (st *Store) SessionDir(cwd string) (string, error) {
	a := newArgs("Store.SessionDir")
	defer a.free()
	ccwd := a.str("cwd", cwd)
	return st.readString(a, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_store_session_dir(p, ccwd, b, c, n)
	})
}

// Resolve is the path of the session whose id or file name starts with query (xs_store_resolve);
// cwd ("" = none) is searched first. ErrAmbiguous names the candidates in its message.
func (st *Store) Resolve(query, cwd string) (string, error) {
	a := newArgs("Store.Resolve")
	defer a.free()
	cq, ccwd := a.str("query", query), a.opt("cwd", cwd)
	return st.readString(a, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_store_resolve(p, cq, ccwd, b, c, n)
	})
}

// WriteBreadcrumb records that terminal terminalID uses sessionPath in cwd
// (xs_store_write_breadcrumb), for ContinueRecent.
func (st *Store) WriteBreadcrumb(terminalID, cwd, sessionPath string) error {
	a := newArgs("Store.WriteBreadcrumb")
	defer a.free()
	ct, ccwd, cp := a.str("terminalID", terminalID), a.str("cwd", cwd), a.str("sessionPath", sessionPath)
	if a.err != nil {
		return a.err
	}
	return st.h.do(a.op, func(p *C.xs_store) C.xs_status { return C.xs_store_write_breadcrumb(p, ct, ccwd, cp) })
}

// List is the store's sessions, newest (file time) first (xs_store_list).
func (st *Store) List(opts *ListOptions) ([]SessionListing, error) {
	raw, err := st.ListJSON(opts)
	return decodeResult[[]SessionListing]("Store.List", raw, err)
}

// ListJSON is List as the library's JSON.
func (st *Store) ListJSON(opts *ListOptions) ([]byte, error) {
	a := newArgs("Store.List")
	defer a.free()
	o, err := opts.toC(a)
	if err != nil {
		return nil, err
	}
	return st.h.read(a.op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_store_list(p, &o, b, c, n)
	})
}

// Create starts a new session for working directory cwd (xs_session_create). Nothing is written
// until the first assistant message unless opts has SessionNoDefer.
func (st *Store) Create(cwd string, opts *SessionOptions) (*Session, error) {
	a := newArgs("Store.Create")
	defer a.free()
	ccwd := a.str("cwd", cwd)
	return openSession(&st.h, a, opts, func(p *C.xs_store, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_session_create(p, ccwd, o, out)
	})
}

// Open opens the session file at pathOrID (xs_session_open); a value without '/' that names no
// file is taken as a session id or id prefix.
func (st *Store) Open(pathOrID string, opts *SessionOptions) (*Session, error) {
	a := newArgs("Store.Open")
	defer a.free()
	cp := a.str("pathOrID", pathOrID)
	return openSession(&st.h, a, opts, func(p *C.xs_store, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_session_open(p, cp, o, out)
	})
}

// ContinueRecent opens the most recent session of cwd for writing (xs_session_continue_recent):
// the one terminal terminalID ("" = none) last used, else the newest, else a new one.
func (st *Store) ContinueRecent(cwd, terminalID string, opts *SessionOptions) (*Session, error) {
	a := newArgs("Store.ContinueRecent")
	defer a.free()
	ccwd, ct := a.str("cwd", cwd), a.opt("terminalID", terminalID)
	return openSession(&st.h, a, opts, func(p *C.xs_store, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_session_continue_recent(p, ccwd, ct, o, out)
	})
}

// ForkFrom copies the session file sourcePath into a new session for targetCwd
// (xs_session_fork_from); the source is only read.
func (st *Store) ForkFrom(sourcePath, targetCwd string, opts *SessionOptions) (*Session, error) {
	a := newArgs("Store.ForkFrom")
	defer a.free()
	cs, ct := a.str("sourcePath", sourcePath), a.str("targetCwd", targetCwd)
	return openSession(&st.h, a, opts, func(p *C.xs_store, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_session_fork_from(p, cs, ct, o, out)
	})
}

// readString is a text read whose result is a path or an id.
func (st *Store) readString(a *cargs, call func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status) (string, error) {
	if a.err != nil {
		return "", a.err
	}
	b, err := st.h.read(a.op, call)
	return string(b), err
}
