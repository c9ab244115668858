package xsession

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codeOf is the status an error carries: CodeOK for nil.
func codeOf(t *testing.T, err error) Code {
	t.Helper()
	if err == nil {
		return CodeOK
	}
	var xe *Error
	if !errors.As(err, &xe) {
		t.Fatalf("not an *xsession.Error: %T %v", err, err)
	}
	return xe.Code
}

// codeByName is the reverse of codeNames ("XS_ELOCKED" -> CodeLocked).
func codeByName(t *testing.T, name string) Code {
	t.Helper()
	for c, n := range codeNames {
		if n == name {
			return c
		}
	}
	t.Fatalf("unknown status name %q", name)
	return 0
}

// openTestStore opens a store in a fresh temporary directory, closed at the end of the test.
func openTestStore(t *testing.T) (*Store, string) {
	t.Helper()
	root := t.TempDir()
	st, err := OpenStore(root, nil)
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st, root
}

// fixedOptions makes files byte-for-byte reproducible: 2026-01-01T00:00:00Z, +1 s per
// timestamp, ids from seed 1.
func fixedOptions(flags SessionFlags) *SessionOptions {
	return &SessionOptions{Flags: flags | SessionFixedClock, ClockStartMs: 1767225600000, ClockStepMs: 1000, IDSeed: 1}
}

// mustCreate creates a session that the test closes at its end.
func mustCreate(t *testing.T, st *Store, cwd string, opts *SessionOptions) *Session {
	t.Helper()
	s, err := st.Create(cwd, opts)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// must(f())(t) is f's value, failing the test on f's error (Go cannot spread f's two results
// into a call with a third argument).
func must[T any](v T, err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return v
	}
}

// wantErr checks that err matches the sentinel and carries a message.
func wantErr(t *testing.T, err error, sentinel error) *Error {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("got %v, want %v", err, sentinel)
	}
	var xe *Error
	errors.As(err, &xe)
	if xe.Message == "" {
		t.Fatalf("error without a message: %#v", xe)
	}
	return xe
}

// canonical re-encodes JSON compactly, keeping member order and number spelling, so two
// documents compare as parsed values the way the C++ runner's rapidjson round trip does.
func canonical(t *testing.T, raw []byte) string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out strings.Builder
	if err := writeCanonical(dec, &out); err != nil {
		t.Fatalf("invalid JSON %q: %v", raw, err)
	}
	return out.String()
}

func writeCanonical(dec *json.Decoder, out *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim: // '{' or '[': the closing ones are consumed below
		out.WriteByte(byte(v))
		for n := 0; dec.More(); n++ {
			if n > 0 {
				out.WriteByte(',')
			}
			if v == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := json.Marshal(key)
				out.Write(k)
				out.WriteByte(':')
			}
			if err := writeCanonical(dec, out); err != nil {
				return err
			}
		}
		end, err := dec.Token()
		if err != nil {
			return err
		}
		out.WriteByte(byte(end.(json.Delim)))
	case json.Number:
		out.WriteString(v.String())
	default: // string, bool, nil
		b, _ := json.Marshal(v)
		out.Write(b)
	}
	return nil
}

// readJSON decodes the library's JSON output into v.
func readJSON(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("invalid JSON %q: %v", raw, err)
	}
}

// typedRoundTrip fails unless the typed value encodes back to its Raw, as JSON values.
func typedRoundTrip(t *testing.T, typed any) {
	t.Helper()
	enc, err := json.Marshal(typed)
	if err != nil {
		t.Fatal(err)
	}
	if raw := rawOf(typed); unordered(t, enc) != unordered(t, raw) {
		t.Errorf("the typed value differs from the library's JSON\ntyped   %s\nlibrary %s", enc, raw)
	}
}

// writeFile writes bytes, creating the directory.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
