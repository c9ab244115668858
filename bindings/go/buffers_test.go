package xsession

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// Results on both sides of the first buffer's size come back whole and exact.
func TestResultsAroundTheScratchSize(t *testing.T) {
	st, _ := openTestStore(t)
	for _, n := range []int{0, 1, scratchSize - 1, scratchSize, scratchSize + 1, 3 << 20} {
		data := bytes.Repeat([]byte{'a', 0, 0xff, 'z'}, n/4+1)[:n]
		hash := must(st.BlobPut(data))(t)
		got := must(st.BlobGet(hash))(t)
		if !bytes.Equal(got, data) {
			t.Errorf("blob of %d bytes came back as %d bytes", n, len(got))
		}
		// Results never share memory with the handle's scratch buffer.
		if len(got) > 0 && &got[0] == &st.h.scratch[0] {
			t.Errorf("result of %d bytes aliases the scratch buffer", n)
		}
	}
}

// A context larger than the first buffer equals the stored messages, byte for byte.
func TestLargeContextIsExact(t *testing.T) {
	st, _ := openTestStore(t)
	s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))
	big := strings.Repeat("é", 40000) // 80,000 bytes of UTF-8
	msg := []byte(`{"role":"user","content":"` + big + `"}`)
	id := must(s.AppendMessage(msg))(t)
	ctx := must(s.BuildContext(""))(t)
	want := `{"leafId":"` + id + `","messages":[` + string(msg) + `]`
	if !strings.HasPrefix(string(ctx), want) {
		t.Errorf("context starts %q", ctx[:80])
	}
	entry := must(s.Entry(id, 0))(t)
	if !bytes.Contains(entry, msg) || len(entry) < len(msg) {
		t.Errorf("entry of %d bytes does not hold the %d-byte message", len(entry), len(msg))
	}
}

// The garbage collector's report is larger than the first buffer. The header promises that
// the retry copies the kept report rather than collecting again: a second collection would
// find nothing to delete and report an empty list.
func TestGCReportIsCopiedNotRecomputed(t *testing.T) {
	st, _ := openTestStore(t)
	const blobs = 300
	for i := 0; i < blobs; i++ {
		must(st.BlobPut([]byte(strings.Repeat("x", i+1))))(t)
	}
	later := time.Now().Add(2 * time.Hour)

	dry := DefaultGCOptions()
	dry.DryRun, dry.Now = true, later
	var report struct {
		DryRun  bool `json:"dryRun"`
		Deleted []struct {
			Name string `json:"name"`
			Size int    `json:"size"`
		} `json:"deleted"`
		Young []json.RawMessage `json:"young"`
	}
	raw := must(st.BlobGC(&dry))(t)
	if len(raw) <= scratchSize {
		t.Fatalf("report of %d bytes fits the first buffer: the test would prove nothing", len(raw))
	}
	readJSON(t, raw, &report)
	if !report.DryRun || len(report.Deleted) != blobs {
		t.Fatalf("dry run listed %d blobs (dryRun %v), want %d", len(report.Deleted), report.DryRun, blobs)
	}

	// Within the default grace period (an hour) nothing may go.
	report.Deleted = nil
	readJSON(t, must(st.BlobGC(nil))(t), &report)
	if len(report.Deleted) != 0 || len(report.Young) != blobs {
		t.Fatalf("default GC deleted %d, kept %d young", len(report.Deleted), len(report.Young))
	}

	real := DefaultGCOptions()
	real.Now = later
	readJSON(t, must(st.BlobGC(&real))(t), &report)
	if report.DryRun || len(report.Deleted) != blobs {
		t.Fatalf("GC reported %d deleted blobs, want %d", len(report.Deleted), blobs)
	}
	var list struct {
		Count int `json:"count"`
	}
	readJSON(t, must(st.BlobList(0))(t), &list)
	if list.Count != 0 {
		t.Errorf("%d blobs left after GC", list.Count)
	}
}

func TestDefaultGCOptionsAreTheLibrarys(t *testing.T) {
	if got := DefaultGCOptions(); got.Grace != time.Hour || got.DryRun || !got.Now.IsZero() {
		t.Errorf("DefaultGCOptions() = %+v", got)
	}
	st, _ := openTestStore(t)
	_, err := st.BlobGC(&GCOptions{Grace: -time.Second})
	wantErr(t, err, ErrInvalid)
}
