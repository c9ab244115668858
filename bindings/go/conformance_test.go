package xsession

// Replays every tests/conformance/cases/*.json through the Go API and compares exact bytes, the
// way tests/conformance/conformance_runner.cc does through the C API (the format is specified in
// tests/conformance/README.md). Step operations live in conformance_ops_test.go.

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// casesDir is $XS_CONFORMANCE_DIR, else the repository's cases beside this package.
func casesDir() string {
	if d := os.Getenv("XS_CONFORMANCE_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "tests", "conformance", "cases")
}

func caseFiles(t *testing.T) []string {
	names, err := filepath.Glob(filepath.Join(casesDir(), "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	return names
}

// TestConformance replays each case as a subtest named after its file.
func TestConformance(t *testing.T) { replayCases(t, false) }

// TestConformanceOverGoStorage replays the same cases with the same code over osStorage, a
// Storage written in Go (storage_fs_test.go): each case's store must call it and release it
// exactly once when the store and its sessions are closed.
func TestConformanceOverGoStorage(t *testing.T) { replayCases(t, true) }

func replayCases(t *testing.T, goStorage bool) {
	files := caseFiles(t)
	// A wrong directory must not pass as "no cases": the suite has more than 30.
	if len(files) < 30 {
		t.Fatalf("found %d conformance cases in %s, want at least 30", len(files), casesDir())
	}
	for _, file := range files {
		file := file
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var doc caseDoc
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatalf("%s is not a valid case: %v", file, err)
			}
			if doc.Description == "" || doc.Steps == nil {
				t.Fatalf("%s lacks description or steps", file)
			}
			newCaseRunner(t, &doc, goStorage).run()
		})
	}
}

type caseDoc struct {
	Description      string          `json:"description"`
	StoreDialect     string          `json:"store_dialect"`
	StoreResetPolicy json.RawMessage `json:"store_reset_policy"` // a policy object: the store's default
	Options          step            `json:"options"`
	Input            []string        `json:"input"`
	InputRaw         *string         `json:"input_raw"`
	InputHex         *string         `json:"input_hex"`
	Steps            []step          `json:"steps"`
}

// step is one step (or the options object), its values kept as raw JSON: text arguments must
// reach the library byte for byte.
type step map[string]json.RawMessage

func (s step) has(key string) bool { _, ok := s[key]; return ok }

// decode reads s[key] into v; a missing key leaves v as it was.
func (s step) decode(t *testing.T, key string, v any) {
	t.Helper()
	if raw, ok := s[key]; ok {
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("argument %q: %v", key, err)
		}
	}
}

// str is s[key] when it is a JSON string; "" when absent or null (the C runner's NULL).
func (s step) str(t *testing.T, key string) string {
	t.Helper()
	var v *string
	s.decode(t, key, &v)
	if v == nil {
		return ""
	}
	return *v
}

// isNull says s[key] is JSON null (or absent).
func (s step) isNull(key string) bool {
	raw, ok := s[key]
	return !ok || string(raw) == "null"
}

// text is a text argument: a string, or an array of parts (strings and {"repeat", "times"}).
func (s step) text(t *testing.T, key string) string {
	t.Helper()
	return textOf(t, s[key])
}

func textOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return str
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil {
		t.Fatalf("text argument is neither a string nor parts: %s", raw)
	}
	var b strings.Builder
	for _, p := range parts {
		var rep struct {
			Repeat string `json:"repeat"`
			Times  int64  `json:"times"`
		}
		if json.Unmarshal(p, &str) == nil {
			b.WriteString(str)
		} else if err := json.Unmarshal(p, &rep); err == nil {
			b.WriteString(strings.Repeat(rep.Repeat, int(rep.Times)))
		} else {
			t.Fatalf("bad text part %s", p)
		}
	}
	return b.String()
}

// jsonText is an optional JSON text argument: nil when absent.
func (s step) jsonText(t *testing.T, key string) []byte {
	t.Helper()
	if !s.has(key) {
		return nil
	}
	return []byte(s.text(t, key))
}

