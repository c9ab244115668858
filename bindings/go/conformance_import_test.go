package xsession

// The import steps of the conformance cases (tests/conformance/README.md, "Import"; the C++
// runner's are tests/conformance/import_steps.cc), through Store.Import and Store.ForeignList.

import (
	"os"
	"regexp"
	"strings"
	"time"
)

var importOps = map[string]caseOp{
	"import": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.store.Import(ImportKind(s.str(r.t, "kind")), r.root+"/"+s.str(r.t, "path"), r.importOptions(s))
		return r.checkRooted(s, expect, rawOf(got), err) && (err != nil || r.roundTrip("import report", got, got.Raw))
	},
	"foreign_list": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.store.ForeignList(ImportKind(s.str(r.t, "kind")), r.root+"/"+s.str(r.t, "path"), r.importOptions(s))
		if err == nil && !r.roundTrip("foreign listing", got, got.Raw) {
			return false
		}
		// The files' modification times are the run's, not the case's.
		return r.checkRooted(s, expect, mtimes.ReplaceAll(rawOf(got), []byte(`${1}0`)), err)
	},
	"check_raw_file": func(r *caseRunner, s step, expect Code) bool {
		path := s.str(r.t, "path")
		got, err := os.ReadFile(r.root + "/" + path)
		if want := s.text(r.t, "raw"); err != nil || string(got) != want {
			r.t.Errorf("%s (%v)\ngot\n%q\nwant\n%q", path, err, got, want)
			return false
		}
		return true
	},
}

// mtimes finds every "mtime" and "mtimeMs" number of a listing.
var mtimes = regexp.MustCompile(`("mtime(?:Ms)?":)-?[0-9]+`)

// importOptions are DefaultImportOptions with the fields the step gives.
func (r *caseRunner) importOptions(s step) *ImportOptions {
	o := DefaultImportOptions()
	s.decode(r.t, "dry_run", &o.DryRun)
	o.TargetCwd = s.str(r.t, "target_cwd")
	o.FallbackCwd = s.str(r.t, "fallback_cwd")
	if s.has("lock_wait_ms") {
		var ms int64
		s.decode(r.t, "lock_wait_ms", &ms)
		o.LockWait = time.Duration(ms) * time.Millisecond
	}
	if s.has("now_ms") {
		var ms int64
		s.decode(r.t, "now_ms", &ms)
		o.Now = time.UnixMilli(ms)
	}
	return &o
}

// checkRooted is checkText for a "json" in which "{root}" stands for the store root.
func (r *caseRunner) checkRooted(s step, expect Code, got []byte, err error) bool {
	r.t.Helper()
	if !r.status(err, expect) {
		return false
	}
	if err != nil {
		return true
	}
	if want := strings.ReplaceAll(s.text(r.t, "json"), "{root}", r.root); string(got) != want {
		r.t.Errorf("got\n%s\nwant\n%s", got, want)
		return false
	}
	return true
}
