package xsession

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// fdDir lists the process's open descriptors (Linux /proc); a variable so that a test can stand
// in for a system without it.
var fdDir = "/proc/self/fd"

// openFDs is the number of open descriptors. Without fdDir (no /proc: macOS, the BSDs, a
// container without it) the test is skipped, not failed: the finalizers are still exercised by
// TestCollectedStoreLeavesSessionsUsable.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir(fdDir)
	if err != nil {
		t.Skipf("counting descriptors needs %s: %v", fdDir, err)
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

// Regression: without /proc the descriptor test failed instead of skipping.
func TestDescriptorCountSkipsWithoutProc(t *testing.T) {
	saved := fdDir
	fdDir = filepath.Join(t.TempDir(), "no-such-dir")
	defer func() { fdDir = saved }()
	var inner *testing.T
	t.Run("collected sessions", func(t *testing.T) {
		inner = t
		TestCollectedSessionsReleaseDescriptorsAndLocks(t)
	})
	if !inner.Skipped() || inner.Failed() {
		t.Errorf("without %s the test skipped=%v failed=%v, want a skip", fdDir, inner.Skipped(), inner.Failed())
	}
}
