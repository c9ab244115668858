package xsession

import "encoding/json"

// The typed results of the session readers. Each decodes the library's JSON as documented in
// capi/include/xsession.h and docs/; encoding one with encoding/json gives the same JSON value
// back (members in the struct's order). Caller-owned JSON (message content, entry data and
// details, key records) stays json.RawMessage. Raw is the library's exact bytes.

// decodeObject decodes a reader's object output (an op's failure stays that error).
func decodeObject[T any](op string, raw []byte, err error) (*T, error) {
	v, err := decodeResult[T](op, raw, err)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// decodeResult decodes a reader's output into a fresh T, and sets its Raw.
func decodeResult[T any](op string, raw []byte, err error) (T, error) {
	var v T
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, &Error{Code: CodeInternal, Op: op, Message: "the library's JSON does not decode: " + err.Error()}
	}
	if r, ok := any(&v).(interface{ setRaw([]byte) }); ok {
		r.setRaw(raw)
	}
	return v, nil
}

// rawField is embedded in every object result: its Raw is the library's exact output.
type rawField struct {
	Raw json.RawMessage `json:"-"` // the library's JSON, byte for byte
}

func (r *rawField) setRaw(b []byte) { r.Raw = b }

// Header is a session's header line (docs/format.md#the-header).
type Header struct {
	Type          string          // "session"
	Version       json.RawMessage // "version", as stored; nil: absent
	ID            string          // id
	Timestamp     string          // ISO 8601 time, as stored
	Cwd           string          // working directory
	Title         *string         // nil = absent
	ParentSession *string         // nil = absent
	// Members the binding does not know, as stored (other agents' header fields).
	Extra map[string]json.RawMessage
	Raw   json.RawMessage // the header line, byte for byte
}

func (h *Header) members() []member {
	return []member{{"type", &h.Type, false}, {"version", &h.Version, true}, {"id", &h.ID, false},
		{"timestamp", &h.Timestamp, true}, {"cwd", &h.Cwd, true}, {"title", &h.Title, true},
		{"parentSession", &h.ParentSession, true}}
}

// UnmarshalJSON decodes a header; members it does not know go to Extra.
func (h *Header) UnmarshalJSON(raw []byte) error {
	*h = Header{Raw: rawCopy(raw)}
	extra, err := decodeMembers(raw, h.members())
	h.Extra = extra
	return err
}

func (h *Header) setRaw(b []byte) { h.Raw = b }

// MarshalJSON encodes the header from its fields (not Raw).
func (h Header) MarshalJSON() ([]byte, error) { return encodeMembers(h.members(), h.Extra) }

// ModelContext is what the model sees for a path (xs_build_context; docs/context.md).
type ModelContext struct {
	LeafID        *string           `json:"leafId"`        // nil: the leaf is none
	Messages      []Message         `json:"messages"`      // messages the model sees
	ThinkingLevel *string           `json:"thinkingLevel"` // thinking level; nil: null
	Models        map[string]string `json:"models"`        // role -> "provider/id"
	// pi dialect only (HasModel): pi's current model, nil for null.
	Model                        *PiModel        `json:"-"`
	HasModel                     bool            `json:"-"`                                      // pi dialect: the context has "model"
	InjectedTTSRRules            []string        `json:"injectedTtsrRules"`                      // injected TTSR rules
	Mode                         string          `json:"mode"`                                   // mode name
	ModeData                     json.RawMessage `json:"modeData,omitempty"`                     // mode data, caller JSON; nil: absent
	ServiceTier                  json.RawMessage `json:"serviceTier,omitempty"`                  // service tier as stored; nil: absent
	SelectedMCPToolNames         *[]string       `json:"selectedMCPToolNames,omitempty"`         // selected MCP tools; nil: absent
	HasPersistedMCPToolSelection *bool           `json:"hasPersistedMCPToolSelection,omitempty"` // nil: absent
	rawField
}

// PiModel is pi's {"provider","modelId"}.
type PiModel struct {
	Provider string `json:"provider"` // provider
	ModelID  string `json:"modelId"`  // model id
}

type modelContextFields ModelContext // without the methods

// UnmarshalJSON decodes a context, noting whether it has pi's "model".
func (c *ModelContext) UnmarshalJSON(raw []byte) (err error) {
	c.HasModel, err = decodeWithOptional(raw, (*modelContextFields)(c), "model", &c.Model)
	return err
}

// MarshalJSON encodes the context from its fields, with "model" when HasModel.
func (c ModelContext) MarshalJSON() ([]byte, error) {
	return encodeWithOptional(modelContextFields(c), c.HasModel, "model", c.Model)
}

// TreeNode is one node of Session.Tree, in depth-first pre-order.
type TreeNode struct {
	ID             string   `json:"id"`                       // id
	ParentID       *string  `json:"parentId"`                 // nil for roots and orphans
	Depth          int      `json:"depth"`                    // depth from its root (0)
	Children       []string `json:"children"`                 // child ids, oldest first
	Label          *string  `json:"label,omitempty"`          // label text
	LabelTimestamp *string  `json:"labelTimestamp,omitempty"` // when the label was set; nil: none
	Entry          Entry    `json:"entry"`                    // the entry
}

