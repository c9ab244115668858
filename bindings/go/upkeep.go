package xsession

/*
#include <xsession.h>
*/
import "C"

// Upkeep: the calls behind the CLI's `xs verify`, `xs repair` and `xs blobs`. Each returns the
// library's JSON report. The mutating ones (Repair, BlobGC) rely on the buffer retry copying the
// kept report: the work is done once, however large the report is.

// BlobList describes the blob directory (xs_blob_list):
// {"count","bytes","blobs":[{"hash","size","mtimeMs"}],"others":[...]}; with BlobListVerify
// every blob is hashed and carries "problem". Nothing is changed.
func (st *Store) BlobList(flags BlobListFlags) ([]byte, error) {
	return st.h.read("Store.BlobList", func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_blob_list(p, C.uint32_t(flags), b, c, n)
	})
}

// BlobGC deletes unreferenced blobs older than the grace period (xs_blob_gc) and reports
// {"dryRun","filesScanned","referenced","bytesFreed","deleted","young","missing"}. opts nil
// means DefaultGCOptions().
func (st *Store) BlobGC(opts *GCOptions) ([]byte, error) {
	const op = "Store.BlobGC"
	o, err := opts.toC(op)
	if err != nil {
		return nil, err
	}
	return st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_blob_gc(p, &o, b, c, n)
	})
}

// Verify lists everything wrong with the session's file as loaded (xs_session_verify):
// {"path","id","fileVersion","needsMigration","lines","entries","blobRefs","problems":[...]}.
// Nothing is written.
func (s *Session) Verify() ([]byte, error) {
	return s.h.read("Session.Verify", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_verify(p, b, c, n)
	})
}

// Repair fixes what can be fixed without losing a byte, on a writable session
// (xs_session_repair), and reports {"path","done":[...]}, including what the open already did
// (a migration, a preserved headerless file). RepairKeepLines writes the newline a torn last line
// lacks. RepairQuarantine also moves the lines that are not JSON to
// "<file>.quarantine-<time>.jsonl" beside the session (one record per line: "line", "offset",
// "length", "code", "reason", "newline", and the bytes as "text" or "base64"), then rewrites the
// session without them; the report gains "quarantine": null or {"path","lines","bytes"}.
func (s *Session) Repair(flags RepairFlags) ([]byte, error) {
	return s.h.read("Session.Repair", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_repair(p, C.uint32_t(flags), b, c, n)
	})
}
