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
	if !strings.HasPrefix(string(ctx.Raw), want) {
		t.Errorf("context starts %q", ctx.Raw[:80])
	}
	entry := must(s.Entry(id, 0))(t)
	if !bytes.Contains(entry.Raw, msg) || len(entry.Raw) < len(msg) {
		t.Errorf("entry.Raw of %d bytes does not hold the %d-byte message", len(entry.Raw), len(msg))
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
	if len(raw.Raw) <= scratchSize {
		t.Fatalf("report of %d bytes fits the first buffer: the test would prove nothing", len(raw.Raw))
	}
	readJSON(t, raw.Raw, &report)
	if !report.DryRun || len(report.Deleted) != blobs {
		t.Fatalf("dry run listed %d blobs (dryRun %v), want %d", len(report.Deleted), report.DryRun, blobs)
	}

	// Within the default grace period (an hour) nothing may go.
	report.Deleted = nil
	readJSON(t, must(st.BlobGC(nil))(t).Raw, &report)
	if len(report.Deleted) != 0 || len(report.Young) != blobs {
		t.Fatalf("default GC deleted %d, kept %d young", len(report.Deleted), len(report.Young))
	}

	real := DefaultGCOptions()
	real.Now = later
	readJSON(t, must(st.BlobGC(&real))(t).Raw, &report)
	if report.DryRun || len(report.Deleted) != blobs {
		t.Fatalf("GC reported %d deleted blobs, want %d", len(report.Deleted), blobs)
	}
	var list struct {
		Count int `json:"count"`
	}
	readJSON(t, must(st.BlobList(0))(t).Raw, &list)
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

// Regression: GCOptions{} used to send a zero grace period, so a collection with the options'
// zero value deleted a blob another process had just stored and not referenced yet. An unset
// Grace is the library's default (an hour), as nil is; NoGrace is how to ask for none.
func TestZeroGCOptionsKeepAJustStoredBlob(t *testing.T) {
	st, _ := openTestStore(t)
	hash := must(st.BlobPut([]byte("stored, not referenced yet")))(t)
	var report struct {
		Deleted []struct {
			Name string `json:"name"`
		} `json:"deleted"`
		Young []struct {
			Name string `json:"name"`
		} `json:"young"`
	}
	// A minute later: inside the default grace period, outside a zero one.
	minuteLater := time.Now().Add(time.Minute)
	readJSON(t, must(st.BlobGC(&GCOptions{Now: minuteLater}))(t).Raw, &report)
	if len(report.Deleted) != 0 || len(report.Young) != 1 || report.Young[0].Name != hash {
		t.Fatalf("GCOptions{} deleted %+v, kept young %+v; want the blob kept as young", report.Deleted, report.Young)
	}
	if got := must(st.BlobGet(hash))(t); string(got) != "stored, not referenced yet" {
		t.Fatalf("blob now holds %q", got)
	}

	report.Deleted, report.Young = nil, nil
	readJSON(t, must(st.BlobGC(&GCOptions{NoGrace: true, Now: minuteLater}))(t).Raw, &report)
	if len(report.Deleted) != 1 || report.Deleted[0].Name != hash || len(report.Young) != 0 {
		t.Fatalf("NoGrace deleted %+v, kept young %+v; want the blob deleted", report.Deleted, report.Young)
	}
	_, err := st.BlobGet(hash)
	wantErr(t, err, ErrNotFound)

	_, err = st.BlobGC(&GCOptions{NoGrace: true, Grace: time.Minute})
	wantErr(t, err, ErrInvalid)
	_, err = st.BlobGC(&GCOptions{Grace: -time.Microsecond}) // not rounded to 0 (no grace)
	wantErr(t, err, ErrInvalid)
}
