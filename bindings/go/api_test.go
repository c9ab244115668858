package xsession

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every typed append, with every optional field, writes exactly the expected bytes (each entry
// type's key order, docs/format.md#entries): this
// pins how each Go argument maps onto its C struct field (Hidden -> display:false, nil ->
// absent, ClearLabel -> no label, ...).
func TestTypedAppendsWriteExactBytes(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))
	yes := true
	u := must(s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
	a := must(s.AppendMessage([]byte(`{"role":"assistant","content":[{"type":"text","text":"yo"}]}`)))(t)
	ids := []string{u, a}
	for _, f := range []func() (string, error){
		func() (string, error) { return s.AppendThinkingLevel("high") },
		s.AppendNullThinkingLevel,
		func() (string, error) { return s.AppendModelChange("anthropic/x", "") },
		func() (string, error) { return s.AppendModelChange("openai/y", "smol") },
		func() (string, error) { return s.AppendCustom("ext", []byte(`{ "k" : 1 }`)) },
		func() (string, error) { return s.AppendCustom("bare", nil) },
		func() (string, error) { return s.AppendLabel(u, "start") },
		func() (string, error) { return s.ClearLabel(u) },
		func() (string, error) { return s.AppendTTSRInjection([]byte(`["r1"]`)) },
		func() (string, error) { return s.AppendModeChange("plan", []byte(`{"p":true}`)) },
		func() (string, error) {
			return s.AppendCompaction(Compaction{Summary: "sum", ShortSummary: "s", FirstKeptEntryID: a,
				TokensBefore: 42, Details: []byte(`{"d":1}`), PreserveData: []byte(`[1]`), FromExtension: &yes})
		},
		func() (string, error) {
			return s.AppendCustomMessage(CustomMessage{CustomType: "note", Content: []byte(`"hello"`),
				Hidden: true, Details: []byte(`{}`), Attribution: "user"})
		},
		func() (string, error) {
			return s.AppendSessionInit(SessionInitEntry{SystemPrompt: "sys", Task: "task", Tools: []byte(`["read"]`),
				OutputSchema: []byte(`{"type":"object"}`)})
		},
		func() (string, error) {
			return s.BranchWithSummary(BranchSummary{FromID: u, Summary: "abandoned", Details: []byte(`{"why":"x"}`)})
		},
		func() (string, error) { return s.BranchWithSummary(BranchSummary{Summary: "fresh root"}) },
	} {
		ids = append(ids, must(f())(t))
	}
	if err := s.SetTitle("T"); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"session","version":3,"id":"910a2dec89025cc1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","title":"T"}
{"type":"message","id":"ID0","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"message","id":"ID1","parentId":"ID0","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"yo"}]}}
{"type":"thinking_level_change","id":"ID2","parentId":"ID1","timestamp":"2026-01-01T00:00:03.000Z","thinkingLevel":"high"}
{"type":"thinking_level_change","id":"ID3","parentId":"ID2","timestamp":"2026-01-01T00:00:04.000Z","thinkingLevel":null}
{"type":"model_change","id":"ID4","parentId":"ID3","timestamp":"2026-01-01T00:00:05.000Z","model":"anthropic/x"}
{"type":"model_change","id":"ID5","parentId":"ID4","timestamp":"2026-01-01T00:00:06.000Z","model":"openai/y","role":"smol"}
{"type":"custom","customType":"ext","data":{"k":1},"id":"ID6","parentId":"ID5","timestamp":"2026-01-01T00:00:07.000Z"}
{"type":"custom","customType":"bare","id":"ID7","parentId":"ID6","timestamp":"2026-01-01T00:00:08.000Z"}
{"type":"label","id":"ID8","parentId":"ID7","timestamp":"2026-01-01T00:00:09.000Z","targetId":"ID0","label":"start"}
{"type":"label","id":"ID9","parentId":"ID8","timestamp":"2026-01-01T00:00:10.000Z","targetId":"ID0"}
{"type":"ttsr_injection","id":"ID10","parentId":"ID9","timestamp":"2026-01-01T00:00:11.000Z","injectedRules":["r1"]}
{"type":"mode_change","id":"ID11","parentId":"ID10","timestamp":"2026-01-01T00:00:12.000Z","mode":"plan","data":{"p":true}}
{"type":"compaction","id":"ID12","parentId":"ID11","timestamp":"2026-01-01T00:00:13.000Z","summary":"sum","shortSummary":"s","firstKeptEntryId":"ID1","tokensBefore":42,"details":{"d":1},"fromExtension":true,"preserveData":[1]}
{"type":"custom_message","customType":"note","content":"hello","display":false,"details":{},"attribution":"user","id":"ID13","parentId":"ID12","timestamp":"2026-01-01T00:00:14.000Z"}
{"type":"session_init","id":"ID14","parentId":"ID13","timestamp":"2026-01-01T00:00:15.000Z","systemPrompt":"sys","task":"task","tools":["read"],"outputSchema":{"type":"object"}}
{"type":"branch_summary","id":"ID15","parentId":"ID0","timestamp":"2026-01-01T00:00:16.000Z","fromId":"ID0","summary":"abandoned","details":{"why":"x"}}
{"type":"branch_summary","id":"ID16","parentId":null,"timestamp":"2026-01-01T00:00:17.000Z","fromId":"root","summary":"fresh root"}
`
	// Ids come from the seeded generator; name them by position so the golden text reads.
	got := string(must(os.ReadFile(must(s.FilePath())(t)))(t))
	for i := len(ids) - 1; i >= 0; i-- {
		got = strings.ReplaceAll(got, `"`+ids[i]+`"`, `"ID`+itoa(i)+`"`)
	}
	if got != want {
		t.Errorf("file\n%s\nwant\n%s", got, want)
	}
	if leaf := must(s.Leaf())(t); leaf != ids[len(ids)-1] {
		t.Errorf("leaf %s, want the last branch summary", leaf)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// The tree readers agree with each other on a small branched session.
func TestTreeReaders(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(0))
	root := must(s.AppendMessage([]byte(`{"role":"user","content":"q"}`)))(t)
	left := must(s.AppendMessage([]byte(`{"role":"assistant","content":[]}`)))(t)
	if err := s.SetLeaf(root); err != nil {
		t.Fatal(err)
	}
	right := must(s.AppendMessage([]byte(`{"role":"assistant","content":[]}`)))(t)
	must(s.AppendLabel(left, "the other way"))(t)

	idsOf := func(raw []byte) []string {
		var es []struct {
			ID string `json:"id"`
		}
		readJSON(t, raw, &es)
		var ids []string
		for _, e := range es {
			ids = append(ids, e.ID)
		}
		return ids
	}
	if got := idsOf(must(s.ChildrenJSON(root, 0))(t)); strings.Join(got, ",") != left+","+right {
		t.Errorf("children %v", got)
	}
	if got := idsOf(must(s.PathJSON(left, 0))(t)); strings.Join(got, ",") != root+","+left {
		t.Errorf("path %v", got)
	}
	if got := idsOf(must(s.TreeJSON(0))(t)); len(got) != 4 || got[0] != root {
		t.Errorf("tree %v", got)
	}
	var labels []struct {
		TargetID string `json:"targetId"`
		Label    string `json:"label"`
	}
	readJSON(t, must(s.LabelsJSON())(t), &labels)
	if len(labels) != 1 || labels[0].TargetID != left || labels[0].Label != "the other way" {
		t.Errorf("labels %+v", labels)
	}
	if err := s.ClearLeaf(); err != nil {
		t.Fatal(err)
	}
	if leaf := must(s.Leaf())(t); leaf != "" {
		t.Errorf("leaf after ClearLeaf %q", leaf)
	}
	if got := string(must(s.PathJSON("", 0))(t)); got != "[]" {
		t.Errorf("path of no leaf %s", got)
	}
	ctx := must(s.BuildContext(left))(t)
	if !bytes.HasPrefix(ctx.Raw, []byte(`{"leafId":"`+left+`","messages":[{"role":"user","content":"q"},{"role":"assistant","content":[]}]`)) {
		t.Errorf("context at %s: %s", left, ctx.Raw)
	}
	_, err := s.BuildContext("nope")
	wantErr(t, err, ErrNotFound)
}

func TestDiscoveryForksAndMoves(t *testing.T) {
	st, root := openTestStore(t)
	a := mustCreate(t, st, "/proj", &SessionOptions{Flags: SessionNoDefer, SessionID: "aaaa1111", Title: "first"})
	must(a.AppendMessage([]byte(`{"role":"user","content":"hello"}`)))(t)
	pathA := must(a.FilePath())(t)
	mustCreate(t, st, "/other", &SessionOptions{Flags: SessionNoDefer, SessionID: "bbbb2222"})

	var listed []struct {
		ID           string `json:"id"`
		FirstMessage string `json:"firstMessage"`
		EntryCount   *int   `json:"entryCount"`
	}
	readJSON(t, must(st.ListJSON(&ListOptions{Cwd: "/proj", Full: true}))(t), &listed)
	if len(listed) != 1 || listed[0].ID != "aaaa1111" || listed[0].FirstMessage != "hello" ||
		listed[0].EntryCount == nil || *listed[0].EntryCount != 1 {
		t.Errorf("list of /proj: %+v", listed)
	}
	readJSON(t, must(st.ListJSON(&ListOptions{Limit: 1}))(t), &listed)
	if len(listed) != 1 {
		t.Errorf("limit 1 listed %d", len(listed))
	}
	if got := must(st.Resolve("aaaa", ""))(t); got != pathA {
		t.Errorf("Resolve(aaaa) = %s, want %s", got, pathA)
	}
	must(st.Create("/proj", &SessionOptions{Flags: SessionNoDefer, SessionID: "aaaa3333"}))(t).Close()
	_, err := st.Resolve("aaaa", "")
	wantErr(t, err, ErrAmbiguous)

	// Fork: a copy beside it whose parentSession is a's id; CreateBranched: the path only.
	f := must(a.Fork(&SessionOptions{SessionID: "ffff0000"}))(t)
	defer f.Close()
	var hdr struct {
		ID            string `json:"id"`
		Title         string `json:"title"`
		ParentSession string `json:"parentSession"`
		Cwd           string `json:"cwd"`
	}
	readJSON(t, must(f.Header())(t).Raw, &hdr)
	if hdr.ID != "ffff0000" || hdr.ParentSession != "aaaa1111" || hdr.Title != "first" {
		t.Errorf("fork header %+v", hdr)
	}
	b := must(a.CreateBranched("", nil))(t)
	defer b.Close()
	readJSON(t, must(b.Header())(t).Raw, &hdr)
	if hdr.ParentSession != pathA {
		t.Errorf("branched session's parent %q, want %q", hdr.ParentSession, pathA)
	}
	ff := must(st.ForkFrom(pathA, "/elsewhere", nil))(t)
	defer ff.Close()
	readJSON(t, must(ff.Header())(t).Raw, &hdr)
	if hdr.Cwd != "/elsewhere" || hdr.ParentSession != "aaaa1111" {
		t.Errorf("forkFrom header %+v", hdr)
	}

	// Breadcrumbs steer ContinueRecent to this terminal's session.
	if err := st.WriteBreadcrumb("tty1", "/proj", pathA); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	c := must(st.ContinueRecent("/proj", "tty1", nil))(t)
	if got := must(c.FilePath())(t); got != pathA {
		t.Errorf("ContinueRecent gave %s, want %s", got, pathA)
	}
	if err := c.MoveTo("/moved"); err != nil {
		t.Fatal(err)
	}
	moved := must(c.FilePath())(t)
	if filepath.Dir(moved) != must(st.SessionDir("/moved"))(t) || !strings.HasPrefix(moved, root) {
		t.Errorf("moved to %s", moved)
	}
	c.Close()
}

func TestVerifyAndRepairATornTail(t *testing.T) {
	st, root := openTestStore(t)
	path := filepath.Join(root, "torn.jsonl")
	writeFile(t, path, []byte(`{"type":"session","version":3,"id":"t1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`+"\n"+
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}`+"\n"+
		`{"type":"message","id":"m2","par`))
	s := must(st.Open(path, nil))(t)
	defer s.Close()
	var verify struct {
		Problems []struct {
			Code    string `json:"code"`
			Line    int    `json:"line"`
			Fixable bool   `json:"fixable"`
		} `json:"problems"`
	}
	readJSON(t, must(s.Verify())(t).Raw, &verify)
	if len(verify.Problems) != 1 || verify.Problems[0].Code != "incomplete_tail" || verify.Problems[0].Line != 3 ||
		!verify.Problems[0].Fixable {
		t.Fatalf("verify problems %+v", verify.Problems)
	}
	var repair struct {
		Done []struct {
			Code string `json:"code"`
		} `json:"done"`
	}
	readJSON(t, must(s.Repair(RepairKeepLines))(t).Raw, &repair)
	if len(repair.Done) != 1 || repair.Done[0].Code != "newline_written" {
		t.Fatalf("repair did %+v", repair.Done)
	}
	if got := must(os.ReadFile(path))(t); !bytes.HasSuffix(got, []byte(`"par`+"\n")) {
		t.Errorf("file ends %q", got[len(got)-10:])
	}
	// The fragment, now a whole line, stays in the file as a skipped line.
	var diags []struct {
		Code string `json:"code"`
		Line int    `json:"line"`
	}
	readJSON(t, must(s.DiagnosticsJSON())(t), &diags)
	if len(diags) != 1 || diags[0].Code != "invalid_json" || diags[0].Line != 3 {
		t.Errorf("diagnostics %+v", diags)
	}
}

func TestBlobListVerifiesContent(t *testing.T) {
	st, root := openTestStore(t)
	good := must(st.BlobPut([]byte("good")))(t)
	bad := must(st.BlobPut([]byte("bad")))(t)
	if err := os.WriteFile(filepath.Join(root, "blobs", bad), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	var list struct {
		Count int `json:"count"`
		Blobs []struct {
			Hash    string  `json:"hash"`
			Problem *string `json:"problem"`
		} `json:"blobs"`
	}
	readJSON(t, must(st.BlobList(BlobListVerify))(t).Raw, &list)
	if list.Count != 2 {
		t.Fatalf("%d blobs listed", list.Count)
	}
	for _, b := range list.Blobs {
		if (b.Problem != nil) != (b.Hash == bad) {
			t.Errorf("blob %s problem %v (good %s, bad %s)", b.Hash, b.Problem, good, bad)
		}
	}
	_, err := st.BlobGet(bad)
	wantErr(t, err, ErrCorrupt)
}

func TestInMemoryStoreWritesNothing(t *testing.T) {
	st, err := OpenStore("", &StoreOptions{Flags: StoreInMemory})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := must(st.Create("/w", &SessionOptions{Flags: SessionNoDefer}))(t)
	defer s.Close()
	id := must(s.AppendMessage([]byte(`{"role":"user","content":"volatile"}`)))(t)
	if leaf := must(s.Leaf())(t); leaf != id {
		t.Errorf("leaf %s, want %s", leaf, id)
	}
	if _, err := os.Stat(must(s.FilePath())(t)); !os.IsNotExist(err) {
		t.Errorf("an in-memory session reached the disk: %v", err)
	}
	_, err = OpenStore("", nil) // a disk store needs a root
	wantErr(t, err, ErrInvalid)
}

func TestVersionIsTheHeaders(t *testing.T) {
	ma, mi, pa := Version()
	if ma != HeaderVersionMajor || mi != HeaderVersionMinor || pa != HeaderVersionPatch {
		t.Errorf("library %d.%d.%d, header %d.%d.%d", ma, mi, pa, HeaderVersionMajor, HeaderVersionMinor, HeaderVersionPatch)
	}
}
