package xsession

// Storage of a host's own (capi/include/xsession_storage.h): a Go value the engine reads,
// writes, renames and locks through, passed as StoreOptions.Storage. The trampolines the table
// points at are in storage_callbacks.go, the built-in backends in storage_builtin.go.

/*
#include <stdint.h>
#include <stdlib.h>
#include <xsession_storage.h>

// Exported by storage_callbacks.go (a file with //export may declare C functions, not define them).
// Handles (cgo.Handle) travel as integers: C keeps no Go pointer, and Go converts no integer to a
// pointer.
extern xs_status xsGoStorageRead(uintptr_t user, char *path, uint64_t offset, uint64_t max,
                                 xs_storage_buffer *out, uint64_t *got, xs_storage_info *info);
extern xs_status xsGoStorageStat(uintptr_t user, char *path, xs_storage_info *info);
extern xs_status xsGoStorageOpen(uintptr_t user, char *path, uint32_t flags, uintptr_t *file);
extern xs_status xsGoStorageWrite(uintptr_t file, void *data, size_t len);
extern xs_status xsGoStorageSync(uintptr_t file);
extern xs_status xsGoStorageFstat(uintptr_t file, xs_storage_info *info);
extern xs_status xsGoStorageClose(uintptr_t file);
extern xs_status xsGoStorageRename(uintptr_t user, char *from, char *to, uint32_t flags);
extern xs_status xsGoStorageRemove(uintptr_t user, char *path);
extern xs_status xsGoStorageMakeDirs(uintptr_t user, char *path);
extern xs_status xsGoStorageSyncDir(uintptr_t user, char *path);
extern xs_status xsGoStorageTouch(uintptr_t user, char *path);
extern xs_status xsGoStorageList(uintptr_t user, char *path, void *lister);
extern xs_status xsGoStorageLock(uintptr_t user, char *path, uint32_t timeout_ms, uintptr_t *lock);
extern void xsGoStorageUnlock(uintptr_t lock);
extern void xsGoStorageRelease(uintptr_t user);

// The table's functions: casts between the header's types and the exports' (which lose const).
static xs_status xs_go_st_read(void *u, const char *path, uint64_t offset, uint64_t max, xs_storage_buffer *out,
                               uint64_t *got, xs_storage_info *info) {
	return xsGoStorageRead((uintptr_t)u, (char *)path, offset, max, out, got, info);
}
static xs_status xs_go_st_stat(void *u, const char *path, xs_storage_info *info) {
	return xsGoStorageStat((uintptr_t)u, (char *)path, info);
}
static xs_status xs_go_st_open(void *u, const char *path, uint32_t flags, void **file) {
	uintptr_t h = 0;
	xs_status rc = xsGoStorageOpen((uintptr_t)u, (char *)path, flags, &h);
	if (rc == XS_OK) *file = (void *)h;
	return rc;
}
static xs_status xs_go_st_write(void *u, void *file, const void *data, size_t len) {
	(void)u;
	return xsGoStorageWrite((uintptr_t)file, (void *)data, len);
}
static xs_status xs_go_st_sync(void *u, void *file) { (void)u; return xsGoStorageSync((uintptr_t)file); }
static xs_status xs_go_st_fstat(void *u, void *file, xs_storage_info *info) {
	(void)u;
	return xsGoStorageFstat((uintptr_t)file, info);
}
static xs_status xs_go_st_close(void *u, void *file) { (void)u; return xsGoStorageClose((uintptr_t)file); }
static xs_status xs_go_st_rename(void *u, const char *from, const char *to, uint32_t flags) {
	return xsGoStorageRename((uintptr_t)u, (char *)from, (char *)to, flags);
}
static xs_status xs_go_st_remove(void *u, const char *path) { return xsGoStorageRemove((uintptr_t)u, (char *)path); }
static xs_status xs_go_st_make_dirs(void *u, const char *path) {
	return xsGoStorageMakeDirs((uintptr_t)u, (char *)path);
}
static xs_status xs_go_st_sync_dir(void *u, const char *path) { return xsGoStorageSyncDir((uintptr_t)u, (char *)path); }
static xs_status xs_go_st_touch(void *u, const char *path) { return xsGoStorageTouch((uintptr_t)u, (char *)path); }

// list()'s callback and its context, on the C stack while the Go side calls it per name.
typedef struct xs_go_lister {
	xs_status (*name)(void *ctx, const char *name, size_t len);
	void *ctx;
} xs_go_lister;
static xs_status xs_go_st_list(void *u, const char *path, xs_status (*name)(void *, const char *, size_t), void *ctx) {
	xs_go_lister l = {name, ctx};
	return xsGoStorageList((uintptr_t)u, (char *)path, &l);
}
static xs_status xs_go_lister_call(void *l, const char *name, size_t len) {
	return ((xs_go_lister *)l)->name(((xs_go_lister *)l)->ctx, name, len);
}
static xs_status xs_go_st_lock(void *u, const char *path, uint32_t timeout_ms, void **lock) {
	uintptr_t h = 0;
	xs_status rc = xsGoStorageLock((uintptr_t)u, (char *)path, timeout_ms, &h);
	if (rc == XS_OK) *lock = (void *)h;
	return rc;
}
static void xs_go_st_unlock(void *u, void *lock) { (void)u; xsGoStorageUnlock((uintptr_t)lock); }
static void xs_go_st_release(void *u) { xsGoStorageRelease((uintptr_t)u); }

// A table in C memory (xs_store_open copies it; the caller frees it) whose user is the handle h.
static xs_storage *xs_go_storage_table(uintptr_t h) {
	xs_storage *t = calloc(1, sizeof *t);
	if (!t) return NULL;
	t->version = XS_STORAGE_VERSION;
	t->user = (void *)h;
	t->read = xs_go_st_read;
	t->stat = xs_go_st_stat;
	t->open = xs_go_st_open;
	t->write = xs_go_st_write;
	t->sync = xs_go_st_sync;
	t->fstat = xs_go_st_fstat;
	t->close = xs_go_st_close;
	t->rename = xs_go_st_rename;
	t->remove = xs_go_st_remove;
	t->make_dirs = xs_go_st_make_dirs;
	t->sync_dir = xs_go_st_sync_dir;
	t->touch = xs_go_st_touch;
	t->list = xs_go_st_list;
	t->lock = xs_go_st_lock;
	t->unlock = xs_go_st_unlock;
	t->release = xs_go_st_release;
	return t;
}

static void *xs_go_buffer_alloc(xs_storage_buffer *b, uint64_t size) { return b->alloc(b, size); }
*/
import "C"

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime/cgo"
	"syscall"
	"time"
	"unsafe"
)

