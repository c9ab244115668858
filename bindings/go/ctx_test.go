package xsession

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// prompt fails the test unless call returned want within a second.
func prompt(t *testing.T, what string, want error, call func() error) {
	t.Helper()
	start := time.Now()
	err := call()
	if !errors.Is(err, want) {
		t.Errorf("%s: %v, want %v", what, err, want)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("%s returned after %v", what, took)
	}
}

// busyStore keeps st inside a C call (a KeyUpdate whose function waits) until release is called,
// which also waits for that call to return.
func busyStore(t *testing.T, st *Store) (release func()) {
	t.Helper()
	entered, unblock, returned := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		returned <- st.KeyUpdate("busy", func(current []byte, ok bool) ([]byte, bool, error) {
			close(entered)
			<-unblock
			return nil, false, nil
		})
	}()
	<-entered
	return func() {
		close(unblock)
		if err := <-returned; err != nil {
			t.Errorf("the blocking KeyUpdate: %v", err)
		}
	}
}

// While a store is busy, each context variant gives up when its context does; the handle then
// serves the next call, and a session opened after its caller gave up is closed, not leaked.
func TestStoreContextVariantsGiveUpWhileTheStoreIsBusy(t *testing.T) {
	st, root := openTestStore(t)
	s := must(st.Create("/w", &SessionOptions{Flags: SessionNoDefer}))(t)
	path := must(s.FilePath())(t)
	noErr(t, s.Close())
	var discarded atomic.Int32
	saved := discardSession
	discardSession = func(s *Session) { discarded.Add(1); saved(s) }
	defer func() { discardSession = saved }()

	release := busyStore(t, st)
	short := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 50*time.Millisecond)
	}
	ctx, cancel := short()
	defer cancel()
	prompt(t, "ListContext", context.DeadlineExceeded, func() error { _, err := st.ListContext(ctx, nil); return err })
	ctx, cancel = short()
	defer cancel()
	prompt(t, "BlobGCContext", context.DeadlineExceeded, func() error { _, err := st.BlobGCContext(ctx, nil); return err })
	ctx, cancel = short()
	defer cancel()
	prompt(t, "ForeignListContext", context.DeadlineExceeded, func() error {
		_, err := st.ForeignListContext(ctx, ImportClaude, root, nil)
		return err
	})
	cctx, cancelOpen := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancelOpen)
	prompt(t, "OpenContext", context.Canceled, func() error { _, err := st.OpenContext(cctx, path, nil); return err })
	release()

	// The abandoned open runs now and is closed: its writer lock is free again.
	for deadline := time.Now().Add(5 * time.Second); discarded.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if discarded.Load() != 1 {
		t.Fatalf("the session opened after its caller gave up was discarded %d times", discarded.Load())
	}
	again := must(st.OpenContext(context.Background(), path, nil))(t)
	noErr(t, again.Close())
	if list := must(st.ListContext(context.Background(), nil))(t); len(list) != 1 || list[0].Path != path {
		t.Errorf("list after the abandoned calls: %+v", list)
	}
}

func TestSessionContextVariantsGiveUpWhileTheSessionIsBusy(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", nil)
	must(s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
	s.h.mu.Lock() // another goroutine's call in progress
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	prompt(t, "BuildContextContext", context.DeadlineExceeded, func() error {
		_, err := s.BuildContextContext(ctx, "")
		return err
	})
	prompt(t, "VerifyContext", context.DeadlineExceeded, func() error { _, err := s.VerifyContext(ctx); return err })
	s.h.mu.Unlock()
	c := must(s.BuildContextContext(context.Background(), ""))(t)
	if len(c.Messages) != 1 || c.Messages[0].Text() != "hi" {
		t.Errorf("context after the abandoned calls %s", c.Raw)
	}
	if v := must(s.VerifyContext(context.Background()))(t); v.Entries != 1 {
		t.Errorf("verify %s", v.Raw)
	}
}

// The C call itself blocks: an import waits for MyAgents' index lock (a fresh sessions.lock/).
func TestImportContextGivesUpWhileTheLibraryWaitsForALock(t *testing.T) {
	st, _ := openTestStore(t)
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "sessions.json"), []byte(`[]`))
	for _, d := range []string{"sessions", "sessions.lock"} {
		noErr(t, os.Mkdir(filepath.Join(src, d), 0o755))
	}
	wait := DefaultImportOptions()
	wait.DryRun, wait.LockWait = true, 300*time.Millisecond
	start := time.Now()
	must(st.Import(ImportMyAgents, src, &wait))(t)
	if took := time.Since(start); took < wait.LockWait {
		t.Fatalf("the import took %v without waiting %v for the lock: the test would prove nothing", took, wait.LockWait)
	}

	wait.LockWait = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	prompt(t, "ImportContext", context.DeadlineExceeded, func() error {
		_, err := st.ImportContext(ctx, ImportMyAgents, src, &wait)
		return err
	})
	// The store waits for the abandoned import, then serves this call.
	if _, err := st.ListContext(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
}

// A context that is already done runs nothing.
func TestADoneContextRunsNothing(t *testing.T) {
	st, root := openTestStore(t)
	hash := must(st.BlobPut([]byte("kept")))(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.BlobGCContext(ctx, &GCOptions{NoGrace: true, Now: time.Now().Add(time.Hour)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("BlobGCContext: %v", err)
	}
	if got := must(st.BlobGet(hash))(t); string(got) != "kept" {
		t.Errorf("blob %q", got)
	}
	path := filepath.Join(root, "new.jsonl")
	if _, err := st.OpenContext(ctx, path, &SessionOptions{Flags: SessionCreate | SessionNoDefer}); !errors.Is(err, context.Canceled) {
		t.Fatalf("OpenContext: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the cancelled open made %s (%v)", path, err)
	}
}
