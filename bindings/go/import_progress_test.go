package xsession

// ImportOptions.Progress (docs/import.md#progress): bytes of the source's transcripts, 0 first
// and the total last, in both forms of Import; never from ForeignList; re-entry and a panic as
// Archive's progress function.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

const claudeProgressSession = "11111111-2222-4333-8444-555555555555"

// writeClaudeProject writes a Claude Code project of one transcript of rows alternating user and
// assistant rows, each the child of the one before, and returns the project directory and the
// transcript's size.
func writeClaudeProject(t *testing.T, rows int) (string, uint64) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "claude", "-tmp-demo")
	var b strings.Builder
	parent := "null"
	for i := 1; i <= rows; i++ {
		uuid := fmt.Sprintf("aaaaaaaa-0000-4000-8000-%012d", i)
		common := fmt.Sprintf(`"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/tmp/demo",`+
			`"sessionId":"%s","version":"2.1.29","uuid":"%s","timestamp":"2026-02-02T05:25:%02d.000Z"`,
			parent, claudeProgressSession, uuid, i%60)
		if i%2 == 1 {
			fmt.Fprintf(&b, `{%s,"type":"user","message":{"role":"user","content":"question %d %s"}}`+"\n",
				common, i, strings.Repeat("q", 200))
		} else {
			fmt.Fprintf(&b, `{%s,"type":"assistant","message":{"id":"msg_%d","type":"message","role":"assistant",`+
				`"model":"claude-sonnet-4-5","content":[{"type":"text","text":"answer %s"}],"stop_reason":"end_turn",`+
				`"usage":{"input_tokens":3,"output_tokens":1}}}`+"\n", common, i, strings.Repeat("a", 200))
		}
		parent = `"` + uuid + `"`
	}
	writeFile(t, filepath.Join(dir, claudeProgressSession+".jsonl"), []byte(b.String()))
	return dir, uint64(b.Len())
}

// progressRecorder records a progress function's calls.
type progressRecorder struct{ calls [][2]uint64 }

func (r *progressRecorder) fn(done, total uint64) { r.calls = append(r.calls, [2]uint64{done, total}) }

// check asserts the calls of one import of total bytes: (0, total) first, (total, total) last,
// the total never changing and done never decreasing. It forgets them for the next import.
func (r *progressRecorder) check(t *testing.T, what string, total uint64) {
	t.Helper()
	calls := r.calls
	r.calls = nil
	if len(calls) < 2 || calls[0] != [2]uint64{0, total} || calls[len(calls)-1] != [2]uint64{total, total} {
		t.Errorf("%s: progress calls %v, want (0, %d) first and (%d, %d) last", what, calls, total, total, total)
		return
	}
	for i, c := range calls {
		if c[1] != total || (i > 0 && c[0] < calls[i-1][0]) {
			t.Errorf("%s: call %d is %v in %v", what, i, c, calls)
		}
	}
}

func TestImportProgressCountsTheTranscriptsBytes(t *testing.T) {
	const rows = 400 // about 190 KB: many calls at one per thousandth, each after an entry
	src, size := writeClaudeProject(t, rows)
	st, dir := openTestStore(t)
	var rec progressRecorder

	dry := must(st.Import(ImportClaude, src, &ImportOptions{DryRun: true, Progress: rec.fn}))(t)
	if !dry.DryRun || dry.RowsRead != rows || dry.Imported != rows {
		t.Errorf("dry run: %s", dry.Raw)
	}
	rec.check(t, "dry run", size)
	assertNothingIn(t, dir)

	report := must(st.Import(ImportClaude, src, &ImportOptions{Progress: rec.fn}))(t)
	if report.DryRun || report.Imported != rows || len(report.Sessions) != 1 || !report.Sessions[0].Created {
		t.Errorf("import: %s", report.Raw)
	}
	if len(rec.calls) < 10 {
		t.Errorf("%d progress calls for %d bytes of %d rows: %v", len(rec.calls), size, rows, rec.calls)
	}
	rec.check(t, "import", size)

	// The context form, a re-import: it reads the same bytes and imports nothing again.
	again := must(st.ImportContext(context.Background(), ImportClaude, src, &ImportOptions{Progress: rec.fn}))(t)
	if again.Imported != 0 || again.AlreadyImported != rows {
		t.Errorf("re-import: %s", again.Raw)
	}
	rec.check(t, "ImportContext", size)
}

