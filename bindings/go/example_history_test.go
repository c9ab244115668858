package xsession_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"xsession"
)

// The prompt history: what the user typed, kept apart from the transcripts, searched by words and
// recalled newest first.
func Example_promptHistory() {
	root, _ := os.MkdirTemp("", "xsession-history-example-")
	defer os.RemoveAll(root)
	store, err := xsession.OpenStore(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	history, err := store.OpenHistory(nil) // <root>/history.db
	if err != nil {
		log.Fatal(err)
	}
	defer history.Close()

	// Add returns at once: the history's own thread writes.
	for _, prompt := range []string{"deploy the staging server", "write a unit test for the parser", "deploy to production"} {
		if err := history.Add(prompt, "/work/app"); err != nil {
			log.Fatal(err)
		}
	}
	// Searches see committed prompts: Flush waits for the adds.
	if err := history.Flush(); err != nil {
		log.Fatal(err)
	}
	marks := strings.NewReplacer(xsession.HistoryMatchStart, "[", xsession.HistoryMatchEnd, "]")
	hits, err := history.Search("deploy stag*", nil) // FTS5's syntax
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Println(marks.Replace(h.Snippet))
	}
	// Literal: plain words as typed, quotes and operators included; the last one is a prefix.
	hits, err = history.Search(`unit test "pars`, &xsession.HistorySearchOptions{Literal: true})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range hits {
		fmt.Println(marks.Replace(h.Snippet))
	}
	recent, err := history.Recent(&xsession.HistoryRecentOptions{Cwd: "/work/app", Limit: 2})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recent {
		fmt.Println(r.ID, r.Prompt)
	}
	_, err = history.Search("deploy AND", nil)
	fmt.Println(err)
	// Output:
	// [deploy] the [staging] server
	// write a [unit] [test] for the [parser]
	// 3 deploy to production
	// 2 write a unit test for the parser
	// xsession: History.Search: XS_EINVAL: bad history query: fts5: syntax error near ""
}
