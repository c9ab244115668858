package xsession

// The built-in backends' tables (xs_storage_posix, xs_storage_memory) as Go values: passed as
// StoreOptions.Storage the engine calls the C table directly (no Go in between); called from Go
// they are a Storage to delegate to. One instance (one in-memory file system) can serve several
// stores in turn and Go callers at once, so it is reference-counted in C: the Go value holds one
// reference (Close drops it), each store one (the table's release drops it), each open file and
// lock one.

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xsession_storage.h>

typedef struct xs_go_shared {
	xs_storage inner;
	long refs;
} xs_go_shared;

static xs_go_shared *xs_go_shared_new(int memory, xs_status *rc) {
	xs_go_shared *s = calloc(1, sizeof *s);
	if (!s) {
		*rc = XS_ENOMEM;
		return NULL;
	}
	*rc = memory ? xs_storage_memory(&s->inner) : xs_storage_posix(&s->inner);
	if (*rc != XS_OK) {
		free(s);
		return NULL;
	}
	s->refs = 1;
	return s;
}
static void xs_go_shared_ref(xs_go_shared *s) { __atomic_fetch_add(&s->refs, 1, __ATOMIC_RELAXED); }
static void xs_go_shared_unref(void *u) {
	xs_go_shared *s = u;
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
	if (s->inner.release) s->inner.release(s->inner.user);
	free(s);
}

#define IN (((xs_go_shared *)u)->inner)
static xs_status sh_read(void *u, const char *path, uint64_t offset, uint64_t max, xs_storage_buffer *out,
                         uint64_t *got, xs_storage_info *info) {
	return IN.read(IN.user, path, offset, max, out, got, info);
}
static xs_status sh_stat(void *u, const char *path, xs_storage_info *info) { return IN.stat(IN.user, path, info); }
static xs_status sh_open(void *u, const char *path, uint32_t flags, void **file) {
	return IN.open(IN.user, path, flags, file);
}
static xs_status sh_write(void *u, void *file, const void *data, size_t len) { return IN.write(IN.user, file, data, len); }
static xs_status sh_sync(void *u, void *file) { return IN.sync(IN.user, file); }
static xs_status sh_fstat(void *u, void *file, xs_storage_info *info) { return IN.fstat(IN.user, file, info); }
static xs_status sh_close(void *u, void *file) { return IN.close(IN.user, file); }
static xs_status sh_rename(void *u, const char *from, const char *to, uint32_t flags) {
	return IN.rename(IN.user, from, to, flags);
}
static xs_status sh_remove(void *u, const char *path) { return IN.remove(IN.user, path); }
static xs_status sh_make_dirs(void *u, const char *path) { return IN.make_dirs(IN.user, path); }
static xs_status sh_sync_dir(void *u, const char *path) { return IN.sync_dir(IN.user, path); }
static xs_status sh_touch(void *u, const char *path) { return IN.touch(IN.user, path); }
static xs_status sh_list(void *u, const char *path, xs_status (*name)(void *, const char *, size_t), void *ctx) {
	return IN.list(IN.user, path, name, ctx);
}
static xs_status sh_lock(void *u, const char *path, uint32_t timeout_ms, void **lock) {
	return IN.lock(IN.user, path, timeout_ms, lock);
}
static void sh_unlock(void *u, void *lock) { IN.unlock(IN.user, lock); }
#undef IN

// A table in C memory for one store: the shared instance with a reference of its own.
static xs_storage *xs_go_shared_table(xs_go_shared *s) {
	xs_storage *t = calloc(1, sizeof *t);
	if (!t) return NULL;
	*t = (xs_storage){XS_STORAGE_VERSION, s, sh_read, sh_stat, sh_open, sh_write, sh_sync, sh_fstat, sh_close,
	                  sh_rename, sh_remove, sh_make_dirs, sh_sync_dir, sh_touch, sh_list, sh_lock, sh_unlock,
	                  xs_go_shared_unref};
	xs_go_shared_ref(s);
	return t;
}

