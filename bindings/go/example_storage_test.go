package xsession_test

import (
	"fmt"
	"log"
	"sync/atomic"

	"xsession"
)

// Storage of your own: sessions kept by the built-in in-memory backend, behind a quota, as a host
// with per-tenant limits might keep them. Embedding the BuiltinStorage gives every method of
// xsession.Storage; the host overrides the ones it cares about, and its errors choose the status.
type quotaStorage struct {
	*xsession.BuiltinStorage
	left atomic.Int64 // bytes the tenant may still write
}

func (q *quotaStorage) Open(path string, flags xsession.OpenFlags) (xsession.StorageFile, error) {
	f, err := q.BuiltinStorage.Open(path, flags)
	if err != nil {
		return nil, err
	}
	return &quotaFile{StorageFile: f, q: q}, nil
}

type quotaFile struct {
	xsession.StorageFile
	q *quotaStorage
}

func (f *quotaFile) Append(p []byte) error {
	if f.q.left.Add(-int64(len(p))) < 0 {
		f.q.left.Add(int64(len(p)))
		return xsession.StorageError(xsession.CodeNoSpace, "tenant 7 is over its quota")
	}
	return f.StorageFile.Append(p)
}

func Example_storage() {
	mem, err := xsession.MemoryStorage()
	if err != nil {
		log.Fatal(err)
	}
	defer mem.Close()
	quota := &quotaStorage{BuiltinStorage: mem}
	quota.left.Store(1000)

	store, err := xsession.OpenStore("/tenant-7", &xsession.StoreOptions{Storage: quota})
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	session, err := store.Create("/src/app", &xsession.SessionOptions{Flags: xsession.SessionNoDefer})
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	for n := 0; ; n++ {
		if _, err := session.AppendMessage([]byte(`{"role":"user","content":"Hello!"}`)); err != nil {
			fmt.Printf("%d messages, then %v\n", n, err)
			break
		}
	}
	// Output:
	// 6 messages, then xsession: Session.AppendMessage: XS_ENOSPC: tenant 7 is over its quota
}
