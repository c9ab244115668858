package xsession

// The HTML view through the binding (docs/html-view.md#export): one session's page, several
// sessions' pages with an index, and the refusals.

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestExportHTMLOfOneSessionIsOnePage(t *testing.T) {
	src := bundleSource(t)
	before := sessionFiles(t, src.root)
	out := filepath.Join(t.TempDir(), "parent.html")
	report := must(src.st.ExportHTML([]string{parentID}, out))(t)
	typedRoundTrip(t, report)
	page := must(os.ReadFile(out))(t)
	if !strings.HasPrefix(string(page), "<!DOCTYPE html>") {
		t.Errorf("the page starts with %.40q", page)
	}
	want := HTMLReport{Pages: []HTMLPage{{Path: out, SessionID: parentID, Entries: 2, Messages: 2,
		Bytes: int64(len(page))}}}
	want.Raw = report.Raw
	if !reflect.DeepEqual(*report, want) {
		t.Errorf("html report %s", report.Raw)
	}
	// The page carries the conversation; the session is only read.
	if !strings.Contains(string(page), "Fix the build.") {
		t.Errorf("the page does not show the first message")
	}
	if got := sessionFiles(t, src.root); !reflect.DeepEqual(got, before) {
		t.Errorf("the export changed the sessions: %v", got)
	}
}

func TestExportHTMLOfTwoSessionsIsADirectoryWithAnIndex(t *testing.T) {
	src := bundleSource(t)
	dir := filepath.Join(t.TempDir(), "pages") // made by the export
	report := must(src.st.ExportHTML([]string{childID, parentID[:8]}, dir))(t)
	typedRoundTrip(t, report)
	if len(report.Pages) != 2 || report.Index == nil {
		t.Fatalf("html report %s", report.Raw)
	}
	for i, id := range []string{childID, parentID} {
		p := report.Pages[i]
		page := must(os.ReadFile(filepath.Join(dir, id+".html")))(t)
		if p.Path != filepath.Join(dir, id+".html") || p.SessionID != id || p.Bytes != int64(len(page)) ||
			!strings.HasPrefix(string(page), "<!DOCTYPE html>") {
			t.Errorf("page %d: %+v", i, p)
		}
	}
	// The fork holds its parent's two messages, its own and a custom entry.
	if p := report.Pages[0]; p.Entries != 4 || p.Messages != 3 {
		t.Errorf("the fork's page: %+v", p)
	}
	index := must(os.ReadFile(filepath.Join(dir, "index.html")))(t)
	if *report.Index != (HTMLIndex{Path: filepath.Join(dir, "index.html"), Bytes: int64(len(index))}) ||
		!strings.Contains(string(index), childID+".html") {
		t.Errorf("the index: %+v", *report.Index)
	}
	names := []string{}
	for _, e := range must(os.ReadDir(dir))(t) {
		names = append(names, e.Name())
	}
	if want := []string{parentID + ".html", childID + ".html", "index.html"}; !reflect.DeepEqual(names, want) {
		t.Errorf("the directory holds %v, want %v", names, want)
	}
}

func TestExportHTMLRefusals(t *testing.T) {
	src := bundleSource(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "page.html")
	cases := []struct {
		name string
		ids  []string
		out  string
		want Code
	}{
		{"one session and a directory", []string{parentID}, dir, CodeInvalid},
		{"a session named twice", []string{parentID, parentID[:6]}, filepath.Join(dir, "pages"), CodeInvalid},
		{"a missing directory", []string{parentID}, filepath.Join(dir, "none", "page.html"), CodeNotFound},
		{"an empty name", []string{""}, file, CodeInvalid},
	}
	for _, c := range cases {
		if _, err := src.st.ExportHTML(c.ids, c.out); codeOf(t, err) != c.want {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	writeFile(t, file, []byte("not a directory"))
	if _, err := src.st.ExportHTML([]string{parentID, childID}, file); codeOf(t, err) != CodeInvalid {
		t.Errorf("several sessions and a file: %v", err)
	}
	if got := must(os.ReadFile(file))(t); string(got) != "not a directory" {
		t.Errorf("a refused export wrote %q", got)
	}
}