// Label is one live label (Session.Labels).
type Label struct {
	TargetID  string `json:"targetId"`  // labelled entry
	Label     string `json:"label"`     // label text
	Timestamp string `json:"timestamp"` // ISO 8601 time, as stored
}

// Diagnostic is something the loader skipped or noticed (Session.Diagnostics), a problem of
// Session.Verify (with Fixable) or a fix of Session.Repair. Code is one of docs/format.md's
// diagnostic codes.
type Diagnostic struct {
	Line    int64  `json:"line"`              // line, from 1 (0: the file as a whole)
	Offset  int64  `json:"offset"`            // byte offset of the line
	Length  int64  `json:"length"`            // bytes of the line, without its newline
	Code    string `json:"code"`              // diagnostic code (docs/format.md#diagnostic-codes)
	Reason  string `json:"reason"`            // why
	Fixable *bool  `json:"fixable,omitempty"` // Verify's problems only
}

// SessionInfo describes an open session (Session.Info).
type SessionInfo struct {
	ID            string           `json:"id"`            // id
	Path          string           `json:"path"`          // file path
	Cwd           string           `json:"cwd"`           // working directory
	Timestamp     string           `json:"timestamp"`     // ISO 8601 time, as stored
	Title         *string          `json:"title"`         // title; nil: none
	ParentSession *string          `json:"parentSession"` // parent session (id or path); nil: none
	Version       json.RawMessage  `json:"version"`       // file version, as stored (a number, or whatever a foreign file holds)
	Dialect       string           `json:"dialect"`       // "omp" or "pi"
	EntryCount    int64            `json:"entryCount"`    // entries
	LeafID        *string          `json:"leafId"`        // leaf; nil: none
	Persisted     bool             `json:"persisted"`     // the file is on disk
	ReadOnly      bool             `json:"readOnly"`      // opened read-only
	Archived      bool             `json:"archived"`      // an archive (read-only)
	Diagnostics   int64            `json:"diagnostics"`   // diagnostics the load noted
	EntryTypes    map[string]int64 `json:"entryTypes"`    // type -> count
	rawField
}

// Usage is the token and cost totals over every assistant message (Session.Usage).
type Usage struct {
	Input             int64   `json:"input"`             // input tokens
	Output            int64   `json:"output"`            // output tokens
	CacheRead         int64   `json:"cacheRead"`         // cache-read tokens
	CacheWrite        int64   `json:"cacheWrite"`        // cache-write tokens
	PremiumRequests   float64 `json:"premiumRequests"`   // premium requests
	Cost              float64 `json:"cost"`              // cost total
	AssistantMessages int64   `json:"assistantMessages"` // assistant messages counted
	rawField
}

// Stats is a session's counters (Session.Stats; docs/session-stats.md).
type Stats struct {
	InputTokens     int64            `json:"inputTokens"`     // input tokens
	OutputTokens    int64            `json:"outputTokens"`    // output tokens
	CacheRead       int64            `json:"cacheRead"`       // cache-read tokens
	CacheWrite      int64            `json:"cacheWrite"`      // cache-write tokens
	TotalTokens     int64            `json:"totalTokens"`     // the four token sums added
	ContextTokens   int64            `json:"contextTokens"`   // the last reply's context on the current path (0 after a compaction)
	Cost            float64          `json:"cost"`            // cost total
	CompactionCount int64            `json:"compactionCount"` // compaction entries
	MessageCounts   map[string]int64 `json:"messageCounts"`   // role -> messages
	ToolCalls       int64            `json:"toolCalls"`       // toolCall blocks of assistant messages
	rawField
}

// ResumeReport is what to know before continuing from a leaf (Session.ResumeCheck).
type ResumeReport struct {
	LeafID           *string           `json:"leafId"`           // leaf; nil: none
	Orphans          []Orphan          `json:"orphans"`          // entries whose parent is missing
	PendingToolCalls []PendingToolCall `json:"pendingToolCalls"` // unanswered tool calls
	rawField
}

// Orphan is an entry whose parentId names no entry.
type Orphan struct {
	ID       string `json:"id"`       // id
	ParentID string `json:"parentId"` // the missing parent
	Line     int64  `json:"line"`     // line, from 1 (0: the whole file)
}

// PendingToolCall is a tool call on the path that no tool result on the path answers.
type PendingToolCall struct {
	EntryID    string `json:"entryId"`    // entry holding the call
	ToolCallID string `json:"toolCallId"` // tool call id
	Name       string `json:"name"`       // tool name
}

// CompactionPlanResult is where a compaction should cut (Session.CompactionPlan).
type CompactionPlanResult struct {
	Needed           bool     `json:"needed"`           // a compaction is due
	FirstKeptEntryID *string  `json:"firstKeptEntryId"` // first entry kept; nil: none
	ToSummarise      []string `json:"toSummarise"`      // ids to summarise, in path order
	TokensBefore     int64    `json:"tokensBefore"`     // context tokens before the compaction
	KeptTokens       int64    `json:"keptTokens"`       // tokens kept
	rawField
}
