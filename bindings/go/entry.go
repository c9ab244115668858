package xsession

import (
	"encoding/json"
	"strings"
)

// Entry is one line of a session (docs/format.md#entries) as the readers return it: the envelope
// every entry has, the members of its type in Body, and whatever else the line holds in Extra.
// An entry of a type this binding does not know (a caller's own, or another agent's) still
// decodes: its Body is *UnknownBody and all its members are in Extra. A member whose value does
// not have the documented type (a foreign file's) stays in Extra too, its field left zero. Raw is
// the line's exact bytes.
type Entry struct {
	Type      string    // entry type
	ID        string    // "" when the line has none
	ParentID  *string   // nil for a root ("parentId": null)
	Timestamp string    // ISO 8601, as stored; "" when the line has none
	Body      EntryBody // members of Type; *UnknownBody for a type not known here
	// Members neither the envelope nor Body knows, as stored (fields of newer or other agents).
	Extra map[string]json.RawMessage
	Raw   json.RawMessage // the entry as the library returned it

	noParentID bool // the line has no "parentId" at all (ParentID nil is then not written as null)
}

// EntryBody is the type-specific part of an Entry: one of *MessageBody, *ThinkingLevelBody,
// *ModelChangeBody, *CompactionBody, *BranchSummaryBody, *CustomBody, *CustomMessageBody,
// *LabelBody, *TTSRInjectionBody, *SessionInitBody, *ModeChangeBody, *SessionInfoBody,
// *ServiceTierChangeBody, *MCPToolSelectionBody or *UnknownBody.
type EntryBody interface {
	members() []member
}

// MessageBody is a "message" entry: one message of the conversation.
type MessageBody struct {
	Message Message // the message
}

// ThinkingLevelBody is a "thinking_level_change" entry.
type ThinkingLevelBody struct {
	ThinkingLevel *string // nil: null
}

// ModelChangeBody is a "model_change" entry: omp's Model ("provider/id") and Role, or pi's
// Provider and ModelID.
type ModelChangeBody struct {
	Model    string // omp; "" = absent
	Role     string // omp; "" = absent (the default role)
	Provider string // pi; "" = absent
	ModelID  string // pi; "" = absent
}

// CompactionBody is a "compaction" entry.
type CompactionBody struct {
	Summary          string          // summary text
	ShortSummary     string          // "" = absent
	FirstKeptEntryID string          // "" = absent (v1 files have firstKeptEntryIndex, in Extra)
	TokensBefore     int64           // context tokens before the compaction
	Details          json.RawMessage // caller JSON; nil = absent
	FromExtension    *bool           // omp; nil = absent
	FromHook         *bool           // pi; nil = absent
	PreserveData     json.RawMessage // caller JSON; nil = absent
}

// BranchSummaryBody is a "branch_summary" entry.
type BranchSummaryBody struct {
	FromID        string          // the entry branched from, or "root"
	Summary       string          // summary text
	Details       json.RawMessage // caller JSON; nil = absent
	FromExtension *bool           // omp; nil = absent
	FromHook      *bool           // pi; nil = absent
}

// CustomBody is a "custom" entry: extension state, never part of the context.
type CustomBody struct {
	CustomType string          // the extension's type name
	Data       json.RawMessage // caller JSON; nil = absent
}

// CustomMessageBody is a "custom_message" entry: an extension's message, part of the context.
type CustomMessageBody struct {
	CustomType  string          // the extension's type name
	Content     json.RawMessage // a string or an array of content blocks
	Display     *bool           // nil = absent            // shown to the user
	Details     json.RawMessage // caller JSON; nil = absent
	Attribution string          // omp; "" = absent
}

// LabelBody is a "label" entry: sets (or, with Label nil, clears) TargetID's label.
type LabelBody struct {
	TargetID string  // labelled entry
	Label    *string // nil = absent
}

// TTSRInjectionBody is a "ttsr_injection" entry.
type TTSRInjectionBody struct {
	InjectedRules []string // rule names
}

// SessionInitBody is a "session_init" entry.
type SessionInitBody struct {
	SystemPrompt string          // system prompt
	Task         string          // task
	Tools        json.RawMessage // a JSON array of tool names
	OutputSchema json.RawMessage // caller JSON; nil = absent
}

// ModeChangeBody is a "mode_change" entry.
type ModeChangeBody struct {
	Mode string          // mode name
	Data json.RawMessage // caller JSON; nil = absent
}

// ServiceTierChangeBody is oh-my-pi's "service_tier_change" entry.
type ServiceTierChangeBody struct {
	ServiceTier json.RawMessage // as stored; nil = absent
}

// MCPToolSelectionBody is oh-my-pi's "mcp_tool_selection" entry.
type MCPToolSelectionBody struct {
	SelectedToolNames *[]string // nil = absent
}

// SessionInfoBody is pi's "session_info" entry: the session's title.
type SessionInfoBody struct {
	Name *string // nil = absent
}

// UnknownBody is the body of an entry whose type this binding does not know: its members are
// all in Entry.Extra.
type UnknownBody struct{}

