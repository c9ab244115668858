package xsession

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// faultStorage is osStorage with faults switched on by the tests: Append fails with appendErr,
// Lock with lockErr, and the method named by panicIn panics.
type faultStorage struct {
	*osStorage
	appendErr atomic.Value // error
	lockErr   error
	panicIn   atomic.Value // string
}

func newFaultStorage() *faultStorage {
	f := &faultStorage{osStorage: &osStorage{}}
	f.panicIn.Store("")
	return f
}

func (f *faultStorage) maybePanic(method string) {
	if f.panicIn.Load().(string) == method {
		panic("boom in " + method)
	}
}

func (f *faultStorage) Read(path string, offset, max uint64, buf *ReadBuffer) (int, StorageInfo, error) {
	f.maybePanic("Read")
	return f.osStorage.Read(path, offset, max, buf)
}

func (f *faultStorage) Open(path string, flags OpenFlags) (StorageFile, error) {
	file, err := f.osStorage.Open(path, flags)
	if err != nil {
		return nil, err
	}
	return &faultFile{StorageFile: file, s: f}, nil
}

func (f *faultStorage) Lock(path string, timeout time.Duration) (StorageLock, error) {
	if f.lockErr != nil {
		return nil, f.lockErr
	}
	return f.osStorage.Lock(path, timeout)
}

type faultFile struct {
	StorageFile
	s *faultStorage
}

func (f *faultFile) Append(p []byte) error {
	f.s.maybePanic("Append")
	if err, _ := f.s.appendErr.Load().(error); err != nil {
		return err
	}
	return f.StorageFile.Append(p)
}

// openStoreOver opens a store at root over storage, closed at the end of the test.
func openStoreOver(t *testing.T, root string, storage Storage) *Store {
	t.Helper()
	st, err := OpenStore(root, &StoreOptions{Storage: storage})
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A write the storage fails: the append returns its status, with its message.
func TestStorageWriteErrorReachesTheCaller(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		code Code
		msg  string
	}{
		{"Error", StorageError(CodeNoSpace, "quota of tenant 7 exceeded"), CodeNoSpace, "quota of tenant 7 exceeded"},
		{"os", &os.PathError{Op: "write", Path: "/x", Err: syscall.ENOSPC}, CodeNoSpace, "write /x: no space left on device"},
		{"other", errors.New("the bucket went away"), CodeIO, "the bucket went away"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := newFaultStorage()
			st := openStoreOver(t, t.TempDir(), fs)
			s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))
			fs.appendErr.Store(tc.err)
			_, err := s.AppendMessage([]byte(`{"role":"user","content":"hi"}`))
			if got := codeOf(t, err); got != tc.code {
				t.Fatalf("append: %v, want %v (%v)", got, tc.code, err)
			}
			if msg := err.(*Error).Message; !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q does not show the storage's %q", msg, tc.msg)
			}
		})
	}
}

// A lock the storage reports held: opening the session for writing is ErrLocked; reading is not.
func TestStorageLockHeldIsErrLocked(t *testing.T) {
	root := t.TempDir()
	disk, _ := OpenStore(root, nil)
	s := mustCreate(t, disk, "/w", fixedOptions(SessionNoDefer))
	path := must(s.FilePath())(t)
	s.Close()
	disk.Close()

	fs := newFaultStorage()
	fs.lockErr = StorageError(CodeLocked, "held by host B")
	st := openStoreOver(t, root, fs)
	_, err := st.Open(path, nil)
	if got := codeOf(t, err); got != CodeLocked || !errors.Is(err, ErrLocked) {
		t.Fatalf("open for writing: %v, want XS_ELOCKED (%v)", got, err)
	}
	r, err := st.Open(path, &SessionOptions{Flags: SessionReadOnly})
	if err != nil {
		t.Fatalf("read-only open takes no lock: %v", err)
	}
	r.Close()
}

