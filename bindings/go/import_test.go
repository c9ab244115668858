package xsession

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A MyAgents store of one conversation of two messages (as conformance case 107).
const (
	myAgentsID    = "3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90"
	myAgentsIndex = `[{"id":"` + myAgentsID + `","agentDir":"/tmp/demo","title":"Fix",` +
		`"createdAt":"2026-02-10T09:00:00.000Z","lastActiveAt":"2026-02-10T09:05:00.000Z","stats":{"messageCount":2}}]` + "\n"
	myAgentsMessages = `{"id":"m1","role":"user","content":"The build fails.","timestamp":"2026-02-10T09:00:01.000Z"}` + "\n" +
		`{"id":"m2","role":"assistant","content":"Fixed.","timestamp":"2026-02-10T09:00:05.000Z"}` + "\n"
)

// writeMyAgents writes the MyAgents store under dir and returns its directory.
func writeMyAgents(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join(dir, "myagents")
	writeFile(t, filepath.Join(src, "sessions.json"), []byte(myAgentsIndex))
	writeFile(t, filepath.Join(src, "sessions", myAgentsID+".jsonl"), []byte(myAgentsMessages))
	return src
}

// importCounts is the part of a report the tests compare.
type importCounts struct {
	DryRun          bool `json:"dryRun"`
	RowsRead        int  `json:"rowsRead"`
	Imported        int  `json:"imported"`
	AlreadyImported int  `json:"alreadyImported"`
}

func TestDefaultImportOptionsAreTheLibrarys(t *testing.T) {
	got := DefaultImportOptions()
	want := ImportOptions{LockWait: 2 * time.Second}
	if !reflect.DeepEqual(got, want) { // Progress (a func) makes ImportOptions not comparable with !=
		t.Errorf("DefaultImportOptions() = %+v, want %+v", got, want)
	}
}

func TestImportOptionsOfAnUnknownVersionAreRefused(t *testing.T) {
	st, dir := openTestStore(t)
	src := writeMyAgents(t, t.TempDir())
	o := DefaultImportOptions()
	o.version = 3
	if _, err := st.Import(ImportMyAgents, src, &o); codeOf(t, err) != CodeVersion {
		t.Errorf("Import with version 3: %v, want XS_EVERSION", err)
	}
	if _, err := st.ForeignList(ImportMyAgents, src, &o); codeOf(t, err) != CodeVersion {
		t.Errorf("ForeignList with version 3: %v, want XS_EVERSION", err)
	}
	assertNothingIn(t, dir)
}

func TestImportArgumentErrorsAreExactStatuses(t *testing.T) {
	st, dir := openTestStore(t)
	src := writeMyAgents(t, t.TempDir())
	file := filepath.Join(src, "sessions.json")
	cases := []struct {
		name string
		kind ImportKind
		path string
		opts *ImportOptions
		want Code
	}{
		{"unknown kind", ImportKind("opencode"), src, nil, CodeInvalid},
		{"empty kind", ImportKind(""), src, nil, CodeInvalid},
		{"kind with a NUL", ImportKind("myagents\x00"), src, nil, CodeInvalid},
		{"missing path", ImportMyAgents, filepath.Join(src, "nowhere"), nil, CodeNotFound},
		{"missing claude path", ImportClaude, filepath.Join(src, "nowhere"), nil, CodeNotFound},
		{"a directory without a MyAgents store", ImportMyAgents, filepath.Join(src, "sessions"), nil, CodeNotFound},
		{"empty path", ImportMyAgents, "", nil, CodeInvalid},
		{"a file", ImportMyAgents, file, nil, CodeInvalid},
		{"relative FallbackCwd", ImportMyAgents, src, &ImportOptions{FallbackCwd: "rel/dir"}, CodeInvalid},
		{"FallbackCwd with ..", ImportMyAgents, src, &ImportOptions{FallbackCwd: "/a/../b"}, CodeInvalid},
		{"TargetCwd for myagents", ImportMyAgents, src, &ImportOptions{TargetCwd: "/work"}, CodeInvalid},
		{"negative LockWait", ImportMyAgents, src, &ImportOptions{LockWait: -time.Second}, CodeInvalid},
		{"LockWait under -1ms", ImportMyAgents, src, &ImportOptions{LockWait: -time.Microsecond}, CodeInvalid},
	}
	for _, c := range cases {
		_, err := st.Import(c.kind, c.path, c.opts)
		if got := codeOf(t, err); got != c.want {
			t.Errorf("Import, %s: %v, want %v", c.name, err, c.want)
		}
		if c.want == CodeInvalid && !errors.Is(err, ErrInvalid) {
			t.Errorf("Import, %s: %v is not ErrInvalid", c.name, err)
		}
		if c.opts != nil { // ForeignList reads only LockWait and Now of the options
			continue
		}
		if _, err := st.ForeignList(c.kind, c.path, nil); codeOf(t, err) != c.want {
			t.Errorf("ForeignList, %s: %v, want %v", c.name, err, c.want)
		}
	}
	assertNothingIn(t, dir)
	// The source is only read.
	if b, err := os.ReadFile(file); err != nil || string(b) != myAgentsIndex {
		t.Errorf("the source's index changed: %q (%v)", b, err)
	}
}