// tri is an optional bool argument.
func (s step) tri(t *testing.T, key string) *bool {
	t.Helper()
	if !s.has(key) {
		return nil
	}
	var b bool
	s.decode(t, key, &b)
	return &b
}

type caseRunner struct {
	t     *testing.T
	doc   *caseDoc
	root  string   // the current store's root
	store *Store   // the current store (use_store changes it)
	s     *Session // the current session; may be closed ("close" op)
	path  string   // the current session's file

	so        StoreOptions          // the case's store options, without a storage
	goStorage bool                  // each store on an osStorage of its own
	stores    map[string]*caseStore // "main" and each store a use_store step names
	bundleDir string                // the case's bundle directory, made on first use
}

// caseStore is one store of a case, in a directory of its own.
type caseStore struct {
	root    string
	store   *Store
	storage *osStorage // nil: the store is on the local disk
}

// newCaseRunner opens the case's store ("main"), on an osStorage when goStorage.
func newCaseRunner(t *testing.T, doc *caseDoc, goStorage bool) *caseRunner {
	r := &caseRunner{t: t, doc: doc, s: &Session{}, goStorage: goStorage, stores: map[string]*caseStore{}}
	if doc.StoreDialect != "" && dialectNamed(t, doc.StoreDialect) == DialectPi {
		r.so.Flags |= StoreDialectPi
	}
	if doc.StoreResetPolicy != nil {
		r.so.ResetPolicy = resetPolicyOf(r, doc.StoreResetPolicy)
	}
	r.useStore("main")
	return r
}

// caseStore is the store name, opened on first use in a fresh empty directory with the case's
// store options, on an osStorage of its own when the case replays over one.
func (r *caseRunner) caseStore(name string) *caseStore {
	if cs, ok := r.stores[name]; ok {
		return cs
	}
	cs := &caseStore{root: r.t.TempDir()}
	so := r.so
	if r.goStorage {
		cs.storage = &osStorage{}
		so.Storage = cs.storage
	}
	st, err := OpenStore(cs.root, &so)
	if err != nil {
		r.t.Fatalf("OpenStore %s: %v", name, err)
	}
	cs.store = st
	r.stores[name] = cs
	// Runs before its directory's removal (cleanups run last registered first).
	r.t.Cleanup(func() {
		r.s.Close() // the session may be this store's
		st.Close()
		if cs.storage == nil {
			return
		}
		// The storage was really used, and let go of once.
		if cs.storage.calls.Load() == 0 {
			r.t.Errorf("store %s never called its Storage", name)
		}
		if n := cs.storage.released.Load(); n != 1 {
			r.t.Errorf("store %s: Release ran %d times, want 1", name, n)
		}
	})
	return cs
}

// useStore closes the current session and makes the store name the current one.
func (r *caseRunner) useStore(name string) {
	r.s.Close()
	r.path = ""
	cs := r.caseStore(name)
	r.root, r.store = cs.root, cs.store
}

func (r *caseRunner) run() {
	t := r.t
	input := filepath.Join(r.root, "input.jsonl")
	switch {
	case r.doc.Input != nil:
		writeFile(t, input, []byte(strings.Join(r.doc.Input, "\n")+"\n"))
	case r.doc.InputRaw != nil:
		writeFile(t, input, []byte(*r.doc.InputRaw))
	case r.doc.InputHex != nil:
		b, err := hex.DecodeString(*r.doc.InputHex)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, input, b)
	}
	for i, s := range r.doc.Steps {
		var op string
		s.decode(t, "op", &op)
		expect := CodeOK
		if s.has("expect") {
			expect = codeByName(t, s.str(t, "expect"))
		}
		if !r.step(op, s, expect) {
			t.Fatalf("step %d (%s) failed", i, op)
		}
	}
}

