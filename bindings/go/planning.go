package xsession

/*
#include <xsession.h>
*/
import "C"

import (
	"strings"
	"time"
)

// Compaction planning (docs/compaction-planning.md): when to compact, when to run the memory
// flush that comes before a compaction, and where to cut; AppendCompaction then writes the entry.

// CompactionSettings are the token budgets of the planning calls. Start from
// DefaultCompactionSettings and set ContextWindow: unlike most option structs, the zero value is
// not the default. A negative value is ErrInvalid.
type CompactionSettings struct {
	ContextWindow       int64 // the model's context window in tokens; > 0 for the decisions (the plan does not read it)
	ReserveTokens       int64 // room kept for the prompt and the next reply
	ReserveFloor        int64 // the floor under ReserveTokens; 0 = none
	KeepRecentTokens    int64 // what a compaction keeps of the newest entries
	SoftThresholdTokens int64 // how far below the compaction threshold the memory flush runs

	version uint32 // the C struct's version; 0 = the header's (tests set others)
}

// DefaultCompactionSettings are the library's defaults (xs_compaction_settings_init): no context
// window, 16384 reserved tokens over a floor of 20000, 20000 recent tokens kept, and the memory
// flush 4000 tokens before the compaction threshold.
func DefaultCompactionSettings() CompactionSettings {
	var c C.xs_compaction_settings
	C.xs_compaction_settings_init(&c, C.XS_COMPACTION_SETTINGS_VERSION)
	return CompactionSettings{
		ContextWindow:       int64(c.context_window),
		ReserveTokens:       int64(c.reserve_tokens),
		ReserveFloor:        int64(c.reserve_floor),
		KeepRecentTokens:    int64(c.keep_recent_tokens),
		SoftThresholdTokens: int64(c.soft_threshold_tokens),
	}
}

func (o *CompactionSettings) toC(op string) (C.xs_compaction_settings, error) {
	var c C.xs_compaction_settings
	if rc := C.xs_compaction_settings_init(&c, C.XS_COMPACTION_SETTINGS_VERSION); rc != C.XS_OK {
		return c, &Error{Code: Code(rc), Op: op, Message: "xs_compaction_settings_init failed"}
	}
	if o.version != 0 {
		c.version = C.uint32_t(o.version)
	}
	c.context_window = C.int64_t(o.ContextWindow)
	c.reserve_tokens = C.int64_t(o.ReserveTokens)
	c.reserve_floor = C.int64_t(o.ReserveFloor)
	c.keep_recent_tokens = C.int64_t(o.KeepRecentTokens)
	c.soft_threshold_tokens = C.int64_t(o.SoftThresholdTokens)
	return c, nil
}

// decision is the answer of a handle-less decision call (cfunc), which keeps no error text: the
// message is the status's.
func decision(op, cfunc string, rc C.xs_status, out C.int) (bool, error) {
	if rc != C.XS_OK {
		code := Code(rc)
		text := strings.TrimPrefix(StatusString(code), code.String()+": ")
		return false, &Error{Code: code, Op: op, Message: text + " (" + cfunc + " keeps no error text)"}
	}
	return out != 0, nil
}

// ShouldCompact says a context of contextTokens should be compacted now: contextTokens >
// ContextWindow - max(ReserveTokens, ReserveFloor) (xs_should_compact). A ContextWindow <= 0
// or a negative value is ErrInvalid. Safe from any goroutine.
func ShouldCompact(settings CompactionSettings, contextTokens int64) (bool, error) {
	const op = "ShouldCompact"
	c, err := settings.toC(op)
	if err != nil {
		return false, err
	}
	var out C.int
	rc := C.xs_should_compact(&c, C.int64_t(contextTokens), &out)
	return decision(op, "xs_should_compact", rc, out)
}

// ShouldFlushMemory says the memory flush should run now (xs_should_flush_memory): past the
// compaction threshold minus SoftThresholdTokens, and not yet in this compaction cycle
// (lastFlushCompactionCount, the compaction count when it last ran, or -1 for never, differs
// from compactionCount). Hosts that keep the counts in the keyed store use
// Store.KeyClaimMemoryFlush instead. Safe from any goroutine.
func ShouldFlushMemory(settings CompactionSettings, contextTokens, compactionCount, lastFlushCompactionCount int64) (bool, error) {
	const op = "ShouldFlushMemory"
	c, err := settings.toC(op)
	if err != nil {
		return false, err
	}
	var out C.int
	rc := C.xs_should_flush_memory(&c, C.int64_t(contextTokens), C.int64_t(compactionCount),
		C.int64_t(lastFlushCompactionCount), &out)
	return decision(op, "xs_should_flush_memory", rc, out)
}

// CompactionPlan is where a compaction at leafID ("" = the current leaf) should cut, keeping at
// least KeepRecentTokens of the newest path entries and never a tool result without its call
// (xs_compaction_plan). ErrNotFound for an unknown leafID.
func (s *Session) CompactionPlan(leafID string, settings CompactionSettings) (*CompactionPlanResult, error) {
	a := newArgs("Session.CompactionPlan")
	defer a.free()
	cl := a.opt("leafID", leafID)
	if a.err != nil {
		return nil, a.err
	}
	c, err := settings.toC(a.op)
	if err != nil {
		return nil, err
	}
	raw, err := s.h.read(a.op, func(p *C.xs_session, b *C.char, n C.size_t, out *C.size_t) C.xs_status {
		return C.xs_compaction_plan(p, cl, &c, b, n, out)
	})
	return decodeObject[CompactionPlanResult](a.op, raw, err)
}

// KeyClaimMemoryFlush decides and marks the memory flush for the record of key, under the keyed
// document's lock (xs_keys_claim_memory_flush): true when ShouldFlushMemory holds for the
// record's compactionCount (absent = 0) and memoryFlushCompactionCount (absent or null = never);
// the record then gets memoryFlushAt = now (the zero Time = the system clock) and
// memoryFlushCompactionCount = compactionCount, so no other process or call runs the flush again
// in this cycle. false leaves the document untouched. ErrNotFound when key has no record.
func (st *Store) KeyClaimMemoryFlush(key string, settings CompactionSettings, contextTokens int64, now time.Time) (bool, error) {
	a := newArgs("Store.KeyClaimMemoryFlush")
	defer a.free()
	ck := a.str("key", key)
	if a.err != nil {
		return false, a.err
	}
	c, err := settings.toC(a.op)
	if err != nil {
		return false, err
	}
	var run C.int
	err = st.h.do(a.op, func(p *C.xs_store) C.xs_status {
		return C.xs_keys_claim_memory_flush(p, ck, &c, C.int64_t(contextTokens), nowMs(now), &run)
	})
	return err == nil && run != 0, err
}
