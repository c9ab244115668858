package xsession

// The session index through the binding: exact reports, hits and listings from sessions written
// through the binding, each search filter, refresh and verify, and the typed values encoding back
// to the library's JSON. Refusals, Close and contexts are in index_errors_test.go.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// indexedSession is what writeIndexedSession wrote: the file, its entries' ids and times.
type indexedSession struct {
	path    string
	created int64    // the header's timestamp, ms
	ids     []string // the user prompt's entry, then the answer's
	ts      []int64  // their timestamps, ms
}

// writeIndexedSession writes session "s<n>" in cwd, a minute after session n-1 (fixed clock and
// ids), with a user prompt and an assistant answer whose usage is 10 in, 5 out, cost 0.25.
func writeIndexedSession(t *testing.T, st *Store, n int, cwd, prompt, answer string) indexedSession {
	t.Helper()
	s := must(st.Create(cwd, &SessionOptions{Flags: SessionFixedClock, ClockStartMs: 1767225600000 + int64(n)*60000,
		ClockStepMs: 1000, IDSeed: uint64(n), SessionID: fmt.Sprintf("s%d", n)}))(t)
	defer s.Close()
	user, _ := json.Marshal(map[string]any{"role": "user", "content": prompt, "timestamp": 1})
	assistant, _ := json.Marshal(map[string]any{"role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": answer}}, "api": "x", "provider": "p", "model": "m",
		"usage": map[string]any{"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15,
			"cost": map[string]any{"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0.25}},
		"stopReason": "stop", "timestamp": 2})
	out := indexedSession{path: must(s.FilePath())(t)}
	for _, m := range [][]byte{user, assistant} {
		id := must(s.AppendMessage(m))(t)
		out.ids = append(out.ids, id)
		out.ts = append(out.ts, isoMs(t, must(s.Entry(id, ReadAsStored))(t).Timestamp))
	}
	out.created = isoMs(t, must(s.Header())(t).Timestamp)
	noErrs(t, s.Close())
	return out
}

// isoMs is an ISO 8601 time in ms since the epoch.
func isoMs(t *testing.T, iso string) int64 {
	t.Helper()
	return must(time.Parse(time.RFC3339Nano, iso))(t).UnixMilli()
}

// openTestIndex opens the default index of a fresh store, closed at the end of the test.
func openTestIndex(t *testing.T) (*Index, *Store, string) {
	t.Helper()
	st, root := openTestStore(t)
	ix := must(st.OpenIndex(nil))(t)
	t.Cleanup(func() { ix.Close() })
	return ix, st, root
}

// reportJSON is an index report as the library writes it.
func reportJSON(files, unchanged, appended, added, entries int) string {
	return fmt.Sprintf(`{"files":%d,"unchanged":%d,"appended":%d,"reindexed":0,"added":%d,"removed":0,`+
		`"unreadable":0,"raced":0,"entries":%d}`, files, unchanged, appended, added, entries)
}

// hitSessions is the session id of each hit, in order.
func hitSessions(hits []SearchHit) string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.SessionID
	}
	return strings.Join(ids, ",")
}

