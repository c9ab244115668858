package xsession

// Portable bundles through the binding (docs/bundles.md): real stores in temporary directories,
// sessions written through the binding, bundles compared with what they carry file for file.

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	parentID  = "aaaa000000000001" // the session the fork descends from
	childID   = "bbbb000000000002" // its fork
	bundleKey = "agent:main:main"  // the key record that points at the fork
)

var blobData = []byte("a picture, as bytes")

// source is a store with a session in /w/proj, a fork of it (parentSession: its id) that
// references a blob, and a key record pointing at the fork.
type source struct {
	st                   *Store
	root                 string
	hash                 string // the blob's
	parentPath, forkPath string
}

func bundleSource(t *testing.T) source {
	t.Helper()
	st, root := openTestStore(t)
	hash := must(st.BlobPut(blobData))(t)
	o := fixedOptions(SessionNoDefer)
	o.SessionID = parentID
	p := must(st.Create("/w/proj", o))(t)
	must(p.AppendMessage([]byte(`{"role":"user","content":"Fix the build."}`)))(t)
	must(p.AppendMessage([]byte(`{"role":"assistant","content":[{"type":"text","text":"Fixed."}]}`)))(t)
	o.SessionID = childID
	c := must(p.Fork(o))(t)
	must(c.AppendMessage([]byte(`{"role":"user","content":"And the picture?"}`)))(t)
	must(c.AppendCustom("attachment", []byte(`{"ref":"blob:sha256:`+hash+`"}`)))(t)
	src := source{st: st, root: root, hash: hash, parentPath: must(p.FilePath())(t), forkPath: must(c.FilePath())(t)}
	noErr(t, c.Close())
	noErr(t, p.Close())
	noErr(t, st.KeyPut(bundleKey, []byte(`{"sessionId":"`+childID+`","cwd":"/w/proj"}`)))
	return src
}

// exported is src's fork exported (with its lineage) to a bundle in a temporary directory.
func (src source) exported(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "fork.xsb")
	must(src.st.Export([]string{childID}, out, nil))(t)
	return out
}

// sessionFiles maps each session file under root/sessions (relative path) to its bytes; writer
// lock files beside them are not sessions.
func sessionFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	dir := filepath.Join(root, "sessions")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".lock") {
			return err
		}
		b, err := os.ReadFile(path)
		files[strings.TrimPrefix(path, dir+"/")] = string(b)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}

func strPtr(s string) *string { return &s }

func TestExportCarriesTheLineageBlobsAndKeys(t *testing.T) {
	src := bundleSource(t)
	st := src.st
	out := filepath.Join(t.TempDir(), "fork.xsb")
	report := must(st.Export([]string{childID}, out, nil))(t)
	typedRoundTrip(t, report)
	bundle := must(os.ReadFile(out))(t)
	if !bytes.HasPrefix(bundle, []byte{0x28, 0xb5, 0x2f, 0xfd}) {
		t.Errorf("the bundle does not start with zstd's magic: % x", bundle[:4])
	}
	size := func(path string) int64 { return must(os.Stat(path))(t).Size() }
	want := BundleExportReport{
		Path: out, Bytes: int64(len(bundle)), Compression: "zstd",
		Sessions: []BundleSession{
			{ID: childID, Path: src.forkPath, Cwd: "/w/proj", Bytes: size(src.forkPath),
				ParentSession: strPtr(parentID), ParentInBundle: true},
			{ID: parentID, Path: src.parentPath, Cwd: "/w/proj", Lineage: true, Bytes: size(src.parentPath)},
		},
		Blobs:        []BundleBlob{{Hash: src.hash, Bytes: int64(len(blobData))}},
		MissingBlobs: []string{},
		Keys:         []string{bundleKey},
	}
	want.Raw = report.Raw
	if !reflect.DeepEqual(*report, want) {
		t.Errorf("export report\n%+v\nwant\n%+v", *report, want)
	}

	// Without the lineage: the fork alone, its parent not in the bundle; gzip on request.
	report = must(st.Export([]string{childID}, out, &ExportOptions{NoLineage: true, Gzip: true}))(t)
	typedRoundTrip(t, report)
	if len(report.Sessions) != 1 || report.Sessions[0].ID != childID || report.Sessions[0].ParentInBundle ||
		report.Compression != "gzip" {
		t.Errorf("export without lineage: %s", report.Raw)
	}
	if bundle := must(os.ReadFile(out))(t); !bytes.HasPrefix(bundle, []byte{0x1f, 0x8b}) ||
		report.Bytes != int64(len(bundle)) {
		t.Errorf("the gzip bundle: % x..., %d bytes, report %d", bundle[:2], len(bundle), report.Bytes)
	}
	// A session named twice travels once; a prefix names it as well.
	report = must(st.Export([]string{childID, childID[:6]}, out, &ExportOptions{NoLineage: true}))(t)
	if len(report.Sessions) != 1 {
		t.Errorf("a session named twice: %s", report.Raw)
	}
}

