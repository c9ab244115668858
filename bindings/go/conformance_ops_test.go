package xsession

// The operations of the conformance cases (tests/conformance/README.md, "Steps"), each mapped
// to the Go method it exercises. Checks are in conformance_checks_test.go.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

type caseOp func(r *caseRunner, s step, expect Code) bool

// appendOp is an append: its id is compared with expect_id when the call succeeds.
type appendOp func(r *caseRunner, s step) (string, error)

func (r *caseRunner) step(op string, s step, expect Code) bool {
	if op == "create" || op == "open" {
		r.closeCurrent() // one session at a time: a new one replaces the last
	}
	if f, ok := appendOps[op]; ok {
		id, err := f(r, s)
		if !r.status(err, expect) {
			return false
		}
		if err == nil && s.has("expect_id") && id != s.str(r.t, "expect_id") {
			r.t.Errorf("id %q, want %q", id, s.str(r.t, "expect_id"))
			return false
		}
		return true
	}
	if f, ok := sessionOps[op]; ok {
		return f(r, s, expect)
	}
	if f, ok := checkOps[op]; ok {
		return f(r, s, expect)
	}
	if f, ok := keyOps[op]; ok {
		return f(r, s, expect)
	}
	if f, ok := libraryOps[op]; ok {
		return f(r, s, expect)
	}
	if f, ok := importOps[op]; ok {
		return f(r, s, expect)
	}
	if f, ok := searchOps[op]; ok {
		return f(r, s, expect)
	}
	if f, ok := bundleOps[op]; ok {
		return f(r, s, expect)
	}
	r.t.Errorf("unknown op %q", op)
	return false
}

var appendOps = map[string]appendOp{
	"append": func(r *caseRunner, s step) (string, error) {
		return r.s.Append([]byte(s.text(r.t, "entry")))
	},
	"append_message": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendMessage([]byte(s.text(r.t, "message")))
	},
	"append_thinking_level": func(r *caseRunner, s step) (string, error) {
		if s.isNull("level") {
			return r.s.AppendNullThinkingLevel()
		}
		return r.s.AppendThinkingLevel(s.str(r.t, "level"))
	},
	"append_model_change": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendModelChange(s.str(r.t, "model"), s.str(r.t, "role"))
	},
	"append_compaction": func(r *caseRunner, s step) (string, error) {
		c := Compaction{
			Summary:          s.text(r.t, "summary"),
			FirstKeptEntryID: s.str(r.t, "first_kept_entry_id"),
			Details:          s.jsonText(r.t, "details"),
			PreserveData:     s.jsonText(r.t, "preserve_data"),
			FromExtension:    s.tri(r.t, "from_extension"),
		}
		if s.has("short_summary") {
			c.ShortSummary = s.text(r.t, "short_summary")
		}
		s.decode(r.t, "tokens_before", &c.TokensBefore)
		return r.s.AppendCompaction(c)
	},
	"append_custom": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendCustom(s.str(r.t, "custom_type"), s.jsonText(r.t, "data"))
	},
	"append_custom_message": func(r *caseRunner, s step) (string, error) {
		m := CustomMessage{
			CustomType:  s.str(r.t, "custom_type"),
			Content:     []byte(s.text(r.t, "content")),
			Details:     s.jsonText(r.t, "details"),
			Attribution: s.str(r.t, "attribution"),
		}
		if d := s.tri(r.t, "display"); d != nil {
			m.Hidden = !*d
		}
		return r.s.AppendCustomMessage(m)
	},
	"append_label": func(r *caseRunner, s step) (string, error) {
		if s.isNull("label") {
			return r.s.ClearLabel(s.str(r.t, "target_id"))
		}
		return r.s.AppendLabel(s.str(r.t, "target_id"), s.str(r.t, "label"))
	},
	"append_ttsr_injection": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendTTSRInjection([]byte(s.text(r.t, "rules")))
	},
	"append_session_init": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendSessionInit(SessionInitEntry{
			SystemPrompt: s.text(r.t, "system_prompt"),
			Task:         s.text(r.t, "task"),
			Tools:        []byte(s.text(r.t, "tools")),
			OutputSchema: s.jsonText(r.t, "output_schema"),
		})
	},
	"append_mode_change": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendModeChange(s.str(r.t, "mode"), s.jsonText(r.t, "data"))
	},
	"append_session_info": func(r *caseRunner, s step) (string, error) {
		return r.s.AppendSessionInfo(s.text(r.t, "name"))
	},
	"branch_with_summary": func(r *caseRunner, s step) (string, error) {
		return r.s.BranchWithSummary(BranchSummary{
			FromID:        s.str(r.t, "from_id"),
			Summary:       s.text(r.t, "summary"),
			Details:       s.jsonText(r.t, "details"),
			FromExtension: s.tri(r.t, "from_extension"),
		})
	},
}

