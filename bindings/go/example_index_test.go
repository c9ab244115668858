package xsession_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"xsession"
)

// The session index: find where something was said in any transcript of a store, and list its
// sessions, without reading every file.
func Example_sessionSearch() {
	root, _ := os.MkdirTemp("", "xsession-index-example-")
	defer os.RemoveAll(root)
	store, err := xsession.OpenStore(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	converse := func(cwd string, turns ...string) {
		session, err := store.Create(cwd, nil)
		if err != nil {
			log.Fatal(err)
		}
		defer session.Close()
		for i, text := range turns {
			role := map[bool]string{true: "user", false: "assistant"}[i%2 == 0]
			if _, err := session.AppendMessage([]byte(fmt.Sprintf(`{"role":%q,"content":%q}`, role, text))); err != nil {
				log.Fatal(err)
			}
		}
	}
	converse("/work/app", "why does the staging deploy fail?", "The staging host is out of disk.")
	converse("/work/lib", "add a unit test for the parser", "Done: the parser test passes.")

	index, err := store.OpenIndex(nil) // <root>/index.db
	if err != nil {
		log.Fatal(err)
	}
	defer index.Close()
	report, err := index.Rebuild()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("indexed %d sessions, %d entries\n", report.Files, report.Entries)

	marks := strings.NewReplacer(xsession.SearchMatchStart, "[", xsession.SearchMatchEnd, "]")
	hits, err := index.Search("stag*", &xsession.SearchOptions{Role: xsession.RoleUser}) // FTS5's syntax
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Println(h.Cwd, *h.Role, marks.Replace(h.Snippet))
	}
	// Literal: plain words as typed; the last one is a prefix.
	hits, err = index.Search("unit te", &xsession.SearchOptions{Literal: true, Cwd: "/work/lib"})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Println(h.Cwd, *h.Role, marks.Replace(h.Snippet))
	}

	// Appends do not update the index: a refresh reads only what changed.
	converse("/work/app", "roll back the staging deploy", "Rolled back.")
	if report, err = index.Refresh(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("added %d, unchanged %d\n", report.Added, report.Unchanged)
	sessions, err := index.List(&xsession.IndexListOptions{Cwd: "/work/lib"})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range sessions {
		fmt.Println(*s.FirstPrompt, s.Messages)
	}
	_, err = index.Search("deploy AND", nil)
	fmt.Println(err)
	// Output:
	// indexed 2 sessions, 4 entries
	// /work/app user why does the [staging] deploy fail?
	// /work/lib user add a [unit] [test] for the parser
	// added 1, unchanged 2
	// add a unit test for the parser 2
	// xsession: Index.Search: XS_EINVAL: bad search query: fts5: syntax error near ""
}
