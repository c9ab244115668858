package xsession

import "time"

// The typed results of the session index (capi/schema/index-*.schema.json and
// search-hits.schema.json). Times the index holds are ms since the epoch, nil where the file's
// text is not a date; each type has methods giving them as a time.Time.

// IndexReport is what Index.Rebuild or Index.Refresh did, session files counted by what became of
// them (capi/schema/index-report.schema.json).
type IndexReport struct {
	Files      int64 `json:"files"`      // session files found (live, and archives whose live original is gone)
	Unchanged  int64 `json:"unchanged"`  // size, mtime, device and inode as indexed: not read
	Appended   int64 `json:"appended"`   // grown in place: only the lines after the last indexed byte read
	Reindexed  int64 `json:"reindexed"`  // changed otherwise (rewritten, shrunk, replaced): read whole again
	Added      int64 `json:"added"`      // files that had no row before
	Removed    int64 `json:"removed"`    // rows whose file is gone, removed
	Unreadable int64 `json:"unreadable"` // files that could not be read as a session: not indexed
	Raced      int64 `json:"raced"`      // files another refresh changed meanwhile: left for the next one
	Entries    int64 `json:"entries"`    // entry rows written
	rawField
}

// IndexVerifyReport is every difference between the index and the files (Index.Verify;
// capi/schema/index-verify.schema.json).
type IndexVerifyReport struct {
	OK      bool     `json:"ok"`      // the index and the files agree (the three lists are empty)
	Files   int64    `json:"files"`   // session files found
	Indexed int64    `json:"indexed"` // session rows in the index
	Missing []string `json:"missing"` // paths of files without a row (unreadable ones included)
	Extra   []string `json:"extra"`   // paths of rows without a file
	Stale   []string `json:"stale"`   // paths of files changed since they were indexed
	rawField
}

// IndexedSession is one session as the index holds it (Index.List;
// capi/schema/index-sessions.schema.json).
type IndexedSession struct {
	Path          string  `json:"path"`          // the session file
	ID            string  `json:"id"`            // the session's id (its header's)
	Cwd           string  `json:"cwd"`           // the working directory in its header
	Title         *string `json:"title"`         // the header's title, else pi's last session_info name; nil: none
	FirstPrompt   *string `json:"firstPrompt"`   // the first user text not injected by an agent, cut for a listing; nil: none
	CreatedMs     *int64  `json:"created"`       // the header's timestamp, ms since the epoch; nil: not a date
	UpdatedMs     *int64  `json:"updated"`       // the newest entry's timestamp, ms since the epoch; nil: none is a date
	ModifiedMs    int64   `json:"modified"`      // the file's mtime when indexed, ms since the epoch
	Size          int64   `json:"size"`          // the file's size in bytes when indexed
	Entries       int64   `json:"entries"`       // entries in the file
	Messages      int64   `json:"messages"`      // message entries
	InputTokens   int64   `json:"inputTokens"`   // input tokens of every assistant message's usage (all branches)
	OutputTokens  int64   `json:"outputTokens"`  // output tokens, likewise
	Cost          float64 `json:"cost"`          // cost of every assistant message's usage (all branches)
	Dialect       *string `json:"dialect"`       // "omp" or "pi" (docs/dialects.md); nil: unknown
	SourceAgent   *string `json:"sourceAgent"`   // "claude", "myagents" or "codex" for an imported session; nil: native
	ParentSession *string `json:"parentSession"` // the header's parentSession; nil: none
	Archived      bool    `json:"archived"`      // the file is an archive (its live original is gone)
	LeafID        *string `json:"leafId"`        // the last entry's id (the current leaf); nil: no entries
}

// optionalMsTime is an optional epoch-ms time as a time.Time: the zero Time for nil.
func optionalMsTime(ms *int64) time.Time {
	if ms == nil {
		return time.Time{}
	}
	return time.UnixMilli(*ms)
}

// Created is CreatedMs as a time; the zero Time when the header's timestamp is not a date.
func (s IndexedSession) Created() time.Time { return optionalMsTime(s.CreatedMs) }

// Updated is UpdatedMs as a time; the zero Time when no entry's timestamp is a date.
func (s IndexedSession) Updated() time.Time { return optionalMsTime(s.UpdatedMs) }

// Modified is ModifiedMs as a time.
func (s IndexedSession) Modified() time.Time { return time.UnixMilli(s.ModifiedMs) }

// SearchHit is one entry a search found (Index.Search; capi/schema/search-hits.schema.json).
type SearchHit struct {
	SessionID    string  `json:"sessionId"`    // the session's id
	SessionTitle *string `json:"sessionTitle"` // the session's title; nil: none
	SessionPath  string  `json:"sessionPath"`  // the session file
	Cwd          string  `json:"cwd"`          // the working directory in the session's header
	EntryID      string  `json:"entryId"`      // the matching entry's id
	Role         *Role   `json:"role"`         // what kind of text matched; nil: none
	OnPath       bool    `json:"onPath"`       // the entry is on the session's current branch
	TimestampMs  *int64  `json:"timestamp"`    // the entry's timestamp, ms since the epoch; nil: not a date
	Score        float64 `json:"score"`        // bm25 of the match: lower (more negative) is better
	// Up to 16 tokens around the best match, each match between SearchMatchStart and
	// SearchMatchEnd, cut parts shown as "…".
	Snippet string `json:"snippet"`
}

// Time is TimestampMs as a time; the zero Time when the entry's timestamp is not a date.
func (h SearchHit) Time() time.Time { return optionalMsTime(h.TimestampMs) }

// Snippet markers: a match in SearchHit.Snippet starts with SearchMatchStart and ends with
// SearchMatchEnd (the history's markers).
const (
	SearchMatchStart = HistoryMatchStart // start of a match, U+0002
	SearchMatchEnd   = HistoryMatchEnd   // end of a match, U+0003
)

// IndexInfo is facts about an index (Index.Info; capi/schema/index-info.schema.json).
type IndexInfo struct {
	Path          string       `json:"path"`          // the database file
	SchemaVersion int64        `json:"schemaVersion"` // the file's schema version (PRAGMA user_version)
	Sessions      int64        `json:"sessions"`      // session rows
	Entries       int64        `json:"entries"`       // entry rows
	Damaged       *DamagedFile `json:"damaged"`       // nil, or the damaged file the open kept aside
	rawField
}

// DamagedFile is a damaged database file that an open (OpenIndex, OpenHistory) renamed aside
// before starting a fresh one; the history's and the index's note are one type.
type DamagedFile = HistoryDamaged
