// Compaction planning (docs/compaction-planning.md): when to compact, when to run the memory flush
// that comes before a compaction, and where to cut; Session.appendCompaction then writes the entry.
internal import CXSession

/// The thresholds of the decisions and the plan (xs_compaction_settings). A field left nil keeps
/// the library's default (`xs_compaction_settings_init`). Token counts are Int64; a negative one
/// is `.invalidArgument`.
public struct CompactionSettings: Sendable, Hashable {
    /// The model's context window in tokens; the decisions need it (> 0), the plan does not read
    /// it. nil = 0.
    public var contextWindow: Int64?
    /// Room kept for the prompt and the next reply; nil = 16384.
    public var reserveTokens: Int64?
    /// The floor under reserveTokens; nil = 20000; 0 = none.
    public var reserveFloor: Int64?
    /// What a compaction keeps of the newest entries; nil = 20000.
    public var keepRecentTokens: Int64?
    /// How far below the compaction threshold the memory flush runs; nil = 4000.
    public var softThresholdTokens: Int64?
    /// The struct version sent to the library: always the header's, except where the binding's
    /// own tests check that the library refuses another (`@testable`).
    var structVersion = UInt32(XS_COMPACTION_SETTINGS_VERSION)

    public init(contextWindow: Int64? = nil, reserveTokens: Int64? = nil, reserveFloor: Int64? = nil,
                keepRecentTokens: Int64? = nil, softThresholdTokens: Int64? = nil) {
        self.contextWindow = contextWindow
        self.reserveTokens = reserveTokens
        self.reserveFloor = reserveFloor
        self.keepRecentTokens = keepRecentTokens
        self.softThresholdTokens = softThresholdTokens
    }

    func cStruct() throws -> xs_compaction_settings {
        var s = xs_compaction_settings()
        try initialised(xs_compaction_settings_init(&s, UInt32(XS_COMPACTION_SETTINGS_VERSION)))
        s.version = structVersion
        if let contextWindow { s.context_window = contextWindow }
        if let reserveTokens { s.reserve_tokens = reserveTokens }
        if let reserveFloor { s.reserve_floor = reserveFloor }
        if let keepRecentTokens { s.keep_recent_tokens = keepRecentTokens }
        if let softThresholdTokens { s.soft_threshold_tokens = softThresholdTokens }
        return s
    }

    /// Whether a context of `contextTokens` should be compacted now:
    /// contextTokens > contextWindow - max(reserveTokens, reserveFloor). `.invalidArgument` when
    /// contextWindow is not > 0 or a value is negative.
    public func shouldCompact(contextTokens: Int64) throws -> Bool {
        var s = try cStruct()
        var out: Int32 = 0
        try decided(xs_should_compact(&s, contextTokens, &out))
        return out != 0
    }

    /// Whether the memory flush should run now: past the compaction threshold minus
    /// softThresholdTokens, and not yet in this compaction cycle (`lastFlushCompactionCount`, the
    /// compaction count when it last ran, nil = never, differs from `compactionCount`). Hosts that
    /// keep the counts in the keyed store use `Keys.claimMemoryFlush` instead.
    public func shouldFlushMemory(contextTokens: Int64, compactionCount: Int64,
                                  lastFlushCompactionCount: Int64?) throws -> Bool {
        var s = try cStruct()
        var out: Int32 = 0
        try decided(xs_should_flush_memory(&s, contextTokens, compactionCount, lastFlushCompactionCount ?? -1, &out))
        return out != 0
    }

    /// The decisions have no handle, hence no error text: the status's own.
    private func decided(_ rc: xs_status) throws {
        if rc != XS_OK { throw XSessionError(status: rc) }
    }
}

extension Session {
    /// Where a compaction at `leaf` (nil: the session's leaf) should cut. `.notFound` for an
    /// unknown entry.
    public func compactionPlan(leaf: String? = nil, settings: CompactionSettings = CompactionSettings()) throws
        -> CompactionPlan {
        try compactionPlanJSON(leaf: leaf, settings: settings).decode()
    }

    /// Session.compactionPlan as the library's JSON text: {"needed","firstKeptEntryId",
    /// "toSummarise","tokensBefore","keptTokens"}.
    public func compactionPlanJSON(leaf: String? = nil, settings: CompactionSettings = CompactionSettings()) throws
        -> JSONText {
        var s = try settings.cStruct()
        return try read(leaf) { xs_compaction_plan($0, $1, &s, $2, $3, $4) }
    }
}

extension Keys {
    /// The memory flush decision for the record of `key`, made and marked under the document's
    /// lock: true when `settings.shouldFlushMemory` holds for the record's compactionCount and
    /// memoryFlushCompactionCount; the record then gets memoryFlushAt = `nowMs` (nil: now) and
    /// memoryFlushCompactionCount = compactionCount, so no other process runs the flush again in
    /// this cycle. False leaves the document untouched. `.notFound` when there is no record.
    public func claimMemoryFlush(_ key: String, settings: CompactionSettings, contextTokens: Int64,
                                 nowMs: Int64? = nil) throws -> Bool {
        try CArgs.with { a in
            let k = try a.cString(key)
            var s = try settings.cStruct()
            var run: Int32 = 0
            try handle.call { xs_keys_claim_memory_flush($0, k, &s, contextTokens, nowMs ?? 0, &run) }
            return run != 0
        }
    }
}