// A panic in a storage method is XS_EIO with the panic's text; the process and the store live on.
func TestStoragePanicIsEIO(t *testing.T) {
	fs := newFaultStorage()
	st := openStoreOver(t, t.TempDir(), fs)
	s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))
	path := must(s.FilePath())(t)

	fs.panicIn.Store("Append")
	_, err := s.AppendMessage([]byte(`{"role":"user","content":"hi"}`))
	if got := codeOf(t, err); got != CodeIO {
		t.Fatalf("append: %v, want XS_EIO (%v)", got, err)
	}
	if msg := err.(*Error).Message; !strings.Contains(msg, "panic in StorageFile.Append: boom in Append") {
		t.Errorf("message %q lacks the panic", msg)
	}
	s.Close()

	fs.panicIn.Store("Read")
	_, err = st.Open(path, &SessionOptions{Flags: SessionReadOnly})
	if got := codeOf(t, err); got != CodeIO || !strings.Contains(err.(*Error).Message, "panic in Storage.Read: boom in Read") {
		t.Fatalf("open: %v, want XS_EIO with the panic (%v)", got, err)
	}

	fs.panicIn.Store("")
	again := must(st.Open(path, nil))(t) // the same store still works
	defer again.Close()
	if _, err := again.AppendMessage([]byte(`{"role":"user","content":"again"}`)); err != nil {
		t.Fatal(err)
	}
}

// Release runs once, after the store and every session opened from it are closed; never for an
// OpenStore that failed.
func TestStorageReleasedOnceAfterStoreAndSessions(t *testing.T) {
	fs := &osStorage{}
	st, err := OpenStore(t.TempDir(), &StoreOptions{Storage: fs})
	if err != nil {
		t.Fatal(err)
	}
	s := must(st.Create("/w", fixedOptions(SessionNoDefer)))(t)
	st.Close()
	if n := fs.released.Load(); n != 0 {
		t.Fatalf("released %d times while a session is open", n)
	}
	if _, err := s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)); err != nil {
		t.Fatalf("a session outlives its store: %v", err)
	}
	s.Close()
	if n := fs.released.Load(); n != 1 {
		t.Fatalf("released %d times, want 1", n)
	}

	file := filepath.Join(t.TempDir(), "a-file")
	writeFile(t, file, []byte("x"))
	failing := &osStorage{}
	_, err = OpenStore(file, &StoreOptions{Storage: failing})
	if got := codeOf(t, err); got != CodeInvalid {
		t.Fatalf("OpenStore on a file: %v, want XS_EINVAL (%v)", got, err)
	}
	if failing.calls.Load() == 0 || failing.released.Load() != 0 {
		t.Fatalf("failed OpenStore: %d calls, %d releases; want some calls and no release",
			failing.calls.Load(), failing.released.Load())
	}

	_, err = OpenStore("", &StoreOptions{Flags: StoreInMemory, Storage: &osStorage{}})
	if got := codeOf(t, err); got != CodeInvalid {
		t.Fatalf("StoreInMemory with a Storage: %v, want XS_EINVAL", got)
	}
}

