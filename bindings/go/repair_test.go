package xsession

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Repair with RepairQuarantine: a garbage line and a torn tail leave the session for the
// quarantine file, whose records give back the removed bytes exactly; the rest stays.
func TestRepairQuarantineMovesGarbageAndATornTail(t *testing.T) {
	st, root := openTestStore(t)
	path := filepath.Join(root, "q.jsonl")
	header := `{"type":"session","version":3,"id":"q1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`
	entry := `{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}`
	garbage := "not JSON at all"
	torn := `{"type":"message","id":"m2","par`
	original := header + "\n" + garbage + "\n" + entry + "\n" + torn
	writeFile(t, path, []byte(original))
	s := must(st.Open(path, nil))(t)
	defer s.Close()

	var report struct {
		Done []struct {
			Line int    `json:"line"`
			Code string `json:"code"`
		} `json:"done"`
		Quarantine *struct {
			Path  string `json:"path"`
			Lines int    `json:"lines"`
			Bytes int    `json:"bytes"`
		} `json:"quarantine"`
	}
	readJSON(t, must(s.Repair(RepairQuarantine))(t).Raw, &report)
	if len(report.Done) != 2 || report.Done[0].Line != 2 || report.Done[0].Code != "quarantined" ||
		report.Done[1].Line != 4 || report.Done[1].Code != "quarantined" {
		t.Fatalf("repair did %+v", report.Done)
	}
	q := report.Quarantine
	if q == nil || !strings.HasPrefix(q.Path, path+".quarantine-") || !strings.HasSuffix(q.Path, ".jsonl") ||
		q.Lines != 2 || q.Bytes != len(garbage)+1+len(torn) {
		t.Fatalf("quarantine %+v", q)
	}
	if got := string(must(os.ReadFile(path))(t)); got != header+"\n"+entry+"\n" {
		t.Errorf("session file %q", got)
	}
	var verify struct {
		Problems []json.RawMessage `json:"problems"`
	}
	readJSON(t, must(s.Verify())(t).Raw, &verify)
	if len(verify.Problems) != 0 {
		t.Errorf("verify still finds %s", verify.Problems)
	}

	// Each record holds the bytes that were at its offset; together they are all that was removed.
	f := must(os.Open(q.Path))(t)
	defer f.Close()
	var removed bytes.Buffer
	var codes []string
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		var r struct {
			Offset  int    `json:"offset"`
			Code    string `json:"code"`
			Newline bool   `json:"newline"`
			Text    string `json:"text"`
		}
		readJSON(t, lines.Bytes(), &r)
		if original[r.Offset:r.Offset+len(r.Text)] != r.Text {
			t.Errorf("record at %d holds %q", r.Offset, r.Text)
		}
		removed.WriteString(r.Text)
		if r.Newline {
			removed.WriteByte('\n')
		}
		codes = append(codes, r.Code)
	}
	if removed.String() != garbage+"\n"+torn {
		t.Errorf("removed %q", removed.String())
	}
	if strings.Join(codes, ",") != "invalid_json,incomplete_tail" {
		t.Errorf("codes %v", codes)
	}

	// Nothing is left to move.
	if got := string(must(s.Repair(RepairQuarantine))(t).Raw); got != `{"path":"`+path+`","done":[],"quarantine":null}` {
		t.Errorf("second repair %s", got)
	}
}
