package xsession

/*
#include <xsession.h>
*/
import "C"

import "fmt"

// Code is an xs_status: 0 for success, a negative XS_E* value for an error. Codes are never
// renumbered; a code newer than this binding is kept as its number and treated as generic
// (it matches ErrError).
type Code int32

// The status codes of xsession.h.
const (
	CodeOK             Code = C.XS_OK         // success
	CodeError          Code = C.XS_ERROR      // unspecified failure
	CodeNoMem          Code = C.XS_ENOMEM     // out of memory
	CodeInvalid        Code = C.XS_EINVAL     // bad argument: malformed JSON, wrong shape, bad id, invalid UTF-8
	CodeMisuse         Code = C.XS_EMISUSE    // the API used against its contract (a closed handle, too)
	CodeNotFound       Code = C.XS_ENOTFOUND  // no such entry, session or file
	CodeExists         Code = C.XS_EEXISTS    // the id or file already exists
	CodeBufferTooSmall Code = C.XS_EBUFS      // output buffer too small (the binding retries; never returned)
	CodeCorrupt        Code = C.XS_ECORRUPT   // stored data is damaged beyond what the loader can skip
	CodeIO             Code = C.XS_EIO        // an I/O error from the operating system
	CodeLocked         Code = C.XS_ELOCKED    // another handle or process holds the session for writing
	CodeVersion        Code = C.XS_EVERSION   // an option struct version the library does not know
	CodeNoSpace        Code = C.XS_ENOSPC     // no space left on the device, or a quota or size limit
	CodeReadOnly       Code = C.XS_EREADONLY  // a write on a session opened read-only
	CodeConflict       Code = C.XS_ECONFLICT  // another process changed the file; the write was not made
	CodeLimit          Code = C.XS_ELIMIT     // input over a configured limit (line size, nesting depth)
	CodeNoHeader       Code = C.XS_ENOHEADER  // the file has no session header (read-only open)
	CodePoisoned       Code = C.XS_EPOISONED  // an earlier write failed; reopen the session to write again
	CodeAmbiguous      Code = C.XS_EAMBIGUOUS // an id prefix matches more than one session
	CodeDialect        Code = C.XS_EDIALECT   // the entry or field has no form in the session's dialect
	CodeInternal       Code = C.XS_EINTERNAL  // a bug in the library; the message says where
)

// codeNames is the binding's table of the header's codes; a test checks it against xsession.h.
var codeNames = map[Code]string{
	CodeOK: "XS_OK", CodeError: "XS_ERROR", CodeNoMem: "XS_ENOMEM", CodeInvalid: "XS_EINVAL",
	CodeMisuse: "XS_EMISUSE", CodeNotFound: "XS_ENOTFOUND", CodeExists: "XS_EEXISTS",
	CodeBufferTooSmall: "XS_EBUFS", CodeCorrupt: "XS_ECORRUPT", CodeIO: "XS_EIO",
	CodeLocked: "XS_ELOCKED", CodeVersion: "XS_EVERSION", CodeNoSpace: "XS_ENOSPC",
	CodeReadOnly: "XS_EREADONLY", CodeConflict: "XS_ECONFLICT", CodeLimit: "XS_ELIMIT",
	CodeNoHeader: "XS_ENOHEADER", CodePoisoned: "XS_EPOISONED", CodeAmbiguous: "XS_EAMBIGUOUS",
	CodeDialect: "XS_EDIALECT", CodeInternal: "XS_EINTERNAL",
}

// closedName is the name of the binding's own "handle already closed" error (status XS_EMISUSE),
// the same name the Node binding uses.
const closedName = "XS_ECLOSED"

// String is the code's macro name ("XS_ENOTFOUND"); a code this binding does not know is
// "XS_UNKNOWN(<number>)".
func (c Code) String() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return fmt.Sprintf("XS_UNKNOWN(%d)", int32(c))
}

// known maps a code to itself, or an unknown one to CodeError: the generic error that the
// header asks bindings to fall back on.
func (c Code) known() Code {
	if _, ok := codeNames[c]; ok {
		return c
	}
	return CodeError
}

