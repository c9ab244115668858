package xsession

/*
#include <xsession.h>
*/
import "C"

// Reading. Every reader returns the library's JSON (or an id) exactly as produced; see
// fill in buffers.go for how the output buffer is sized.

// readFn is the shape of the C readers once their arguments are bound.
type readFn = func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status

// readWith runs a reader whose string arguments are in a.
func (s *Session) readWith(a *cargs, call readFn) ([]byte, error) {
	if a.err != nil {
		return nil, a.err
	}
	return s.h.read(a.op, call)
}

// BuildContext is the context the model sees for the path ending at leafID ("" = the current
// leaf) (xs_build_context): {"leafId","messages":[...],"thinkingLevel","models",...}; a
// pi-dialect session adds pi's "model":{"provider","modelId"} (or null) after "thinkingLevel".
func (s *Session) BuildContext(leafID string) ([]byte, error) {
	a := newArgs("Session.BuildContext")
	defer a.free()
	cl := a.opt("leafID", leafID)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_build_context(p, cl, b, c, n)
	})
}

// Header is the header line, as stored (xs_session_header).
func (s *Session) Header() ([]byte, error) {
	return s.h.read("Session.Header", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_header(p, b, c, n)
	})
}

// Entries is every entry in file order, as a JSON array of the stored lines
// (xs_session_entries).
func (s *Session) Entries(flags ReadFlags) ([]byte, error) {
	return s.h.read("Session.Entries", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_entries(p, C.uint32_t(flags), b, c, n)
	})
}

// Entry is one entry, as stored (xs_session_entry); ErrNotFound for an unknown id.
func (s *Session) Entry(id string, flags ReadFlags) ([]byte, error) {
	a := newArgs("Session.Entry")
	defer a.free()
	ci := a.str("id", id)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_entry(p, ci, C.uint32_t(flags), b, c, n)
	})
}

// Path is the entries from the root down to id ("" = the leaf; an empty array when the leaf is
// none) (xs_session_path). The session's file is FilePath.
func (s *Session) Path(id string, flags ReadFlags) ([]byte, error) {
	a := newArgs("Session.Path")
	defer a.free()
	ci := a.opt("id", id)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_path(p, ci, C.uint32_t(flags), b, c, n)
	})
}

// Children is the direct children of id in file order (xs_session_children).
func (s *Session) Children(id string, flags ReadFlags) ([]byte, error) {
	a := newArgs("Session.Children")
	defer a.free()
	ci := a.str("id", id)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_children(p, ci, C.uint32_t(flags), b, c, n)
	})
}

// Tree is the whole tree, flat, in depth-first pre-order (xs_session_tree):
// [{"id","parentId","depth","children","label"?,"labelTimestamp"?,"entry"}].
func (s *Session) Tree(flags ReadFlags) ([]byte, error) {
	return s.h.read("Session.Tree", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_tree(p, C.uint32_t(flags), b, c, n)
	})
}

// Labels is the live labels in the order they were first set (xs_session_labels):
// [{"targetId","label","timestamp"}].
func (s *Session) Labels() ([]byte, error) {
	return s.h.read("Session.Labels", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_labels(p, b, c, n)
	})
}

// Leaf is the leaf's id, "" when the leaf is none (xs_session_leaf).
func (s *Session) Leaf() (string, error) {
	b, err := s.h.read("Session.Leaf", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_leaf(p, b, c, n)
	})
	return string(b), err
}

// Diagnostics is what the loader skipped or noticed (xs_session_diagnostics):
// [{"line","offset","length","code","reason"}].
func (s *Session) Diagnostics() ([]byte, error) {
	return s.h.read("Session.Diagnostics", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_diagnostics(p, b, c, n)
	})
}

// Info describes the session (xs_session_info): {"id","path","cwd","timestamp","title",
// "parentSession","version","entryCount","leafId","persisted","readOnly","diagnostics",
// "entryTypes"}.
func (s *Session) Info() ([]byte, error) {
	return s.h.read("Session.Info", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_info(p, b, c, n)
	})
}

// Usage is the token and cost totals over every assistant message (xs_session_usage).
func (s *Session) Usage() ([]byte, error) {
	return s.h.read("Session.Usage", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_usage(p, b, c, n)
	})
}
