package xsession

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sessionCalls calls every Session method that uses the handle, for the closed-handle test.
func sessionCalls(s *Session) map[string]error {
	calls := map[string]error{}
	add := func(op string, err error) { calls[op] = err }
	add("Session.Flush", s.Flush())
	add("Session.Persist", s.Persist())
	add("Session.Reload", second(s.Reload()))
	add("Session.MoveTo", s.MoveTo("/x"))
	add("Session.Fork", second(s.Fork(nil)))
	add("Session.CreateBranched", second(s.CreateBranched("", nil)))
	add("Session.Info", second(s.Info()))
	add("Session.LastError", s.LastError())
	add("Session.Append", second(s.Append([]byte(`{"type":"x"}`))))
	add("Session.AppendMessage", second(s.AppendMessage([]byte(`{"role":"user","content":"x"}`))))
	add("Session.AppendThinkingLevel", second(s.AppendThinkingLevel("low")))
	add("Session.AppendNullThinkingLevel", second(s.AppendNullThinkingLevel()))
	add("Session.AppendModelChange", second(s.AppendModelChange("a/b", "")))
	add("Session.AppendCustom", second(s.AppendCustom("c", nil)))
	add("Session.AppendLabel", second(s.AppendLabel("t", "l")))
	add("Session.ClearLabel", second(s.ClearLabel("t")))
	add("Session.AppendTTSRInjection", second(s.AppendTTSRInjection([]byte(`[]`))))
	add("Session.AppendModeChange", second(s.AppendModeChange("plan", nil)))
	add("Session.AppendCompaction", second(s.AppendCompaction(Compaction{Summary: "s", FirstKeptEntryID: "a"})))
	add("Session.AppendCustomMessage", second(s.AppendCustomMessage(CustomMessage{CustomType: "c", Content: []byte(`"x"`)})))
	add("Session.AppendSessionInit", second(s.AppendSessionInit(SessionInitEntry{Tools: []byte(`[]`)})))
	add("Session.BranchWithSummary", second(s.BranchWithSummary(BranchSummary{Summary: "s"})))
	add("Session.SetLeaf", s.SetLeaf("a"))
	add("Session.ClearLeaf", s.ClearLeaf())
	add("Session.SetTitle", s.SetTitle("t"))
	add("Session.RemoveTitle", s.RemoveTitle())
	add("Session.BuildContext", second(s.BuildContext("")))
	add("Session.Header", second(s.Header()))
	add("Session.Entries", second(s.Entries(0)))
	add("Session.Entry", second(s.Entry("a", 0)))
	add("Session.Path", second(s.Path("", 0)))
	add("Session.Children", second(s.Children("a", 0)))
	add("Session.Tree", second(s.Tree(0)))
	add("Session.Labels", second(s.Labels()))
	add("Session.Leaf", second(s.Leaf()))
	add("Session.Diagnostics", second(s.Diagnostics()))
	add("Session.Usage", second(s.Usage()))
	add("Session.Verify", second(s.Verify()))
	add("Session.Repair", second(s.Repair(RepairQuarantine)))
	add("Session.Stats", second(s.Stats()))
	add("Session.ResumeCheck", second(s.ResumeCheck("")))
	add("Session.CompactionPlan", second(s.CompactionPlan("", DefaultCompactionSettings())))
	return calls
}

func storeCalls(st *Store) map[string]error {
	calls := map[string]error{}
	add := func(op string, err error) { calls[op] = err }
	add("Store.LastError", st.LastError())
	add("Store.SessionDir", second(st.SessionDir("/w")))
	add("Store.Resolve", second(st.Resolve("q", "")))
	add("Store.WriteBreadcrumb", st.WriteBreadcrumb("t", "/w", "/p"))
	add("Store.List", second(st.List(nil)))
	add("Store.Create", second(st.Create("/w", nil)))
	add("Store.Open", second(st.Open("p", nil)))
	add("Store.ContinueRecent", second(st.ContinueRecent("/w", "", nil)))
	add("Store.ForkFrom", second(st.ForkFrom("/p", "/w", nil)))
	add("Store.BlobPut", second(st.BlobPut([]byte("x"))))
	add("Store.BlobGet", second(st.BlobGet("h")))
	add("Store.BlobList", second(st.BlobList(0)))
	add("Store.BlobGC", second(st.BlobGC(nil)))
	add("Store.KeyGet", second(st.KeyGet("k")))
	add("Store.KeyList", second(st.KeyList("")))
	add("Store.KeyListJSON", second(st.KeyListJSON("")))
	add("Store.KeyPut", st.KeyPut("k", []byte(`{"sessionId":"s"}`)))
	add("Store.KeyPatch", st.KeyPatch("k", []byte(`{"title":"t"}`)))
	add("Store.KeyDelete", st.KeyDelete("k"))
	add("Store.KeyUpdate", st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) { return nil, false, nil }))
	add("Store.KeyClaimMemoryFlush", second(st.KeyClaimMemoryFlush("k", DefaultCompactionSettings(), 1, time.Time{})))
	add("Store.KeyFixStats", second(st.KeyFixStats("")))
	add("Store.SessionForKey", third(st.SessionForKey("k", time.Time{}, nil, 0, nil)))
	add("Store.Archive", second(st.Archive(time.Hour, nil)))
	add("Store.Prune", second(st.Prune(time.Hour, nil)))
	return calls
}

