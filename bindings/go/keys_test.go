package xsession

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func keysDocument(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "sessions.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func wantCode(t *testing.T, what string, err error, want Code) {
	t.Helper()
	if got := codeOf(t, err); got != want {
		t.Errorf("%s: %v, want %v", what, err, want)
	}
}

// keepRecord and setRecord are KeyUpdate answers.
func keepRecord([]byte, bool) ([]byte, bool, error) { return nil, false, nil }

func setRecord(record string) KeyUpdateFunc {
	return func([]byte, bool) ([]byte, bool, error) { return []byte(record), false, nil }
}

func TestKeysRoundTrip(t *testing.T) {
	st, root := openTestStore(t)
	if _, err := st.KeyGet("agent:main:main"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("KeyGet of a missing key: %v", err)
	}
	noErr(t, st.KeyPut("agent:main:main", []byte(`{ "sessionId": "s1", "cost": 1.50, "mine": {"a": [1, 2]} }`)))
	noErr(t, st.KeyPut("cron:nightly", []byte(`{"sessionId":"s2"}`)))
	noErr(t, st.KeyPatch("agent:main:main", []byte(`{"cost":null,"title":"T","mine":{"b":true}}`)))
	got, err := st.KeyGet("agent:main:main")
	if want := `{"sessionId":"s1","mine":{"a":[1,2],"b":true},"title":"T"}`; err != nil || string(got) != want {
		t.Errorf("KeyGet: %s %v, want %s", got, err, want)
	}
	want := "{\n  \"agent:main:main\": {\n    \"sessionId\": \"s1\",\n    \"mine\": {\n      \"a\": [\n        1,\n        2\n      ],\n      \"b\": true\n    },\n    \"title\": \"T\"\n  },\n  \"cron:nightly\": {\n    \"sessionId\": \"s2\"\n  }\n}\n"
	if doc := keysDocument(t, root); doc != want {
		t.Errorf("document\n%s\nwant\n%s", doc, want)
	}

	all, err := st.KeyList("")
	noErr(t, err)
	if len(all) != 2 || all[0].Key != "agent:main:main" || string(all[0].Record) != string(got) ||
		all[1].Key != "cron:nightly" || string(all[1].Record) != `{"sessionId":"s2"}` {
		t.Errorf("KeyList: %+v", all)
	}
	raw, err := st.KeyListJSON("cron:")
	if want := `[{"key":"cron:nightly","record":{"sessionId":"s2"}}]`; err != nil || string(raw) != want {
		t.Errorf("KeyListJSON: %s %v, want %s", raw, err, want)
	}
	if none, err := st.KeyList("nothing:"); err != nil || len(none) != 0 || none == nil {
		t.Errorf("KeyList of no keys: %#v %v, want an empty slice", none, err)
	}

	noErr(t, st.KeyDelete("agent:main:main"))
	wantCode(t, "second KeyDelete", st.KeyDelete("agent:main:main"), CodeNotFound)
	if doc := keysDocument(t, root); doc != "{\n  \"cron:nightly\": {\n    \"sessionId\": \"s2\"\n  }\n}\n" {
		t.Errorf("after delete: %s", doc)
	}
}

func TestKeyListKeepsEscapesAndDeepRecords(t *testing.T) {
	st, _ := openTestStore(t)
	deep := `{"sessionId":"s","d":` + strings.Repeat("[", 200) + "0" + strings.Repeat("]", 200) + "}"
	noErr(t, st.KeyPut(`quote"d é<&>`, []byte(deep)))
	all, err := st.KeyList("")
	if err != nil || len(all) != 1 || all[0].Key != `quote"d é<&>` || string(all[0].Record) != deep {
		t.Errorf("KeyList: %+v %v", all, err)
	}
}

