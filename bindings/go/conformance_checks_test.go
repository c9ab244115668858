package xsession

// The checks of the conformance cases (tests/conformance/README.md, "Checks"). Each compares
// bytes exactly unless the README says "parsed comparison".

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"sort"
	"strings"
)

// readFlags is the step's resolve_blobs option.
func (r *caseRunner) readFlags(s step) ReadFlags {
	var resolve bool
	s.decode(r.t, "resolve_blobs", &resolve)
	if resolve {
		return ReadResolveBlobs
	}
	return ReadAsStored
}

// textCheck is a check of one reader's bytes against the step's "json" argument.
func textCheck(read func(r *caseRunner, s step) ([]byte, error)) caseOp {
	return func(r *caseRunner, s step, expect Code) bool {
		got, err := read(r, s)
		return r.checkText(s, "json", expect, got, err)
	}
}

var checkOps = map[string]caseOp{
	"check_file": func(r *caseRunner, s step, expect Code) bool {
		path := r.path
		if path == "" {
			path = r.sessionPath()
		}
		got, err := os.ReadFile(path)
		var exists bool
		if s.decode(r.t, "exists", &exists); s.has("exists") && !exists {
			if err == nil {
				r.t.Errorf("%s should not exist yet", path)
			}
			return err != nil
		}
		if err != nil {
			r.t.Errorf("session file: %v", err)
			return false
		}
		var want string
		switch {
		case s.has("raw_hex"):
			b, _ := hex.DecodeString(s.str(r.t, "raw_hex"))
			want = string(b)
		case s.has("raw"):
			want = s.text(r.t, "raw")
		default:
			// "{root}" stands for the store's directory (paths the library writes into files).
			want = strings.ReplaceAll(r.linesOrRaw(s), "{root}", r.root)
		}
		if string(got) != want {
			r.t.Errorf("file %s\ngot\n%s\nwant\n%s", path, got, want)
			return false
		}
		return true
	},
	"check_context": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.s.BuildContext(s.str(r.t, "leaf"))
		raw := rawOf(got)
		if !r.checkText(s, "context", expect, raw, err) {
			return false
		}
		return err != nil || r.roundTrip("context", got, raw)
	},
	"check_dialect": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.s.Dialect()
		if !r.status(err, CodeOK) {
			return false
		}
		if want := dialectNamed(r.t, s.str(r.t, "dialect")); got != want {
			r.t.Errorf("dialect %v, want %v", got, want)
			return false
		}
		return true
	},
	"check_leaf": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.s.Leaf()
		if !r.status(err, CodeOK) {
			return false
		}
		if want := s.str(r.t, "id"); got != want {
			r.t.Errorf("leaf %q, want %q", got, want)
			return false
		}
		return true
	},
	"check_header": typedObject(func(r *caseRunner, s step) (*Header, error) { return r.s.Header() }),
	"check_entries": entryArray(func(r *caseRunner, s step) ([]byte, error) {
		return r.s.EntriesJSON(r.readFlags(s))
	}),
	"check_entry": typedObject(func(r *caseRunner, s step) (*Entry, error) {
		return r.s.Entry(s.str(r.t, "id"), r.readFlags(s))
	}),
	"check_path": entryArray(func(r *caseRunner, s step) ([]byte, error) {
		return r.s.PathJSON(s.str(r.t, "id"), r.readFlags(s))
	}),
	"check_children": entryArray(func(r *caseRunner, s step) ([]byte, error) {
		return r.s.ChildrenJSON(s.str(r.t, "id"), r.readFlags(s))
	}),
	"check_tree": typedArray[TreeNode](func(r *caseRunner, s step) ([]byte, error) {
		return r.s.TreeJSON(r.readFlags(s))
	}),
	"check_labels": typedArray[Label](func(r *caseRunner, s step) ([]byte, error) { return r.s.LabelsJSON() }),
	"check_usage":  typedObject(func(r *caseRunner, s step) (*Usage, error) { return r.s.Usage() }),
	"check_info": func(r *caseRunner, s step, expect Code) bool {
		info, err := r.s.Info()
		if !r.status(err, CodeOK) {
			return false
		}
		var got, want map[string]json.RawMessage
		readJSON(r.t, info.Raw, &got)
		s.decode(r.t, "fields", &want)
		return r.sameFields("info", got, want, string(info.Raw)) && r.roundTrip("info", info, info.Raw)
	},
	"check_diagnostics": func(r *caseRunner, s step, expect Code) bool {
		diags, err := r.s.DiagnosticsJSON()
		if !r.status(err, CodeOK) || !r.decodedRoundTrip("diagnostics", diags, decodeResult[[]Diagnostic]) {
			return false
		}
		var got, want []map[string]json.RawMessage
		readJSON(r.t, diags, &got)
		s.decode(r.t, "expected", &want)
		if len(got) != len(want) {
			r.t.Errorf("%d diagnostics, want %d: %s", len(got), len(want), diags)
			return false
		}
		for i := range want {
			if !r.sameFields("diagnostic", got[i], want[i], string(diags)) {
				return false
			}
		}
		return true
	},
	"check_preserved": func(r *caseRunner, s step, expect Code) bool {
		got, ok := r.preserved()
		if ok && got != s.text(r.t, "raw") {
			r.t.Errorf("preserved copy\ngot  %q\nwant %q", got, s.text(r.t, "raw"))
			return false
		}
		return ok
	},
	"check_blob": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.store.BlobGet(s.str(r.t, "hash"))
		return r.checkText(s, "data", expect, got, err)
	},
	"check_resolve": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.store.Resolve(s.str(r.t, "query"), s.str(r.t, "cwd"))
		if !r.status(err, expect) {
			return false
		}
		if err == nil && r.relative(got) != s.str(r.t, "path") {
			r.t.Errorf("resolved %q, want %q", r.relative(got), s.str(r.t, "path"))
			return false
		}
		return true
	},
	"check_list": func(r *caseRunner, s step, expect Code) bool {
		o := &ListOptions{Cwd: s.str(r.t, "cwd")}
		s.decode(r.t, "full", &o.Full)
		s.decode(r.t, "limit", &o.Limit)
		list, err := r.store.ListJSON(o)
		if !r.status(err, CodeOK) || !r.decodedRoundTrip("list", list, decodeResult[[]SessionListing]) {
			return false
		}
		var got, want []map[string]json.RawMessage
		readJSON(r.t, list, &got)
		s.decode(r.t, "expected", &want)
		if len(got) != len(want) {
			r.t.Errorf("%d sessions listed, want %d: %s", len(got), len(want), list)
			return false
		}
		// Listed newest first by file time, which ties within a test: compare in path order.
		path := func(m map[string]json.RawMessage) string {
			var p string
			json.Unmarshal(m["path"], &p)
			return r.relative(p)
		}
		sort.Slice(got, func(i, j int) bool { return path(got[i]) < path(got[j]) })
		for i := range want {
			got[i]["path"], _ = json.Marshal(path(got[i]))
			if !r.sameFields("list", got[i], want[i], string(list)) {
				return false
			}
		}
		return true
	},
}

// sameFields compares each field of want with the same field of got, as parsed JSON values.
func (r *caseRunner) sameFields(what string, got, want map[string]json.RawMessage, whole string) bool {
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			r.t.Errorf("%s has no field %q: %s", what, k, whole)
			return false
		}
		if canonical(r.t, g) != canonical(r.t, w) {
			r.t.Errorf("%s field %q is %s, want %s", what, k, g, w)
			return false
		}
	}
	return true
}

// entryArray is typedArray for arrays of entries, which also keep each line in Raw.
func entryArray(read func(r *caseRunner, s step) ([]byte, error)) caseOp {
	typed := typedArray[Entry](read)
	return func(r *caseRunner, s step, expect Code) bool {
		if !typed(r, s, expect) {
			return false
		}
		raw, err := read(r, s)
		return err != nil || r.entriesKeepTheirLines(raw)
	}
}