// For Read into Go memory: a C buffer the inner read() fills, copied after.
typedef struct xs_go_c_buffer {
	xs_storage_buffer b;
	void *mem;
	uint64_t size;
	int called;
} xs_go_c_buffer;
static void *xs_go_c_buffer_alloc(xs_storage_buffer *self, uint64_t size) {
	xs_go_c_buffer *c = self->opaque;
	if (c->called || size > SIZE_MAX / 2) return NULL;
	c->called = 1;
	c->mem = malloc(size ? size : 1);
	c->size = c->mem ? size : 0;
	return c->mem;
}
static xs_go_c_buffer *xs_go_c_buffer_new(void) {
	xs_go_c_buffer *c = calloc(1, sizeof *c);
	if (c) {
		c->b.alloc = xs_go_c_buffer_alloc;
		c->b.opaque = c;
	}
	return c;
}
static void xs_go_c_buffer_free(xs_go_c_buffer *c) {
	free(c->mem);
	free(c);
}

// Collects list()'s names as one block of NUL-separated names.
typedef struct xs_go_names {
	char *bytes;
	size_t len, cap;
} xs_go_names;
static xs_status xs_go_names_add(void *ctx, const char *name, size_t len) {
	xs_go_names *n = ctx;
	if (n->len + len + 1 > n->cap) {
		size_t cap = (n->cap + len + 1) * 2;
		char *grown = realloc(n->bytes, cap);
		if (!grown) return XS_ENOMEM;
		n->bytes = grown;
		n->cap = cap;
	}
	memcpy(n->bytes + n->len, name, len);
	n->bytes[n->len + len] = '\0';
	n->len += len + 1;
	return XS_OK;
}
static xs_status xs_go_shared_list(xs_go_shared *s, const char *path, xs_go_names *n) {
	return sh_list(s, path, xs_go_names_add, n);
}
*/
import "C"

import (
	"bytes"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// BuiltinStorage is one of the library's own backends as a storage table: PosixStorage (the disk,
// what a store uses without StoreOptions.Storage) or MemoryStorage (a file system in memory).
// Pass it as StoreOptions.Storage, to any number of stores, or call its methods from a Storage of
// your own that delegates to it (to count, log or reroute some paths). Its errors carry the
// status and no message: returned unchanged from a Storage method, the backend's own message
// reaches the store's caller. Safe for concurrent use.
type BuiltinStorage struct {
	mu sync.RWMutex // Close against the calls
	p  *C.xs_go_shared
}

// PosixStorage is the built-in POSIX backend (xs_storage_posix).
func PosixStorage() (*BuiltinStorage, error) { return newBuiltin(0, "PosixStorage") }

// MemoryStorage is the built-in in-memory backend (xs_storage_memory): a new, empty file system
// that lives until the BuiltinStorage and every store opened with it are closed. Directories
// exist once MakeDirs makes them (OpenStore's first write does).
func MemoryStorage() (*BuiltinStorage, error) { return newBuiltin(1, "MemoryStorage") }

func newBuiltin(memory C.int, op string) (*BuiltinStorage, error) {
	var rc C.xs_status
	p := C.xs_go_shared_new(memory, &rc)
	if p == nil {
		return nil, &Error{Code: Code(rc), Op: op, Message: "the backend could not be made"}
	}
	b := &BuiltinStorage{p: p}
	runtime.SetFinalizer(b, (*BuiltinStorage).Close)
	return b, nil
}

// Close drops the Go value's hold on the backend: stores opened with it, and files and locks it
// opened, keep it until they are closed too. Calls after Close give ErrClosed; closing again
// does nothing.
func (b *BuiltinStorage) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.p != nil {
		C.xs_go_shared_unref(unsafe.Pointer(b.p))
		b.p = nil
		runtime.SetFinalizer(b, nil)
	}
	return nil
}

// table is b's table for one store (storage.go's storageTable).
func (b *BuiltinStorage) table(a *cargs) (*C.xs_storage, func(), error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.p == nil {
		return nil, nil, closedError(a.op, "storage")
	}
	t := C.xs_go_shared_table(b.p)
	if t == nil {
		return nil, nil, &Error{Code: CodeNoMem, Op: a.op, Message: "out of memory for the storage table"}
	}
	a.ptrs = append(a.ptrs, unsafe.Pointer(t))
	p := b.p // the store's reference, which the undo drops
	return t, func() { C.xs_go_shared_unref(unsafe.Pointer(p)) }, nil
}

// call runs fn on the open backend with path in C memory; the result as an error.
func (b *BuiltinStorage) call(op, path string, fn func(p *C.xs_go_shared, path *C.char) C.xs_status) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.p == nil {
		return closedError(op, "storage")
	}
	a := newArgs(op)
	defer a.free()
	cpath := a.str("path", path)
	if a.err != nil {
		return a.err
	}
	return builtinError(op, fn(b.p, cpath))
}