func TestIndexRebuildSearchInfo(t *testing.T) {
	ix, st, root := openTestIndex(t)
	s1 := writeIndexedSession(t, st, 1, "/w/app", "deploy the staging server", "staging is deployed")
	writeIndexedSession(t, st, 2, "/w/lib", "write a unit test", "the test passes")
	dbPath := filepath.Join(root, "index.db")
	info := must(ix.Info())(t)
	if want := `{"path":"` + dbPath + `","schemaVersion":2,"sessions":0,"entries":0,"damaged":null}`; string(info.Raw) != want {
		t.Errorf("info before the rebuild\n%s", info.Raw)
	}

	report := must(ix.Rebuild())(t)
	if string(report.Raw) != reportJSON(2, 0, 0, 2, 4) || report.Files != 2 || report.Unchanged != 0 || report.Added != 2 ||
		report.Entries != 4 || report.Appended+report.Reindexed+report.Removed+report.Unreadable+report.Raced != 0 {
		t.Errorf("rebuild %+v\n%s", report, report.Raw)
	}
	sameJSONValues(t, "rebuild", report, report.Raw)
	info = must(ix.Info())(t)
	if string(info.Raw) != `{"path":"`+dbPath+`","schemaVersion":2,"sessions":2,"entries":4,"damaged":null}` ||
		info.Path != dbPath || info.SchemaVersion != 2 || info.Sessions != 2 || info.Entries != 4 || info.Damaged != nil {
		t.Errorf("info %+v\n%s", info, info.Raw)
	}
	sameJSONValues(t, "info", info, info.Raw)

	raw := must(ix.SearchJSON("staging", nil))(t)
	hits := must(ix.Search("staging", nil))(t)
	if len(hits) != 2 || hitSessions(hits) != "s1,s1" {
		t.Fatalf("hits\n%s", raw)
	}
	// The prompt's hit, whole; only its score is the ranking's.
	user := fmt.Sprintf(`{"sessionId":"s1","sessionTitle":null,"sessionPath":%q,"cwd":"/w/app","entryId":%q,`+
		`"role":"user","onPath":true,"timestamp":%d,"score":`, s1.path, s1.ids[0], s1.ts[0])
	hit := regexp.MustCompile(regexp.QuoteMeta(user) + `-[0-9.e-]+,"snippet":"deploy the \\u0002staging\\u0003 server"}`)
	if !hit.Match(raw) {
		t.Errorf("the prompt's hit is not\n%s...\nin\n%s", user, raw)
	}
	for _, h := range hits {
		if h.Role == nil || h.SessionPath != s1.path || h.Cwd != "/w/app" || h.SessionTitle != nil || !h.OnPath || h.Score >= 0 {
			t.Errorf("hit %+v", h)
		}
		switch *h.Role {
		case RoleUser:
			if h.EntryID != s1.ids[0] || *h.TimestampMs != s1.ts[0] || !h.Time().Equal(time.UnixMilli(s1.ts[0])) ||
				h.Snippet != "deploy the "+SearchMatchStart+"staging"+SearchMatchEnd+" server" || SearchMatchStart != "\x02" ||
				SearchMatchEnd != "\x03" {
				t.Errorf("prompt hit %+v", h)
			}
		case RoleAssistant:
			if h.EntryID != s1.ids[1] || *h.TimestampMs != s1.ts[1] || h.Snippet != "\x02staging\x03 is deployed" {
				t.Errorf("answer hit %+v", h)
			}
		default:
			t.Errorf("role %q", *h.Role)
		}
	}
	sameJSONValues(t, "search", hits, raw)
}