func TestKeyUpdateSetsKeepsRemovesAndCancels(t *testing.T) {
	st, root := openTestStore(t)
	var seen []string
	record := func(fn KeyUpdateFunc) KeyUpdateFunc {
		return func(current []byte, ok bool) ([]byte, bool, error) {
			seen = append(seen, fmt.Sprintf("%s %v", current, ok))
			return fn(current, ok)
		}
	}
	noErr(t, st.KeyUpdate("k", record(setRecord(`{"sessionId":"a", "n":1}`))))
	noErr(t, st.KeyUpdate("k", record(keepRecord)))
	if want := []string{" false", `{"sessionId":"a","n":1} true`}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("the function saw %q, want %q", seen, want)
	}
	before := keysDocument(t, root)

	// A sentinel cancels with its code; the message is the library's.
	err := st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) { return nil, false, ErrConflict })
	var xe *Error
	if !errors.Is(err, ErrConflict) || !errors.As(err, &xe) || xe.Op != "Store.KeyUpdate" ||
		!strings.Contains(xe.Message, "cancelled with XS_ECONFLICT") || errors.Unwrap(err) != ErrConflict {
		t.Errorf("cancel with ErrConflict: %#v", err)
	}
	// An *Error with a message of its own keeps it.
	err = st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) {
		return nil, false, &Error{Code: CodeLocked, Message: "a newer run owns this key"}
	})
	if !errors.Is(err, ErrLocked) || err.Error() != "xsession: Store.KeyUpdate: XS_ELOCKED: a newer run owns this key" {
		t.Errorf("cancel with a custom *Error: %v", err)
	}
	// Any other error cancels as XS_ERROR and stays reachable.
	quota := errors.New("quota exceeded")
	err = st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) { return nil, false, quota })
	if !errors.Is(err, quota) || !errors.Is(err, ErrError) ||
		err.Error() != "xsession: Store.KeyUpdate: XS_ERROR: the update function cancelled: quota exceeded" {
		t.Errorf("cancel with a plain error: %v", err)
	}
	// Results that are not records are refused; an empty one is not taken for "remove".
	wantCode(t, "a record without sessionId", st.KeyUpdate("k", setRecord(`{"n":2}`)), CodeInvalid)
	wantCode(t, "an empty record", st.KeyUpdate("k", setRecord("")), CodeInvalid)
	wantCode(t, "a nil function", st.KeyUpdate("k", nil), CodeInvalid)
	if doc := keysDocument(t, root); doc != before {
		t.Errorf("a cancelled or refused update changed the document:\n%s", doc)
	}

	noErr(t, st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) { return nil, true, nil }))
	noErr(t, st.KeyUpdate("gone", func(_ []byte, ok bool) ([]byte, bool, error) { return nil, true, nil }))
	if doc := keysDocument(t, root); doc != "{}\n" {
		t.Errorf("after removal: %q", doc)
	}
}

func TestKeyUpdatePanicIsAnErrorAndChangesNothing(t *testing.T) {
	st, root := openTestStore(t)
	noErr(t, st.KeyPut("k", []byte(`{"sessionId":"a"}`)))
	before := keysDocument(t, root)
	err := st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) { panic("boom 42") })
	if !errors.Is(err, ErrError) || err.Error() != "xsession: Store.KeyUpdate: XS_ERROR: the update function panicked: boom 42" {
		t.Errorf("panic: %v", err)
	}
	cause := errors.New("disk on fire")
	err = st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) { panic(cause) })
	if !errors.Is(err, cause) {
		t.Errorf("panic with an error: %v", err)
	}
	if doc := keysDocument(t, root); doc != before {
		t.Errorf("document changed: %s", doc)
	}
	// The store, its lock and the document's lock are free again.
	noErr(t, st.KeyPut("k", []byte(`{"sessionId":"b"}`)))
	if got, err := st.KeyGet("k"); err != nil || string(got) != `{"sessionId":"b"}` {
		t.Errorf("after the panics: %s %v", got, err)
	}
}

// withDeadline stops the test binary with a clear message instead of hanging when f
// deadlocks (t.Fatal would not do: the test's cleanup would wait for the same lock).
func withDeadline(f func()) {
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		panic("deadlock: still running after 20 s")
	}
}

func TestKeyUpdateCallingTheSameStoreIsMisuseNotADeadlock(t *testing.T) {
	st, root := openTestStore(t)
	other, _ := openTestStore(t)
	noErr(t, st.KeyPut("k", []byte(`{"sessionId":"a"}`)))
	var inner map[string]error
	var closeErr, otherErr, err error
	withDeadline(func() {
		err = st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) {
			inner = storeCalls(st)
			closeErr = st.Close()
			otherErr = other.KeyPut("j", []byte(`{"sessionId":"j"}`)) // another store: another lock
			return []byte(`{"sessionId":"c"}`), false, nil
		})
	})
	noErr(t, err)
	inner["Store.Close"] = closeErr
	for op, err := range inner {
		var xe *Error
		if !errors.As(err, &xe) || xe.Code != CodeMisuse || errors.Is(err, ErrClosed) || xe.Op != op ||
			!strings.Contains(xe.Message, "inside a callback (KeyUpdate, Archive's or Import's progress) of the same store") {
			t.Errorf("%s from inside KeyUpdate: %#v", op, err)
		}
	}
	noErr(t, otherErr)
	if doc := keysDocument(t, root); doc != "{\n  \"k\": {\n    \"sessionId\": \"c\"\n  }\n}\n" {
		t.Errorf("document: %s", doc)
	}
	if _, err := st.KeyGet("j"); !errors.Is(err, ErrNotFound) {
		t.Errorf("the refused KeyPut wrote: %v", err)
	}
}

// A's function updates B, whose function calls A: A's lock is still held by this goroutine.
func TestAStoreWhoseFunctionIsFurtherUpTheStackIsStillRefused(t *testing.T) {
	a, _ := openTestStore(t)
	b, _ := openTestStore(t)
	var fromB, bErr, err error
	withDeadline(func() {
		err = a.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) {
			bErr = b.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) {
				_, fromB = a.KeyGet("k")
				return []byte(`{"sessionId":"b"}`), false, nil
			})
			return []byte(`{"sessionId":"a"}`), false, nil
		})
	})
	noErr(t, err)
	noErr(t, bErr)
	wantCode(t, "A from B's function", fromB, CodeMisuse)
	for st, want := range map[*Store]string{a: `{"sessionId":"a"}`, b: `{"sessionId":"b"}`} {
		if got, err := st.KeyGet("k"); err != nil || string(got) != want {
			t.Errorf("got %s %v, want %s", got, err, want)
		}
	}
}