func TestImportBundleIntoAnEmptyStorePlacesTheSameBytesAndAgainIsPresent(t *testing.T) {
	src := bundleSource(t)
	srcRoot, hash := src.root, src.hash
	out := src.exported(t)
	dst, dstRoot := openTestStore(t)

	report := must(dst.ImportBundle(out, nil))(t)
	typedRoundTrip(t, report)
	if got, want := sessionFiles(t, dstRoot), sessionFiles(t, srcRoot); !reflect.DeepEqual(got, want) {
		t.Errorf("the imported sessions\n%v\nare not the source's\n%v", got, want)
	}
	if report.DryRun || report.Bundle != out || report.SourceRoot != srcRoot || len(report.Sessions) != 2 {
		t.Fatalf("import report %s", report.Raw)
	}
	for i, id := range []string{childID, parentID} {
		s := report.Sessions[i]
		if s.ID != id || s.NewID != nil || s.Cwd != "/w/proj" || s.OldCwd != nil || s.Archived ||
			s.Action != BundleImported || !strings.HasPrefix(s.Path, dstRoot+"/sessions/--w-proj--/") {
			t.Errorf("session %d of the import: %+v", i, s)
		}
	}
	if !reflect.DeepEqual(report.Blobs, []BundleImportedBlob{{hash, BundleImported}}) ||
		!reflect.DeepEqual(report.Keys, []BundleImportedKey{{bundleKey, BundleImported}}) {
		t.Errorf("blobs and keys of the import: %s", report.Raw)
	}
	if got := must(dst.BlobGet(hash))(t); !bytes.Equal(got, blobData) {
		t.Errorf("the imported blob: %q", got)
	}
	if got := must(dst.KeyGet(bundleKey))(t); string(got) != `{"sessionId":"`+childID+`","cwd":"/w/proj"}` {
		t.Errorf("the imported key record: %s", got)
	}

	// Again: everything is there already, nothing changes.
	placed := sessionFiles(t, dstRoot)
	again := must(dst.ImportBundle(out, nil))(t)
	if got := sessionFiles(t, dstRoot); !reflect.DeepEqual(got, placed) {
		t.Errorf("the second import changed the sessions: %v", got)
	}
	typedRoundTrip(t, again)
	want := strings.ReplaceAll(string(report.Raw), `"action":"imported"`, `"action":"present"`)
	if string(again.Raw) != want {
		t.Errorf("the second import\n%s\nwant\n%s", again.Raw, want)
	}
	// Into the store it came from: present as well, at the files it came from.
	back := must(src.st.ImportBundle(out, nil))(t)
	if len(back.Sessions) != 2 || back.Sessions[0].Action != BundlePresent || back.Sessions[0].Path != src.forkPath ||
		back.Sessions[1].Action != BundlePresent || back.Sessions[1].Path != src.parentPath {
		t.Errorf("the import into the source store: %s", back.Raw)
	}
}

func TestImportBundleDryRunWritesNothing(t *testing.T) {
	out := bundleSource(t).exported(t)
	root := filepath.Join(t.TempDir(), "store") // does not exist: a dry run must not create it
	dst := must(OpenStore(root, nil))(t)
	defer dst.Close()

	dry := must(dst.ImportBundle(out, &ImportBundleOptions{DryRun: true}))(t)
	typedRoundTrip(t, dry)
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("a dry run created the store's directory (%v)", err)
	}
	real := must(dst.ImportBundle(out, nil))(t)
	if want := strings.Replace(string(real.Raw), `"dryRun":false`, `"dryRun":true`, 1); string(dry.Raw) != want {
		t.Errorf("dry run report\n%s\nwant\n%s", dry.Raw, want)
	}
}

