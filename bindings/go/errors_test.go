package xsession

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// headerCodes is every status macro of xsession.h with its value.
func headerCodes(t *testing.T) map[string]Code {
	src, err := os.ReadFile(filepath.Join("..", "..", "capi", "include", "xsession.h"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^#define (XS_OK|XS_E[A-Z]+) \(?(-?\d+)\)?`)
	codes := map[string]Code{}
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		v, _ := strconv.Atoi(m[2])
		codes[m[1]] = Code(v)
	}
	return codes
}

func TestCodesMatchTheHeader(t *testing.T) {
	want := headerCodes(t)
	if len(want) < 20 {
		t.Fatalf("found only %d status macros in xsession.h", len(want))
	}
	if len(codeNames) != len(want) {
		t.Errorf("the binding knows %d codes, the header has %d", len(codeNames), len(want))
	}
	for name, code := range want {
		if got := code.String(); got != name {
			t.Errorf("Code(%d).String() = %q, want %q", code, got, name)
		}
		// The library's own name of the code starts with the macro name.
		if s := StatusString(code); !strings.HasPrefix(s, name+": ") {
			t.Errorf("StatusString(%s) = %q", name, s)
		}
	}
}

func TestSentinelsMatchByCode(t *testing.T) {
	sentinels := []*Error{ErrError, ErrNoMem, ErrInvalid, ErrMisuse, ErrNotFound, ErrExists,
		ErrBufferTooSmall, ErrCorrupt, ErrIO, ErrLocked, ErrVersion, ErrNoSpace, ErrReadOnly,
		ErrConflict, ErrLimit, ErrNoHeader, ErrPoisoned, ErrAmbiguous, ErrDialect, ErrInternal}
	if len(sentinels) != len(codeNames)-1 { // every code but XS_OK
		t.Fatalf("%d sentinels for %d error codes", len(sentinels), len(codeNames)-1)
	}
	for _, s := range sentinels {
		err := fmt.Errorf("wrapped: %w", &Error{Code: s.Code, Op: "Test.Op", Message: "m"})
		for _, other := range sentinels {
			if got := errors.Is(err, other); got != (other == s) {
				t.Errorf("errors.Is(%s error, %s) = %v", s.Name(), other.Name(), got)
			}
		}
		if errors.Is(err, ErrClosed) {
			t.Errorf("a %s error matches ErrClosed", s.Name())
		}
	}
	// A code newer than the binding is generic, and keeps its number.
	unknown := &Error{Code: -77, Op: "Test.Op", Message: "new"}
	if !errors.Is(unknown, ErrError) || errors.Is(unknown, ErrInternal) {
		t.Error("an unknown code must match ErrError only")
	}
	if unknown.Name() != "XS_UNKNOWN(-77)" || StatusString(-77) != "unknown status" {
		t.Errorf("unknown code named %q / %q", unknown.Name(), StatusString(-77))
	}
	if got := unknown.Error(); got != "xsession: Test.Op: XS_UNKNOWN(-77): new" {
		t.Errorf("Error() = %q", got)
	}
	// A sentinel prints the library's description in place of a message.
	if got := ErrLocked.Error(); got != "xsession: XS_ELOCKED: "+StatusString(CodeLocked) {
		t.Errorf("ErrLocked.Error() = %q", got)
	}
}

func TestLibraryErrorsCarryTheMessageOfTheirCall(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))

	_, err := s.Entry("nope-123", ReadAsStored)
	e := wantErr(t, err, ErrNotFound)
	if e.Op != "Session.Entry" || e.Name() != "XS_ENOTFOUND" || e.Message != "entry nope-123 not found" {
		t.Errorf("got %#v", e)
	}
	if err.Error() != "xsession: Session.Entry: XS_ENOTFOUND: entry nope-123 not found" {
		t.Errorf("Error() = %q", err.Error())
	}
	// LastError reads the same state back (xs_session_errcode / errmsg); a success clears it.
	if last := s.LastError(); !errors.Is(last, ErrNotFound) || last.(*Error).Message != e.Message {
		t.Errorf("LastError = %v", last)
	}
	must(s.Leaf())(t)
	if last := s.LastError(); last != nil {
		t.Errorf("LastError after a success = %v", last)
	}

	must(s.Append([]byte(`{"type":"x","id":"a"}`)))(t)
	_, err = s.Append([]byte(`{"type":"x","id":"a"}`))
	if e := wantErr(t, err, ErrExists); e.Message != "entry id a is already in the session" {
		t.Errorf("message %q", e.Message)
	}
	_, err = s.Append([]byte(`{bad`))
	wantErr(t, err, ErrInvalid)
	_, err = s.Append(nil)
	wantErr(t, err, ErrInvalid)
	_, err = s.AppendMessage([]byte(`{"role":"user","content":"` + strings.Repeat("x", 300) + `"}`))
	if err != nil {
		t.Fatal(err)
	}

	// Constructors report on the store.
	path := must(s.FilePath())(t)
	_, err = st.Open(path, nil)
	if e := wantErr(t, err, ErrLocked); !strings.Contains(e.Message, path) || e.Op != "Store.Open" {
		t.Errorf("got %#v", e)
	}
	if last := st.LastError(); !errors.Is(last, ErrLocked) {
		t.Errorf("store LastError = %v", last)
	}
	_, err = st.Open(filepath.Join(filepath.Dir(path), "missing.jsonl"), nil)
	wantErr(t, err, ErrNotFound)
	_, err = st.BlobGet("zz")
	if e := wantErr(t, err, ErrInvalid); e.Message != "not a blob hash: zz" {
		t.Errorf("message %q", e.Message)
	}
	_, err = st.BlobGet(strings.Repeat("0", 64))
	wantErr(t, err, ErrNotFound)

	ro := must(st.Open(path, &SessionOptions{Flags: SessionReadOnly}))(t)
	defer ro.Close()
	_, err = ro.AppendMessage([]byte(`{"role":"user","content":"x"}`))
	wantErr(t, err, ErrReadOnly)
	// Reload is for read-only handles: on the writer it is misuse, but not a closed handle.
	_, err = s.Reload()
	if wantErr(t, err, ErrMisuse); errors.Is(err, ErrClosed) {
		t.Error("Reload misuse reported as ErrClosed")
	}
}