func TestOtherGoroutinesWaitForAKeyUpdateFunction(t *testing.T) {
	st, _ := openTestStore(t)
	inside := make(chan struct{})
	var released atomic.Bool
	type outcome struct {
		got   []byte
		err   error
		after bool
	}
	result := make(chan outcome)
	go func() {
		<-inside
		got, err := st.KeyGet("k")
		result <- outcome{got, err, released.Load()}
	}()
	noErr(t, st.KeyUpdate("k", func([]byte, bool) ([]byte, bool, error) {
		close(inside)
		time.Sleep(100 * time.Millisecond)
		released.Store(true)
		return []byte(`{"sessionId":"a"}`), false, nil
	}))
	o := <-result
	if o.err != nil || string(o.got) != `{"sessionId":"a"}` || !o.after {
		t.Errorf("the other goroutine got %s %v (after the function: %v)", o.got, o.err, o.after)
	}
}

func TestKeyUpdatesFromGoroutinesAndHandlesLoseNothing(t *testing.T) {
	shared, root := openTestStore(t)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		// Two goroutines share a handle, two have their own: the document's lock covers both.
		st := shared
		if i%2 == 1 {
			var err error
			if st, err = OpenStore(root, nil); err != nil {
				t.Fatal(err)
			}
			defer st.Close()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				err := st.KeyUpdate("counter", func(current []byte, ok bool) ([]byte, bool, error) {
					n := 0
					if ok {
						s := string(current)
						n, _ = strconv.Atoi(strings.TrimSuffix(s[strings.Index(s, `"n":`)+4:], "}"))
					}
					return []byte(fmt.Sprintf(`{"sessionId":"c","n":%d}`, n+1)), false, nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got, err := shared.KeyGet("counter"); err != nil || string(got) != `{"sessionId":"c","n":200}` {
		t.Errorf("counter: %s %v", got, err)
	}
}

func TestKeysPathOption(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "gateway", "sessions-main.json")
	root := filepath.Join(dir, "root")
	st, err := OpenStore(root, &StoreOptions{KeysPath: elsewhere})
	noErr(t, err)
	defer st.Close()
	noErr(t, st.KeyPut("k", []byte(`{"sessionId":"s"}`)))
	if b, err := os.ReadFile(elsewhere); err != nil || string(b) != "{\n  \"k\": {\n    \"sessionId\": \"s\"\n  }\n}\n" {
		t.Errorf("%s: %q %v", elsewhere, b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "sessions.json")); !os.IsNotExist(err) {
		t.Errorf("<root>/sessions.json: %v", err)
	}
	plain, err := OpenStore(root, nil)
	noErr(t, err)
	defer plain.Close()
	if _, err := plain.KeyGet("k"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a store without KeysPath reads another document: %v", err)
	}
	_, err = OpenStore(root, &StoreOptions{KeysPath: "a\x00b"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "KeysPath contains a NUL byte") {
		t.Errorf("a KeysPath with a NUL byte: %v", err)
	}
}

func TestBadKeysAreInvalidAndLeaveTheDocument(t *testing.T) {
	st, root := openTestStore(t)
	noErr(t, st.KeyPut("k", []byte(`{"sessionId":"s"}`)))
	before := keysDocument(t, root)
	for _, key := range []string{"", "a/b", `a\b`, "tab\there", strings.Repeat("k", 257), "nul\x00byte"} {
		wantCode(t, "KeyPut "+strconv.Quote(key), st.KeyPut(key, []byte(`{"sessionId":"s"}`)), CodeInvalid)
		wantCode(t, "KeyPatch "+strconv.Quote(key), st.KeyPatch(key, []byte(`{"title":"t"}`)), CodeInvalid)
		wantCode(t, "KeyDelete "+strconv.Quote(key), st.KeyDelete(key), CodeInvalid)
		wantCode(t, "KeyUpdate "+strconv.Quote(key), st.KeyUpdate(key, keepRecord), CodeInvalid)
		// A read checks the key too (docs/keyed-store.md#keys).
		_, err := st.KeyGet(key)
		wantCode(t, "KeyGet "+strconv.Quote(key), err, CodeInvalid)
	}
	wantCode(t, "a record that is not an object", st.KeyPut("k", []byte(`[1]`)), CodeInvalid)
	wantCode(t, "a nil record", st.KeyPut("k", nil), CodeInvalid)
	wantCode(t, "a field of the wrong type", st.KeyPatch("k", []byte(`{"cost":"free"}`)), CodeInvalid)
	if doc := keysDocument(t, root); doc != before {
		t.Errorf("document changed: %s", doc)
	}
}