func TestImportBundleMovesSessionsByTheCwdMap(t *testing.T) {
	out := bundleSource(t).exported(t)
	dst, dstRoot := openTestStore(t)

	// The first pair that applies wins: /w/proj is below /w, so the second pair is never used.
	opts := &ImportBundleOptions{CwdMap: []CwdMapping{{"/w", "/srv/me"}, {"/w/proj", "/elsewhere"}}}
	report := must(dst.ImportBundle(out, opts))(t)
	typedRoundTrip(t, report)
	for _, s := range report.Sessions {
		if s.Cwd != "/srv/me/proj" || s.OldCwd == nil || *s.OldCwd != "/w/proj" || s.Action != BundleImported ||
			filepath.Dir(s.Path) != filepath.Join(dstRoot, "sessions", "--srv-me-proj--") {
			t.Errorf("a mapped session: %+v", s)
		}
	}
	h := must(dst.Open(report.Sessions[0].ID, &SessionOptions{Flags: SessionReadOnly}))(t)
	defer h.Close()
	header := must(h.Header())(t)
	if header.Cwd != "/srv/me/proj" || string(header.Extra["originalCwd"]) != `"/w/proj"` {
		t.Errorf("the mapped session's header: %s", header.Raw)
	}
	if got := must(dst.KeyGet(bundleKey))(t); string(got) != `{"sessionId":"`+childID+`","cwd":"/srv/me/proj"}` {
		t.Errorf("the mapped key record: %s", got)
	}
}

func TestImportBundleRefusesAClashingIDThenRenames(t *testing.T) {
	out := bundleSource(t).exported(t)
	dst, dstRoot := openTestStore(t)
	o := fixedOptions(SessionNoDefer)
	o.SessionID = parentID // the same id, other bytes
	other := must(dst.Create("/w/proj", o))(t)
	must(other.AppendMessage([]byte(`{"role":"user","content":"Something else."}`)))(t)
	noErr(t, other.Close())
	before := sessionFiles(t, dstRoot)

	_, err := dst.ImportBundle(out, nil)
	xe := wantErr(t, err, ErrExists)
	if !strings.HasPrefix(xe.Message, "session "+parentID+" is already in the store with other content (") {
		t.Errorf("the clash's message: %q", xe.Message)
	}
	if got := sessionFiles(t, dstRoot); !reflect.DeepEqual(got, before) {
		t.Errorf("a refused import changed the store: %v", got)
	}

	report := must(dst.ImportBundle(out, &ImportBundleOptions{Rename: true}))(t)
	typedRoundTrip(t, report)
	if len(report.Sessions) != 2 {
		t.Fatalf("rename report %s", report.Raw)
	}
	child, parent := report.Sessions[0], report.Sessions[1]
	if parent.ID != parentID || parent.Action != BundleRenamed || parent.NewID == nil || *parent.NewID == parentID ||
		!strings.HasSuffix(parent.Path, "_"+*parent.NewID+".jsonl") {
		t.Fatalf("the renamed parent: %+v", parent)
	}
	// The fork's parentSession follows the rename; the store's own session is left as it was.
	if child.ID != childID || child.Action != BundleImported || child.NewID != nil {
		t.Errorf("the fork: %+v", child)
	}
	h := must(dst.Open(childID, &SessionOptions{Flags: SessionReadOnly}))(t)
	defer h.Close()
	if header := must(h.Header())(t); header.ParentSession == nil || *header.ParentSession != *parent.NewID {
		t.Errorf("the fork's header: %s", header.Raw)
	}
	for name, text := range before {
		if got := sessionFiles(t, dstRoot)[name]; got != text {
			t.Errorf("%s changed: %q", name, got)
		}
	}
	// The new id depends only on the bundle: importing again with Rename finds the copy.
	again := must(dst.ImportBundle(out, &ImportBundleOptions{Rename: true}))(t)
	if again.Sessions[1].Action != BundlePresent || again.Sessions[1].NewID == nil ||
		*again.Sessions[1].NewID != *parent.NewID || again.Sessions[0].Action != BundlePresent {
		t.Errorf("the second rename import: %s", again.Raw)
	}
}

func TestImportOfATruncatedBundleIsCorruptAndChangesNothing(t *testing.T) {
	out := bundleSource(t).exported(t)
	bundle := must(os.ReadFile(out))(t)
	cut := filepath.Join(t.TempDir(), "cut.xsb")
	writeFile(t, cut, bundle[:len(bundle)/2])
	dst, dstRoot := openTestStore(t)

	_, err := dst.ImportBundle(cut, nil)
	wantErr(t, err, ErrCorrupt)
	assertNothingIn(t, dstRoot)
	_, err = dst.ImportBundle(filepath.Join(t.TempDir(), "none.xsb"), nil)
	wantErr(t, err, ErrNotFound)
	assertNothingIn(t, dstRoot)
}