func wantAllClosed(t *testing.T, calls map[string]error, noun string) {
	t.Helper()
	for op, err := range calls {
		if !errors.Is(err, ErrClosed) || !errors.Is(err, ErrMisuse) {
			t.Errorf("%s on a closed %s: %v", op, noun, err)
			continue
		}
		e := err.(*Error)
		if e.Op != op || e.Name() != "XS_ECLOSED" || e.Code != CodeMisuse || e.Message != "the "+noun+" is closed" {
			t.Errorf("%s: %#v", op, e)
		}
	}
}

func TestCloseIsIdempotentAndLaterCallsFail(t *testing.T) {
	st, _ := openTestStore(t)
	s, err := st.Create("/w", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := s.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i+1, err)
		}
	}
	wantAllClosed(t, sessionCalls(s), "session")
	for i := 0; i < 2; i++ {
		if err := st.Close(); err != nil {
			t.Fatalf("Store.Close #%d: %v", i+1, err)
		}
	}
	wantAllClosed(t, storeCalls(st), "store")
	// Zero values are closed handles, not crashes.
	wantAllClosed(t, sessionCalls(&Session{}), "session")
	wantAllClosed(t, storeCalls(&Store{}), "store")
}

func TestSessionsOutliveTheirStore(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(0))
	st.Close()
	id := must(s.AppendMessage([]byte(`{"role":"user","content":"still here"}`)))(t)
	if leaf := must(s.Leaf())(t); leaf != id {
		t.Errorf("leaf %q, want %q", leaf, id)
	}
	fork := must(s.Fork(nil))(t)
	defer fork.Close()
	if got := must(fork.Entry(id, 0))(t); !strings.Contains(string(got.Raw), "still here") {
		t.Errorf("forked entry %s", got.Raw)
	}
}

func TestWriterLockIsReleasedByClose(t *testing.T) {
	st, _ := openTestStore(t)
	w := must(st.Create("/w", &SessionOptions{Flags: SessionNoDefer}))(t)
	path := must(w.FilePath())(t)
	_, err := st.Open(path, nil)
	wantErr(t, err, ErrLocked)

	// A reader needs no lock, and sees what the writer appends after a Reload.
	r := must(st.Open(path, &SessionOptions{Flags: SessionReadOnly}))(t)
	defer r.Close()
	id1 := must(w.AppendMessage([]byte(`{"role":"user","content":"one"}`)))(t)
	id2 := must(w.AppendMessage([]byte(`{"role":"user","content":"two"}`)))(t)
	if added := must(r.Reload())(t); added != 2 {
		t.Errorf("Reload added %d, want 2", added)
	}
	if leaf := must(r.Leaf())(t); leaf != id2 {
		t.Errorf("reader's leaf %q, want %q", leaf, id2)
	}
	if got := must(r.Entry(id1, 0))(t); !strings.Contains(string(got.Raw), `"content":"one"`) {
		t.Errorf("entry %s", got.Raw)
	}

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	w2 := must(st.Open(path, nil))(t)
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestDeferredSessionIsWrittenByTheFirstAssistantMessage(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(0))
	path := must(s.FilePath())(t)
	must(s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("deferred session already on disk: %v", err)
	}
	must(s.AppendMessage([]byte(`{"role":"assistant","content":[]}`)))(t)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(got), "\n"); n != 3 {
		t.Errorf("%d lines on disk, want 3:\n%s", n, got)
	}
	if filepath.Dir(path) != must(st.SessionDir("/w"))(t) {
		t.Errorf("%s is not in SessionDir(/w)", path)
	}
}