func TestLimitsAndHeaderlessFiles(t *testing.T) {
	st, root := openTestStore(t)
	s := mustCreate(t, st, "/w", &SessionOptions{MaxLineBytes: 200, Flags: SessionNoDefer})
	_, err := s.AppendMessage([]byte(`{"role":"user","content":"` + strings.Repeat("x", 300) + `"}`))
	wantErr(t, err, ErrLimit)

	bare := filepath.Join(root, "bare.jsonl")
	writeFile(t, bare, []byte("{\"type\":\"message\"}\n"))
	_, err = st.Open(bare, &SessionOptions{Flags: SessionReadOnly})
	wantErr(t, err, ErrNoHeader)
}

func TestArgumentsWithNULAreRefusedBeforeC(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", nil)
	checks := []struct {
		err  error
		op   string
		what string
	}{
		{second(s.Entry("a\x00b", 0)), "Session.Entry", "id"},
		{s.SetLeaf("a\x00"), "Session.SetLeaf", "id"},
		{second(s.AppendLabel("t", "x\x00")), "Session.AppendLabel", "label"},
		{second(st.Create("/w\x00", nil)), "Store.Create", "cwd"},
		{second(st.Create("/w", &SessionOptions{Title: "t\x00"})), "Store.Create", "Title"},
		{second(st.Resolve("q", "c\x00")), "Store.Resolve", "cwd"},
		{second(OpenStore("r\x00", nil)), "OpenStore", "root"},
	}
	for _, c := range checks {
		e := wantErr(t, c.err, ErrInvalid)
		if e.Op != c.op || e.Message != c.what+" contains a NUL byte" {
			t.Errorf("got %#v, want op %s about %s", e, c.op, c.what)
		}
	}
	// Text that is (pointer, length) keeps its NUL bytes: the library judges them.
	if err := s.SetTitle("a\x00b"); err != nil {
		hdr := must(s.Header())(t)
		t.Errorf("SetTitle with NUL: %v (%s)", err, hdr.Raw)
	}
}

// second is the error of a two-result call.
func second[T any](_ T, err error) error { return err }
