package xsession

/*
#include <stdlib.h>
#include <xsession.h>
*/
import "C"

import (
	"time"
	"unsafe"
)

// Reset policies (docs/reset-policies.md): when the current session of a key of the keyed store
// has expired, so that SessionForKey starts a new one.

// ResetPolicy says when a key's session expires: a daily reset at DailyHour of TimeZone's local
// time (the session expires once the wall clock passed that hour since its last activity), an
// idle expiry after IdleMinutes without activity, or both (whichever comes first). The zero
// value never expires.
type ResetPolicy struct {
	Daily       bool   // reset daily at DailyHour; false = no daily reset (DailyHour is ignored)
	DailyHour   int    // with Daily: the hour, 0-23
	IdleMinutes int64  // > 0: expire after this many minutes without activity; 0 = never
	TimeZone    string // of the daily hour: an IANA name, "UTC" or an offset ("+08:00"); "" = the host's
}

// policy is a C copy of p (nil stays NULL), in C memory: it is pointed at from option structs,
// which may point only at C memory. It is freed with a.
func (a *cargs) policy(p *ResetPolicy) *C.xs_reset_policy {
	if p == nil {
		return nil
	}
	c := (*C.xs_reset_policy)(C.calloc(1, C.size_t(unsafe.Sizeof(C.xs_reset_policy{}))))
	if c == nil {
		panic("xsession: out of memory")
	}
	a.ptrs = append(a.ptrs, unsafe.Pointer(c))
	C.xs_reset_policy_init(c, C.XS_RESET_POLICY_VERSION)
	if p.Daily {
		c.daily_hour = C.int32_t(p.DailyHour)
		if int(c.daily_hour) != p.DailyHour { // out of int32: let the library refuse it
			c.daily_hour = 24
		}
	}
	c.idle_minutes = C.int64_t(p.IdleMinutes)
	c.time_zone = a.opt("TimeZone", p.TimeZone)
	return c
}

// ResetFlags are the XS_RESET_* flags of SessionForKey.
type ResetFlags uint32

// Reset flags.
const (
	// ResetForce starts a new session whatever the policy says (a manual /new).
	ResetForce ResetFlags = C.XS_RESET_FORCE
)

// ResetReason is why SessionForKey returned the session it did.
type ResetReason uint32

// Reset reasons.
const (
	ResetContinued ResetReason = C.XS_RESET_CONTINUED // the record's session, not expired
	ResetNew       ResetReason = C.XS_RESET_NEW       // the key had no record: a new session
	ResetDaily     ResetReason = C.XS_RESET_DAILY     // expired by the daily reset: a new session
	ResetIdle      ResetReason = C.XS_RESET_IDLE      // expired by the idle expiry: a new session
	ResetForced    ResetReason = C.XS_RESET_FORCED    // ResetForce: a new session
)

// String is the library's name of the reason (xs_reset_reason_str): "continued", "new",
// "daily", "idle", "forced"; "unknown" for any other value.
func (r ResetReason) String() string {
	return C.GoString(C.xs_reset_reason_str(C.uint32_t(r)))
}

// SessionForKey is the current session of key, opened for writing, at the time of a message,
// and why it is that one (xs_store_session_for_key): the session the key's record names, or a
// new one when the key has no record, when policy says the record's session expired, or with
// ResetForce. It is decided and recorded under the keyed document's lock, so two processes asking
// at once get the same session. A new session starts in the directory of opts.Cwd (else the
// record's "cwd"), its header's parentSession names the old one, and the record gets the new
// sessionId, sessionFile, createdAt and updatedAt, the old id appended to "previousSessionIds"
// and its token counters zeroed; other fields stay. A continued one's updatedAt becomes now.
//
// now is the message's time (the zero Time = the system clock); policy nil = the store's
// (StoreOptions.ResetPolicy); opts applies to a new session (SessionID, Title; ParentSession
// only for a key without a record); the session is bound to key (opts.Key: "" or key itself).
// SessionReadOnly, another opts.Key, a bad key or policy are ErrInvalid; ErrExists when the new session would get
// the key's current id; ErrLocked when another writer holds the record's session (the record is
// left as it was).
func (st *Store) SessionForKey(key string, now time.Time, policy *ResetPolicy, flags ResetFlags,
	opts *SessionOptions) (*Session, ResetReason, error) {
	a := newArgs("Store.SessionForKey")
	defer a.free()
	ck, cp := a.str("key", key), a.policy(policy)
	var reason C.uint32_t
	s, err := openSession(&st.h, a, opts, func(p *C.xs_store, o *C.xs_session_options, out **C.xs_session) C.xs_status {
		return C.xs_store_session_for_key(p, ck, nowMs(now), cp, C.uint32_t(flags), o, out, &reason)
	})
	if err != nil {
		return nil, 0, err
	}
	return s, ResetReason(reason), nil
}

// nowMs is a "now" argument: ms since the epoch, 0 (the library's clock) for the zero Time.
func nowMs(now time.Time) C.int64_t {
	if now.IsZero() {
		return 0
	}
	return C.int64_t(now.UnixMilli())
}
