// Package sqlitelock lets the binding's tests hold a SQLite database's write lock, as another
// process's writer would, to see what the library does when it cannot get it. Only the tests
// import it. It links the libsqlite3 the library itself links (one copy in the process, so the
// two connections' POSIX locks are kept apart as SQLite keeps them between its own connections).
package sqlitelock

/*
#cgo LDFLAGS: -lsqlite3
#include <sqlite3.h>
#include <stdlib.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Lock is a connection that holds its database's write lock (BEGIN IMMEDIATE).
type Lock struct {
	db *C.sqlite3
}

// Hold opens the database at path and takes its write lock.
func Hold(path string) (*Lock, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	l := &Lock{}
	if rc := C.sqlite3_open(cpath, &l.db); rc != C.SQLITE_OK {
		err := fmt.Errorf("sqlite3_open %s: %s", path, C.GoString(C.sqlite3_errstr(rc)))
		C.sqlite3_close(l.db)
		return nil, err
	}
	if err := l.exec("BEGIN IMMEDIATE"); err != nil {
		C.sqlite3_close(l.db)
		return nil, err
	}
	return l, nil
}

// Release commits (nothing was written) and closes the connection.
func (l *Lock) Release() error {
	err := l.exec("COMMIT")
	if rc := C.sqlite3_close(l.db); rc != C.SQLITE_OK && err == nil {
		err = fmt.Errorf("sqlite3_close: %s", C.GoString(C.sqlite3_errstr(rc)))
	}
	return err
}

func (l *Lock) exec(sql string) error {
	csql := C.CString(sql)
	defer C.free(unsafe.Pointer(csql))
	if rc := C.sqlite3_exec(l.db, csql, nil, nil, nil); rc != C.SQLITE_OK {
		return fmt.Errorf("%s: %s", sql, C.GoString(C.sqlite3_errmsg(l.db)))
	}
	return nil
}
