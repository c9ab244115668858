package xsession

/*
#include <xsession.h>
*/
import "C"

// Writing. Every append adds one entry whose parent is the current leaf, moves the leaf to it
// and returns the new entry's id. A failed append leaves the session as it was. JSON arguments
// are stored token for token (minified); nil []byte means "absent" where the C API allows NULL.
// An entry or field with no form in the session's Dialect fails with ErrDialect: in a pi
// session the omp-only entries (ttsr_injection, session_init, mode_change), a model_change role,
// a compaction's short summary or preserved data, a custom message's attribution; in an omp
// session AppendSessionInfo.

// appendEntry runs an append under the lock and returns the id the library wrote into id_out.
func (s *Session) appendEntry(a *cargs, call func(p *C.xs_session, id *C.char) C.xs_status) (string, error) {
	if a.err != nil {
		return "", a.err
	}
	var id [C.XS_ID_BUFSIZE]C.char
	if err := s.h.do(a.op, func(p *C.xs_session) C.xs_status { return call(p, &id[0]) }); err != nil {
		return "", err
	}
	return C.GoString(&id[0]), nil
}

// Append appends a whole entry given as a JSON object with a string "type" (xs_append). The
// session adds "id" (unless given), "parentId" and "timestamp" (unless given).
func (s *Session) Append(entry []byte) (string, error) {
	return s.appendEntry(newArgs("Session.Append"), func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append(p, bytePtr(entry), C.size_t(len(entry)), id)
	})
}

// AppendMessage appends a "message" entry; message is the AgentMessage JSON object, with a
// string "role" (xs_append_message). The first assistant message ends the deferral.
func (s *Session) AppendMessage(message []byte) (string, error) {
	return s.appendEntry(newArgs("Session.AppendMessage"), func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_message(p, bytePtr(message), C.size_t(len(message)), id)
	})
}

// AppendThinkingLevel appends a "thinking_level_change" to level (xs_append_thinking_level).
func (s *Session) AppendThinkingLevel(level string) (string, error) {
	a := newArgs("Session.AppendThinkingLevel")
	defer a.free()
	cl := a.str("level", level)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_thinking_level(p, cl, id)
	})
}

// AppendNullThinkingLevel appends a "thinking_level_change" whose level is null.
func (s *Session) AppendNullThinkingLevel() (string, error) {
	return s.appendEntry(newArgs("Session.AppendNullThinkingLevel"), func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_thinking_level(p, nil, id)
	})
}

// AppendModelChange appends a "model_change" to model ("provider/id") for role ("" = absent,
// the default role) (xs_append_model_change).
func (s *Session) AppendModelChange(model, role string) (string, error) {
	a := newArgs("Session.AppendModelChange")
	defer a.free()
	cm, cr := a.str("model", model), a.opt("role", role)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_model_change(p, cm, cr, id)
	})
}

// AppendCustom appends a "custom" entry: extension state, never part of the context
// (xs_append_custom). data is JSON, nil = absent.
func (s *Session) AppendCustom(customType string, data []byte) (string, error) {
	a := newArgs("Session.AppendCustom")
	defer a.free()
	ct := a.str("customType", customType)
	cd, cn := jsonArg(data)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_custom(p, ct, cd, cn, id)
	})
}

// AppendLabel appends a "label" entry setting targetID's label (xs_append_label); "" is a
// label too (use ClearLabel to remove one). Labels are global: the last one wins.
func (s *Session) AppendLabel(targetID, label string) (string, error) {
	a := newArgs("Session.AppendLabel")
	defer a.free()
	ct, cl := a.str("targetID", targetID), a.str("label", label)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_label(p, ct, cl, id)
	})
}

// ClearLabel appends a "label" entry without a label: targetID's label is removed.
func (s *Session) ClearLabel(targetID string) (string, error) {
	a := newArgs("Session.ClearLabel")
	defer a.free()
	ct := a.str("targetID", targetID)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_label(p, ct, nil, id)
	})
}

// AppendTTSRInjection appends a "ttsr_injection"; rules is a JSON array of rule names
// (xs_append_ttsr_injection).
func (s *Session) AppendTTSRInjection(rules []byte) (string, error) {
	return s.appendEntry(newArgs("Session.AppendTTSRInjection"), func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_ttsr_injection(p, bytePtr(rules), C.size_t(len(rules)), id)
	})
}

// AppendModeChange appends a "mode_change" {mode, data?}; data is JSON, nil = absent
// (xs_append_mode_change).
func (s *Session) AppendModeChange(mode string, data []byte) (string, error) {
	a := newArgs("Session.AppendModeChange")
	defer a.free()
	cm := a.str("mode", mode)
	cd, cn := jsonArg(data)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_mode_change(p, cm, cd, cn, id)
	})
}

// SetLeaf moves the leaf to entry id (xs_session_set_leaf); ErrNotFound for an unknown id, ""
// included, and the leaf stays where it was. Nothing is written: a reopened session's leaf is its
// last entry again. ClearLeaf sets the leaf to none.
func (s *Session) SetLeaf(id string) error {
	a := newArgs("Session.SetLeaf")
	defer a.free()
	ci := a.str("id", id)
	if a.err != nil {
		return a.err
	}
	return s.h.do(a.op, func(p *C.xs_session) C.xs_status { return C.xs_session_set_leaf(p, ci) })
}

// ClearLeaf sets the leaf to none, so the next append starts a new root (xs_session_set_leaf
// with NULL).
func (s *Session) ClearLeaf() error {
	return s.h.do("Session.ClearLeaf", func(p *C.xs_session) C.xs_status { return C.xs_session_set_leaf(p, nil) })
}

// SetTitle sets the session's title (xs_session_set_title). In the omp dialect it is the
// header's, the file rewritten atomically when on disk; in the pi dialect it appends a
// session_info entry, as AppendSessionInfo does.
func (s *Session) SetTitle(title string) error {
	a := newArgs("Session.SetTitle")
	defer a.free()
	ct, cn := a.text(title)
	return s.h.do(a.op, func(p *C.xs_session) C.xs_status { return C.xs_session_set_title(p, ct, cn) })
}

// RemoveTitle removes the title (xs_session_set_title with NULL): from the header (omp), or
// by a session_info entry with an empty name (pi).
func (s *Session) RemoveTitle() error {
	return s.h.do("Session.RemoveTitle", func(p *C.xs_session) C.xs_status { return C.xs_session_set_title(p, nil, 0) })
}

// AppendSessionInfo appends pi's title entry {"type":"session_info",...,"name"}, the name trimmed
// of leading and trailing white space as JavaScript's trim() does (xs_append_session_info). The
// title is the name of the last session_info entry; "" clears it. Only in the pi dialect: an omp
// session keeps its title in the header (SetTitle) and refuses this with ErrDialect.
func (s *Session) AppendSessionInfo(name string) (string, error) {
	a := newArgs("Session.AppendSessionInfo")
	defer a.free()
	cn, cl := a.text(name)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_session_info(p, cn, cl, id)
	})
}
