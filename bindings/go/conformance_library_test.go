package xsession

// The session library's steps of the conformance cases (tests/conformance/README.md, sections
// "Compaction planning", "Resume analysis", "Session stats", "Retention" and "Reset policies";
// the C++ runner's are tests/conformance/{library,stats,archive,reset}_steps.cc).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// compactionSettings is the step's "settings": the defaults, then the fields it names.
func (r *caseRunner) compactionSettings(s step) CompactionSettings {
	c := DefaultCompactionSettings()
	var in step
	if s.decode(r.t, "settings", &in); in == nil {
		return c
	}
	in.decode(r.t, "version", &c.version)
	in.decode(r.t, "context_window", &c.ContextWindow)
	in.decode(r.t, "reserve_tokens", &c.ReserveTokens)
	in.decode(r.t, "reserve_floor", &c.ReserveFloor)
	in.decode(r.t, "keep_recent_tokens", &c.KeepRecentTokens)
	in.decode(r.t, "soft_threshold_tokens", &c.SoftThresholdTokens)
	return c
}

// resetPolicy is a policy object: {"daily_hour"?, "idle_minutes"?, "time_zone"?}.
func resetPolicyOf(r *caseRunner, raw json.RawMessage) *ResetPolicy {
	var in step
	if err := json.Unmarshal(raw, &in); err != nil {
		r.t.Fatalf("policy: %v", err)
	}
	p := &ResetPolicy{DailyHour: -1}
	in.decode(r.t, "daily_hour", &p.DailyHour)
	p.Daily = p.DailyHour != -1 // the C struct's "no daily reset"
	in.decode(r.t, "idle_minutes", &p.IdleMinutes)
	p.TimeZone = in.str(r.t, "time_zone")
	return p
}

// msTime is a now_ms argument as a time: 0 (the library's clock) is the zero Time.
func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// rooted is an expected text in which "{root}" stands for the store root.
func (r *caseRunner) rooted(s step, key string) string {
	return strings.ReplaceAll(s.text(r.t, key), "{root}", r.root)
}

// decision compares a decision's outcome: the status, and "result" when it succeeded.
func (r *caseRunner) decision(s step, expect Code, got bool, err error) bool {
	if !r.status(err, expect) {
		return false
	}
	var want bool
	if s.decode(r.t, "result", &want); err == nil && got != want {
		r.t.Errorf("decision %v, want %v", got, want)
		return false
	}
	return true
}

// listed compares the report's list key with the step's: as many, in order, each listed member
// equal (path relative to the root; parsed comparison).
func (r *caseRunner) listed(report map[string]json.RawMessage, s step, key, whole string) bool {
	var got, want []map[string]json.RawMessage
	readJSON(r.t, report[key], &got)
	s.decode(r.t, key, &want)
	if len(got) != len(want) {
		r.t.Errorf("%d %s, want %d: %s", len(got), key, len(want), whole)
		return false
	}
	for i := range want {
		var p string
		json.Unmarshal(got[i]["path"], &p)
		got[i]["path"], _ = json.Marshal(r.relative(p))
		if !r.sameFields(key, got[i], want[i], whole) {
			return false
		}
	}
	return true
}

// retention runs an archive or prune step and checks its report.
func (r *caseRunner) retention(s step, expect Code, archive bool) bool {
	olderThan := -time.Millisecond // absent: as xs_archive_options_init leaves it
	if s.has("older_than_ms") {
		var ms int64
		s.decode(r.t, "older_than_ms", &ms)
		olderThan = time.Duration(ms) * time.Millisecond
	}
	o := &ArchiveOptions{}
	var nowMs int64
	s.decode(r.t, "now_ms", &nowMs)
	o.Now = msTime(nowMs)
	s.decode(r.t, "dry_run", &o.DryRun)
	var typed any
	var err error
	lists := []string{"pruned"}
	if archive {
		typed, err = r.store.Archive(olderThan, o)
		lists = []string{"archived", "skipped"}
	} else {
		typed, err = r.store.Prune(olderThan, o)
	}
	if !r.status(err, expect) {
		return false
	}
	if err != nil { // an expected error: nothing else is checked
		return true
	}
	got := struct{ Raw []byte }{rawOf(typed)}
	if !r.roundTrip("retention report", typed, got.Raw) {
		return false
	}
	var report map[string]json.RawMessage
	readJSON(r.t, got.Raw, &report)
	if want, _ := json.Marshal(o.DryRun); string(report["dryRun"]) != string(want) {
		r.t.Errorf("dryRun %s, want %s", report["dryRun"], want)
		return false
	}
	for _, l := range lists {
		if !r.listed(report, s, l, string(got.Raw)) {
			return false
		}
	}
	return true
}

