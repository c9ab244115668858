package xsession

import (
	"encoding/json"
	"fmt"
)

// The typed results of Store.Import (docs/import.md#the-report) and Store.ForeignList
// (docs/import-claude.md#the-listing, docs/import-hosts.md#listing-json).

// ImportReport accounts for every row an import read.
type ImportReport struct {
	Source          string            `json:"source"`          // kind of store read
	Root            string            `json:"root"`            // source directory
	DryRun          bool              `json:"dryRun"`          // nothing was changed
	RowsRead        int64             `json:"rowsRead"`        // rows read
	Imported        int64             `json:"imported"`        // rows imported as messages
	KeptAsCustom    int64             `json:"keptAsCustom"`    // rows kept verbatim as custom entries
	AlreadyImported int64             `json:"alreadyImported"` // rows an earlier import brought in
	Skipped         int64             `json:"skipped"`         // rows skipped
	Sessions        []ImportedSession `json:"sessions"`        // sessions
	SkippedRows     []SkippedRow      `json:"skippedRows"`     // rows not imported
	Notes           []string          `json:"notes"`           // findings about the source, not rows
	rawField
}

// ImportedSession is one conversation of an import; SessionFile is "" on a dry run for a session
// the import would create.
type ImportedSession struct {
	SourceFile      string `json:"sourceFile"`      // source transcript
	SessionID       string `json:"sessionId"`       // session id
	SessionFile     string `json:"sessionFile"`     // native session file ("" on a dry run for a new one)
	Created         bool   `json:"created"`         // the import created the session
	RowsRead        int64  `json:"rowsRead"`        // rows read
	Imported        int64  `json:"imported"`        // rows imported as messages
	KeptAsCustom    int64  `json:"keptAsCustom"`    // rows kept verbatim as custom entries
	AlreadyImported int64  `json:"alreadyImported"` // rows an earlier import brought in
	Skipped         int64  `json:"skipped"`         // rows skipped
}

// SkippedRow is a source row (line from 1; 0 for the whole file) that was not imported.
type SkippedRow struct {
	File   string `json:"file"`   // file name
	Line   int64  `json:"line"`   // line, from 1 (0: the whole file)
	Reason string `json:"reason"` // why
}

// ForeignListing is what a foreign store holds (Store.ForeignList): one of Claude, Gateway,
// MyAgents and Codex is set, by Source.
type ForeignListing struct {
	Source   ImportKind       // kind of store listed; says which listing is set
	Claude   *ClaudeListing   // source "claude"
	Gateway  *GatewayListing  // source "gateway"
	MyAgents *MyAgentsListing // source "myagents"
	Codex    *CodexListing    // source "codex"
	Raw      json.RawMessage  // the library's JSON, byte for byte
}

