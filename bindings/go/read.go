package xsession

/*
#include <xsession.h>
*/
import "C"

// Reading. Every reader returns typed values (results.go, entry.go) decoded from the library's
// JSON; object results keep that JSON in Raw, and each reader of an array has a ...JSON twin that
// returns the library's bytes. See fill in buffers.go for how the output buffer is sized.

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
// leaf) (xs_build_context); a pi-dialect session's has HasModel. Its messages are typed, their
// content stays JSON (Message.Text is the text).
func (s *Session) BuildContext(leafID string) (*ModelContext, error) {
	raw, err := s.buildContext("Session.BuildContext", leafID)
	return decodeObject[ModelContext]("Session.BuildContext", raw, err)
}

func (s *Session) buildContext(op, leafID string) ([]byte, error) {
	a := newArgs(op)
	defer a.free()
	cl := a.opt("leafID", leafID)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_build_context(p, cl, b, c, n)
	})
}

// Header is the header line (xs_session_header); Raw is the line as stored.
func (s *Session) Header() (*Header, error) {
	raw, err := s.h.read("Session.Header", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_header(p, b, c, n)
	})
	return decodeObject[Header]("Session.Header", raw, err)
}

// Entries is every entry in file order (xs_session_entries); EntriesJSON is the library's JSON.
func (s *Session) Entries(flags ReadFlags) ([]Entry, error) {
	raw, err := s.EntriesJSON(flags)
	return decodeResult[[]Entry]("Session.Entries", raw, err)
}

// EntriesJSON is Entries as the library's JSON: an array of the stored lines.
func (s *Session) EntriesJSON(flags ReadFlags) ([]byte, error) {
	return s.h.read("Session.Entries", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_entries(p, C.uint32_t(flags), b, c, n)
	})
}

// Entry is one entry (xs_session_entry), Raw as stored; ErrNotFound for an unknown id.
func (s *Session) Entry(id string, flags ReadFlags) (*Entry, error) {
	a := newArgs("Session.Entry")
	defer a.free()
	ci := a.str("id", id)
	raw, err := s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_entry(p, ci, C.uint32_t(flags), b, c, n)
	})
	return decodeObject[Entry](a.op, raw, err)
}

// Path is the entries from the root down to id ("" = the leaf; empty when the leaf is none)
// (xs_session_path). The session's file is FilePath.
func (s *Session) Path(id string, flags ReadFlags) ([]Entry, error) {
	raw, err := s.PathJSON(id, flags)
	return decodeResult[[]Entry]("Session.Path", raw, err)
}

// PathJSON is Path as the library's JSON.
func (s *Session) PathJSON(id string, flags ReadFlags) ([]byte, error) {
	a := newArgs("Session.Path")
	defer a.free()
	ci := a.opt("id", id)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_path(p, ci, C.uint32_t(flags), b, c, n)
	})
}

// Children is the direct children of id in file order (xs_session_children).
func (s *Session) Children(id string, flags ReadFlags) ([]Entry, error) {
	raw, err := s.ChildrenJSON(id, flags)
	return decodeResult[[]Entry]("Session.Children", raw, err)
}

// ChildrenJSON is Children as the library's JSON.
func (s *Session) ChildrenJSON(id string, flags ReadFlags) ([]byte, error) {
	a := newArgs("Session.Children")
	defer a.free()
	ci := a.str("id", id)
	return s.readWith(a, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_children(p, ci, C.uint32_t(flags), b, c, n)
	})
}

// Tree is the whole tree, flat, in depth-first pre-order, children oldest first
// (xs_session_tree).
func (s *Session) Tree(flags ReadFlags) ([]TreeNode, error) {
	raw, err := s.TreeJSON(flags)
	return decodeResult[[]TreeNode]("Session.Tree", raw, err)
}

// TreeJSON is Tree as the library's JSON.
func (s *Session) TreeJSON(flags ReadFlags) ([]byte, error) {
	return s.h.read("Session.Tree", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_tree(p, C.uint32_t(flags), b, c, n)
	})
}

// Labels is the live labels in the order they were first set (xs_session_labels).
func (s *Session) Labels() ([]Label, error) {
	raw, err := s.LabelsJSON()
	return decodeResult[[]Label]("Session.Labels", raw, err)
}

// LabelsJSON is Labels as the library's JSON.
func (s *Session) LabelsJSON() ([]byte, error) {
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

// Diagnostics is what the loader skipped or noticed (xs_session_diagnostics).
func (s *Session) Diagnostics() ([]Diagnostic, error) {
	raw, err := s.DiagnosticsJSON()
	return decodeResult[[]Diagnostic]("Session.Diagnostics", raw, err)
}

// DiagnosticsJSON is Diagnostics as the library's JSON.
func (s *Session) DiagnosticsJSON() ([]byte, error) {
	return s.h.read("Session.Diagnostics", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_diagnostics(p, b, c, n)
	})
}

// Info describes the session (xs_session_info).
func (s *Session) Info() (*SessionInfo, error) {
	raw, err := s.h.read("Session.Info", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_info(p, b, c, n)
	})
	return decodeObject[SessionInfo]("Session.Info", raw, err)
}

// Usage is the token and cost totals over every assistant message (xs_session_usage).
func (s *Session) Usage() (*Usage, error) {
	raw, err := s.h.read("Session.Usage", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_usage(p, b, c, n)
	})
	return decodeObject[Usage]("Session.Usage", raw, err)
}