func (b *MessageBody) members() []member { return []member{{"message", &b.Message, false}} }
func (b *ThinkingLevelBody) members() []member {
	return []member{{"thinkingLevel", &b.ThinkingLevel, false}}
}
func (b *ModelChangeBody) members() []member {
	return []member{{"model", &b.Model, true}, {"role", &b.Role, true}, {"provider", &b.Provider, true},
		{"modelId", &b.ModelID, true}}
}
func (b *CompactionBody) members() []member {
	return []member{{"summary", &b.Summary, false}, {"shortSummary", &b.ShortSummary, true},
		{"firstKeptEntryId", &b.FirstKeptEntryID, true}, {"tokensBefore", &b.TokensBefore, false},
		{"details", &b.Details, true}, {"fromExtension", &b.FromExtension, true}, {"fromHook", &b.FromHook, true},
		{"preserveData", &b.PreserveData, true}}
}
func (b *BranchSummaryBody) members() []member {
	return []member{{"fromId", &b.FromID, false}, {"summary", &b.Summary, false}, {"details", &b.Details, true},
		{"fromExtension", &b.FromExtension, true}, {"fromHook", &b.FromHook, true}}
}
func (b *CustomBody) members() []member {
	return []member{{"customType", &b.CustomType, false}, {"data", &b.Data, true}}
}
func (b *CustomMessageBody) members() []member {
	return []member{{"customType", &b.CustomType, false}, {"content", &b.Content, false},
		{"display", &b.Display, true}, {"details", &b.Details, true}, {"attribution", &b.Attribution, true}}
}
func (b *LabelBody) members() []member {
	return []member{{"targetId", &b.TargetID, false}, {"label", &b.Label, true}}
}
func (b *TTSRInjectionBody) members() []member {
	return []member{{"injectedRules", &b.InjectedRules, false}}
}
func (b *SessionInitBody) members() []member {
	return []member{{"systemPrompt", &b.SystemPrompt, false}, {"task", &b.Task, false},
		{"tools", &b.Tools, false}, {"outputSchema", &b.OutputSchema, true}}
}
func (b *ModeChangeBody) members() []member {
	return []member{{"mode", &b.Mode, false}, {"data", &b.Data, true}}
}
func (b *SessionInfoBody) members() []member { return []member{{"name", &b.Name, true}} }
func (b *ServiceTierChangeBody) members() []member {
	return []member{{"serviceTier", &b.ServiceTier, true}}
}
func (b *MCPToolSelectionBody) members() []member {
	return []member{{"selectedToolNames", &b.SelectedToolNames, true}}
}
func (b *UnknownBody) members() []member { return nil }

// newBody is an empty body for an entry type.
func newBody(typ string) EntryBody {
	switch typ {
	case "message":
		return &MessageBody{}
	case "thinking_level_change":
		return &ThinkingLevelBody{}
	case "model_change":
		return &ModelChangeBody{}
	case "compaction":
		return &CompactionBody{}
	case "branch_summary":
		return &BranchSummaryBody{}
	case "custom":
		return &CustomBody{}
	case "custom_message":
		return &CustomMessageBody{}
	case "label":
		return &LabelBody{}
	case "ttsr_injection":
		return &TTSRInjectionBody{}
	case "session_init":
		return &SessionInitBody{}
	case "mode_change":
		return &ModeChangeBody{}
	case "session_info":
		return &SessionInfoBody{}
	case "service_tier_change":
		return &ServiceTierChangeBody{}
	case "mcp_tool_selection":
		return &MCPToolSelectionBody{}
	}
	return &UnknownBody{}
}

func (e *Entry) envelope() []member {
	return []member{{"type", &e.Type, false}, {"id", &e.ID, true}, {"parentId", &e.ParentID, e.noParentID},
		{"timestamp", &e.Timestamp, true}}
}

// UnmarshalJSON decodes an entry; see Entry.
func (e *Entry) UnmarshalJSON(raw []byte) error {
	*e = Entry{Raw: rawCopy(raw)}
	var head struct {
		Type     string          `json:"type"`
		ParentID json.RawMessage `json:"parentId"`
	}
	json.Unmarshal(raw, &head) // a type that is not a string: an unknown type
	e.Body, e.noParentID = newBody(head.Type), head.ParentID == nil
	extra, err := decodeMembers(raw, append(e.envelope(), e.Body.members()...))
	e.Extra = extra
	return err
}

func (e *Entry) setRaw(b []byte) { e.Raw = b }

// MarshalJSON encodes the entry from its fields (not Raw): the envelope, Body, then Extra.
func (e Entry) MarshalJSON() ([]byte, error) {
	known := e.envelope()
	if e.Body != nil {
		known = append(known, e.Body.members()...)
	}
	return encodeMembers(known, e.Extra)
}

// Message is an agent message (a "message" entry's, or one of a context's): its Role, its
// Content (a string or an array of content blocks, kept as JSON), the Summary of the messages a
// context builds from compactions and branch summaries (roles "compactionSummary" and
// "branchSummary", docs/context.md#constructed-messages), and every other member (timestamp,
// usage, model, ...) as stored in Extra.
type Message struct {
	Role    string                     // "" = absent                     // message role ("user", "assistant", ...)
	Content json.RawMessage            // nil = absent
	Summary *string                    // nil = absent
	Extra   map[string]json.RawMessage // other members, as stored
}

func (m *Message) members() []member {
	return []member{{"role", &m.Role, true}, {"content", &m.Content, true}, {"summary", &m.Summary, true}}
}

// UnmarshalJSON decodes a message; see Message.
func (m *Message) UnmarshalJSON(raw []byte) error {
	*m = Message{}
	extra, err := decodeMembers(raw, m.members())
	m.Extra = extra
	return err
}

// MarshalJSON encodes the message: Role, Content, then Extra.
func (m Message) MarshalJSON() ([]byte, error) { return encodeMembers(m.members(), m.Extra) }

// Text is the message's text: Content when it is a string, else the "text" of its
// {"type":"text"} blocks joined with newlines; for a message without content, its Summary ("" when
// there is none).
func (m *Message) Text() string {
	if m.Content == nil && m.Summary != nil {
		return *m.Summary
	}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