// The built-in memory backend as a store's storage: a session written by one store is read back,
// the same entries, by another over the same BuiltinStorage; nothing touches the disk.
func TestMemoryStorageKeepsSessionsAcrossStores(t *testing.T) {
	mem := must(MemoryStorage())(t)
	defer mem.Close()
	root := filepath.Join(t.TempDir(), "in-memory")

	st := must(OpenStore(root, &StoreOptions{Storage: mem}))(t)
	s := must(st.Create("/w", fixedOptions(SessionNoDefer)))(t)
	for _, m := range []string{`{"role":"user","content":"hi"}`, `{"role":"assistant","content":[{"type":"text","text":"yo"}]}`} {
		must(s.AppendMessage([]byte(m)))(t)
	}
	path := must(s.FilePath())(t)
	want := must(s.EntriesJSON(ReadAsStored))(t)
	s.Close()
	st.Close()
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the memory backend touched the disk: %v", err)
	}

	// The file, read through the backend from Go: a header and two messages.
	buf := NewReadBuffer()
	n, info, err := mem.Read(path, 0, 1<<20, buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := buf.Bytes()[:n]; info.Kind != KindFile || info.Size != uint64(n) || bytes.Count(got, []byte("\n")) != 3 ||
		!bytes.HasPrefix(got, []byte(`{"type":"session","version":3,`)) {
		t.Fatalf("read %d bytes (%+v):\n%s", n, info, got)
	}
	if _, err := mem.Stat(root + "/nope"); codeOf(t, err) != CodeNotFound {
		t.Fatalf("Stat of a missing path: %v", err)
	}

	st2 := must(OpenStore(root, &StoreOptions{Storage: mem}))(t)
	mem.Close() // the store keeps the file system alive
	defer st2.Close()
	s2 := must(st2.Open(path, nil))(t)
	defer s2.Close()
	if got := must(s2.EntriesJSON(ReadAsStored))(t); !bytes.Equal(got, want) {
		t.Fatalf("reopened:\n%s\nwant\n%s", got, want)
	}
	if _, err := mem.Stat(root); !errors.Is(err, ErrClosed) {
		t.Fatalf("Stat after Close: %v, want ErrClosed", err)
	}
}

// countingStorage delegates everything to a BuiltinStorage and counts reads and opens: a host
// that watches the disk.
type countingStorage struct {
	Storage
	reads, opens atomic.Int64
}

func (c *countingStorage) Read(path string, offset, max uint64, buf *ReadBuffer) (int, StorageInfo, error) {
	c.reads.Add(1)
	return c.Storage.Read(path, offset, max, buf)
}

func (c *countingStorage) Open(path string, flags OpenFlags) (StorageFile, error) {
	c.opens.Add(1)
	return c.Storage.Open(path, flags)
}

// A Storage of Go that delegates to the POSIX backend writes the same bytes as the plain disk.
func TestStorageDelegatingToPosix(t *testing.T) {
	posix := must(PosixStorage())(t)
	defer posix.Close()
	watch := &countingStorage{Storage: posix}
	plainRoot, watchedRoot := t.TempDir(), t.TempDir()
	plain := openStoreOver(t, plainRoot, nil)
	watched := openStoreOver(t, watchedRoot, watch)
	var files [2][]byte
	for i, st := range []*Store{plain, watched} {
		s := mustCreate(t, st, "/w", fixedOptions(SessionNoDefer))
		must(s.AppendMessage([]byte(`{"role":"user","content":"hi"}`)))(t)
		path := must(s.FilePath())(t)
		s.Close()
		again := must(st.Open(path, fixedOptions(0)))(t) // read back through the storage
		must(again.AppendMessage([]byte(`{"role":"user","content":"more"}`)))(t)
		again.Close()
		files[i] = must(os.ReadFile(path))(t)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Fatalf("through the delegating storage:\n%s\nplain:\n%s", files[1], files[0])
	}
	// The backend's message comes through the Go storage unchanged.
	var msgs [2]string
	for i, root := range []string{plainRoot, watchedRoot} {
		_, err := []*Store{plain, watched}[i].Open(root+"/missing.jsonl", nil)
		if codeOf(t, err) != CodeNotFound {
			t.Fatalf("open of a missing file: %v", err)
		}
		msgs[i] = strings.ReplaceAll(err.(*Error).Message, root, "<root>")
	}
	if msgs[0] != msgs[1] || msgs[0] == "" {
		t.Errorf("message through the delegating storage %q, plain %q", msgs[1], msgs[0])
	}
	if watch.reads.Load() == 0 || watch.opens.Load() == 0 {
		t.Fatalf("reads %d, opens %d: the storage was not used", watch.reads.Load(), watch.opens.Load())
	}
}
