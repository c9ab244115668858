package xsession

// The bundle steps of the conformance cases (tests/conformance/README.md, "Bundles"; the C++
// runner's are tests/conformance/bundle_steps.cc), through Store.Export and Store.ImportBundle
// between the stores a case names (use_store), with bundle files in the case's bundle directory.
// Reports are compared parsed, only the members a step lists, after the placeholders {bundles},
// {root} and {root:NAME} are replaced; every report is also decoded through the typed API and
// must encode back to the library's JSON as a value.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

var bundleOps = map[string]caseOp{
	"use_store": func(r *caseRunner, s step, expect Code) bool {
		r.useStore(s.str(r.t, "store"))
		return true
	},
	"export_bundle": func(r *caseRunner, s step, expect Code) bool {
		var ids []string
		s.decode(r.t, "sessions", &ids)
		o := &ExportOptions{}
		s.decode(r.t, "no_lineage", &o.NoLineage)
		s.decode(r.t, "gzip", &o.Gzip)
		got, err := r.store.Export(ids, r.bundlePath(s.str(r.t, "bundle")), o)
		return r.bundleReport(s, expect, got, err)
	},
	"import_bundle": func(r *caseRunner, s step, expect Code) bool {
		var pairs [][2]string
		s.decode(r.t, "cwd_map", &pairs)
		o := &ImportBundleOptions{}
		for _, p := range pairs {
			o.CwdMap = append(o.CwdMap, CwdMapping{Old: p[0], New: p[1]})
		}
		s.decode(r.t, "rename", &o.Rename)
		s.decode(r.t, "dry_run", &o.DryRun)
		got, err := r.store.ImportBundle(r.bundlePath(s.str(r.t, "bundle")), o)
		return r.bundleReport(s, expect, got, err)
	},
	"damage_bundle": func(r *caseRunner, s step, expect Code) bool {
		from := r.bundlePath(s.str(r.t, "bundle"))
		b, err := os.ReadFile(from)
		if err != nil {
			r.t.Errorf("damage_bundle: %v", err)
			return false
		}
		if s.has("truncate") {
			var n int
			if s.decode(r.t, "truncate", &n); n >= len(b) {
				r.t.Errorf("the bundle (%d bytes) is shorter than the cut (%d)", len(b), n)
				return false
			}
			b = b[:n]
		}
		if s.has("flip") {
			var at int
			if s.decode(r.t, "flip", &at); at >= len(b) {
				r.t.Errorf("the bundle (%d bytes) is shorter than the flipped byte's offset (%d)", len(b), at)
				return false
			}
			b[at] = ^b[at]
		}
		to := from
		if s.has("to") {
			to = r.bundlePath(s.str(r.t, "to"))
		}
		writeFile(r.t, to, b)
		return true
	},
}

// bundlePath is the file name in the case's bundle directory, a local directory outside every
// store root, made on first use.
func (r *caseRunner) bundlePath(name string) string {
	if r.bundleDir == "" {
		r.bundleDir = r.t.TempDir()
	}
	return filepath.Join(r.bundleDir, name)
}

// placed is an expected JSON text with its placeholders replaced: {bundles} by the bundle
// directory, {root:NAME} by the root of the store NAME (opened if the case has not named it
// yet), {root} by the current store's root.
func (r *caseRunner) placed(text string) string {
	if strings.Contains(text, "{bundles}") {
		text = strings.ReplaceAll(text, "{bundles}", r.bundlePath(""))
	}
	for {
		p := strings.Index(text, "{root:")
		if p < 0 {
			break
		}
		end := strings.IndexByte(text[p:], '}')
		if end < 0 {
			r.t.Errorf("unclosed {root: in %s", text)
			break
		}
		text = text[:p] + r.caseStore(text[p+6:p+end]).root + text[p+end+1:]
	}
	return strings.ReplaceAll(text, "{root}", r.root)
}

// bundleReport checks an export's or import's outcome: the status; for an expected error the
// start of its message (the step's message_prefix); else each member the step's report lists.
func (r *caseRunner) bundleReport(s step, expect Code, got any, err error) bool {
	if ok, done := r.stepStatus(s, expect, err); done {
		return ok
	}
	return r.reportMembers(s, got, r.sameReportValue)
}

// sameReportValue compares a report member with the step's as bundle_steps.cc does: a list item
// by item (sameItems), anything else as a value, after the step's placeholders are replaced.
func (r *caseRunner) sameReportValue(member string, got, want json.RawMessage) bool {
	if strings.HasPrefix(strings.TrimSpace(string(want)), "[") {
		return r.sameItems(member, got, want, r.samePlaced)
	}
	return r.samePlaced(member, got, want)
}

// samePlaced compares a report value with the step's, its placeholders replaced, as values.
func (r *caseRunner) samePlaced(what string, got, want json.RawMessage) bool {
	if got == nil || canonical(r.t, got) != canonical(r.t, []byte(r.placed(string(want)))) {
		r.t.Errorf("%s is %s, want %s", what, got, want)
		return false
	}
	return true
}