// StatusString is the library's English name of a code ("XS_ENOTFOUND: not found"; unknown
// codes give "unknown status"), from xs_status_str. Safe from any goroutine.
func StatusString(c Code) string {
	return C.GoString(C.xs_status_str(C.xs_status(c)))
}

// Error is a failed call: the status, the binding method that failed and the library's
// message for that very call (copied under the handle's lock).
type Error struct {
	Code    Code   // the status the C function returned
	Op      string // the Go method, such as "Session.Append"; empty for the sentinels
	Message string // the library's text for this call; empty for the sentinels
	closed  bool   // the binding's "handle is closed" error (Code is CodeMisuse)
	cause   error  // what a KeyUpdate function returned (or panicked with) to cancel
}

// Unwrap is the error a KeyUpdate function returned to cancel (or the error it panicked with),
// so errors.Is and errors.As reach it; nil for every other error.
func (e *Error) Unwrap() error { return e.cause }

// Name is the status's macro name ("XS_ELOCKED"), or "XS_ECLOSED" for a call on a closed
// handle.
func (e *Error) Name() string {
	if e.closed {
		return closedName
	}
	return e.Code.String()
}

// Error formats the error as "xsession: <Op>: <Name>: <Message>".
func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = StatusString(e.Code)
	}
	if e.Op == "" {
		return "xsession: " + e.Name() + ": " + msg
	}
	return "xsession: " + e.Op + ": " + e.Name() + ": " + msg
}

// Is makes errors.Is compare codes: any error with the sentinel's code matches it, an unknown
// code matches ErrError, and ErrClosed matches only the closed-handle error (which matches
// ErrMisuse as well).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	if t.closed && !e.closed {
		return false
	}
	return e.Code.known() == t.Code
}

// Sentinels for errors.Is, one per status code.
var (
	ErrError          = &Error{Code: CodeError}          // unspecified failure (and codes newer than the binding)
	ErrNoMem          = &Error{Code: CodeNoMem}          // out of memory
	ErrInvalid        = &Error{Code: CodeInvalid}        // bad argument
	ErrMisuse         = &Error{Code: CodeMisuse}         // API misuse, including a closed handle
	ErrNotFound       = &Error{Code: CodeNotFound}       // no such entry, session or file
	ErrExists         = &Error{Code: CodeExists}         // the id or file already exists
	ErrBufferTooSmall = &Error{Code: CodeBufferTooSmall} // output buffer too small
	ErrCorrupt        = &Error{Code: CodeCorrupt}        // damaged stored data
	ErrIO             = &Error{Code: CodeIO}             // operating-system I/O error
	ErrLocked         = &Error{Code: CodeLocked}         // another writer holds the session
	ErrVersion        = &Error{Code: CodeVersion}        // unknown option struct version
	ErrNoSpace        = &Error{Code: CodeNoSpace}        // no space left, or a quota
	ErrReadOnly       = &Error{Code: CodeReadOnly}       // a write on a read-only session
	ErrConflict       = &Error{Code: CodeConflict}       // another process changed the file
	ErrLimit          = &Error{Code: CodeLimit}          // input over a configured limit
	ErrNoHeader       = &Error{Code: CodeNoHeader}       // the file has no session header
	ErrPoisoned       = &Error{Code: CodePoisoned}       // an earlier write failed
	ErrAmbiguous      = &Error{Code: CodeAmbiguous}      // an id prefix matches several sessions
	ErrDialect        = &Error{Code: CodeDialect}        // no form in the session's dialect (pi or omp)
	ErrInternal       = &Error{Code: CodeInternal}       // a bug in the library
	// ErrClosed is a call on a closed Store or Session; it also matches ErrMisuse.
	ErrClosed = &Error{Code: CodeMisuse, closed: true}
)

func closedError(op, kind string) error {
	return &Error{Code: CodeMisuse, Op: op, Message: "the " + kind + " is closed", closed: true}
}

// argError is an argument the binding refuses before calling C (a NUL byte in a C string would
// silently cut it short).
func argError(op, msg string) error {
	return &Error{Code: CodeInvalid, Op: op, Message: msg}
}