// hold runs a call that hands out a handle (an open file, a held lock); the handle takes a
// reference to the backend, so it keeps working after the BuiltinStorage is closed.
func (b *BuiltinStorage) hold(op, path string,
	fn func(p unsafe.Pointer, path *C.char, out *unsafe.Pointer) C.xs_status) (*C.xs_go_shared, unsafe.Pointer, error) {
	var handle unsafe.Pointer
	var owner *C.xs_go_shared
	err := b.call(op, path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		rc := fn(unsafe.Pointer(p), cpath, &handle)
		if rc == C.XS_OK {
			C.xs_go_shared_ref(p)
			owner = p
		}
		return rc
	})
	return owner, handle, err
}

func builtinError(op string, rc C.xs_status) error {
	if rc == C.XS_OK {
		return nil
	}
	return &Error{Code: Code(rc), Op: op}
}

// Read reads through the backend into buf: the engine's memory when buf is the one a store
// passed, else C memory copied into buf.
func (b *BuiltinStorage) Read(path string, offset, max uint64, buf *ReadBuffer) (n int, info StorageInfo, err error) {
	var got C.uint64_t
	var ci C.xs_storage_info
	err = b.call("BuiltinStorage.Read", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		if buf.c != nil {
			if buf.used {
				return C.XS_ENOMEM
			}
			buf.used = true // the backend calls the engine's alloc itself
			return C.sh_read(unsafe.Pointer(p), cpath, C.uint64_t(offset), C.uint64_t(max), buf.c, &got, &ci)
		}
		cb := C.xs_go_c_buffer_new()
		if cb == nil {
			return C.XS_ENOMEM
		}
		defer C.xs_go_c_buffer_free(cb)
		rc := C.sh_read(unsafe.Pointer(p), cpath, C.uint64_t(offset), C.uint64_t(max), &cb.b, &got, &ci)
		if rc != C.XS_OK {
			return rc
		}
		to, aerr := buf.Alloc(int(got))
		if aerr != nil {
			return C.XS_ENOMEM
		}
		copy(to, unsafe.Slice((*byte)(cb.mem), int(got)))
		return C.XS_OK
	})
	if err != nil {
		return 0, StorageInfo{}, err
	}
	return int(got), storageInfoOf(&ci), nil
}

// Stat describes path.
func (b *BuiltinStorage) Stat(path string) (StorageInfo, error) {
	var ci C.xs_storage_info
	err := b.call("BuiltinStorage.Stat", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		return C.sh_stat(unsafe.Pointer(p), cpath, &ci)
	})
	return storageInfoOf(&ci), err
}

// Open opens path through the backend; the file keeps the backend alive until it is closed.
func (b *BuiltinStorage) Open(path string, flags OpenFlags) (StorageFile, error) {
	owner, f, err := b.hold("BuiltinStorage.Open", path, func(p unsafe.Pointer, cpath *C.char, out *unsafe.Pointer) C.xs_status {
		return C.sh_open(p, cpath, C.uint32_t(flags), out)
	})
	if err != nil {
		return nil, err
	}
	return &builtinFile{owner: owner, f: f}, nil
}

// Rename renames from to to through the backend.
func (b *BuiltinStorage) Rename(from, to string, noReplace bool) error {
	const op = "BuiltinStorage.Rename"
	a := newArgs(op)
	defer a.free()
	cto := a.str("to", to)
	if a.err != nil {
		return a.err
	}
	var flags C.uint32_t
	if noReplace {
		flags = C.XS_STORAGE_NOREPLACE
	}
	return b.call(op, from, func(p *C.xs_go_shared, cfrom *C.char) C.xs_status {
		return C.sh_rename(unsafe.Pointer(p), cfrom, cto, flags)
	})
}

// Remove removes the file path through the backend.
func (b *BuiltinStorage) Remove(path string) error {
	return b.call("BuiltinStorage.Remove", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		return C.sh_remove(unsafe.Pointer(p), cpath)
	})
}

// MakeDirs creates the directory path and its parents through the backend.
func (b *BuiltinStorage) MakeDirs(path string) error {
	return b.call("BuiltinStorage.MakeDirs", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		return C.sh_make_dirs(unsafe.Pointer(p), cpath)
	})
}