// Storage is where a store keeps everything (StoreOptions.Storage): each method is one function
// of xsession_storage.h's table, with the contract xsession_storage.h states (atomic renames,
// durable syncs, an exclusive lock that dies with its holder, exact statuses). Paths are the
// engine's '/'-separated strings under the store's root.
//
// The engine calls the methods from any goroutine, several at once: they must be safe for
// that. It calls them from inside the Store's and Session's own methods, so a method must never
// call back into a store (or a session) that uses this storage: that call waits for the very
// lock the engine holds.
//
// Errors: return an *Error (StorageError(CodeNoSpace, "quota exceeded")) to choose the status
// and message the caller of the store sees; the errors of package os are mapped by what they
// are (fs.ErrNotExist and ENOTDIR to CodeNotFound, fs.ErrExist to CodeExists, ENOSPC, EDQUOT and
// EFBIG to CodeNoSpace, EWOULDBLOCK to CodeLocked, EISDIR to CodeInvalid, ENOMEM to CodeNoMem),
// anything else is CodeIO, each with err.Error() as the message. A panic is CodeIO with the
// panic's value in the message; it never reaches the engine.
type Storage interface {
	// Read reads up to max bytes at offset of the file path (fewer at its end, none past it):
	// it asks buf for exactly the count it will write (Alloc, once), copies them there and
	// returns the count written (less than allocated only if the file shrank meanwhile) and the
	// file's info as of that read (so that its size and identity match the bytes).
	Read(path string, offset, max uint64, buf *ReadBuffer) (n int, info StorageInfo, err error)
	// Stat describes path, a file or a directory.
	Stat(path string) (StorageInfo, error)
	// Open opens path for appending (StorageAppend: an existing file, CodeNotFound if none) or
	// makes a new file (StorageCreate: mode 0600, CodeExists if it exists, CodeNotFound if its
	// directory does not).
	Open(path string, flags OpenFlags) (StorageFile, error)
	// Rename renames from to to atomically, replacing to unless noReplace (then CodeExists).
	Rename(from, to string, noReplace bool) error
	// Remove removes the file path (not a directory).
	Remove(path string) error
	// MakeDirs creates the directory path and its missing parents, durably; nil if it exists;
	// CodeInvalid if path or a parent is a file.
	MakeDirs(path string) error
	// SyncDir makes the names in directory path (creates and renames inside it) durable.
	SyncDir(path string) error
	// Touch sets the file's modification time to now.
	Touch(path string) error
	// List is the names in directory path, without "." and "..", in any order.
	List(path string) ([]string, error)
	// Lock takes the exclusive lock named path, waiting up to timeout for another holder (0: one
	// attempt); CodeLocked when it is still held then.
	Lock(path string, timeout time.Duration) (StorageLock, error)
}