// UnmarshalJSON decodes the listing of its "source".
func (l *ForeignListing) UnmarshalJSON(raw []byte) error {
	var head struct {
		Source ImportKind `json:"source"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return err
	}
	*l = ForeignListing{Source: head.Source, Raw: rawCopy(raw)}
	switch head.Source {
	case ImportClaude:
		return json.Unmarshal(raw, &l.Claude)
	case ImportGateway:
		return json.Unmarshal(raw, &l.Gateway)
	case ImportMyAgents:
		return json.Unmarshal(raw, &l.MyAgents)
	case ImportCodex:
		return json.Unmarshal(raw, &l.Codex)
	}
	return fmt.Errorf("a foreign listing of unknown source %q", head.Source)
}

// MarshalJSON encodes the listing that is set.
func (l ForeignListing) MarshalJSON() ([]byte, error) {
	switch {
	case l.Claude != nil:
		return json.Marshal(l.Claude)
	case l.Gateway != nil:
		return json.Marshal(l.Gateway)
	case l.MyAgents != nil:
		return json.Marshal(l.MyAgents)
	case l.Codex != nil:
		return json.Marshal(l.Codex)
	}
	return []byte("null"), nil
}

// ClaudeListing is Claude Code's projects.
type ClaudeListing struct {
	Source   string          `json:"source"`   // "claude"
	Root     string          `json:"root"`     // source directory
	Projects []ClaudeProject `json:"projects"` // projects
}

// ClaudeProject is one project directory.
type ClaudeProject struct {
	Dir          string             `json:"dir"`          // directory
	HasIndex     bool               `json:"hasIndex"`     // has sessions-index.json
	OriginalPath *string            `json:"originalPath"` // the index's originalPath; nil: none
	Transcripts  []ClaudeTranscript `json:"transcripts"`  // transcript files
	SkippedRows  []SkippedRow       `json:"skippedRows"`  // rows not imported
	Notes        []string           `json:"notes"`        // findings about the source, not rows
}

// ClaudeTranscript is one transcript file of a project; Kind is "session", "agent" or
// "subagent".
type ClaudeTranscript struct {
	File            string  `json:"file"`            // file name
	Kind            string  `json:"kind"`            // session, agent or subagent
	SessionID       string  `json:"sessionId"`       // session id
	ParentSessionID *string `json:"parentSessionId"` // parent session; nil: none
	AgentID         *string `json:"agentId"`         // agent id; nil: none
	Cwd             *string `json:"cwd"`             // working directory
	FirstPrompt     *string `json:"firstPrompt"`     // first prompt a person typed; nil: none
	Summary         *string `json:"summary"`         // summary text
	Title           *string `json:"title"`           // title; nil: none
	Rows            int64   `json:"rows"`            // rows
	BadRows         int64   `json:"badRows"`         // rows that are not JSON
	Size            int64   `json:"size"`            // bytes
	Mtime           int64   `json:"mtime"`           // modification time, ms since the epoch
	LeafUUID        *string `json:"leafUuid"`        // row Claude Code resumes from; nil: none
	InIndex         bool    `json:"inIndex"`         // the index lists it
}

// GatewayListing is a gateway state directory's agents.
type GatewayListing struct {
	Source string         `json:"source"` // "gateway"
	Root   string         `json:"root"`   // source directory
	Agents []GatewayAgent `json:"agents"` // agents
}

// GatewayAgent is one agent's sessions directory.
type GatewayAgent struct {
	ID          string              `json:"id"`          // id
	Dir         string              `json:"dir"`         // directory
	Index       *string             `json:"index"`       // index file; nil: none
	IndexRows   int64               `json:"indexRows"`   // rows of the index
	Keys        []GatewayKey        `json:"keys"`        // keys
	Transcripts []GatewayTranscript `json:"transcripts"` // transcript files
	Problems    []SkippedRow        `json:"problems"`    // index rows not used (line 0: the whole index)
	Notes       []string            `json:"notes"`       // findings about the source, not rows
}

// GatewayKey is one key of an agent's index.
type GatewayKey struct {
	Key        string  `json:"key"`        // session key
	SessionID  string  `json:"sessionId"`  // session id
	Line       int64   `json:"line"`       // line of the index, from 1
	Transcript *string `json:"transcript"` // transcript file; nil: none
}

// GatewayTranscript is one transcript file; Generation is "live", "reset", "deleted", "bak" or
// "checkpoint".
type GatewayTranscript struct {
	File       string   `json:"file"`       // file name
	Path       string   `json:"path"`       // file path
	SessionID  string   `json:"sessionId"`  // session id
	ThreadID   *string  `json:"threadId"`   // thread id; nil: none
	Generation string   `json:"generation"` // live, reset, deleted, bak or checkpoint
	Stamp      *string  `json:"stamp"`      // generation stamp; nil: none
	Size       int64    `json:"size"`       // bytes
	MtimeMs    int64    `json:"mtimeMs"`    // modification time, ms since the epoch
	WriteLock  bool     `json:"writeLock"`  // a writer lock file is beside it
	Keys       []string `json:"keys"`       // keys
}

// MyAgentsListing is a ~/.myagents directory; IndexLock is "free", "released", "stale" or
// "held".
type MyAgentsListing struct {
	Source    string            `json:"source"`    // "myagents"
	Root      string            `json:"root"`      // source directory
	Index     *string           `json:"index"`     // index file; nil: none
	IndexLock string            `json:"indexLock"` // free, released, stale or held
	IndexRows int64             `json:"indexRows"` // rows of the index
	Sessions  []MyAgentsSession `json:"sessions"`  // sessions
	Problems  []SkippedRow      `json:"problems"`  // index rows not used (line 0: the whole index)
	Notes     []string          `json:"notes"`     // findings about the source, not rows
}

// MyAgentsSession is one session of the index or the sessions directory. Stats is the index's,
// as stored.
type MyAgentsSession struct {
	ID           string          `json:"id"`           // id
	MessagesFile *string         `json:"messagesFile"` // messages file; nil: none
	LegacyFile   *string         `json:"legacyFile"`   // legacy file; nil: none
	LegacyBeside bool            `json:"legacyBeside"` // a legacy file is beside the migrated one
	InIndex      bool            `json:"inIndex"`      // the index lists it
	Line         *int64          `json:"line"`         // line of the index, from 1; nil: not in it
	Title        *string         `json:"title"`        // title; nil: none
	AgentDir     *string         `json:"agentDir"`     // agent directory; nil: none
	CreatedAt    *string         `json:"createdAt"`    // creation time; nil: none
	LastActiveAt *string         `json:"lastActiveAt"` // last activity; nil: none
	Stats        json.RawMessage `json:"stats"`        // the index's stats, as stored
}

// CodexListing is a Codex CLI sessions directory (docs/import-codex.md#the-listing).
type CodexListing struct {
	Source   string         `json:"source"`   // "codex"
	Root     string         `json:"root"`     // source directory
	Sessions []CodexSession `json:"sessions"` // rollout files, by relative path
	Problems []SkippedRow   `json:"problems"` // rows and files that cannot be read
	Notes    []string       `json:"notes"`    // findings about the source, not rows
}

// CodexSession is one rollout file; the strings are "" when the rollout does not say.
type CodexSession struct {
	File        string `json:"file"`        // path relative to the root
	SessionID   string `json:"sessionId"`   // its session_meta's id
	Cwd         string `json:"cwd"`         // working directory
	Started     string `json:"started"`     // start time (ISO 8601)
	CliVersion  string `json:"cliVersion"`  // Codex version that wrote it
	Originator  string `json:"originator"`  // the Codex client
	Model       string `json:"model"`       // the first turn's model
	FirstPrompt string `json:"firstPrompt"` // what a person typed first, cut for a listing
	Rows        int64  `json:"rows"`        // rows
	BadRows     int64  `json:"badRows"`     // rows that are not JSON objects
	Size        int64  `json:"size"`        // bytes
	Mtime       int64  `json:"mtime"`       // modification time, ms since the epoch
}
