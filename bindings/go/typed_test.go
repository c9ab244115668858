package xsession

// The typed results outside the conformance cases: verify, repair, the blob listing and the GC
// report, and the typed bodies of every append. Each result must encode back to the library's
// JSON (sameValue), and each body must carry exactly what was appended.

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// sameValue fails the test when typed does not encode back to raw, the library's JSON.
func sameValue(t *testing.T, what string, typed any, raw []byte) {
	t.Helper()
	enc, err := json.Marshal(typed)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if unordered(t, enc) != unordered(t, raw) {
		t.Errorf("%s: typed\n%s\nlibrary\n%s", what, enc, raw)
	}
}

func TestUpkeepReportsAreTyped(t *testing.T) {
	st, root := openTestStore(t)
	path := root + "/s.jsonl"
	header := `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","custom":1}`
	entry := `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}`
	writeFile(t, path, []byte(header+"\nnot JSON\n"+entry+"\n"))
	s := must(st.Open(path, nil))(t)
	defer s.Close()

	h := must(s.Header())(t)
	if h.ID != "s1" || h.Cwd != "/w" || string(h.Extra["custom"]) != "1" || string(h.Raw) != header {
		t.Errorf("header %+v", h)
	}
	sameValue(t, "header", h, h.Raw)

	v := must(s.Verify())(t)
	if v.Path != path || v.Entries != 1 || len(v.Problems) != 1 || v.Problems[0].Code != "invalid_json" ||
		v.Problems[0].Line != 2 || v.Problems[0].Fixable == nil {
		t.Errorf("verify %s", v.Raw)
	}
	sameValue(t, "verify", v, v.Raw)

	plain := must(s.Repair(RepairKeepLines))(t)
	if plain.HasQuarantine || plain.Path != path {
		t.Errorf("repair without quarantine %s", plain.Raw)
	}
	sameValue(t, "repair", plain, plain.Raw)
	q := must(s.Repair(RepairQuarantine))(t)
	if !q.HasQuarantine || q.Quarantine == nil || q.Quarantine.Lines != 1 || !strings.HasPrefix(q.Quarantine.Path, path) {
		t.Errorf("repair with quarantine %s", q.Raw)
	}
	sameValue(t, "repair with quarantine", q, q.Raw)
	again := must(s.Repair(RepairQuarantine))(t) // nothing left to move: "quarantine": null
	if !again.HasQuarantine || again.Quarantine != nil {
		t.Errorf("second repair %s", again.Raw)
	}
	sameValue(t, "repair with nothing to move", again, again.Raw)

	hash := must(st.BlobPut([]byte("blob")))(t)
	for _, flags := range []BlobListFlags{0, BlobListVerify} {
		l := must(st.BlobList(flags))(t)
		if l.Count != 1 || len(l.Blobs) != 1 || l.Blobs[0].Hash != hash || l.Blobs[0].Size != 4 ||
			l.Blobs[0].HasProblem != (flags == BlobListVerify) || l.Blobs[0].Problem != nil {
			t.Errorf("blob list (flags %d) %s", flags, l.Raw)
		}
		sameValue(t, "blob list", l, l.Raw)
	}
	gc := must(st.BlobGC(&GCOptions{DryRun: true, Now: time.Now().Add(2 * time.Hour)}))(t)
	if !gc.DryRun || len(gc.Deleted) != 1 || gc.Deleted[0].Name != hash || gc.Deleted[0].Size != 4 {
		t.Errorf("gc %s", gc.Raw)
	}
	sameValue(t, "gc", gc, gc.Raw)
}

