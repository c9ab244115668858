package xsession

// The Go side of a host Storage's table (storage.go): one exported function per table function.
// Nothing may unwind out of them into C, so each recovers a panic as CodeIO. The store's Storage
// is a cgo.Handle (the table's user), and so is each open file and lock: C keeps integers, never
// Go pointers. release deletes the store's handle; close and unlock delete the file's and lock's.

/*
#include <stdint.h>
#include <xsession_storage.h>
*/
import "C"

import (
	"runtime/cgo"
	"time"
	"unsafe"
)

func storageOf(user C.uintptr_t) Storage { return cgo.Handle(user).Value().(*hostStorage).s }

func fileOf(file C.uintptr_t) StorageFile { return cgo.Handle(file).Value().(StorageFile) }

//export xsGoStorageRead
func xsGoStorageRead(user C.uintptr_t, path *C.char, offset, max C.uint64_t, out *C.xs_storage_buffer,
	got *C.uint64_t, info *C.xs_storage_info) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Read")
	buf := &ReadBuffer{c: out}
	n, i, err := storageOf(user).Read(C.GoString(path), uint64(offset), uint64(max), buf)
	if err != nil {
		return storageFail(err)
	}
	if n < 0 { // a count over what it took is the engine's to refuse
		return storageFail(&Error{Code: CodeIO, Message: "Storage.Read returned a negative count"})
	}
	*got = C.uint64_t(n)
	i.toC(info)
	return C.XS_OK
}

//export xsGoStorageStat
func xsGoStorageStat(user C.uintptr_t, path *C.char, info *C.xs_storage_info) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Stat")
	i, err := storageOf(user).Stat(C.GoString(path))
	if err != nil {
		return storageFail(err)
	}
	i.toC(info)
	return C.XS_OK
}

//export xsGoStorageOpen
func xsGoStorageOpen(user C.uintptr_t, path *C.char, flags C.uint32_t, file *C.uintptr_t) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Open")
	f, err := storageOf(user).Open(C.GoString(path), OpenFlags(flags))
	if err != nil {
		return storageFail(err)
	}
	if f == nil {
		return storageFail(&Error{Code: CodeIO, Message: "Storage.Open returned no file and no error"})
	}
	*file = C.uintptr_t(cgo.NewHandle(f))
	return C.XS_OK
}

//export xsGoStorageWrite
func xsGoStorageWrite(file C.uintptr_t, data unsafe.Pointer, n C.size_t) (rc C.xs_status) {
	defer recoverStorage(&rc, "StorageFile.Append")
	var p []byte
	if n > 0 {
		p = unsafe.Slice((*byte)(data), int(n))
	}
	return storageOutcome(fileOf(file).Append(p))
}

//export xsGoStorageSync
func xsGoStorageSync(file C.uintptr_t) (rc C.xs_status) {
	defer recoverStorage(&rc, "StorageFile.Sync")
	return storageOutcome(fileOf(file).Sync())
}

//export xsGoStorageFstat
func xsGoStorageFstat(file C.uintptr_t, info *C.xs_storage_info) (rc C.xs_status) {
	defer recoverStorage(&rc, "StorageFile.Stat")
	i, err := fileOf(file).Stat()
	if err != nil {
		return storageFail(err)
	}
	i.toC(info)
	return C.XS_OK
}

//export xsGoStorageClose
func xsGoStorageClose(file C.uintptr_t) (rc C.xs_status) {
	defer recoverStorage(&rc, "StorageFile.Close")
	h := cgo.Handle(file)
	defer h.Delete() // the handle is gone whatever Close does
	return storageOutcome(h.Value().(StorageFile).Close())
}

//export xsGoStorageRename
func xsGoStorageRename(user C.uintptr_t, from, to *C.char, flags C.uint32_t) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Rename")
	return storageOutcome(storageOf(user).Rename(C.GoString(from), C.GoString(to), flags&C.XS_STORAGE_NOREPLACE != 0))
}

//export xsGoStorageRemove
func xsGoStorageRemove(user C.uintptr_t, path *C.char) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Remove")
	return storageOutcome(storageOf(user).Remove(C.GoString(path)))
}

//export xsGoStorageMakeDirs
func xsGoStorageMakeDirs(user C.uintptr_t, path *C.char) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.MakeDirs")
	return storageOutcome(storageOf(user).MakeDirs(C.GoString(path)))
}

//export xsGoStorageSyncDir
func xsGoStorageSyncDir(user C.uintptr_t, path *C.char) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.SyncDir")
	return storageOutcome(storageOf(user).SyncDir(C.GoString(path)))
}

//export xsGoStorageTouch
func xsGoStorageTouch(user C.uintptr_t, path *C.char) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Touch")
	return storageOutcome(storageOf(user).Touch(C.GoString(path)))
}

//export xsGoStorageList
func xsGoStorageList(user C.uintptr_t, path *C.char, lister unsafe.Pointer) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.List")
	names, err := storageOf(user).List(C.GoString(path))
	if err != nil {
		return storageFail(err)
	}
	for _, name := range names {
		if rc := listName(lister, name); rc != C.XS_OK {
			return rc
		}
	}
	return C.XS_OK
}

//export xsGoStorageLock
func xsGoStorageLock(user C.uintptr_t, path *C.char, timeoutMs C.uint32_t, lock *C.uintptr_t) (rc C.xs_status) {
	defer recoverStorage(&rc, "Storage.Lock")
	l, err := storageOf(user).Lock(C.GoString(path), time.Duration(timeoutMs)*time.Millisecond)
	if err != nil {
		return storageFail(err)
	}
	if l == nil {
		return storageFail(&Error{Code: CodeIO, Message: "Storage.Lock returned no lock and no error"})
	}
	*lock = C.uintptr_t(cgo.NewHandle(l))
	return C.XS_OK
}

//export xsGoStorageUnlock
func xsGoStorageUnlock(lock C.uintptr_t) {
	defer func() { _ = recover() }() // unlock reports nothing: a panic is dropped
	h := cgo.Handle(lock)
	defer h.Delete()
	h.Value().(StorageLock).Unlock()
}

//export xsGoStorageRelease
func xsGoStorageRelease(user C.uintptr_t) {
	defer func() { _ = recover() }() // release reports nothing either
	h := cgo.Handle(user)
	defer h.Delete()
	if r, ok := h.Value().(*hostStorage).s.(StorageReleaser); ok {
		r.Release()
	}
}
