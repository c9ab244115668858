package xsession

/*
#include <stdlib.h>
#include <xsession.h>
*/
import "C"

import (
	"strconv"
	"strings"
	"unsafe"
)

// cargs holds the C copies of one call's string arguments and frees them together
// (defer a.free()). C.CString copies are needed for NUL-terminated strings, and for text that
// sits inside an option struct: Go memory handed to C must not contain Go pointers, so a
// struct in Go memory may point only at C memory.
type cargs struct {
	op   string
	ptrs []unsafe.Pointer
	err  error // the first refused argument
}

func newArgs(op string) *cargs { return &cargs{op: op} }

func (a *cargs) free() {
	for _, p := range a.ptrs {
		C.free(p)
	}
	a.ptrs = nil
}

func (a *cargs) keep(p *C.char) *C.char {
	a.ptrs = append(a.ptrs, unsafe.Pointer(p))
	return p
}

// str is a required NUL-terminated argument. A NUL byte inside would cut it short in C, so it
// is refused with ErrInvalid instead.
func (a *cargs) str(name, s string) *C.char {
	if strings.IndexByte(s, 0) >= 0 {
		if a.err == nil {
			a.err = argError(a.op, name+" contains a NUL byte")
		}
		return nil
	}
	return a.keep(C.CString(s))
}

// strs is a C array (in C memory) of NUL-terminated copies of ss, and its length. It is never
// NULL, not even for an empty ss: the library then refuses the count with its own message
// rather than a NULL pointer the caller never passed. Each string is checked as str checks it.
func (a *cargs) strs(name string, ss []string) (**C.char, C.size_t) {
	// C.malloc never returns NULL (cgo aborts instead); one slot more keeps an empty array valid.
	arr := (**C.char)(C.malloc(C.size_t(len(ss)+1) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	a.ptrs = append(a.ptrs, unsafe.Pointer(arr))
	items := unsafe.Slice(arr, len(ss)+1)
	for i, s := range ss {
		items[i] = a.str(name+"["+strconv.Itoa(i)+"]", s)
	}
	items[len(ss)] = nil
	return arr, C.size_t(len(ss))
}

// opt is an optional NUL-terminated argument: "" is NULL (absent, or "the current one").
func (a *cargs) opt(name, s string) *C.char {
	if s == "" {
		return nil
	}
	return a.str(name, s)
}

// text is a (pointer, length) copy of s in C memory; NUL bytes are the library's to judge.
func (a *cargs) text(s string) (*C.char, C.size_t) {
	return a.keep(C.CString(s)), C.size_t(len(s))
}

// optText is text where "" means absent (NULL).
func (a *cargs) optText(s string) (*C.char, C.size_t) {
	if s == "" {
		return nil, 0
	}
	return a.text(s)
}

// json is a (pointer, length) copy of b in C memory, for option structs; nil stays NULL.
func (a *cargs) json(b []byte) (*C.char, C.size_t) {
	if b == nil {
		return nil, 0
	}
	if len(b) == 0 {
		return emptyByte, 0
	}
	return a.keep((*C.char)(C.CBytes(b))), C.size_t(len(b))
}

// triState is an optional bool as the C API's int32 XS_UNSET / 0 / 1.
func triState(b *bool) C.int32_t {
	switch {
	case b == nil:
		return C.XS_UNSET
	case *b:
		return 1
	default:
		return 0
	}
}