// Each filter changes the hits as it should, against the same query without it.
func TestIndexSearchFilters(t *testing.T) {
	ix, st, _ := openTestIndex(t)
	writeIndexedSession(t, st, 1, "/w/app", "deploy the staging server", "staging is deployed")
	s2 := writeIndexedSession(t, st, 2, "/w/lib", "write a unit test", "the test passes")
	must(ix.Rebuild())(t)
	search := func(q string, o *SearchOptions) []SearchHit {
		t.Helper()
		return must(ix.Search(q, o))(t)
	}

	if got := search("staging", &SearchOptions{Role: RoleAssistant}); len(got) != 1 || *got[0].Role != RoleAssistant ||
		got[0].Snippet != "\x02staging\x03 is deployed" {
		t.Errorf("role assistant: %+v", got)
	}
	if got := search("staging", &SearchOptions{Role: RoleUser}); len(got) != 1 || *got[0].Role != RoleUser {
		t.Errorf("role user: %+v", got)
	}
	for _, r := range []Role{RoleTool, RoleSummary, RoleLabel} {
		if got := search("staging", &SearchOptions{Role: r}); len(got) != 0 {
			t.Errorf("role %s: %+v", r, got)
		}
	}

	if got := search("staging", &SearchOptions{Cwd: "/w/lib"}); got == nil || len(got) != 0 {
		t.Errorf("cwd /w/lib: %#v", got)
	}
	if raw := must(ix.SearchJSON("staging", &SearchOptions{Cwd: "/w/lib"}))(t); string(raw) != "[]" {
		t.Errorf("cwd /w/lib: %s", raw)
	}
	if got := search("test", &SearchOptions{Cwd: "/w/lib"}); hitSessions(got) != "s2,s2" {
		t.Errorf("cwd /w/lib: %+v", got)
	}

	if got := search("unit te", nil); len(got) != 0 {
		t.Errorf("FTS5 takes whole words: %+v", got)
	}
	if got := search("unit te", &SearchOptions{Literal: true}); len(got) != 1 || got[0].EntryID != s2.ids[0] {
		t.Errorf("literal, the last word a prefix: %+v", got)
	}
	if got := search("test OR staging", &SearchOptions{Literal: true}); len(got) != 0 {
		t.Errorf("literal OR is a word that must occur: %+v", got)
	}

	if got := search("test OR staging", nil); len(got) != 4 {
		t.Errorf("no filter: %+v", got)
	}
	if got := search("test OR staging", &SearchOptions{SessionID: "s2"}); hitSessions(got) != "s2,s2" {
		t.Errorf("session s2: %+v", got)
	}
	if got := search("test OR staging", &SearchOptions{SessionID: "s2", Limit: 1}); hitSessions(got) != "s2" {
		t.Errorf("session s2, limit 1: %+v", got)
	}
	if got := search("test OR staging", &SearchOptions{Limit: 3}); len(got) != 3 {
		t.Errorf("limit 3: %+v", got)
	}

	// Since: only the second session's entries are that new; a time inside a millisecond rounds up.
	if got := search("test OR staging", &SearchOptions{Since: time.UnixMilli(1767225600000 + 2*60000)}); hitSessions(got) != "s2,s2" {
		t.Errorf("since the second session: %+v", got)
	}
	if got := search("test", &SearchOptions{Since: time.UnixMilli(s2.ts[1])}); len(got) != 1 || got[0].EntryID != s2.ids[1] {
		t.Errorf("since the answer: %+v", got)
	}
	if got := search("test", &SearchOptions{Since: time.UnixMilli(s2.ts[1]).Add(time.Nanosecond)}); len(got) != 0 {
		t.Errorf("since just after the answer: %+v", got)
	}
	if got := search("test", &SearchOptions{Since: time.UnixMilli(s2.ts[0] + 1).Add(-time.Nanosecond)}); len(got) != 1 ||
		got[0].EntryID != s2.ids[1] {
		t.Errorf("since just before the answer's millisecond ends: %+v", got)
	}
}

// Refresh reads what changed; Verify reports what differs, changing nothing.
func TestIndexRefreshAndVerify(t *testing.T) {
	ix, st, _ := openTestIndex(t)
	s1 := writeIndexedSession(t, st, 1, "/w/app", "first prompt", "first answer")
	verify := must(ix.Verify())(t)
	if want := `{"ok":false,"files":1,"indexed":0,"missing":[` + fmt.Sprintf("%q", s1.path) + `],"extra":[],"stale":[]}`; string(verify.Raw) != want ||
		verify.OK || verify.Files != 1 || verify.Indexed != 0 || len(verify.Missing) != 1 || verify.Missing[0] != s1.path ||
		verify.Extra == nil || len(verify.Extra) != 0 || verify.Stale == nil || len(verify.Stale) != 0 {
		t.Errorf("verify before the first refresh %+v\n%s", verify, verify.Raw)
	}
	sameJSONValues(t, "verify", verify, verify.Raw)

	if r := must(ix.Refresh())(t); string(r.Raw) != reportJSON(1, 0, 0, 1, 2) || r.Added != 1 || r.Entries != 2 {
		t.Errorf("first refresh %s", r.Raw)
	}
	if r := must(ix.Refresh())(t); string(r.Raw) != reportJSON(1, 1, 0, 0, 0) || r.Unchanged != 1 {
		t.Errorf("refresh of nothing new %s", r.Raw)
	}
	verify = must(ix.Verify())(t)
	if string(verify.Raw) != `{"ok":true,"files":1,"indexed":1,"missing":[],"extra":[],"stale":[]}` || !verify.OK {
		t.Errorf("verify %s", verify.Raw)
	}
	sameJSONValues(t, "verify ok", verify, verify.Raw)

	if got := must(ix.Search("second", nil))(t); len(got) != 0 {
		t.Errorf("before the second session: %+v", got)
	}
	writeIndexedSession(t, st, 2, "/w/app", "second prompt", "second answer")
	report := must(ix.Refresh())(t)
	if string(report.Raw) != reportJSON(2, 1, 0, 1, 2) || report.Files != 2 || report.Unchanged != 1 || report.Added != 1 {
		t.Errorf("refresh after a new session %+v\n%s", report, report.Raw)
	}
	sameJSONValues(t, "refresh", report, report.Raw)
	if got := must(ix.Search("second", nil))(t); hitSessions(got) != "s2,s2" {
		t.Errorf("after the refresh: %+v", got)
	}

	// A session grown in place is read from its last indexed byte.
	s := must(st.Open(s1.path, nil))(t)
	must(s.AppendMessage([]byte(`{"role":"user","content":"a third prompt"}`)))(t)
	noErrs(t, s.Close())
	if r := must(ix.Refresh())(t); string(r.Raw) != reportJSON(2, 1, 1, 0, 1) {
		t.Errorf("refresh after an append %s", r.Raw)
	}
	if got := must(ix.Search("third", nil))(t); hitSessions(got) != "s1" || !got[0].OnPath {
		t.Errorf("the appended prompt: %+v", got)
	}
}

