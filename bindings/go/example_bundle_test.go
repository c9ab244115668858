package xsession_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"xsession"
)

// Bundles and HTML pages: a session and the one it was forked from travel to another store in
// one file, and are written as pages a browser opens offline.
func Example_bundles() {
	dir, _ := os.MkdirTemp("", "xsession-bundle-example-")
	defer os.RemoveAll(dir)
	laptop, err := xsession.OpenStore(filepath.Join(dir, "laptop"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer laptop.Close()
	s, err := laptop.Create("/home/dev/lexer", &xsession.SessionOptions{Flags: xsession.SessionNoDefer, SessionID: "5e55a0c1d2e3f401"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.AppendMessage([]byte(`{"role":"user","content":"Why does the lexer drop the last token?"}`)); err != nil {
		log.Fatal(err)
	}
	fork, err := s.Fork(&xsession.SessionOptions{SessionID: "1ma9e00000000001"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := fork.AppendMessage([]byte(`{"role":"user","content":"Try it with a trailing newline."}`)); err != nil {
		log.Fatal(err)
	}
	if err := fork.Close(); err != nil {
		log.Fatal(err)
	}
	if err := s.Close(); err != nil {
		log.Fatal(err)
	}

	// The fork travels with its lineage: the session it was forked from comes along.
	bundle := filepath.Join(dir, "lexer.xsb")
	exported, err := laptop.Export([]string{"1ma9e00000000001"}, bundle, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range exported.Sessions {
		fmt.Printf("exported %s (lineage %v)\n", s.ID, s.Lineage)
	}

	server, err := xsession.OpenStore(filepath.Join(dir, "server"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer server.Close()
	opts := &xsession.ImportBundleOptions{CwdMap: []xsession.CwdMapping{{Old: "/home/dev", New: "/srv/me"}}}
	for i := 0; i < 2; i++ { // the second import finds everything present
		imported, err := server.ImportBundle(bundle, opts)
		if err != nil {
			log.Fatal(err)
		}
		for _, s := range imported.Sessions {
			fmt.Printf("%s %s in %s (was %s)\n", s.Action, s.ID, s.Cwd, *s.OldCwd)
		}
	}

	pages, err := server.ExportHTML([]string{"5e55", "1ma9"}, filepath.Join(dir, "pages"))
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range pages.Pages {
		fmt.Printf("%s: %d messages\n", filepath.Base(p.Path), p.Messages)
	}
	fmt.Println(filepath.Base(pages.Index.Path))
	// Output:
	// exported 1ma9e00000000001 (lineage false)
	// exported 5e55a0c1d2e3f401 (lineage true)
	// imported 1ma9e00000000001 in /srv/me/lexer (was /home/dev/lexer)
	// imported 5e55a0c1d2e3f401 in /srv/me/lexer (was /home/dev/lexer)
	// present 1ma9e00000000001 in /srv/me/lexer (was /home/dev/lexer)
	// present 5e55a0c1d2e3f401 in /srv/me/lexer (was /home/dev/lexer)
	// 5e55a0c1d2e3f401.html: 1 messages
	// 1ma9e00000000001.html: 2 messages
	// index.html
}