var libraryOps = map[string]caseOp{
	"compaction_plan": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.s.CompactionPlan(s.str(r.t, "leaf"), r.compactionSettings(s))
		return r.checkText(s, "plan", expect, rawOf(got), err) && (err != nil || r.roundTrip("plan", got, got.Raw))
	},
	"check_should_compact": func(r *caseRunner, s step, expect Code) bool {
		var tokens int64
		s.decode(r.t, "context_tokens", &tokens)
		got, err := ShouldCompact(r.compactionSettings(s), tokens)
		return r.decision(s, expect, got, err)
	},
	"check_should_flush_memory": func(r *caseRunner, s step, expect Code) bool {
		var tokens, count, last int64
		s.decode(r.t, "context_tokens", &tokens)
		s.decode(r.t, "compaction_count", &count)
		s.decode(r.t, "last_flush_compaction_count", &last)
		got, err := ShouldFlushMemory(r.compactionSettings(s), tokens, count, last)
		return r.decision(s, expect, got, err)
	},
	"keys_claim_memory_flush": func(r *caseRunner, s step, expect Code) bool {
		var tokens, now int64
		s.decode(r.t, "context_tokens", &tokens)
		s.decode(r.t, "now_ms", &now)
		got, err := r.store.KeyClaimMemoryFlush(s.str(r.t, "key"), r.compactionSettings(s), tokens, msTime(now))
		return r.decision(s, expect, got, err)
	},
	"check_resume": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.s.ResumeCheck(s.str(r.t, "leaf"))
		return r.checkText(s, "json", expect, rawOf(got), err) && (err != nil || r.roundTrip("resume", got, got.Raw))
	},
	"check_stats": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.s.Stats()
		return r.checkText(s, "json", expect, rawOf(got), err) && (err != nil || r.roundTrip("stats", got, got.Raw))
	},
	"keys_fix_stats": func(r *caseRunner, s step, expect Code) bool {
		got, err := r.store.KeyFixStats(s.str(r.t, "prefix"))
		if !r.status(err, expect) {
			return false
		}
		if err != nil || !r.roundTrip("fix report", got, got.Raw) || !s.has("json") {
			return err == nil || !s.has("json")
		}
		if want := r.rooted(s, "json"); string(got.Raw) != want {
			r.t.Errorf("fix report\ngot\n%s\nwant\n%s", got.Raw, want)
			return false
		}
		return true
	},
	"check_stats_document": func(r *caseRunner, s step, expect Code) bool {
		return r.document(s)
	},
	"check_keys_file_rooted": func(r *caseRunner, s step, expect Code) bool {
		return r.document(s)
	},
	"check_store_files": func(r *caseRunner, s step, expect Code) bool {
		entries, err := os.ReadDir(r.root)
		if err != nil {
			r.t.Error(err)
			return false
		}
		got := []string{}
		for _, e := range entries {
			got = append(got, e.Name())
		}
		sort.Strings(got)
		want := []string{}
		s.decode(r.t, "files", &want)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			r.t.Errorf("store files %q, want %q", got, want)
			return false
		}
		return true
	},
	"archive": func(r *caseRunner, s step, expect Code) bool { return r.retention(s, expect, true) },
	"prune":   func(r *caseRunner, s step, expect Code) bool { return r.retention(s, expect, false) },
	"check_path_exists": func(r *caseRunner, s step, expect Code) bool {
		var want bool
		s.decode(r.t, "exists", &want)
		_, err := os.Stat(filepath.Join(r.root, s.str(r.t, "path")))
		if got := err == nil; got != want {
			r.t.Errorf("%s exists: %v, want %v", s.str(r.t, "path"), got, want)
			return false
		}
		return true
	},
	"session_for_key": func(r *caseRunner, s step, expect Code) bool {
		r.closeCurrent() // the key's session may be the one held: let go of it first
		o := r.options(s)
		o.SessionID = s.str(r.t, "session_id")
		s.decode(r.t, "id_seed", &o.IDSeed)
		var policy *ResetPolicy
		if s.has("policy") {
			policy = resetPolicyOf(r, s["policy"])
		}
		var flags ResetFlags
		var force bool
		if s.decode(r.t, "force", &force); force {
			flags |= ResetForce
		}
		var now int64
		s.decode(r.t, "now_ms", &now)
		fresh, reason, err := r.store.SessionForKey(s.str(r.t, "key"), msTime(now), policy, flags, o)
		if !r.adopt(fresh, err, expect) {
			return false
		}
		if err != nil && fresh != nil {
			r.t.Errorf("a failed SessionForKey returned a session")
			return false
		}
		if want := s.str(r.t, "expect_reason"); err == nil && s.has("expect_reason") && reason.String() != want {
			r.t.Errorf("reason %v, want %s", reason, want)
			return false
		}
		return true
	},
}

// document compares <root>/sessions.json with the step's "raw", "{root}" standing for the root.
func (r *caseRunner) document(s step) bool {
	got, err := os.ReadFile(filepath.Join(r.root, "sessions.json"))
	if want := r.rooted(s, "raw"); err != nil || string(got) != want {
		r.t.Errorf("sessions.json (%v)\ngot\n%s\nwant\n%s", err, got, want)
		return false
	}
	return true
}
