package xsession

import (
	"bytes"
	"encoding/json"
)

// The typed results of the store's calls and of verify and repair. See results.go.

// SessionListing is one session of Store.List (docs/format.md#finding-sessions). MessageCount,
// EntryCount and Diagnostics are set only with ListOptions.Full.
type SessionListing struct {
	Path           string          `json:"path"`                   // file path
	ID             string          `json:"id"`                     // id
	Cwd            string          `json:"cwd"`                    // working directory
	Timestamp      string          `json:"timestamp"`              // ISO 8601 time, as stored
	Modified       int64           `json:"modified"`               // ms since the epoch
	Size           int64           `json:"size"`                   // bytes
	Title          *string         `json:"title"`                  // title; nil: none
	ParentSession  *string         `json:"parentSession"`          // parent session (id or path); nil: none
	Version        json.RawMessage `json:"version"`                // file version, as stored (a number, or whatever a foreign file holds)
	NeedsMigration bool            `json:"needsMigration"`         // a writable open would rewrite the file
	CorruptCopies  int64           `json:"corruptCopies"`          // "<file>.corrupt-*" copies beside the file
	Archived       bool            `json:"archived"`               // an archive (read-only)
	FirstMessage   *string         `json:"firstMessage"`           // pi's: the first user text; nil: none
	FirstPrompt    *string         `json:"firstPrompt"`            // what a listing shows; nil: none
	MessageCount   *int64          `json:"messageCount,omitempty"` // messages (ListOptions.Full only)
	EntryCount     *int64          `json:"entryCount,omitempty"`   // entries (ListOptions.Full only)
	Diagnostics    *int64          `json:"diagnostics,omitempty"`  // diagnostics the load noted (ListOptions.Full only)
}

// VerifyReport is everything wrong with a session's file (Session.Verify).
type VerifyReport struct {
	Path           string          `json:"path"`           // file path
	ID             string          `json:"id"`             // id
	FileVersion    json.RawMessage `json:"fileVersion"`    // version on disk, before migration
	NeedsMigration bool            `json:"needsMigration"` // a writable open would rewrite the file
	Lines          int64           `json:"lines"`          // lines
	Entries        int64           `json:"entries"`        // entries
	BlobRefs       int64           `json:"blobRefs"`       // blob references
	Problems       []Diagnostic    `json:"problems"`       // Fixable set on each
	rawField
}

// RepairReport is what Session.Repair did. Quarantine is set only with RepairQuarantine
// (HasQuarantine); nil when nothing was moved.
type RepairReport struct {
	Path          string       `json:"path"` // file path
	Done          []Diagnostic `json:"done"` // what the open and this call fixed
	Quarantine    *Quarantine  `json:"-"`    // the quarantine file (HasQuarantine); nil: nothing moved
	HasQuarantine bool         `json:"-"`    // RepairQuarantine ran: the report has "quarantine"
	rawField
}

// Quarantine is the file RepairQuarantine moved lines to.
type Quarantine struct {
	Path  string `json:"path"`  // file path
	Lines int64  `json:"lines"` // lines
	Bytes int64  `json:"bytes"` // bytes
}

type repairReportFields RepairReport

// UnmarshalJSON decodes a repair report, noting whether it has "quarantine".
func (r *RepairReport) UnmarshalJSON(raw []byte) (err error) {
	r.HasQuarantine, err = decodeWithOptional(raw, (*repairReportFields)(r), "quarantine", &r.Quarantine)
	return err
}

// MarshalJSON encodes the report, with "quarantine" when HasQuarantine.
func (r RepairReport) MarshalJSON() ([]byte, error) {
	return encodeWithOptional(repairReportFields(r), r.HasQuarantine, "quarantine", r.Quarantine)
}

// decodeWithOptional decodes the object raw into fields, then its member name, which may be
// absent, null or a value, into *dst (nil for null), and says whether the object has it.
func decodeWithOptional[F, T any](raw []byte, fields *F, name string, dst **T) (bool, error) {
	if err := json.Unmarshal(raw, fields); err != nil {
		return false, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return false, err
	}
	*dst = nil
	v, ok := all[name]
	if !ok {
		return false, nil
	}
	return true, json.Unmarshal(v, dst)
}

// encodeWithOptional encodes fields, then "name": v when has.
func encodeWithOptional[F any](fields F, has bool, name string, v any) ([]byte, error) {
	b, err := json.Marshal(fields)
	if err != nil || !has {
		return b, err
	}
	return appendMember(b, name, v)
}

// appendMember adds "name": v at the end of the JSON object b.
func appendMember(b []byte, name string, v any) ([]byte, error) {
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	k, _ := json.Marshal(name)
	b = bytes.TrimSuffix(b, []byte("}"))
	if len(b) > 1 {
		b = append(b, ',')
	}
	b = append(append(append(b, k...), ':'), enc...)
	return append(b, '}'), nil
}

