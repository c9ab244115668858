package xsession

/*
#include <xsession.h>
*/
import "C"

import "runtime"

// Session is one open transcript. Safe for concurrent use; see the package documentation. A
// writable session holds its file's writer lock until Close.
type Session struct {
	h handle[C.xs_session]
}

func wrapSession(p *C.xs_session) *Session {
	s := &Session{h: handle[C.xs_session]{
		p:       p,
		errmsg:  func(p *C.xs_session) *C.char { return C.xs_session_errmsg(p) },
		errcode: func(p *C.xs_session) C.xs_status { return C.xs_session_errcode(p) },
	}}
	// Only a safety net: a forgotten session keeps its writer lock and descriptor until the
	// collector gets to it, which may be never.
	runtime.SetFinalizer(s, (*Session).Close)
	return s
}

// Close flushes the session (xs_session_flush), releases its writer lock and frees the handle
// (xs_session_close). The handle is released even when the flush fails; the error is the
// flush's (for example ErrPoisoned). Closing again does nothing and returns nil.
func (s *Session) Close() error {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if s.h.p == nil {
		return nil
	}
	// xs_session_close flushes too but cannot report; flushing first is how Close can.
	err := s.h.check("Session.Close", C.xs_session_flush(s.h.p))
	s.h.close(func(p *C.xs_session) { C.xs_session_close(p) })
	runtime.SetFinalizer(s, nil)
	return err
}

// LastError is the error the session's last call left (xs_session_errcode,
// xs_session_errmsg); nil after a success. Calls report their own errors, so this is for
// diagnostics only.
func (s *Session) LastError() error { return s.h.lastError("Session.LastError") }

// Flush makes everything appended so far durable (xs_session_flush).
func (s *Session) Flush() error {
	return s.h.do("Session.Flush", func(p *C.xs_session) C.xs_status { return C.xs_session_flush(p) })
}

// Persist writes a deferred session to disk now, ending the deferral (xs_session_persist).
func (s *Session) Persist() error {
	return s.h.do("Session.Persist", func(p *C.xs_session) C.xs_status { return C.xs_session_persist(p) })
}

// Reload picks up entries another process appended (xs_session_reload), on a read-only session,
// and returns the change in the number of entries.
func (s *Session) Reload() (int64, error) {
	var added C.int64_t
	err := s.h.do("Session.Reload", func(p *C.xs_session) C.xs_status { return C.xs_session_reload(p, &added) })
	return int64(added), err
}

// MoveTo moves the session (its file and artifacts directory) to working directory newCwd and
// rewrites the header's cwd (xs_session_move_to).
func (s *Session) MoveTo(newCwd string) error {
	a := newArgs("Session.MoveTo")
	defer a.free()
	cc := a.str("newCwd", newCwd)
	if a.err != nil {
		return a.err
	}
	return s.h.do(a.op, func(p *C.xs_session) C.xs_status { return C.xs_session_move_to(p, cc) })
}

// Fork copies this session under a new id beside it (xs_session_fork) and returns the new
// session; s stays open on the original.
func (s *Session) Fork(opts *SessionOptions) (*Session, error) {
	a := newArgs("Session.Fork")
	defer a.free()
	return openSession(&s.h, a, opts, func(p *C.xs_session, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_session_fork(p, o, out)
	})
}

// CreateBranched makes a new session holding the path from the root to leafID ("" = the
// current leaf) with its labels (xs_session_create_branched).
func (s *Session) CreateBranched(leafID string, opts *SessionOptions) (*Session, error) {
	a := newArgs("Session.CreateBranched")
	defer a.free()
	cl := a.opt("leafID", leafID)
	return openSession(&s.h, a, opts, func(p *C.xs_session, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_session_create_branched(p, cl, o, out)
	})
}

// openSession runs a session constructor under the lock of h, the handle its errors are
// reported on (the store, or the session being forked).
func openSession[T any](h *handle[T], a *cargs, opts *SessionOptions,
	call func(p *T, o *C.xs_session_options, out **C.xs_session) C.xs_status) (*Session, error) {
	if a.err != nil {
		return nil, a.err
	}
	o, err := opts.toC(a)
	if err != nil {
		return nil, err
	}
	var out *C.xs_session
	if err := h.do(a.op, func(p *T) C.xs_status { return call(p, &o, &out) }); err != nil {
		return nil, err
	}
	return wrapSession(out), nil
}

// Dialect is the dialect the session writes, DialectOmp or DialectPi (xs_session_dialect): the
// forced one, else the file's own, else the store's default. Allowed on read-only sessions.
func (s *Session) Dialect() (Dialect, error) {
	var d C.uint32_t
	err := s.h.do("Session.Dialect", func(p *C.xs_session) C.xs_status { return C.xs_session_dialect(p, &d) })
	return Dialect(d), err
}

// FilePath is the session's file path: the "path" of Info. (Path is the entries from the root
// to an entry.)
func (s *Session) FilePath() (string, error) {
	info, err := s.Info()
	if err != nil {
		return "", err
	}
	return info.Path, nil
}
