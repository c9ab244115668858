package xsession

/*
#include <xsession.h>
*/
import "C"

// The appends that take a C struct. Text inside a struct is copied into C memory (see cargs).

// Compaction is the content of a "compaction" entry.
type Compaction struct {
	Summary          string // required
	ShortSummary     string // "" = absent
	FirstKeptEntryID string // required (not checked against the tree)
	TokensBefore     int64  // the context size, in tokens, before the compaction
	Details          []byte // JSON, nil = absent
	PreserveData     []byte // JSON, nil = absent
	FromExtension    *bool  // nil = absent
}

// AppendCompaction appends a "compaction" entry (xs_append_compaction).
func (s *Session) AppendCompaction(c Compaction) (string, error) {
	a := newArgs("Session.AppendCompaction")
	defer a.free()
	var cc C.xs_compaction
	if rc := C.xs_compaction_init(&cc, C.XS_COMPACTION_VERSION); rc != C.XS_OK {
		return "", &Error{Code: Code(rc), Op: a.op, Message: "xs_compaction_init failed"}
	}
	cc.from_extension = triState(c.FromExtension)
	cc.summary, cc.summary_len = a.text(c.Summary)
	cc.short_summary, cc.short_summary_len = a.optText(c.ShortSummary)
	cc.first_kept_entry_id = a.str("FirstKeptEntryID", c.FirstKeptEntryID)
	cc.tokens_before = C.int64_t(c.TokensBefore)
	cc.details_json, cc.details_len = a.json(c.Details)
	cc.preserve_data_json, cc.preserve_data_len = a.json(c.PreserveData)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_compaction(p, &cc, id)
	})
}

// CustomMessage is the content of a "custom_message" entry: an extension's message, part of
// the context.
type CustomMessage struct {
	CustomType  string // required
	Content     []byte // required JSON: a string or an array of content blocks
	Hidden      bool   // display: false (the default shows it)
	Details     []byte // JSON, nil = absent
	Attribution string // "" = "agent"
}

// AppendCustomMessage appends a "custom_message" entry (xs_append_custom_message).
func (s *Session) AppendCustomMessage(m CustomMessage) (string, error) {
	a := newArgs("Session.AppendCustomMessage")
	defer a.free()
	var cm C.xs_custom_message
	if rc := C.xs_custom_message_init(&cm, C.XS_CUSTOM_MESSAGE_VERSION); rc != C.XS_OK {
		return "", &Error{Code: Code(rc), Op: a.op, Message: "xs_custom_message_init failed"}
	}
	if m.Hidden {
		cm.display = 0
	}
	cm.custom_type = a.str("CustomType", m.CustomType)
	cm.content_json, cm.content_len = a.json(nonNil(m.Content))
	cm.details_json, cm.details_len = a.json(m.Details)
	cm.attribution = a.opt("Attribution", m.Attribution)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_custom_message(p, &cm, id)
	})
}

// SessionInitEntry is the content of a "session_init" entry (xs_session_init_entry).
type SessionInitEntry struct {
	SystemPrompt string // the agent's system prompt
	Task         string // the task the session was started for
	Tools        []byte // required JSON array of tool names
	OutputSchema []byte // JSON, nil = absent
}

// AppendSessionInit appends a "session_init" entry (xs_append_session_init).
func (s *Session) AppendSessionInit(si SessionInitEntry) (string, error) {
	a := newArgs("Session.AppendSessionInit")
	defer a.free()
	var c C.xs_session_init_entry
	if rc := C.xs_session_init_entry_init(&c, C.XS_SESSION_INIT_ENTRY_VERSION); rc != C.XS_OK {
		return "", &Error{Code: Code(rc), Op: a.op, Message: "xs_session_init_entry_init failed"}
	}
	c.system_prompt, c.system_prompt_len = a.text(si.SystemPrompt)
	c.task, c.task_len = a.text(si.Task)
	c.tools_json, c.tools_len = a.json(nonNil(si.Tools))
	c.output_schema_json, c.output_schema_len = a.json(si.OutputSchema)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_append_session_init(p, &c, id)
	})
}

// BranchSummary is a branch made durable: see Session.BranchWithSummary.
type BranchSummary struct {
	FromID        string // the entry to branch from; "" = a new root ("fromId": "root")
	Summary       string // what the abandoned path did
	Details       []byte // JSON, nil = absent
	FromExtension *bool  // nil = absent
}

// BranchWithSummary moves the leaf to b.FromID and appends a "branch_summary" there
// (xs_session_branch_with_summary): the durable way to branch, since the leaf itself is not
// persisted.
func (s *Session) BranchWithSummary(b BranchSummary) (string, error) {
	a := newArgs("Session.BranchWithSummary")
	defer a.free()
	cf := a.opt("FromID", b.FromID)
	cs, csn := a.text(b.Summary)
	cd, cdn := jsonArg(b.Details)
	return s.appendEntry(a, func(p *C.xs_session, id *C.char) C.xs_status {
		return C.xs_session_branch_with_summary(p, cf, cs, csn, cd, cdn, triState(b.FromExtension), id)
	})
}

// nonNil turns a missing required JSON argument into empty text, which the library refuses
// with ErrInvalid (rather than the binding passing NULL for a field that is not optional).
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