// Every append reads back as its typed body, with nothing left over in Extra.
func TestAppendsReadBackAsTypedBodies(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))
	yes := true
	user := must(s.AppendMessage([]byte(`{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],"timestamp":5}`)))(t)
	must(s.AppendThinkingLevel("high"))(t)
	must(s.AppendModelChange("anthropic/claude", "smol"))(t)
	must(s.AppendCompaction(Compaction{Summary: "sum", ShortSummary: "s", FirstKeptEntryID: user, TokensBefore: 42,
		Details: []byte(`{"d":1}`), PreserveData: []byte(`[1]`), FromExtension: &yes}))(t)
	must(s.AppendCustom("ext", []byte(`{"k":"v"}`)))(t)
	must(s.AppendCustomMessage(CustomMessage{CustomType: "note", Content: []byte(`"shown"`), Hidden: true}))(t)
	must(s.AppendLabel(user, "start"))(t)
	must(s.AppendTTSRInjection([]byte(`["r1","r2"]`)))(t)
	must(s.AppendSessionInit(SessionInitEntry{SystemPrompt: "sys", Task: "task", Tools: []byte(`["read"]`)}))(t)
	must(s.AppendModeChange("plan", nil))(t)
	must(s.BranchWithSummary(BranchSummary{FromID: user, Summary: "gone"}))(t)
	must(s.Append([]byte(`{"type":"service_tier_change","serviceTier":"priority"}`)))(t)
	must(s.Append([]byte(`{"type":"mcp_tool_selection","selectedToolNames":["a"]}`)))(t)
	must(s.Append([]byte(`{"type":"my_own","value":[1,2]}`)))(t)

	entries := must(s.Entries(ReadAsStored))(t)
	if len(entries) != 14 {
		t.Fatalf("%d entries", len(entries))
	}
	for i, e := range entries {
		if e.Type != "my_own" && e.Extra != nil {
			t.Errorf("entry %d (%s) has untyped members %v", i, e.Type, e.Extra)
		}
		sameValue(t, e.Type, e, e.Raw)
	}
	m := entries[0].Body.(*MessageBody).Message
	if m.Role != "user" || m.Text() != "a\nb" || string(m.Extra["timestamp"]) != "5" || entries[0].ParentID != nil {
		t.Errorf("message %+v", m)
	}
	if b := entries[1].Body.(*ThinkingLevelBody); b.ThinkingLevel == nil || *b.ThinkingLevel != "high" {
		t.Errorf("thinking level %+v", b)
	}
	if b := entries[2].Body.(*ModelChangeBody); b.Model != "anthropic/claude" || b.Role != "smol" {
		t.Errorf("model change %+v", b)
	}
	c := entries[3].Body.(*CompactionBody)
	if c.Summary != "sum" || c.ShortSummary != "s" || c.FirstKeptEntryID != user || c.TokensBefore != 42 ||
		string(c.Details) != `{"d":1}` || string(c.PreserveData) != `[1]` || c.FromExtension == nil || !*c.FromExtension {
		t.Errorf("compaction %+v", c)
	}
	if b := entries[4].Body.(*CustomBody); b.CustomType != "ext" || string(b.Data) != `{"k":"v"}` {
		t.Errorf("custom %+v", b)
	}
	if b := entries[5].Body.(*CustomMessageBody); b.CustomType != "note" || string(b.Content) != `"shown"` || b.Display == nil || *b.Display || b.Attribution != "agent" {
		t.Errorf("custom message %+v", b)
	}
	if b := entries[6].Body.(*LabelBody); b.TargetID != user || b.Label == nil || *b.Label != "start" {
		t.Errorf("label %+v", b)
	}
	if b := entries[7].Body.(*TTSRInjectionBody); strings.Join(b.InjectedRules, ",") != "r1,r2" {
		t.Errorf("ttsr %+v", b)
	}
	if b := entries[8].Body.(*SessionInitBody); b.SystemPrompt != "sys" || b.Task != "task" || string(b.Tools) != `["read"]` {
		t.Errorf("session init %+v", b)
	}
	if b := entries[9].Body.(*ModeChangeBody); b.Mode != "plan" || b.Data != nil {
		t.Errorf("mode change %+v", b)
	}
	if b := entries[10].Body.(*BranchSummaryBody); b.FromID != user || b.Summary != "gone" || *entries[10].ParentID != user {
		t.Errorf("branch summary %+v", b)
	}
	if b := entries[11].Body.(*ServiceTierChangeBody); string(b.ServiceTier) != `"priority"` {
		t.Errorf("service tier %+v", b)
	}
	if b := entries[12].Body.(*MCPToolSelectionBody); b.SelectedToolNames == nil || strings.Join(*b.SelectedToolNames, ",") != "a" {
		t.Errorf("mcp tool selection %+v", b)
	}
	if _, ok := entries[13].Body.(*UnknownBody); !ok || string(entries[13].Extra["value"]) != "[1,2]" {
		t.Errorf("unknown entry %+v", entries[13])
	}

	ctx := must(s.BuildContext(""))(t)
	if ctx.HasModel || len(ctx.Messages) != 2 || ctx.Messages[0].Text() != "a\nb" ||
		ctx.Messages[1].Role != "branchSummary" || ctx.Messages[1].Text() != "gone" {
		t.Errorf("context %s", ctx.Raw)
	}
	if must(s.Info())(t).EntryTypes["message"] != 1 {
		t.Errorf("info %s", must(s.Info())(t).Raw)
	}
}

// An entry whose members do not have the documented types still reads whole: those members stay
// in Extra, the others are typed.
func TestMembersOfForeignTypesStayInExtra(t *testing.T) {
	for _, raw := range []string{
		`{"type":"compaction","id":"c","parentId":5,"timestamp":"t","summary":"s","tokensBefore":1.5}`,
		`{"type":"message","id":"m","parentId":"p","timestamp":"t","message":{"role":7,"content":"x"}}`,
		`{"type":["odd"],"id":"o"}`,
	} {
		var e Entry
		if err := json.Unmarshal([]byte(raw), &e); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		sameValue(t, "entry", e, []byte(raw))
		switch b := e.Body.(type) {
		case *CompactionBody:
			if b.Summary != "s" || b.TokensBefore != 0 || string(e.Extra["tokensBefore"]) != "1.5" ||
				e.ParentID != nil || string(e.Extra["parentId"]) != "5" {
				t.Errorf("compaction %+v %+v", e, b)
			}
		case *MessageBody:
			if b.Message.Role != "" || string(b.Message.Extra["role"]) != "7" || b.Message.Text() != "x" || *e.ParentID != "p" {
				t.Errorf("message %+v", b.Message)
			}
		case *UnknownBody:
			if e.Type != "" || e.ID != "o" || string(e.Extra["type"]) != `["odd"]` {
				t.Errorf("entry %+v", e)
			}
		}
	}
}
