// Command agentloop is examples/c/agent_loop.c in Go: create a session, append a user and an
// assistant message, label the answer, branch back to the question with a summary, and print the
// context the model would see, read as typed values (no JSON decoding of its own). The CTest
// go.downstream builds it as a module outside this repository against the installed library.
//
// Usage: agentloop STORE_DIR
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"

	"xsession"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintf(os.Stderr, "usage: %s STORE_DIR\n", os.Args[0])
		os.Exit(2)
	}
	store, err := xsession.OpenStore(os.Args[1], nil)
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	s, err := store.Create("/home/dev/project", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// The messages are the caller's JSON: stored token for token.
	question, err := s.AppendMessage([]byte(`{"role":"user","content":"Why does the build fail?","timestamp":1}`))
	if err != nil {
		log.Fatal(err)
	}
	reply, _ := json.Marshal(map[string]any{
		"role": "assistant", "provider": "anthropic", "model": "claude-sonnet-4-5", "timestamp": 2,
		"content": []map[string]string{{"type": "text", "text": "A missing include."}},
	})
	answer, err := s.AppendMessage(reply) // the first reply: the file is written
	if err != nil {
		log.Fatal(err)
	}
	if _, err := s.AppendLabel(answer, "diagnosis"); err != nil {
		log.Fatal(err)
	}
	// Go back to the question and leave a durable note about the path we abandon.
	if _, err := s.BranchWithSummary(xsession.BranchSummary{FromID: question, Summary: "Tried the missing-include theory."}); err != nil {
		log.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		log.Fatal(err)
	}

	ctx, err := s.BuildContext("")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ctx.Messages {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}
	labels, err := s.Labels()
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range labels {
		entry, err := s.Entry(l.TargetID, xsession.ReadAsStored)
		if err != nil {
			log.Fatal(err)
		}
		msg := entry.Body.(*xsession.MessageBody).Message
		fmt.Printf("label %q: %s %q\n", l.Label, msg.Role, msg.Text())
	}
	info, err := s.Info()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d entries, dialect %s, persisted %v\n", info.EntryCount, info.Dialect, info.Persisted)
}
