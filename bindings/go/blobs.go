package xsession

/*
#include <xsession.h>
*/
import "C"

import "unsafe"

// BlobPut stores data in the content-addressed blob store (xs_blob_put) and returns its
// lowercase hex SHA-256. Storing content already there refreshes its age for BlobGC.
func (st *Store) BlobPut(data []byte) (string, error) {
	var hash [C.XS_HASH_BUFSIZE]C.char
	err := st.h.do("Store.BlobPut", func(p *C.xs_store) C.xs_status {
		return C.xs_blob_put(p, unsafe.Pointer(bytePtr(data)), C.size_t(len(data)), &hash[0])
	})
	if err != nil {
		return "", err
	}
	return C.GoString(&hash[0]), nil
}

// BlobGet is a blob's content, verified against its hash (xs_blob_get): ErrNotFound when
// missing, ErrCorrupt when the content does not match its name.
func (st *Store) BlobGet(hash string) ([]byte, error) {
	a := newArgs("Store.BlobGet")
	defer a.free()
	ch := a.str("hash", hash)
	if a.err != nil {
		return nil, a.err
	}
	return st.h.read(a.op, func(p *C.xs_store, b *C.char, c C.size_t, n *C.size_t) C.xs_status {
		return C.xs_blob_get(p, ch, unsafe.Pointer(b), c, n)
	})
}
