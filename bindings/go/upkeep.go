package xsession

/*
#include <xsession.h>
*/
import "C"

// Upkeep: the calls behind the CLI's `xs verify`, `xs repair` and `xs blobs`. Each returns a
// typed report whose Raw is the library's JSON. The mutating ones (Repair, BlobGC) rely on the buffer retry copying the
// kept report: the work is done once, however large the report is.

// BlobList describes the blob directory (xs_blob_list): blobs by hash, and the other files
// there; with BlobListVerify every blob is hashed and has HasProblem. Nothing is changed.
func (st *Store) BlobList(flags BlobListFlags) (*BlobListing, error) {
	raw, err := st.h.read("Store.BlobList", func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_blob_list(p, C.uint32_t(flags), b, c, n)
	})
	return decodeObject[BlobListing]("Store.BlobList", raw, err)
}

// BlobGC deletes unreferenced blobs older than the grace period (xs_blob_gc) and reports what
// it deleted and kept. opts nil, like GCOptions{}, means the library's defaults.
func (st *Store) BlobGC(opts *GCOptions) (*GCReport, error) {
	return st.blobGC("Store.BlobGC", opts)
}

func (st *Store) blobGC(op string, opts *GCOptions) (*GCReport, error) {
	o, err := opts.toC(op)
	if err != nil {
		return nil, err
	}
	raw, err := st.h.read(op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_blob_gc(p, &o, b, c, n)
	})
	return decodeObject[GCReport](op, raw, err)
}

// Verify lists everything wrong with the session's file as loaded (xs_session_verify), problems
// sorted by line. Nothing is written.
func (s *Session) Verify() (*VerifyReport, error) {
	raw, err := s.h.read("Session.Verify", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_verify(p, b, c, n)
	})
	return decodeObject[VerifyReport]("Session.Verify", raw, err)
}

// Repair fixes what can be fixed without losing a byte, on a writable session
// (xs_session_repair), and reports what it did (Done), including what the open already did
// (a migration, a preserved headerless file). RepairKeepLines writes the newline a torn last line
// lacks. RepairQuarantine also moves the lines that are not JSON to
// "<file>.quarantine-<time>.jsonl" beside the session (one record per line: "line", "offset",
// "length", "code", "reason", "newline", and the bytes as "text" or "base64"), then rewrites the
// session without them; the report then has HasQuarantine (Quarantine nil when nothing moved).
func (s *Session) Repair(flags RepairFlags) (*RepairReport, error) {
	raw, err := s.h.read("Session.Repair", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_repair(p, C.uint32_t(flags), b, c, n)
	})
	return decodeObject[RepairReport]("Session.Repair", raw, err)
}