var sessionOps = map[string]caseOp{
	"create": func(r *caseRunner, s step, expect Code) bool {
		o := r.options(s)
		o.SessionID, o.Title, o.ParentSession = s.str(r.t, "session_id"), s.str(r.t, "title"), s.str(r.t, "parent_session")
		fresh, err := r.store.Create(s.str(r.t, "cwd"), o)
		return r.adopt(fresh, err, expect)
	},
	"open": func(r *caseRunner, s step, expect Code) bool {
		path := "input.jsonl"
		if s.has("path") {
			path = s.str(r.t, "path")
		}
		return r.openPath(r.root+"/"+path, s, expect)
	},
	"close": func(r *caseRunner, s step, expect Code) bool {
		// xs_session_close reports nothing, so neither does the step; the closed handle stays
		// current, and later calls on it fail with XS_EMISUSE as the C runner's NULL does.
		r.s.Close()
		return true
	},
	"reopen": func(r *caseRunner, s step, expect Code) bool {
		r.closeCurrent()
		return r.openPath(r.path, s, expect)
	},
	"set_leaf": func(r *caseRunner, s step, expect Code) bool {
		if s.isNull("id") {
			return r.status(r.s.ClearLeaf(), expect)
		}
		return r.status(r.s.SetLeaf(s.str(r.t, "id")), expect)
	},
	"set_title": func(r *caseRunner, s step, expect Code) bool {
		if s.isNull("title") {
			return r.status(r.s.RemoveTitle(), expect)
		}
		return r.status(r.s.SetTitle(s.str(r.t, "title")), expect)
	},
	"flush": func(r *caseRunner, s step, expect Code) bool {
		return r.status(r.s.Flush(), expect)
	},
	"persist": func(r *caseRunner, s step, expect Code) bool {
		return r.status(r.s.Persist(), expect)
	},
	"reload": func(r *caseRunner, s step, expect Code) bool {
		added, err := r.s.Reload()
		if !r.status(err, expect) {
			return false
		}
		var want int64
		if s.has("expect_added") {
			if s.decode(r.t, "expect_added", &want); added != want {
				r.t.Errorf("reload added %d, want %d", added, want)
				return false
			}
		}
		return true
	},
	"fork": func(r *caseRunner, s step, expect Code) bool {
		o := r.options(s)
		o.SessionID = s.str(r.t, "session_id")
		fresh, err := r.s.Fork(o)
		return r.adopt(fresh, err, expect)
	},
	"create_branched": func(r *caseRunner, s step, expect Code) bool {
		o := r.options(s)
		o.SessionID = s.str(r.t, "session_id")
		fresh, err := r.s.CreateBranched(s.str(r.t, "leaf"), o)
		return r.adopt(fresh, err, expect)
	},
	"fork_from": func(r *caseRunner, s step, expect Code) bool {
		fresh, err := r.store.ForkFrom(r.root+"/"+s.str(r.t, "source"), s.str(r.t, "cwd"), r.options(s))
		return r.adopt(fresh, err, expect)
	},
	"continue_recent": func(r *caseRunner, s step, expect Code) bool {
		fresh, err := r.store.ContinueRecent(s.str(r.t, "cwd"), s.str(r.t, "terminal_id"), r.options(s))
		return r.adopt(fresh, err, expect)
	},
	"move_to": func(r *caseRunner, s step, expect Code) bool {
		err := r.s.MoveTo(s.str(r.t, "cwd"))
		if err == nil {
			r.path = r.sessionPath()
		}
		return r.status(err, expect)
	},
	"write_breadcrumb": func(r *caseRunner, s step, expect Code) bool {
		target := r.root + "/" + s.str(r.t, "path")
		return r.status(r.store.WriteBreadcrumb(s.str(r.t, "terminal_id"), s.str(r.t, "cwd"), target), expect)
	},
	"blob_put": func(r *caseRunner, s step, expect Code) bool {
		hash, err := r.store.BlobPut([]byte(s.text(r.t, "data")))
		if !r.status(err, CodeOK) {
			return false
		}
		if s.has("expect_hash") && hash != s.str(r.t, "expect_hash") {
			r.t.Errorf("hash %s, want %s", hash, s.str(r.t, "expect_hash"))
			return false
		}
		return true
	},
	"write_file": func(r *caseRunner, s step, expect Code) bool {
		writeFile(r.t, r.root+"/"+s.str(r.t, "path"), []byte(r.linesOrRaw(s)))
		return true
	},
	"append_to_file": func(r *caseRunner, s step, expect Code) bool {
		f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			_, err = f.WriteString(s.text(r.t, "raw"))
			f.Close()
		}
		if err != nil {
			r.t.Errorf("append_to_file: %v", err)
			return false
		}
		return true
	},
}

// linesOrRaw is a file's bytes given as "raw", or as "lines" each ended with '\n'.
func (r *caseRunner) linesOrRaw(s step) string {
	if s.has("raw") {
		return s.text(r.t, "raw")
	}
	var lines []json.RawMessage
	s.decode(r.t, "lines", &lines)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(textOf(r.t, l))
		b.WriteByte('\n')
	}
	return b.String()
}

// preserved is the one "<session file>.corrupt-*" file beside the session.
func (r *caseRunner) preserved() (string, bool) {
	found, _ := filepath.Glob(r.path + ".corrupt-*")
	if len(found) != 1 {
		r.t.Errorf("found %d preserved copies of %s, want 1", len(found), r.path)
		return "", false
	}
	b, err := os.ReadFile(found[0])
	if err != nil {
		r.t.Error(err)
		return "", false
	}
	return string(b), true
}