func TestImportDryRunWritesNothingAndReportsWhatARealRunImports(t *testing.T) {
	root := filepath.Join(t.TempDir(), "store") // does not exist: a dry run must not create it
	st, err := OpenStore(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	src := writeMyAgents(t, t.TempDir())

	dry, err := st.Import(ImportMyAgents, src, &ImportOptions{DryRun: true, LockWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("a dry run created the store's directory (%v)", err)
	}
	real, err := st.Import(ImportMyAgents, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The reports differ in "dryRun" and in the new session's file, which a dry run leaves ""
	// (as in conformance case 109).
	session := filepath.Join(root, "sessions", "--tmp-demo--", "2026-02-10T09-00-00-000Z_"+myAgentsID+".jsonl")
	want := strings.Replace(string(real.Raw), `"dryRun":false`, `"dryRun":true`, 1)
	want = strings.Replace(want, `"sessionFile":"`+session+`"`, `"sessionFile":""`, 1)
	if string(dry.Raw) != want || !strings.Contains(string(real.Raw), session) {
		t.Errorf("dry run report\n%s\nwant\n%s", dry.Raw, want)
	}
	var first, again importCounts
	readJSON(t, real.Raw, &first)
	if first != (importCounts{RowsRead: 3, Imported: 3}) {
		t.Errorf("first import %+v (%s)", first, real.Raw)
	}
	if _, err := os.Stat(session); err != nil {
		t.Errorf("the imported session: %v", err)
	}
	// A re-import imports nothing.
	second, err := st.Import(ImportMyAgents, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	readJSON(t, second.Raw, &again)
	if again != (importCounts{RowsRead: 3, AlreadyImported: 3}) {
		t.Errorf("re-import %+v (%s)", again, second.Raw)
	}
}

func TestForeignListWritesNothing(t *testing.T) {
	st, dir := openTestStore(t)
	src := writeMyAgents(t, t.TempDir())
	got, err := st.ForeignList(ImportMyAgents, src, &ImportOptions{Now: time.UnixMilli(1770714000000)})
	if err != nil {
		t.Fatal(err)
	}
	var listing struct {
		Source   string `json:"source"`
		Root     string `json:"root"`
		Sessions []struct {
			ID      string `json:"id"`
			InIndex bool   `json:"inIndex"`
		} `json:"sessions"`
	}
	readJSON(t, got.Raw, &listing)
	if listing.Source != "myagents" || listing.Root != src || len(listing.Sessions) != 1 ||
		listing.Sessions[0].ID != myAgentsID || !listing.Sessions[0].InIndex {
		t.Errorf("listing %s", got.Raw)
	}
	assertNothingIn(t, dir)
}

// A listing's problems are rows of capi/schema/foreign-list.schema.json ({file, line, reason}),
// in MyAgents' and a gateway's listings as in Codex's: an index row that cannot be used is in
// the typed listing, and the listing still encodes back to the library's JSON.
func TestForeignListProblemsAreTypedRows(t *testing.T) {
	st, _ := openTestStore(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "myagents")
	index := filepath.Join(src, "sessions.json")
	writeFile(t, index, []byte("[{\"id\":\""+myAgentsID+"\"},\n 7]\n"))
	writeFile(t, filepath.Join(src, "sessions", myAgentsID+".jsonl"), []byte(myAgentsMessages))
	listing := must(st.ForeignList(ImportMyAgents, src, nil))(t)
	typedRoundTrip(t, listing)
	want := []SkippedRow{{File: index, Line: 2, Reason: "sessions.json entry 2: not a JSON object"}}
	if listing.MyAgents == nil || !reflect.DeepEqual(listing.MyAgents.Problems, want) {
		t.Errorf("MyAgents' problems: %s", listing.Raw)
	}

	gateway := filepath.Join(dir, "gateway")
	gwIndex := filepath.Join(gateway, "agents", "main", "sessions", "sessions.json")
	writeFile(t, gwIndex, []byte("[]\n"))
	listing = must(st.ForeignList(ImportGateway, gateway, nil))(t)
	typedRoundTrip(t, listing)
	want = []SkippedRow{{File: gwIndex, Line: 0, Reason: "index is not a JSON object (sessionKey -> entry)"}}
	if listing.Gateway == nil || len(listing.Gateway.Agents) != 1 || !reflect.DeepEqual(listing.Gateway.Agents[0].Problems, want) {
		t.Errorf("the gateway agent's problems: %s", listing.Raw)
	}
}

// LockWait and Now reach the library: MyAgents' sessions.lock/ directory, just made, is waited
// for LockWait and then reported held, or stale when Now is more than 30 s after it.
func TestForeignListWaitsLockWaitForAHeldIndexLockAndNowAgesIt(t *testing.T) {
	st, _ := openTestStore(t)
	src := writeMyAgents(t, t.TempDir())
	if err := os.Mkdir(filepath.Join(src, "sessions.lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	indexLock := func(opts *ImportOptions) (string, time.Duration) {
		t.Helper()
		start := time.Now()
		got, err := st.ForeignList(ImportMyAgents, src, opts)
		took := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		var listing struct {
			IndexLock string `json:"indexLock"`
		}
		readJSON(t, got.Raw, &listing)
		return listing.IndexLock, took
	}
	if lock, took := indexLock(&ImportOptions{LockWait: 150 * time.Millisecond}); lock != "held" || took < 150*time.Millisecond {
		t.Errorf("a fresh lock with a 150 ms wait: %q after %v, want held after 150 ms or more", lock, took)
	}
	if lock, _ := indexLock(&ImportOptions{Now: time.Now().Add(time.Hour)}); lock != "stale" {
		t.Errorf("a lock an hour old: %q, want stale", lock)
	}
	// The source is only read: the lock is left where it is.
	if fi, err := os.Stat(filepath.Join(src, "sessions.lock")); err != nil || !fi.IsDir() {
		t.Errorf("the source's lock: %v", err)
	}
}

func TestImportOnAClosedStoreIsMisuse(t *testing.T) {
	st, _ := openTestStore(t)
	src := writeMyAgents(t, t.TempDir())
	st.Close()
	if _, err := st.Import(ImportMyAgents, src, nil); codeOf(t, err) != CodeMisuse {
		t.Errorf("Import on a closed store: %v, want XS_EMISUSE", err)
	}
	if _, err := st.ForeignList(ImportMyAgents, src, nil); codeOf(t, err) != CodeMisuse {
		t.Errorf("ForeignList on a closed store: %v, want XS_EMISUSE", err)
	}
}

// assertNothingIn fails when dir holds anything.
func assertNothingIn(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s holds %s", dir, e.Name())
	}
}
