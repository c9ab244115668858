package xsession

/*
#include <xsession.h>
*/
import "C"

// Session stats (docs/session-stats.md) and resume analysis (docs/context.md#resume-analysis).

// Stats is the session's counters, kept current by every append (never by reading the file
// again) (xs_session_stats). Token and cost sums cover the whole file (every branch); contextTokens is the last reply's on
// the current path (0 after a compaction). A session opened with SessionOptions.Key writes the
// same numbers into that key's record after each assistant message, on Flush and on Close; a
// failed record write never fails the append, and the next Flush retries it and reports it.
func (s *Session) Stats() (*Stats, error) {
	raw, err := s.h.read("Session.Stats", func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_stats(p, b, c, n)
	})
	return decodeObject[Stats]("Session.Stats", raw, err)
}

// KeyFixStats recounts the session of each keyed record whose key starts with prefix ("" = all)
// and rewrites, under the document's lock, only the stat fields that differ (xs_keys_fix_stats).
// The report lists only the fields that differ; a record whose session cannot be found or read is skipped, not an error.
func (st *Store) KeyFixStats(prefix string) (*FixStatsReport, error) {
	a := newArgs("Store.KeyFixStats")
	defer a.free()
	cp := a.opt("prefix", prefix)
	if a.err != nil {
		return nil, a.err
	}
	raw, err := st.h.read(a.op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_keys_fix_stats(p, cp, b, c, n)
	})
	return decodeObject[FixStatsReport](a.op, raw, err)
}

// ResumeCheck is what an agent must know before it continues from leafID ("" = the current
// leaf) (xs_session_resume_check): the orphans (entries whose parentId names no entry, in file
// order, 1-based lines) and the pending tool calls (tool calls on the path that no tool result
// on the path answers, in path order). ErrNotFound for an unknown leafID.
func (s *Session) ResumeCheck(leafID string) (*ResumeReport, error) {
	a := newArgs("Session.ResumeCheck")
	defer a.free()
	cl := a.opt("leafID", leafID)
	if a.err != nil {
		return nil, a.err
	}
	raw, err := s.h.read(a.op, func(p *C.xs_session, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_session_resume_check(p, cl, b, c, n)
	})
	return decodeObject[ResumeReport](a.op, raw, err)
}
