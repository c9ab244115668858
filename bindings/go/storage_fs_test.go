package xsession

// osStorage: a Storage written in Go over the local file system (package os, syscall.Flock), as a
// host that keeps its sessions on its own disk layer would write one. The conformance suite
// replays every case over it (TestConformanceOverGoStorage); it counts its calls and releases so
// that the tests can tell it was really used and let go of once.

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"
)

type osStorage struct {
	calls    atomic.Int64
	released atomic.Int32
}

func (s *osStorage) count() { s.calls.Add(1) }

func osInfo(fi os.FileInfo) StorageInfo {
	i := StorageInfo{Size: uint64(fi.Size()), ModTime: fi.ModTime(), Links: 1, Kind: KindOther}
	switch {
	case fi.Mode().IsRegular():
		i.Kind = KindFile
	case fi.IsDir():
		i.Kind = KindDir
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		i.Dev, i.Ino, i.Links = uint64(st.Dev), st.Ino, uint64(st.Nlink)
	}
	return i
}

func (s *osStorage) Read(path string, offset, max uint64, buf *ReadBuffer) (int, StorageInfo, error) {
	s.count()
	f, err := os.Open(path)
	if err != nil {
		return 0, StorageInfo{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, StorageInfo{}, err
	}
	if fi.IsDir() {
		return 0, StorageInfo{}, &os.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	}
	var want uint64
	if size := uint64(fi.Size()); offset < size {
		want = size - offset
	}
	if want > max {
		want = max
	}
	to, err := buf.Alloc(int(want))
	if err != nil {
		return 0, StorageInfo{}, err
	}
	n, err := f.ReadAt(to, int64(offset))
	if err != nil && !errors.Is(err, io.EOF) { // EOF: the file shrank meanwhile
		return 0, StorageInfo{}, err
	}
	return n, osInfo(fi), nil
}

func (s *osStorage) Stat(path string) (StorageInfo, error) {
	s.count()
	fi, err := os.Stat(path)
	if err != nil {
		return StorageInfo{}, err
	}
	return osInfo(fi), nil
}

func (s *osStorage) Open(path string, flags OpenFlags) (StorageFile, error) {
	s.count()
	var mode int
	switch flags {
	case StorageAppend:
		mode = os.O_WRONLY | os.O_APPEND
	case StorageCreate:
		mode = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	default:
		return nil, StorageError(CodeInvalid, "go storage: unknown open flags")
	}
	f, err := os.OpenFile(path, mode, 0o600)
	if err != nil {
		return nil, err
	}
	return &osFile{s: s, f: f}, nil
}

type osFile struct {
	s *osStorage
	f *os.File
}

func (f *osFile) Append(p []byte) error {
	f.s.count()
	_, err := f.f.Write(p)
	return err
}

func (f *osFile) Sync() error {
	f.s.count()
	return f.f.Sync()
}

func (f *osFile) Stat() (StorageInfo, error) {
	f.s.count()
	fi, err := f.f.Stat()
	if err != nil {
		return StorageInfo{}, err
	}
	return osInfo(fi), nil
}

func (f *osFile) Close() error {
	f.s.count()
	return f.f.Close()
}

// Rename without replacing is a hard link (which fails if `to` exists) and an unlink: atomic,
// without renameat2, which package syscall does not have.
func (s *osStorage) Rename(from, to string, noReplace bool) error {
	s.count()
	if !noReplace {
		return os.Rename(from, to)
	}
	if err := os.Link(from, to); err != nil {
		return err
	}
	return os.Remove(from)
}

func (s *osStorage) Remove(path string) error {
	s.count()
	if err := syscall.Unlink(path); err != nil {
		return &os.PathError{Op: "unlink", Path: path, Err: err}
	}
	return nil
}

func (s *osStorage) MakeDirs(path string) error {
	s.count()
	return s.makeDirs(path)
}

func (s *osStorage) makeDirs(path string) error {
	if fi, err := os.Stat(path); err == nil {
		if !fi.IsDir() {
			return StorageError(CodeInvalid, "go storage: "+path+" is not a directory")
		}
		return nil
	}
	parent := filepath.Dir(path)
	if parent != path {
		if err := s.makeDirs(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(path, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return s.syncDir(parent)
}

func (s *osStorage) SyncDir(path string) error {
	s.count()
	return s.syncDir(path)
}

func (s *osStorage) syncDir(path string) error {
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

func (s *osStorage) Touch(path string) error {
	s.count()
	now := time.Now()
	return os.Chtimes(path, now, now)
}

func (s *osStorage) List(path string) ([]string, error) {
	s.count()
	d, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

func (s *osStorage) Lock(path string, timeout time.Duration) (StorageLock, error) {
	s.count()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return &osLock{s: s, f: f}, nil
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || !time.Now().Before(deadline) {
			f.Close()
			return nil, &os.PathError{Op: "flock", Path: path, Err: err} // EWOULDBLOCK: CodeLocked
		}
		time.Sleep(time.Millisecond)
	}
}

type osLock struct {
	s *osStorage
	f *os.File
}

func (l *osLock) Unlock() {
	l.s.count()
	l.f.Close() // closing the last descriptor lets go of the flock
}

func (s *osStorage) Release() { s.released.Add(1) }
