package xsession

// An index that follows the store's writes (IndexOptions.FollowWrites) and Index.Flush: what
// the binding's sessions write is searchable after Flush without a refresh; without the option
// Flush has nothing to wait for; an update the index's thread could not make (another connection
// holds the database's write lock) is Flush's error once, and the next Refresh makes it.

import (
	"strings"
	"testing"
	"time"

	"xsession/internal/sqlitelock"
)

func TestIndexFollowWritesFlushMakesWritesSearchable(t *testing.T) {
	st, _ := openTestStore(t)
	ix := must(st.OpenIndex(&IndexOptions{FollowWrites: true}))(t)
	defer ix.Close()
	rebuildEmpty(t, ix)
	// Written after the index opened, through the binding.
	writeIndexedSession(t, st, 1, "/w/app", "launch the zeppelin", "zeppelin launched")
	noErrs(t, ix.Flush(), ix.LastError())
	if got := must(ix.Search("zeppelin", nil))(t); hitSessions(got) != "s1,s1" {
		t.Errorf("search after Flush: %+v", got)
	}
	// The index's thread left nothing for a refresh to do.
	if r := must(ix.Refresh())(t); string(r.Raw) != reportJSON(1, 1, 0, 0, 0) || r.Files != 1 || r.Unchanged != 1 {
		t.Errorf("refresh after Flush %s", r.Raw)
	}
	noErrs(t, ix.Flush()) // nothing queued: returns at once
}

func TestIndexFlushWithoutFollowWritesWaitsForNothing(t *testing.T) {
	ix, st, _ := openTestIndex(t)
	rebuildEmpty(t, ix)
	writeIndexedSession(t, st, 1, "/w/app", "launch the zeppelin", "zeppelin launched")
	noErrs(t, ix.Flush())
	foundOnlyAfterRefresh(t, ix)
}

// Another connection holds the write lock longer than the index waits for it (50 ms): Flush
// reports the failed update once, with ErrLocked and its message; a refresh then makes it.
func TestIndexFlushReportsAFailedUpdateOnce(t *testing.T) {
	st, root := openTestStore(t)
	ix := must(st.OpenIndex(&IndexOptions{FollowWrites: true, BusyTimeout: 50 * time.Millisecond}))(t)
	defer ix.Close()
	rebuildEmpty(t, ix)
	lock := must(sqlitelock.Hold(root + "/index.db"))(t)
	writeIndexedSession(t, st, 1, "/w/app", "launch the zeppelin", "zeppelin launched")
	e := wantErr(t, ix.Flush(), ErrLocked)
	if e.Code != CodeLocked || e.Op != "Index.Flush" || !strings.HasPrefix(e.Message, "indexing what sessions wrote: ") {
		t.Errorf("Flush with the write lock held: %#v", e)
	}
	if last := wantErr(t, ix.LastError(), ErrLocked); last.Message != e.Message {
		t.Errorf("LastError %q, Flush %q", last.Message, e.Message)
	}
	noErrs(t, ix.Flush()) // reported once
	noErrs(t, lock.Release())
	foundOnlyAfterRefresh(t, ix)
}

// rebuildEmpty rebuilds the index of a store without sessions.
func rebuildEmpty(t *testing.T, ix *Index) {
	t.Helper()
	if r := must(ix.Rebuild())(t); string(r.Raw) != reportJSON(0, 0, 0, 0, 0) {
		t.Fatalf("rebuild of an empty store %s", r.Raw)
	}
}

// foundOnlyAfterRefresh: session s1 (the zeppelin's) is not in the index until a refresh adds it.
func foundOnlyAfterRefresh(t *testing.T, ix *Index) {
	t.Helper()
	if got := must(ix.SearchJSON("zeppelin", nil))(t); string(got) != "[]" {
		t.Errorf("search before the refresh: %s", got)
	}
	if r := must(ix.Refresh())(t); string(r.Raw) != reportJSON(1, 0, 0, 1, 2) {
		t.Errorf("refresh %s", r.Raw)
	}
	if got := must(ix.Search("zeppelin", nil))(t); hitSessions(got) != "s1,s1" {
		t.Errorf("search after the refresh: %+v", got)
	}
}
