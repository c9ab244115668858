package xsession

// The session index's steps of the conformance cases (tests/conformance/README.md, "Session
// index and search"; the C++ runner's are tests/conformance/search_steps.cc), through
// Store.OpenIndex and the Index's methods. Each step opens the index at <root>/index.db (a store
// on a Go Storage has no directory of its own), makes its one call and closes it. Outputs are
// compared parsed, only the members a step lists, paths relative to the store root; scores are
// not compared. Every output is also decoded through the typed API and must encode back to the
// library's JSON as a value.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

var searchOps = map[string]caseOp{
	"index_refresh": indexReportStep((*Index).Refresh),
	"index_rebuild": indexReportStep((*Index).Rebuild),
	"index_verify":  indexReportStep((*Index).Verify),
	"index_list": func(r *caseRunner, s step, expect Code) bool {
		o := &IndexListOptions{Cwd: s.str(r.t, "cwd")}
		s.decode(r.t, "limit", &o.Limit)
		return indexItemsStep(r, s, expect, "sessions", func(ix *Index) ([]byte, error) { return ix.ListJSON(o) },
			decodeResult[[]IndexedSession])
	},
	"search": func(r *caseRunner, s step, expect Code) bool {
		// A role none of the five ("robot") is a Role all the same: the library refuses it.
		o := &SearchOptions{Cwd: s.str(r.t, "cwd"), Role: Role(s.str(r.t, "role")), SessionID: s.str(r.t, "session_id")}
		s.decode(r.t, "limit", &o.Limit)
		s.decode(r.t, "literal", &o.Literal)
		if s.has("since_ms") {
			var ms int64
			s.decode(r.t, "since_ms", &ms)
			o.Since = time.UnixMilli(ms)
		}
		query := s.str(r.t, "query")
		return indexItemsStep(r, s, expect, "hits", func(ix *Index) ([]byte, error) { return ix.SearchJSON(query, o) },
			decodeResult[[]SearchHit])
	},
}

// openCaseIndex opens the store's index at <root>/index.db; the step closes it.
func (r *caseRunner) openCaseIndex() *Index {
	ix, err := r.store.OpenIndex(&IndexOptions{Path: r.root + "/index.db"})
	if err != nil {
		r.t.Fatalf("OpenIndex: %v", err)
	}
	return ix
}

// stepStatus compares a call's outcome with the step's status and, for an expected error, its
// message with the step's "message_prefix" (placeholders replaced). done: nothing more to check.
func (r *caseRunner) stepStatus(s step, expect Code, err error) (ok, done bool) {
	if !r.status(err, expect) {
		return false, true
	}
	if err == nil {
		return true, false
	}
	var xe *Error
	if prefix := r.placed(s.str(r.t, "message_prefix")); errors.As(err, &xe) && !strings.HasPrefix(xe.Message, prefix) {
		r.t.Errorf("message %q, want it to start with %q", xe.Message, prefix)
		return false, true
	}
	return true, true
}

// indexReportStep is a refresh, rebuild or verify step: each member of the step's "report"
// equals the report's, a list item by item.
func indexReportStep[T any](call func(*Index) (*T, error)) caseOp {
	return func(r *caseRunner, s step, expect Code) bool {
		ix := r.openCaseIndex()
		defer ix.Close()
		got, err := call(ix)
		if ok, done := r.stepStatus(s, expect, err); done {
			return ok
		}
		return r.reportMembers(s, got, func(member string, g, w json.RawMessage) bool {
			if strings.HasPrefix(string(g), "[") {
				return r.sameItems(member, g, w, r.sameRootRelative)
			}
			if canonical(r.t, g) != canonical(r.t, w) {
				r.t.Errorf("%s is %s, want %s", member, g, w)
				return false
			}
			return true
		})
	}
}

// reportMembers checks a typed report (with Raw): it encodes back to the library's JSON as a
// value, and each member the step's "report" lists is in it and passes same.
func (r *caseRunner) reportMembers(s step, got any, same func(member string, got, want json.RawMessage) bool) bool {
	raw := rawOf(got)
	sameJSONValues(r.t, fmt.Sprintf("%T", got), got, raw)
	var report, want map[string]json.RawMessage
	readJSON(r.t, raw, &report)
	s.decode(r.t, "report", &want)
	for member, w := range want {
		g, ok := report[member]
		if !ok {
			r.t.Errorf("the report has no %q: %s", member, raw)
			return false
		}
		if !same(member, g, w) {
			r.t.Errorf("in the report %s", raw)
			return false
		}
	}
	return !r.t.Failed()
}

// indexItemsStep is a list or search step: the output array against the step's items (key), and
// the same bytes decoded as the typed method decodes them.
func indexItemsStep[T any](r *caseRunner, s step, expect Code, key string, call func(*Index) ([]byte, error),
	decode func(string, []byte, error) (T, error)) bool {
	ix := r.openCaseIndex()
	defer ix.Close()
	raw, err := call(ix)
	if ok, done := r.stepStatus(s, expect, err); done {
		return ok
	}
	typed, err := decode("conformance", raw, nil)
	if err != nil {
		r.t.Errorf("%s: %v", key, err)
		return false
	}
	sameJSONValues(r.t, key, typed, raw)
	return r.sameItems(key, raw, s[key], r.sameRootRelative) && !r.t.Failed()
}

// sameItems compares an output array with a step's items as search_steps.cc and bundle_steps.cc
// do: as many, in order; an object item by each member the step lists, any other item whole,
// each value by same (got nil: the item has no such member).
func (r *caseRunner) sameItems(what string, got, want json.RawMessage, same func(what string, got, want json.RawMessage) bool) bool {
	var items, wanted []json.RawMessage
	readJSON(r.t, got, &items)
	readJSON(r.t, want, &wanted)
	if len(items) != len(wanted) {
		r.t.Errorf("%d %s, want %d: %s", len(items), what, len(wanted), got)
		return false
	}
	for i, w := range wanted {
		itemWhat := fmt.Sprintf("%s item %d", what, i)
		if !strings.HasPrefix(strings.TrimSpace(string(w)), "{") {
			if !same(itemWhat, items[i], w) {
				return false
			}
			continue
		}
		var item, members map[string]json.RawMessage
		readJSON(r.t, items[i], &item)
		readJSON(r.t, w, &members)
		for k, v := range members {
			if !same(itemWhat+" "+k, item[k], v) {
				return false
			}
		}
	}
	return true
}

// sameRootRelative compares an output value with a step's as search_steps.cc does: a string
// naming a path under the store root taken relative to it.
func (r *caseRunner) sameRootRelative(what string, got, want json.RawMessage) bool {
	if got == nil {
		r.t.Errorf("%s is missing, want %s", what, want)
		return false
	}
	if g := r.rootRelative(got); canonical(r.t, g) != canonical(r.t, want) {
		r.t.Errorf("%s is %s, want %s", what, g, want)
		return false
	}
	return true
}

// rootRelative is a JSON string naming a path under the store root as relative to it; any other
// JSON as it is.
func (r *caseRunner) rootRelative(v json.RawMessage) json.RawMessage {
	var p string
	if json.Unmarshal(v, &p) != nil || !strings.HasPrefix(p, r.root+"/") {
		return v
	}
	b, _ := json.Marshal(r.relative(p))
	return b
}