// dialectNamed is a case's dialect name ("auto", "omp", "pi") as a Dialect.
func dialectNamed(t *testing.T, name string) Dialect {
	t.Helper()
	for _, d := range []Dialect{DialectAuto, DialectOmp, DialectPi} {
		if d.String() == name {
			return d
		}
	}
	t.Fatalf("unknown dialect %q", name)
	return DialectAuto
}

// options are the case's session options for step s, whose "flags" and "dialect", when given,
// replace the case's.
func (r *caseRunner) options(s step) *SessionOptions {
	t := r.t
	opts := r.doc.Options
	o := &SessionOptions{}
	switch {
	case s.has("dialect"):
		o.Dialect = dialectNamed(t, s.str(t, "dialect"))
	case opts.has("dialect"):
		o.Dialect = dialectNamed(t, opts.str(t, "dialect"))
	}
	o.Cwd = opts.str(t, "cwd")
	if s.has("key") { // a session bound to a key (the session stats cases); "" is passed as such
		o.Key, o.keyPresent = s.str(t, "key"), true
	}
	flags := s["flags"]
	if opts.has("clock_start_ms") {
		o.Flags |= SessionFixedClock
		opts.decode(t, "clock_start_ms", &o.ClockStartMs)
		opts.decode(t, "clock_step_ms", &o.ClockStepMs)
	}
	opts.decode(t, "id_seed", &o.IDSeed)
	opts.decode(t, "max_line_bytes", &o.MaxLineBytes)
	opts.decode(t, "max_depth", &o.MaxDepth)
	if flags == nil {
		flags = opts["flags"]
	}
	var names []string
	if flags != nil {
		if err := json.Unmarshal(flags, &names); err != nil {
			t.Fatalf("flags: %v", err)
		}
	}
	for _, n := range names {
		switch n {
		case "read_only":
			o.Flags |= SessionReadOnly
		case "create":
			o.Flags |= SessionCreate
		case "no_defer":
			o.Flags |= SessionNoDefer
		case "sync":
			o.Flags |= SessionSync
		default:
			t.Fatalf("unknown flag %q", n)
		}
	}
	return o
}

// status compares a call's outcome with the step's expected status.
func (r *caseRunner) status(err error, expect Code) bool {
	r.t.Helper()
	if got := codeOf(r.t, err); got != expect {
		r.t.Errorf("status %v, want %v (%v)", got, expect, err)
		return false
	}
	return true
}

// adopt makes a session made by fork and friends the current one.
func (r *caseRunner) adopt(fresh *Session, err error, expect Code) bool {
	if !r.status(err, expect) {
		return false
	}
	if err == nil {
		r.s.Close()
		r.s = fresh
		r.path = r.sessionPath()
	}
	return true
}

func (r *caseRunner) sessionPath() string {
	p, err := r.s.FilePath()
	if err != nil {
		r.t.Fatalf("Path: %v", err)
	}
	return p
}

func (r *caseRunner) relative(p string) string {
	return strings.TrimPrefix(p, r.root+"/")
}

// closeCurrent closes the current session but keeps it current, as the C runner's NULL: a
// later call on it fails with XS_EMISUSE (a zero Session is a closed one).
func (r *caseRunner) closeCurrent() {
	r.s.Close()
}

func (r *caseRunner) openPath(path string, st step, expect Code) bool {
	o := r.options(st)
	if st.has("cwd") {
		o.Cwd = st.str(r.t, "cwd") // an open's own cwd replaces the case's
	}
	s, err := r.store.Open(path, o)
	if !r.status(err, expect) {
		return false
	}
	if err == nil {
		r.s, r.path = s, path
	}
	return true
}

// checkText compares a reader's output with the step's text argument key.
func (r *caseRunner) checkText(s step, key string, expect Code, got []byte, err error) bool {
	r.t.Helper()
	if !r.status(err, expect) {
		return false
	}
	if err != nil { // an expected error: nothing else is checked
		return true
	}
	if want := s.text(r.t, key); string(got) != want {
		r.t.Errorf("got\n%s\nwant\n%s", got, want)
		return false
	}
	return true
}
