package xsession

// The typed results of Store.Export, Store.ImportBundle (docs/bundles.md) and Store.ExportHTML
// (docs/html-view.md#export).

// BundleExportReport is what a bundle carries (capi/schema/bundle-export-report.schema.json).
type BundleExportReport struct {
	Path         string          `json:"path"`         // the bundle file
	Bytes        int64           `json:"bytes"`        // the bundle's size
	Compression  string          `json:"compression"`  // "zstd" or "gzip"
	Sessions     []BundleSession `json:"sessions"`     // the named sessions, then their ancestors
	Blobs        []BundleBlob    `json:"blobs"`        // blobs carried, by hash
	MissingBlobs []string        `json:"missingBlobs"` // hashes referenced but not in the blob store: not carried
	Keys         []string        `json:"keys"`         // the keys whose records were carried
	rawField
}

// BundleSession is one session a bundle carries.
type BundleSession struct {
	ID             string  `json:"id"`             // session id
	Path           string  `json:"path"`           // its file in the exporting store
	Cwd            string  `json:"cwd"`            // working directory
	Archived       bool    `json:"archived"`       // carried as its archive (.jsonl.gz)
	Lineage        bool    `json:"lineage"`        // carried only as an ancestor of a named session
	Bytes          int64   `json:"bytes"`          // size of the file carried
	ParentSession  *string `json:"parentSession"`  // the header's parentSession; nil: none
	ParentInBundle bool    `json:"parentInBundle"` // the parent travels in the same bundle
}

// BundleBlob is one blob a bundle carries.
type BundleBlob struct {
	Hash  string `json:"hash"`  // SHA-256, lowercase hex
	Bytes int64  `json:"bytes"` // size
}

// BundleAction is what an import did with one session, blob or key record of a bundle.
type BundleAction string

// The actions of a BundleImportReport.
const (
	BundleImported BundleAction = "imported" // placed in the store
	BundleRenamed  BundleAction = "renamed"  // a session placed under a new id (ImportBundleOptions.Rename)
	BundlePresent  BundleAction = "present"  // already in the store with the same content: left as it is
	BundleKept     BundleAction = "kept"     // a key the store has with another record: its record is kept
)

// BundleImportReport is what Store.ImportBundle did, or would do on a dry run
// (capi/schema/bundle-import-report.schema.json). Sessions are in the manifest's order.
type BundleImportReport struct {
	DryRun     bool                    `json:"dryRun"`     // nothing was written
	Bundle     string                  `json:"bundle"`     // the bundle file
	SourceRoot string                  `json:"sourceRoot"` // the root of the store it was exported from
	Sessions   []BundleImportedSession `json:"sessions"`   // sessions
	Blobs      []BundleImportedBlob    `json:"blobs"`      // blobs
	Keys       []BundleImportedKey     `json:"keys"`       // key records
	rawField
}

// BundleImportedSession is one session of an import. Path is where it is (or would be) in the
// store: for a present one, the file already there.
type BundleImportedSession struct {
	ID       string       `json:"id"`       // the id in the bundle
	NewID    *string      `json:"newId"`    // the id it was given (BundleRenamed); nil: its own
	Path     string       `json:"path"`     // session file in this store
	Cwd      string       `json:"cwd"`      // working directory in this store
	OldCwd   *string      `json:"oldCwd"`   // the cwd the bundle carried, when the cwd map changed it; nil: unchanged
	Archived bool         `json:"archived"` // placed as an archive (.jsonl.gz)
	Action   BundleAction `json:"action"`   // BundleImported, BundleRenamed or BundlePresent
}

// BundleImportedBlob is one blob of an import.
type BundleImportedBlob struct {
	Hash   string       `json:"hash"`   // SHA-256, lowercase hex
	Action BundleAction `json:"action"` // BundleImported or BundlePresent
}

// BundleImportedKey is one key record of an import.
type BundleImportedKey struct {
	Key    string       `json:"key"`    // the session key
	Action BundleAction `json:"action"` // BundleImported, BundlePresent or BundleKept
}

// HTMLReport is the pages Store.ExportHTML wrote (capi/schema/html-report.schema.json).
type HTMLReport struct {
	Pages []HTMLPage `json:"pages"` // in the order the sessions were named
	Index *HTMLIndex `json:"index"` // the index page of several sessions; nil for one
	rawField
}

// HTMLPage is one session's page; the counts are of what the page shows.
type HTMLPage struct {
	Path         string `json:"path"`         // the page: outPath for one session, else <outPath>/<session id>.html
	SessionID    string `json:"sessionId"`    // the id in the session's header
	Entries      int64  `json:"entries"`      // entries: every entry of the session, once
	Messages     int64  `json:"messages"`     // message entries
	BranchPoints int64  `json:"branchPoints"` // places where the tree forks
	Branches     int64  `json:"branches"`     // branches other than the one the page goes on with, each collapsed
	Bytes        int64  `json:"bytes"`        // size of the page
}

// HTMLIndex is the index page of several sessions (<outPath>/index.html).
type HTMLIndex struct {
	Path  string `json:"path"`  // the page
	Bytes int64  `json:"bytes"` // its size
}