// SyncDir makes directory path's names durable through the backend.
func (b *BuiltinStorage) SyncDir(path string) error {
	return b.call("BuiltinStorage.SyncDir", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		return C.sh_sync_dir(unsafe.Pointer(p), cpath)
	})
}

// Touch sets path's modification time to now through the backend.
func (b *BuiltinStorage) Touch(path string) error {
	return b.call("BuiltinStorage.Touch", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		return C.sh_touch(unsafe.Pointer(p), cpath)
	})
}

// List is the names in directory path, as the backend lists them.
func (b *BuiltinStorage) List(path string) ([]string, error) {
	var block []byte
	err := b.call("BuiltinStorage.List", path, func(p *C.xs_go_shared, cpath *C.char) C.xs_status {
		n := (*C.xs_go_names)(C.calloc(1, C.sizeof_xs_go_names))
		if n == nil {
			return C.XS_ENOMEM
		}
		defer func() {
			C.free(unsafe.Pointer(n.bytes))
			C.free(unsafe.Pointer(n))
		}()
		rc := C.xs_go_shared_list(p, cpath, n)
		if rc == C.XS_OK && n.len > 0 {
			block = C.GoBytes(unsafe.Pointer(n.bytes), C.int(n.len))
		}
		return rc
	})
	if err != nil || len(block) == 0 {
		return nil, err
	}
	var names []string
	for _, name := range bytes.Split(block[:len(block)-1], []byte{0}) {
		names = append(names, string(name))
	}
	return names, nil
}

// Lock takes the lock named path through the backend; the lock keeps the backend alive until
// it is unlocked.
func (b *BuiltinStorage) Lock(path string, timeout time.Duration) (StorageLock, error) {
	ms := timeout.Milliseconds()
	switch {
	case ms < 0:
		ms = 0
	case ms > 0xFFFFFFFF:
		ms = 0xFFFFFFFF
	}
	owner, l, err := b.hold("BuiltinStorage.Lock", path, func(p unsafe.Pointer, cpath *C.char, out *unsafe.Pointer) C.xs_status {
		return C.sh_lock(p, cpath, C.uint32_t(ms), out)
	})
	if err != nil {
		return nil, err
	}
	return &builtinLock{owner: owner, l: l}, nil
}

// builtinFile is a file a BuiltinStorage opened: the backend's handle, and a reference.
type builtinFile struct {
	owner *C.xs_go_shared
	f     unsafe.Pointer
}

// Append writes p at the end of the file through the backend.
func (f *builtinFile) Append(p []byte) error {
	var data unsafe.Pointer
	if len(p) > 0 {
		data = unsafe.Pointer(&p[0])
	}
	return builtinError("BuiltinStorage file Append", C.sh_write(unsafe.Pointer(f.owner), f.f, data, C.size_t(len(p))))
}

// Sync makes the file durable through the backend.
func (f *builtinFile) Sync() error {
	return builtinError("BuiltinStorage file Sync", C.sh_sync(unsafe.Pointer(f.owner), f.f))
}

// Stat describes the open file.
func (f *builtinFile) Stat() (StorageInfo, error) {
	var ci C.xs_storage_info
	err := builtinError("BuiltinStorage file Stat", C.sh_fstat(unsafe.Pointer(f.owner), f.f, &ci))
	return storageInfoOf(&ci), err
}

// Close closes the file and drops its reference to the backend.
func (f *builtinFile) Close() error {
	if f.owner == nil {
		return closedError("BuiltinStorage file Close", "file")
	}
	rc := C.sh_close(unsafe.Pointer(f.owner), f.f)
	C.xs_go_shared_unref(unsafe.Pointer(f.owner))
	f.owner = nil
	return builtinError("BuiltinStorage file Close", rc)
}

// builtinLock is a lock a BuiltinStorage took: the backend's handle, and a reference.
type builtinLock struct {
	owner *C.xs_go_shared
	l     unsafe.Pointer
}

// Unlock lets go of the lock and drops its reference to the backend.
func (l *builtinLock) Unlock() {
	if l.owner == nil {
		return
	}
	C.sh_unlock(unsafe.Pointer(l.owner), l.l)
	C.xs_go_shared_unref(unsafe.Pointer(l.owner))
	l.owner = nil
}