// List: newest first, every member, the cwd filter and the limit.
func TestIndexList(t *testing.T) {
	ix, st, _ := openTestIndex(t)
	s1 := writeIndexedSession(t, st, 1, "/w/app", "deploy the staging server", "staging is deployed")
	s2 := writeIndexedSession(t, st, 2, "/w/lib", "write a unit test", "the test passes")
	if got := must(ix.List(nil))(t); got == nil || len(got) != 0 {
		t.Errorf("list before a refresh: %#v", got)
	}
	must(ix.Refresh())(t)

	raw := must(ix.ListJSON(nil))(t)
	list := must(ix.List(nil))(t)
	if len(list) != 2 || list[0].ID != "s2" || list[1].ID != "s1" {
		t.Fatalf("list\n%s", raw)
	}
	sameJSONValues(t, "list", list, raw)
	for i, w := range []struct {
		s                 indexedSession
		id, cwd, firstMsg string
	}{{s2, "s2", "/w/lib", "write a unit test"}, {s1, "s1", "/w/app", "deploy the staging server"}} {
		fi := must(os.Stat(w.s.path))(t)
		want := fmt.Sprintf(`{"path":%q,"id":%q,"cwd":%q,"title":null,"firstPrompt":%q,"created":%d,"updated":%d,`+
			`"modified":%d,"size":%d,"entries":2,"messages":2,"inputTokens":10,"outputTokens":5,"cost":0.25,`+
			`"dialect":"omp","sourceAgent":null,"parentSession":null,"archived":false,"leafId":%q}`,
			w.s.path, w.id, w.cwd, w.firstMsg, w.s.created, w.s.ts[1], fi.ModTime().UnixMilli(), fi.Size(), w.s.ids[1])
		if one := must(json.Marshal(list[i]))(t); canonical(t, one) != canonical(t, []byte(want)) {
			t.Errorf("session %d\n%s\nwant\n%s", i, one, want)
		}
		e := list[i]
		if e.Path != w.s.path || e.Title != nil || *e.FirstPrompt != w.firstMsg || *e.Dialect != "omp" ||
			e.SourceAgent != nil || e.ParentSession != nil || e.Archived || *e.LeafID != w.s.ids[1] ||
			!e.Created().Equal(time.UnixMilli(w.s.created)) || !e.Updated().Equal(time.UnixMilli(w.s.ts[1])) ||
			!e.Modified().Equal(time.UnixMilli(fi.ModTime().UnixMilli())) || e.Cost != 0.25 || e.InputTokens != 10 {
			t.Errorf("session %d %+v", i, e)
		}
	}
	if !strings.HasPrefix(string(raw), `[{"path":`) {
		t.Errorf("member order %s", raw)
	}

	if got := must(ix.List(&IndexListOptions{Cwd: "/w/app", Limit: 5}))(t); len(got) != 1 || got[0].ID != "s1" {
		t.Errorf("cwd /w/app: %+v", got)
	}
	if got := must(ix.List(&IndexListOptions{Limit: 1}))(t); len(got) != 1 || got[0].ID != "s2" {
		t.Errorf("limit 1: %+v", got)
	}
	if raw := must(ix.ListJSON(&IndexListOptions{Cwd: "/nowhere"}))(t); string(raw) != "[]" {
		t.Errorf("cwd /nowhere: %s", raw)
	}
}