func TestForeignListNeverCallsImportProgress(t *testing.T) {
	src, _ := writeClaudeProject(t, 2)
	st, dir := openTestStore(t)
	calls := 0
	o := &ImportOptions{Progress: func(uint64, uint64) { calls++ }}
	listing := must(st.ForeignList(ImportClaude, src, o))(t)
	if listing.Claude == nil || len(listing.Claude.Projects) != 1 {
		t.Errorf("listing %s", listing.Raw)
	}
	must(st.ForeignListContext(context.Background(), ImportClaude, src, o))(t)
	if calls != 0 {
		t.Errorf("ForeignList called the progress function %d times", calls)
	}
	assertNothingIn(t, dir)
}

func TestImportProgressCallingTheSameStoreIsMisuseNotADeadlock(t *testing.T) {
	src, _ := writeClaudeProject(t, 2)
	st, _ := openTestStore(t)
	other, _ := openTestStore(t)
	var inner map[string]error
	var otherErr, err error
	var report *ImportReport
	withDeadline(func() {
		report, err = st.Import(ImportClaude, src, &ImportOptions{Progress: func(done, total uint64) {
			if done == 0 {
				inner = storeCalls(st)
				_, inner["Store.Import"] = st.Import(ImportClaude, src, nil)
				_, inner["Store.ForeignList"] = st.ForeignList(ImportClaude, src, nil)
				inner["Store.Close"] = st.Close()
				otherErr = other.KeyPut("j", []byte(`{"sessionId":"j"}`)) // another store: another lock
			}
		}})
	})
	noErr(t, err)
	if len(inner) == 0 {
		t.Fatal("the progress function was not called")
	}
	for op, err := range inner {
		var xe *Error
		if !errors.As(err, &xe) || xe.Code != CodeMisuse || errors.Is(err, ErrClosed) || xe.Op != op ||
			!strings.Contains(xe.Message, "Import's progress") {
			t.Errorf("%s from inside the progress function: %#v", op, err)
		}
	}
	noErr(t, otherErr)
	if report.Imported != 2 {
		t.Errorf("report %s", report.Raw)
	}
	must(st.List(nil))(t) // the store is open and usable
}

func TestAPanicInTheImportProgressFunctionIsReturnedWithTheReport(t *testing.T) {
	src, _ := writeClaudeProject(t, 2)
	for _, ctx := range []bool{false, true} {
		st, _ := openTestStore(t)
		boom := errors.New("boom")
		calls := 0
		o := &ImportOptions{Progress: func(done, total uint64) {
			calls++
			panic(boom)
		}}
		var report *ImportReport
		var err error
		if ctx {
			report, err = st.ImportContext(context.Background(), ImportClaude, src, o)
		} else {
			report, err = st.Import(ImportClaude, src, o)
		}
		xe := wantErr(t, err, ErrError)
		if !errors.Is(err, boom) || xe.Op != "Store.Import" || !strings.Contains(xe.Message, "progress function panicked: boom") {
			t.Errorf("context %v: error %#v", ctx, err)
		}
		if calls != 1 {
			t.Errorf("context %v: the panicking function was called %d times", ctx, calls)
		}
		if report == nil || report.Imported != 2 {
			t.Fatalf("context %v: the import did not run to its end: %v", ctx, report)
		}
		// It did import, and the store is usable.
		if again := must(st.Import(ImportClaude, src, nil))(t); again.AlreadyImported != 2 {
			t.Errorf("context %v: re-import %s", ctx, again.Raw)
		}
	}
	// A panic with a value that is not an error, in a dry run.
	st, dir := openTestStore(t)
	report, err := st.Import(ImportClaude, src, &ImportOptions{DryRun: true, Progress: func(uint64, uint64) { panic(42) }})
	if xe := wantErr(t, err, ErrError); errors.Unwrap(err) != nil || !strings.Contains(xe.Message, "panicked: 42") {
		t.Errorf("error %#v", err)
	}
	if report == nil || !report.DryRun || report.Imported != 2 {
		t.Errorf("dry run report %v", report)
	}
	assertNothingIn(t, dir)
}
