package xsession

// The keyed store's steps of the conformance cases (tests/conformance/README.md, "Keyed store";
// the C++ runner's are in tests/conformance/keys_steps.cc), through the Store's Key* methods.

import (
	"bytes"
	"os"
	"path/filepath"
)

var keyOps = map[string]caseOp{
	"keys_put": func(r *caseRunner, s step, expect Code) bool {
		return r.status(r.store.KeyPut(s.str(r.t, "key"), []byte(s.text(r.t, "record"))), expect)
	},
	"keys_patch": func(r *caseRunner, s step, expect Code) bool {
		return r.status(r.store.KeyPatch(s.str(r.t, "key"), []byte(s.text(r.t, "patch"))), expect)
	},
	"keys_delete": func(r *caseRunner, s step, expect Code) bool {
		return r.status(r.store.KeyDelete(s.str(r.t, "key")), expect)
	},
	"keys_update": func(r *caseRunner, s step, expect Code) bool {
		// The function answers with "result" (text, or null to remove) or "cancel" (a status).
		var answer error
		if s.has("cancel") {
			answer = &Error{Code: codeByName(r.t, s.str(r.t, "cancel"))}
		}
		var result []byte
		if !s.isNull("result") {
			result = []byte(s.text(r.t, "result"))
		}
		var seen []byte
		var called, seenOK bool
		err := r.store.KeyUpdate(s.str(r.t, "key"), func(current []byte, ok bool) ([]byte, bool, error) {
			called, seen, seenOK = true, current, ok
			return result, result == nil, answer
		})
		if !r.status(err, expect) {
			return false
		}
		if !s.has("expect_current") {
			return true
		}
		if s.isNull("expect_current") {
			if !called || seenOK {
				r.t.Errorf("the function was given %s (called %v), want no record", seen, called)
				return false
			}
			return true
		}
		if want := s.text(r.t, "expect_current"); !seenOK || string(seen) != want {
			r.t.Errorf("the function was given %s (ok %v), want %s", seen, seenOK, want)
			return false
		}
		return true
	},
	"check_keys_get": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.store.KeyGet(s.str(r.t, "key"))
		return r.checkText(s, "json", expect, got, err)
	},
	"check_keys_list": func(r *caseRunner, s step, expect Code) bool {
		// An absent prefix is the C runner's NULL, which "" is here.
		got, err := r.store.KeyListJSON(s.str(r.t, "prefix"))
		return r.checkText(s, "json", expect, got, err)
	},
	"check_keys_file": func(r *caseRunner, s step, expect Code) bool {
		got, err := os.ReadFile(filepath.Join(r.root, "sessions.json"))
		var exists bool
		if s.decode(r.t, "exists", &exists); s.has("exists") && !exists {
			if err == nil {
				r.t.Errorf("sessions.json exists: %s", got)
			}
			return err != nil
		}
		if want := s.text(r.t, "raw"); err != nil || string(got) != want {
			r.t.Errorf("sessions.json (%v)\ngot\n%s\nwant\n%s", err, got, want)
			return false
		}
		return true
	},
	"check_keys_preserved": func(r *caseRunner, s step, expect Code) bool {
		found, _ := filepath.Glob(filepath.Join(r.root, "sessions.json.corrupt-*"))
		if len(found) != 1 {
			r.t.Errorf("found %d preserved copies of sessions.json, want 1", len(found))
			return false
		}
		got, err := os.ReadFile(found[0])
		if want := s.text(r.t, "raw"); err != nil || !bytes.Equal(got, []byte(want)) {
			r.t.Errorf("%s (%v): got %q, want %q", found[0], err, got, want)
			return false
		}
		return true
	},
}
