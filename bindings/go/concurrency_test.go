package xsession

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// 32 goroutines share one store and four sessions. Each call's error must carry the message of
// that very call (the binding reads it under the handle's lock), every append must land once,
// and `go test -race` must find nothing.
func TestGoroutinesHammerSharedSessions(t *testing.T) {
	const goroutines, sessions, rounds = 32, 4, 25
	st, _ := openTestStore(t)
	ss := make([]*Session, sessions)
	for i := range ss {
		ss[i] = mustCreate(t, st, fmt.Sprintf("/w%d", i), &SessionOptions{Flags: SessionNoDefer})
	}

	var mu sync.Mutex
	ids := map[string]int{} // id -> session index
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			errs <- hammer(st, ss[g%sessions], g, rounds, func(id string) {
				mu.Lock()
				defer mu.Unlock()
				if _, dup := ids[id]; dup {
					panic("duplicate id " + id)
				}
				ids[id] = g % sessions
			})
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	for i, s := range ss {
		var entries []struct {
			ID string `json:"id"`
		}
		readJSON(t, must(s.EntriesJSON(0))(t), &entries)
		want := goroutines / sessions * rounds
		if len(entries) != want {
			t.Errorf("session %d has %d entries, want %d", i, len(entries), want)
		}
		for _, e := range entries {
			if ids[e.ID] != i {
				t.Errorf("entry %s of session %d was appended to session %d", e.ID, i, ids[e.ID])
			}
		}
	}
}

// hammer appends, reads and fails on purpose on s, checking every result it can.
func hammer(st *Store, s *Session, g, rounds int, record func(string)) error {
	for i := 0; i < rounds; i++ {
		text := fmt.Sprintf("g%d-r%d", g, i)
		msg, _ := json.Marshal(map[string]any{"role": "user", "content": text})
		id, err := s.AppendMessage(msg)
		if err != nil {
			return fmt.Errorf("goroutine %d: append: %w", g, err)
		}
		record(id)
		entry, err := s.Entry(id, 0)
		if err != nil {
			return fmt.Errorf("goroutine %d: entry %s: %w", g, id, err)
		}
		var e struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(entry.Raw, &e); err != nil || e.Message.Content != text {
			return fmt.Errorf("goroutine %d: entry %s is %s", g, id, entry.Raw)
		}
		// A failing call's message names its own argument, never another goroutine's.
		missing := fmt.Sprintf("missing-%d-%d", g, i)
		_, err = s.Entry(missing, 0)
		var xe *Error
		if !errors.As(err, &xe) || xe.Code != CodeNotFound || xe.Message != "entry "+missing+" not found" {
			return fmt.Errorf("goroutine %d: Entry(%s) gave %v", g, missing, err)
		}
		if _, err := s.BuildContext(""); err != nil {
			return fmt.Errorf("goroutine %d: context: %w", g, err)
		}
		hash, err := st.BlobPut([]byte(text))
		if err != nil {
			return fmt.Errorf("goroutine %d: blob put: %w", g, err)
		}
		if got, err := st.BlobGet(hash); err != nil || string(got) != text {
			return fmt.Errorf("goroutine %d: blob %s is %q, %v", g, hash, got, err)
		}
		bad := fmt.Sprintf("bad-%d-%d", g, i)
		if _, err := st.BlobGet(bad); !errors.As(err, &xe) || xe.Message != "not a blob hash: "+bad {
			return fmt.Errorf("goroutine %d: BlobGet(%s) gave %v", g, bad, err)
		}
	}
	return nil
}

// Closing a session while other goroutines use it: each call either completes or reports
// ErrClosed; none touches a freed handle.
func TestCloseRacesWithCalls(t *testing.T) {
	const goroutines = 8
	st, _ := openTestStore(t)
	s, err := st.Create("/w", nil)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	started := make(chan struct{}) // closed after the 20th append: Close lands mid-stream
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			// Append until the session is closed under us; anything but ErrClosed is a bug.
			for i := 0; i < 1_000_000; i++ {
				_, err := s.AppendMessage([]byte(`{"role":"user","content":"x"}`))
				if errors.Is(err, ErrClosed) {
					return
				}
				if err != nil {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
				mu.Lock()
				if done++; done == 20 {
					close(started)
				}
				mu.Unlock()
			}
			t.Errorf("goroutine %d never saw the session closed", g)
		}(g)
	}
	<-started
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	wg.Wait()
	if _, err := s.Leaf(); !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}
