package xsession_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"xsession"
)

// The keyed store: a gateway maps each conversation to its current session in one JSON
// document, and every change is a locked read-modify-write that other processes respect.
func Example_keyedStore() {
	root, _ := os.MkdirTemp("", "xsession-keys-example-")
	defer os.RemoveAll(root)
	store, err := xsession.OpenStore(root, &xsession.StoreOptions{KeysPath: filepath.Join(root, "gateway.json")})
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()

	if err := store.KeyPut("agent:main:main", []byte(`{"sessionId":"0193a5","title":"Fix the build"}`)); err != nil {
		log.Fatal(err)
	}
	// An RFC 7386 merge patch: null removes a field.
	if err := store.KeyPatch("agent:main:main", []byte(`{"title":null,"inputTokens":1200}`)); err != nil {
		log.Fatal(err)
	}
	// Decide under the lock: add the record unless another process got there first.
	err = store.KeyUpdate("cron:nightly", func(current []byte, ok bool) ([]byte, bool, error) {
		if ok {
			return nil, false, nil // keep it as it is
		}
		return []byte(`{"sessionId":"0193a6","chatType":"cron"}`), false, nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// An error from the function cancels: nothing is written, and KeyUpdate returns it.
	err = store.KeyUpdate("cron:nightly", func([]byte, bool) ([]byte, bool, error) {
		return nil, false, xsession.ErrConflict
	})
	fmt.Println(errors.Is(err, xsession.ErrConflict))

	records, err := store.KeyList("")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range records {
		fmt.Printf("%s -> %s\n", r.Key, r.Record)
	}
	if _, err := store.KeyGet("hook:1"); errors.Is(err, xsession.ErrNotFound) {
		fmt.Println(err)
	}
	// Output:
	// true
	// agent:main:main -> {"sessionId":"0193a5","inputTokens":1200}
	// cron:nightly -> {"sessionId":"0193a6","chatType":"cron"}
	// xsession: Store.KeyGet: XS_ENOTFOUND: no record for key hook:1
}