// BlobListing describes the blob directory (Store.BlobList).
type BlobListing struct {
	Count  int64      `json:"count"`  // blobs
	Bytes  int64      `json:"bytes"`  // bytes
	Blobs  []BlobFile `json:"blobs"`  // blobs, by hash
	Others []BlobFile `json:"others"` // other files (temp files of interrupted puts, strays)
	rawField
}

// BlobFile is a file of the blob directory: a blob (Hash) or another file (Name). Problem is set
// with BlobListVerify: HasProblem, and nil when the content matches its name.
type BlobFile struct {
	Hash    string  `json:"hash,omitempty"` // blob hash ("" for other files)
	Name    string  `json:"name,omitempty"` // tool name
	Size    int64   `json:"size"`           // bytes
	MtimeMs int64   `json:"mtimeMs"`        // modification time, ms since the epoch
	Problem *string `json:"-"`              // why the content does not match (HasProblem); nil: it matches
	// HasProblem says the listing verified this blob (BlobListVerify); Problem is then nil for
	// a good one.
	HasProblem bool `json:"-"`
}

type blobFileFields BlobFile

// UnmarshalJSON decodes a blob directory file, noting whether it has "problem".
func (f *BlobFile) UnmarshalJSON(raw []byte) (err error) {
	f.HasProblem, err = decodeWithOptional(raw, (*blobFileFields)(f), "problem", &f.Problem)
	return err
}

// MarshalJSON encodes the file, with "problem" when HasProblem.
func (f BlobFile) MarshalJSON() ([]byte, error) {
	return encodeWithOptional(blobFileFields(f), f.HasProblem, "problem", f.Problem)
}

// GCReport is what Store.BlobGC deleted (or, on a dry run, would delete).
type GCReport struct {
	DryRun       bool       `json:"dryRun"`       // nothing was changed
	FilesScanned int64      `json:"filesScanned"` // files read for references
	Referenced   int64      `json:"referenced"`   // blobs referenced
	BytesFreed   int64      `json:"bytesFreed"`   // bytes deleted
	Deleted      []BlobFile `json:"deleted"`      // files deleted
	Young        []BlobFile `json:"young"`        // unreferenced, kept for the grace period
	Missing      []string   `json:"missing"`      // hashes referenced, not stored
	rawField
}

// ArchiveReport is what Store.Archive archived and skipped.
type ArchiveReport struct {
	DryRun   bool              `json:"dryRun"`   // nothing was changed
	Archived []ArchivedSession `json:"archived"` // an archive (read-only)
	Skipped  []SkippedSession  `json:"skipped"`  // rows skipped
	rawField
}

// ArchivedSession is a session Store.Archive archived; GzBytes is 0 on a dry run.
type ArchivedSession struct {
	Path    string `json:"path"`    // file path
	Bytes   int64  `json:"bytes"`   // bytes
	GzBytes int64  `json:"gzBytes"` // bytes of the archive (0 on a dry run)
}

// SkippedSession is a session Store.Archive left: Reason is "writer", "too-large",
// "archive-exists", "changed" or "error".
type SkippedSession struct {
	Path   string `json:"path"`   // file path
	Reason string `json:"reason"` // why
	Detail string `json:"detail"` // error text; "" when none
}

// PruneReport is what Store.Prune deleted.
type PruneReport struct {
	DryRun bool            `json:"dryRun"` // nothing was changed
	Pruned []PrunedArchive `json:"pruned"` // archives deleted
	rawField
}

// PrunedArchive is an archive Store.Prune deleted.
type PrunedArchive struct {
	Path       string `json:"path"`       // file path
	GzBytes    int64  `json:"gzBytes"`    // bytes of the archive (0 on a dry run)
	ArchivedMs int64  `json:"archivedMs"` // when archived, ms since the epoch
}

// FixStatsReport is what Store.KeyFixStats changed.
type FixStatsReport struct {
	Checked int64        `json:"checked"` // records checked
	Fixed   []FixedStats `json:"fixed"`   // records rewritten
	Skipped []SkippedKey `json:"skipped"` // rows skipped
	rawField
}

// FixedStats is one record whose stat fields were rewritten: field -> old value (null when
// absent) and field -> new value, only the fields that differed.
type FixedStats struct {
	Key       string                     `json:"key"`       // session key
	SessionID string                     `json:"sessionId"` // session id
	Before    map[string]json.RawMessage `json:"before"`    // field -> old value (null: absent)
	After     map[string]json.RawMessage `json:"after"`     // field -> new value
}

// SkippedKey is a record KeyFixStats could not check, and why.
type SkippedKey struct {
	Key    string `json:"key"`    // session key
	Reason string `json:"reason"` // why
}