// StorageFile is a file Storage.Open opened. Calls on one file never overlap.
type StorageFile interface {
	// Append writes all of p at the end of the file, or fails (some bytes may be written then).
	// p is the engine's memory: it must not be kept after Append returns.
	Append(p []byte) error
	// Sync makes every byte appended so far durable.
	Sync() error
	// Stat describes the open file.
	Stat() (StorageInfo, error)
	// Close closes the file; it is gone whatever Close returns (an error reports a deferred
	// write failure).
	Close() error
}

// StorageLock is a lock Storage.Lock took.
type StorageLock interface {
	// Unlock lets go of the lock.
	Unlock()
}

// StorageReleaser is a Storage that wants to know when a store is done with it: Release runs
// once per store opened with it, after that store and every session opened from it are closed
// (on whichever goroutine closes the last of them); never for an OpenStore that failed.
type StorageReleaser interface {
	// Release is called once the store no longer uses the storage.
	Release()
}

// OpenFlags are the XS_STORAGE_* flags of Storage.Open: exactly one of them.
type OpenFlags uint32

// Open flags.
const (
	StorageAppend OpenFlags = C.XS_STORAGE_APPEND // an existing file, every write at its end
	StorageCreate OpenFlags = C.XS_STORAGE_CREATE // a new file that must not exist yet
)

// FileKind is what a path names (StorageInfo.Kind).
type FileKind uint32

// File kinds.
const (
	KindFile  FileKind = C.XS_STORAGE_FILE  // a regular file
	KindDir   FileKind = C.XS_STORAGE_DIR   // a directory
	KindOther FileKind = C.XS_STORAGE_OTHER // anything else
)

// StorageInfo is what a path names, as stat(2) says it (xs_storage_info); fields a storage
// cannot know stay zero.
type StorageInfo struct {
	Size    uint64    // bytes in the file
	ModTime time.Time // last modification (millisecond precision; retention and blob GC read it)
	// Dev and Ino identify the file a path names (not both 0 for a file): a rename over the path
	// gives it a new identity, appends do not.
	Dev, Ino uint64
	Links    uint64   // names the file has; 1 unless the storage has hard links
	Kind     FileKind // KindFile, KindDir or KindOther
}

func (i *StorageInfo) toC(out *C.xs_storage_info) {
	out.size = C.uint64_t(i.Size)
	out.mtime_ms = 0
	if !i.ModTime.IsZero() {
		out.mtime_ms = C.int64_t(i.ModTime.UnixMilli())
	}
	out.dev, out.ino = C.uint64_t(i.Dev), C.uint64_t(i.Ino)
	out.links = C.uint64_t(i.Links)
	out.kind = C.uint32_t(i.Kind)
}

func storageInfoOf(c *C.xs_storage_info) StorageInfo {
	i := StorageInfo{Size: uint64(c.size), Dev: uint64(c.dev), Ino: uint64(c.ino), Links: uint64(c.links),
		Kind: FileKind(c.kind)}
	if c.mtime_ms != 0 {
		i.ModTime = time.UnixMilli(int64(c.mtime_ms))
	}
	return i
}

// ReadBuffer is where Storage.Read puts the bytes it reads: the engine's own memory, so that
// nothing is copied twice. A Storage asks for it once per Read, with Alloc.
type ReadBuffer struct {
	c    *C.xs_storage_buffer // the engine's; nil for one NewReadBuffer made
	used bool
	mem  []byte
}

// NewReadBuffer is a ReadBuffer in Go memory, for calling a Storage's Read from Go (a decorator
// that reads through another Storage, a test); Bytes then has what Read wrote.
func NewReadBuffer() *ReadBuffer { return &ReadBuffer{} }