func TestBundleArgumentErrorsAreExactStatuses(t *testing.T) {
	src := bundleSource(t)
	st, root := src.st, src.root
	dir := t.TempDir()
	out := filepath.Join(dir, "b.xsb")
	before := sessionFiles(t, root)
	exports := []struct {
		name string
		ids  []string
		out  string
		opts *ExportOptions
		want Code
		msg  string
	}{
		{"nil ids", nil, out, nil, CodeInvalid, "n_ids is 0: name at least one session"},
		{"no ids", []string{}, out, nil, CodeInvalid, "n_ids is 0: name at least one session"},
		{"an id with a NUL", []string{childID + "\x00"}, out, nil, CodeInvalid, "sessionIDs[0] contains a NUL byte"},
		{"empty out path", []string{childID}, "", nil, CodeInvalid, ""},
		{"unknown id", []string{"nope"}, out, nil, CodeNotFound, `no session matches "nope"`},
		{"an empty id", []string{""}, out, nil, CodeInvalid, ""},
		{"unknown version", []string{childID}, out, &ExportOptions{version: 7}, CodeVersion, ""},
	}
	for _, c := range exports {
		_, err := st.Export(c.ids, c.out, c.opts)
		if got := codeOf(t, err); got != c.want {
			t.Errorf("Export, %s: %v, want %v", c.name, err, c.want)
		} else if xe := err.(*Error); c.msg != "" && xe.Message != c.msg {
			t.Errorf("Export, %s: message %q, want %q", c.name, xe.Message, c.msg)
		}
		if c.opts != nil { // ExportHTML takes no options
			continue
		}
		if _, err := st.ExportHTML(c.ids, c.out); codeOf(t, err) != c.want {
			t.Errorf("ExportHTML, %s: %v, want %v", c.name, err, c.want)
		}
	}
	assertNothingIn(t, dir)

	imports := []struct {
		name string
		path string
		opts *ImportBundleOptions
		want Code
	}{
		{"empty path", "", nil, CodeInvalid},
		{"a path with a NUL", out + "\x00", nil, CodeInvalid},
		{"a relative cwd map path", out, &ImportBundleOptions{CwdMap: []CwdMapping{{"w", "/srv"}}}, CodeInvalid},
		{"an empty cwd map path", out, &ImportBundleOptions{CwdMap: []CwdMapping{{"/w", ""}}}, CodeInvalid},
		{"unknown version", out, &ImportBundleOptions{version: 7}, CodeVersion},
		{"no bundle there", out, nil, CodeNotFound},
	}
	for _, c := range imports {
		if _, err := st.ImportBundle(c.path, c.opts); codeOf(t, err) != c.want {
			t.Errorf("ImportBundle, %s: %v, want %v", c.name, err, c.want)
		}
	}
	if got := sessionFiles(t, root); !reflect.DeepEqual(got, before) {
		t.Errorf("refused calls changed the store: %v", got)
	}

	st.Close()
	_, err := st.Export([]string{childID}, out, nil)
	wantErr(t, err, ErrClosed)
	_, err = st.ImportBundle(out, nil)
	wantErr(t, err, ErrClosed)
	_, err = st.ExportHTML([]string{childID}, out)
	wantErr(t, err, ErrClosed)
}

// The context variants: a done context runs nothing; one that ends while the store is busy gives
// up; a live one returns what the plain call returns.
func TestBundleContextVariants(t *testing.T) {
	src := bundleSource(t)
	dir := t.TempDir()
	out, pages := filepath.Join(dir, "fork.xsb"), filepath.Join(dir, "pages")
	done, cancel := context.WithCancel(context.Background())
	cancel()
	canceled := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a done context: %v", what, err)
		}
	}
	_, err := src.st.ExportContext(done, []string{childID}, out, nil)
	canceled("ExportContext", err)
	_, err = src.st.ExportHTMLContext(done, []string{childID, parentID}, pages)
	canceled("ExportHTMLContext", err)
	assertNothingIn(t, dir)

	release := busyStore(t, src.st)
	short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	prompt(t, "ExportContext", context.DeadlineExceeded, func() error {
		_, err := src.st.ExportContext(short, []string{childID}, out, nil)
		return err
	})
	release()

	live := context.Background()
	report := must(src.st.ExportContext(live, []string{childID}, out, &ExportOptions{NoLineage: true}))(t)
	if len(report.Sessions) != 1 || report.Path != out {
		t.Errorf("ExportContext: %s", report.Raw)
	}
	dst, dstRoot := openTestStore(t)
	_, err = dst.ImportBundleContext(done, out, nil)
	canceled("ImportBundleContext", err)
	assertNothingIn(t, dstRoot)
	imported := must(dst.ImportBundleContext(live, out, &ImportBundleOptions{DryRun: true}))(t)
	if !imported.DryRun || len(imported.Sessions) != 1 || imported.Sessions[0].Action != BundleImported {
		t.Errorf("ImportBundleContext: %s", imported.Raw)
	}
	html := must(src.st.ExportHTMLContext(live, []string{childID, parentID}, pages))(t)
	if len(html.Pages) != 2 || html.Index == nil {
		t.Errorf("ExportHTMLContext: %s", html.Raw)
	}
}
