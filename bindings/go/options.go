package xsession

/*
#include <xsession.h>
*/
import "C"

import (
	"fmt"
	"time"
)

// StoreFlags are the XS_STORE_* flags of StoreOptions.
type StoreFlags uint32

// Store flags.
const (
	// StoreInMemory keeps sessions in memory only: nothing touches the disk.
	StoreInMemory StoreFlags = C.XS_STORE_IN_MEMORY
	// StoreDialectPi makes pi the dialect of new sessions (and of files whose lines show
	// neither dialect) unless their options force one; without it, omp.
	StoreDialectPi StoreFlags = C.XS_STORE_DIALECT_PI
)

// StoreOptions configures OpenStore; nil means the defaults.
type StoreOptions struct {
	Flags    StoreFlags // StoreInMemory | StoreDialectPi, or 0
	KeysPath string     // the keyed store's document (KeyGet and friends); "" = <root>/sessions.json
	// The reset policy of SessionForKey when a call passes none; nil = sessions never expire.
	ResetPolicy *ResetPolicy
	// Where the store keeps everything: a Storage of the host's, or a BuiltinStorage; nil = the
	// disk (or memory with StoreInMemory, which excludes it: ErrInvalid). A StorageReleaser's
	// Release runs once the store and every session opened from it are closed.
	Storage Storage
}

// Dialect is whose forms a session's lines take (docs/dialects.md): oh-my-pi's or pi's. Both
// are always read; a session writes in one, so that the agent whose file it is reads it back.
type Dialect int

// Dialects.
const (
	// DialectAuto (SessionOptions only) lets the session choose: an existing file writes in
	// the dialect its lines show, else (and for a new session) the store's default; a fork or a
	// branched session takes its source's.
	DialectAuto Dialect = C.XS_DIALECT_AUTO
	// DialectOmp is oh-my-pi 13's: model "provider/id" with a role, the title in the header,
	// attribution, blobs and truncation of huge strings.
	DialectOmp Dialect = C.XS_DIALECT_OMP
	// DialectPi is pi 0.73.1's: model_change as {provider, modelId}, titles as session_info
	// entries, everything inline, UUIDv7 session ids; omp-only entries and fields are refused
	// with ErrDialect.
	DialectPi Dialect = C.XS_DIALECT_PI
)

// String is the dialect's name, as "dialect" of Info shows it: "auto", "omp" or "pi"
// ("Dialect(<n>)" for a value this binding does not know).
func (d Dialect) String() string {
	switch d {
	case DialectAuto:
		return "auto"
	case DialectOmp:
		return "omp"
	case DialectPi:
		return "pi"
	}
	return fmt.Sprintf("Dialect(%d)", int(d))
}

// SessionFlags are the XS_SESSION_* flags of SessionOptions.
type SessionFlags uint32

// Session flags.
const (
	// SessionReadOnly opens without the writer lock; writes fail with ErrReadOnly and nothing is
	// ever written (not even a migration).
	SessionReadOnly SessionFlags = C.XS_SESSION_READ_ONLY
	// SessionCreate makes Open of a missing file start a new session at that path.
	SessionCreate SessionFlags = C.XS_SESSION_CREATE
	// SessionNoDefer writes the file at once instead of at the first assistant message.
	SessionNoDefer SessionFlags = C.XS_SESSION_NO_DEFER
	// SessionSync makes every append fdatasync before returning (power-loss safe).
	SessionSync SessionFlags = C.XS_SESSION_SYNC
	// SessionFixedClock takes timestamps from ClockStartMs, adding ClockStepMs per use, for
	// tests that compare exact bytes.
	SessionFixedClock SessionFlags = C.XS_SESSION_FIXED_CLOCK
)

// SessionOptions configures the calls that open or make a session; nil means the defaults.
// The zero value of every field is the library's default.
type SessionOptions struct {
	Flags        SessionFlags // SessionReadOnly | SessionCreate | ...
	MaxLineBytes uint64       // longest line accepted on load or append; 0 = 64 MiB; max 1 GiB
	MaxDepth     uint32       // deepest JSON value accepted; 0 = 256; max 4096
	ClockStartMs int64        // with SessionFixedClock: the first timestamp, ms since the epoch
	ClockStepMs  int64        // with SessionFixedClock: added after each timestamp
	IDSeed       uint64       // non-zero: ids come from a reproducible sequence (tests)
	Dialect      Dialect      // DialectOmp or DialectPi: forced, for new and existing files; DialectAuto (0): the file's or the store's

	// For new sessions; "" = absent.
	Cwd           string // the header's cwd (Open with SessionCreate; Create takes it as an argument)
	SessionID     string // the new session's id; "" = generated (16 hex chars; in the pi dialect a UUIDv7)
	Title         string // the title: the header's (omp), or a first session_info entry (pi)
	ParentSession string // the header's parentSession (an id or a path)

	// A key of the store's keyed document that the session reports its Stats to, after each
	// assistant message, on Flush and on Close (docs/session-stats.md); "" = none. Not with
	// SessionReadOnly (ErrInvalid).
	Key string

	keyPresent bool // tests: pass Key even when "" (which the library refuses: keys are 1-256 bytes)
}