// Alloc is memory for exactly n bytes, valid until Read returns. The engine refuses it when it
// cannot take that many (out of memory, or over the caller's limit) and Alloc may be called once
// per Read: then it returns an error that Read should return as it is.
func (b *ReadBuffer) Alloc(n int) ([]byte, error) {
	if b.used {
		return nil, &Error{Code: CodeNoMem, Message: "ReadBuffer.Alloc called twice in one Read"}
	}
	b.used = true
	if n < 0 {
		return nil, &Error{Code: CodeInvalid, Message: fmt.Sprintf("ReadBuffer.Alloc(%d)", n)}
	}
	if b.c == nil {
		b.mem = make([]byte, n)
		return b.mem, nil
	}
	p := C.xs_go_buffer_alloc(b.c, C.uint64_t(n))
	if p == nil {
		if n == 0 {
			return []byte{}, nil
		}
		return nil, &Error{Code: CodeNoMem, Message: fmt.Sprintf("the engine took no buffer of %d bytes", n)}
	}
	b.mem = unsafe.Slice((*byte)(p), n)
	return b.mem, nil
}

// Bytes is the memory Alloc gave (nil before Alloc); for a NewReadBuffer's, what Read wrote is
// Bytes()[:n].
func (b *ReadBuffer) Bytes() []byte { return b.mem }

// StorageError is the error a Storage method returns to fail with code and message (the message
// the store's caller then sees).
func StorageError(code Code, message string) error { return &Error{Code: code, Message: message} }

// storageStatus is the status and message of a Storage method's error (see Storage).
func storageStatus(err error) (Code, string) {
	var xe *Error
	if errors.As(err, &xe) {
		if xe.Code >= 0 {
			return CodeIO, err.Error()
		}
		return xe.Code, xe.Message // "": the message a builtin storage left stands (storage_builtin.go)
	}
	code := CodeIO
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		code = CodeNotFound
	case errors.Is(err, fs.ErrExist):
		code = CodeExists
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EFBIG):
		code = CodeNoSpace
	case errors.Is(err, syscall.EWOULDBLOCK):
		code = CodeLocked
	case errors.Is(err, syscall.EISDIR):
		code = CodeInvalid
	case errors.Is(err, syscall.ENOMEM):
		code = CodeNoMem
	}
	return code, err.Error()
}

// storageFail reports err to the engine: its status, and its message through xs_storage_error.
func storageFail(err error) C.xs_status {
	code, msg := storageStatus(err)
	if msg == "" {
		return C.xs_status(code)
	}
	cmsg := C.CString(msg)
	defer C.free(unsafe.Pointer(cmsg))
	return C.xs_storage_error(C.xs_status(code), cmsg)
}

// listName hands the engine's list() callback one name (a NUL-terminated copy, for callbacks
// that read it as a C string).
func listName(lister unsafe.Pointer, name string) C.xs_status {
	b := append([]byte(name), 0) // never empty: &b[0] is valid for a "" name too
	return C.xs_go_lister_call(lister, (*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(name)))
}

// storageOutcome is the status of a method that returned err.
func storageOutcome(err error) C.xs_status {
	if err == nil {
		return C.XS_OK
	}
	return storageFail(err)
}

// recoverStorage, deferred by every trampoline, turns a panic into CodeIO with its value.
func recoverStorage(rc *C.xs_status, method string) {
	if p := recover(); p != nil {
		*rc = storageFail(&Error{Code: CodeIO, Message: fmt.Sprintf("panic in %s: %v", method, p)})
	}
}

// hostStorage is what a store's table points at (through a cgo.Handle): the host's Storage.
type hostStorage struct{ s Storage }

// storageTable is s as a table in C memory, kept by a (freed with it), for xs_store_options;
// undo lets go of what the table holds when xs_store_open fails (the caller keeps it then, and
// Release does not run).
func storageTable(a *cargs, s Storage) (t *C.xs_storage, undo func(), err error) {
	if b, ok := s.(*BuiltinStorage); ok {
		return b.table(a)
	}
	h := cgo.NewHandle(&hostStorage{s: s})
	t = C.xs_go_storage_table(C.uintptr_t(h))
	if t == nil {
		h.Delete()
		return nil, nil, &Error{Code: CodeNoMem, Op: a.op, Message: "out of memory for the storage table"}
	}
	a.ptrs = append(a.ptrs, unsafe.Pointer(t))
	return t, h.Delete, nil
}
