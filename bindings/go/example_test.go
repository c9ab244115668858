package xsession_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"

	"xsession"
)

// An agent loop: create a session, append the turns, branch away from a dead end with a
// durable summary, and build the context the model sees next. (The fixed clock and id seed
// only make the printed output reproducible; an agent leaves SessionOptions nil.)
func Example_agentLoop() {
	root, _ := os.MkdirTemp("", "xsession-example-")
	defer os.RemoveAll(root)

	store, err := xsession.OpenStore(root, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	session, err := store.Create("/src/app", &xsession.SessionOptions{
		Flags: xsession.SessionFixedClock, ClockStartMs: 1767225600000, ClockStepMs: 1000, IDSeed: 7,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	turn := func(role, text string) string {
		msg, _ := json.Marshal(map[string]any{"role": role, "content": text})
		id, err := session.AppendMessage(msg)
		if err != nil {
			log.Fatal(err)
		}
		return id
	}
	question := turn("user", "Why does the build fail?")
	turn("assistant", "A missing include.")
	// Go back to the question, leaving a summary of the abandoned path.
	if _, err := session.BranchWithSummary(xsession.BranchSummary{
		FromID: question, Summary: "Tried the missing-include theory.",
	}); err != nil {
		log.Fatal(err)
	}
	turn("user", "Check the linker flags instead.")

	context, err := session.BuildContext("")
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range context.Messages { // typed: no JSON decoding of our own
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}

	// Errors compare with errors.Is; the message is the library's for this very call.
	if _, err := session.Entry("no-such-id", xsession.ReadAsStored); errors.Is(err, xsession.ErrNotFound) {
		fmt.Println(err)
	}
	// Output:
	// user: Why does the build fail?
	// branchSummary: Tried the missing-include theory.
	// user: Check the linker flags instead.
	// xsession: Session.Entry: XS_ENOTFOUND: entry no-such-id not found
}