// toC converts the options; their strings are copied into a and freed with it.
func (o *SessionOptions) toC(a *cargs) (C.xs_session_options, error) {
	var c C.xs_session_options
	if rc := C.xs_session_options_init(&c, C.XS_SESSION_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: a.op, Message: "xs_session_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	c.flags = C.uint32_t(o.Flags)
	c.max_line_bytes = C.uint64_t(o.MaxLineBytes)
	c.max_depth = C.uint32_t(o.MaxDepth)
	c.clock_start_ms = C.int64_t(o.ClockStartMs)
	c.clock_step_ms = C.int64_t(o.ClockStepMs)
	c.id_seed = C.uint64_t(o.IDSeed)
	c.dialect = C.uint32_t(o.Dialect)
	c.cwd = a.opt("Cwd", o.Cwd)
	c.session_id = a.opt("SessionID", o.SessionID)
	c.title = a.opt("Title", o.Title)
	c.parent_session = a.opt("ParentSession", o.ParentSession)
	c.key = a.opt("Key", o.Key)
	if o.keyPresent {
		c.key = a.str("Key", o.Key)
	}
	return c, a.err
}

// ListOptions configures Store.List; nil means every session of every working directory.
type ListOptions struct {
	Full  bool   // read whole files: adds messageCount, entryCount and diagnostics
	Limit uint64 // at most this many (the newest); 0 = all
	Cwd   string // only the sessions of this working directory; "" = all
}

func (o *ListOptions) toC(a *cargs) (C.xs_list_options, error) {
	var c C.xs_list_options
	if rc := C.xs_list_options_init(&c, C.XS_LIST_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: a.op, Message: "xs_list_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	if o.Full {
		c.flags |= C.XS_LIST_FULL
	}
	c.limit = C.uint64_t(o.Limit)
	c.cwd = a.opt("Cwd", o.Cwd)
	return c, a.err
}

// GCOptions configures Store.BlobGC; nil and GCOptions{} both mean the library's defaults.
type GCOptions struct {
	DryRun bool // report what would be deleted; delete nothing
	// Grace: never delete a file younger than this. 0 = the library's default (one hour), so that
	// an unset grace never deletes a blob another process just stored and has not referenced yet;
	// NoGrace asks for none. Millisecond precision, rounded up; negative is ErrInvalid.
	Grace time.Duration
	// NoGrace deletes unreferenced files whatever their age (a grace of 0 ms). Only with Grace 0.
	NoGrace bool
	Now     time.Time // "now" for the age test; the zero Time = the system clock
}

// DefaultGCOptions are the library's defaults (xs_gc_options_init), spelled out: a one-hour grace
// period, the system clock, deleting for real.
func DefaultGCOptions() GCOptions {
	var c C.xs_gc_options
	C.xs_gc_options_init(&c, C.XS_GC_OPTIONS_VERSION)
	return GCOptions{
		DryRun: c.flags&C.XS_GC_DRY_RUN != 0,
		Grace:  time.Duration(c.grace_ms) * time.Millisecond,
	}
}

func (o *GCOptions) toC(op string) (C.xs_gc_options, error) {
	var c C.xs_gc_options
	if rc := C.xs_gc_options_init(&c, C.XS_GC_OPTIONS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: op, Message: "xs_gc_options_init failed"}
	}
	if o == nil {
		return c, nil
	}
	if o.DryRun {
		c.flags |= C.XS_GC_DRY_RUN
	}
	switch {
	case o.NoGrace && o.Grace != 0:
		return c, argError(op, "GCOptions: NoGrace with a non-zero Grace")
	case o.NoGrace:
		c.grace_ms = 0
	case o.Grace < 0:
		c.grace_ms = C.int64_t(o.Grace.Milliseconds())
		if c.grace_ms == 0 { // a negative grace stays negative (refused by the library)
			c.grace_ms = -1
		}
	case o.Grace > 0:
		// Rounded up: a positive grace under a millisecond must not become "none".
		c.grace_ms = C.int64_t((o.Grace + time.Millisecond - 1) / time.Millisecond)
	} // Grace 0: the default xs_gc_options_init set
	if !o.Now.IsZero() {
		c.now_ms = C.int64_t(o.Now.UnixMilli())
	}
	return c, nil
}

// ReadFlags are the XS_READ_* flags of the entry readers.
type ReadFlags uint32

// Read flags.
const (
	// ReadAsStored returns entries as stored, blob references in place.
	ReadAsStored ReadFlags = 0
	// ReadResolveBlobs replaces blob references with the blobs' content, as contexts show them.
	ReadResolveBlobs ReadFlags = C.XS_READ_RESOLVE_BLOBS
)

// BlobListFlags are the XS_BLOB_LIST_* flags of Store.BlobList.
type BlobListFlags uint32

// Blob list flags.
const (
	// BlobListVerify reads and hashes every blob; each carries "problem".
	BlobListVerify BlobListFlags = C.XS_BLOB_LIST_VERIFY
)

// RepairFlags are the XS_REPAIR_* flags of Session.Repair.
type RepairFlags uint32

// Repair flags.
const (
	// RepairKeepLines keeps every line; a torn last line gets its newline.
	RepairKeepLines RepairFlags = 0
	// RepairQuarantine moves the lines whose bytes are not JSON (garbage, invalid UTF-8, NUL
	// bytes, a torn last line) to a quarantine file beside the session, then rewrites it without
	// them. Lines that are JSON stay, and verify reports them.
	RepairQuarantine RepairFlags = C.XS_REPAIR_QUARANTINE
)
