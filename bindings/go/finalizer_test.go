package xsession

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"
)

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("counting descriptors needs /proc/self/fd: %v", err)
	}
	return len(ents)
}

// leakSessions opens n writable sessions (each holds its file and the writer lock) and returns
// them with their paths; the caller drops them without Close. Returning them keeps every session
// reachable until the caller has counted its descriptors: a session dropped inside the loop may
// be finalized before it is counted.
func leakSessions(t *testing.T, st *Store, n int) ([]*Session, []string) {
	sessions := make([]*Session, n)
	paths := make([]string, n)
	for i := range paths {
		s, err := st.Create(fmt.Sprintf("/leak%d", i), &SessionOptions{Flags: SessionNoDefer})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AppendMessage([]byte(`{"role":"user","content":"forgotten"}`)); err != nil {
			t.Fatal(err)
		}
		sessions[i] = s
		paths[i] = must(s.FilePath())(t)
	}
	return sessions, paths
}

// A session the program forgets to close is closed by its finalizer once collected: its file
// descriptors are released and so is its writer lock.
func TestCollectedSessionsReleaseDescriptorsAndLocks(t *testing.T) {
	st, _ := openTestStore(t)
	const n = 20
	before := openFDs(t)
	sessions, paths := leakSessions(t, st, n)
	if held := openFDs(t) - before; held < n {
		t.Fatalf("%d sessions hold only %d descriptors: the test would prove nothing", n, held)
	}
	// Reachable until counted; unreachable from here on, so only the finalizers can close them.
	runtime.KeepAlive(sessions)
	deadline := time.Now().Add(10 * time.Second)
	for openFDs(t) > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if now := openFDs(t); now > before {
		t.Fatalf("%d descriptors still open after collection", now-before)
	}
	for _, p := range paths {
		s, err := st.Open(p, nil) // XS_ELOCKED if a lock were still held
		if err != nil {
			t.Fatalf("reopening %s: %v", p, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A store dropped unclosed is freed by its finalizer; its sessions stay usable.
func TestCollectedStoreLeavesSessionsUsable(t *testing.T) {
	var s *Session
	func() {
		st, err := OpenStore(t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		s = must(st.Create("/w", nil))(t)
	}()
	defer s.Close()
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	id := must(s.AppendMessage([]byte(`{"role":"user","content":"after the store"}`)))(t)
	if leaf := must(s.Leaf())(t); leaf != id {
		t.Errorf("leaf %q, want %q", leaf, id)
	}
}
