// Typed results: a Codable, Sendable struct for every fixed-shape JSON output of the C API
// (xsession.h documents each). Member names are the library's (Swift spelling: leafID for
// "leafId"); a member the library writes as null is @Nullable, one it may leave out is Optional
// (or @Tristate when it may also be null), so encoding a result gives back the library's JSON.
// Entries, messages and contexts are in Entries.swift; the keyed store's records in Keys.swift.

/// A live label (Session.labels): the last label set on `targetID`.
public struct Label: Codable, Sendable, Hashable {
    public var targetID: String
    public var label: String
    public var timestamp: String

    private enum CodingKeys: String, CodingKey {
        case targetID = "targetId"
        case label
        case timestamp
    }
}

/// What the loader skipped or noticed on a line (Session.diagnostics), or what repair did.
public struct Diagnostic: Codable, Sendable, Hashable {
    public var line: Int64
    public var offset: Int64
    public var length: Int64
    public var code: String
    public var reason: String
}

/// Facts about a session (Session.info; xs_session_info).
public struct SessionInfo: Codable, Sendable, Hashable {
    public var id: String
    public var path: String
    public var cwd: String
    public var timestamp: String
    @Nullable public var title: String?
    @Nullable public var parentSession: String?
    public var version: JSONValue
    public var dialect: Dialect
    public var entryCount: Int
    @Nullable public var leafID: String?
    public var persisted: Bool
    public var readOnly: Bool
    public var archived: Bool
    public var diagnostics: Int
    public var entryTypes: [String: Int]

    private enum CodingKeys: String, CodingKey {
        case id
        case path
        case cwd
        case timestamp
        case title
        case parentSession
        case version
        case dialect
        case entryCount
        case leafID = "leafId"
        case persisted
        case readOnly
        case archived
        case diagnostics
        case entryTypes
    }
}

/// Token and cost totals over every assistant message (Session.usage). Sums are doubles (they may be fractional).
public struct Usage: Codable, Sendable, Hashable {
    public var input: Double
    public var output: Double
    public var cacheRead: Double
    public var cacheWrite: Double
    public var premiumRequests: Double
    public var cost: Double
    public var assistantMessages: Int
}

/// A session's counters over the whole file (Session.stats; docs/session-stats.md).
public struct SessionStats: Codable, Sendable, Hashable {
    public var inputTokens: Double
    public var outputTokens: Double
    public var cacheRead: Double
    public var cacheWrite: Double
    public var totalTokens: Double
    public var contextTokens: Double
    public var cost: Double
    public var compactionCount: Int
    public var messageCounts: [String: Int]
    public var toolCalls: Int

    private enum CodingKeys: String, CodingKey {
        case inputTokens
        case outputTokens
        case cacheRead
        case cacheWrite
        case totalTokens
        case contextTokens
        case cost
        case compactionCount
        case messageCounts
        case toolCalls
    }
}

/// One problem of VerifyReport; `fixable` says whether repair() fixes it.
public struct VerifyProblem: Codable, Sendable, Hashable {
    public var line: Int64
    public var offset: Int64
    public var length: Int64
    public var code: String
    public var reason: String
    public var fixable: Bool
}

/// Everything wrong with a session's file as loaded (Session.verify).
public struct VerifyReport: Codable, Sendable, Hashable {
    public var path: String
    public var id: String
    public var fileVersion: JSONValue
    public var needsMigration: Bool
    public var lines: Int64
    public var entries: Int64
    public var blobRefs: Int64
    public var problems: [VerifyProblem]
}

/// Where repair(quarantine: true) moved the lines that are not JSON.
public struct Quarantine: Codable, Sendable, Hashable {
    public var path: String
    public var lines: Int64
    public var bytes: Int64
}

/// What Session.repair did. `quarantine`: nil without quarantine, .some(nil) when nothing moved.
public struct RepairReport: Codable, Sendable, Hashable {
    public var path: String
    public var done: [Diagnostic]
    @Tristate public var quarantine: Quarantine??
}

/// An entry whose parentId names no entry: it reads as a root.
public struct ResumeOrphan: Codable, Sendable, Hashable {
    public var id: String
    public var parentID: String
    public var line: Int64

    private enum CodingKeys: String, CodingKey {
        case id
        case parentID = "parentId"
        case line
    }
}

/// A toolCall block on the path that no toolResult on the path answers.
public struct PendingToolCall: Codable, Sendable, Hashable {
    public var entryID: String
    public var toolCallID: String
    public var name: String

    private enum CodingKeys: String, CodingKey {
        case entryID = "entryId"
        case toolCallID = "toolCallId"
        case name
    }
}

/// What an agent must know before it continues a session (Session.resumeCheck).
public struct ResumeCheck: Codable, Sendable, Hashable {
    @Nullable public var leafID: String?
    public var orphans: [ResumeOrphan]
    public var pendingToolCalls: [PendingToolCall]

    private enum CodingKeys: String, CodingKey {
        case leafID = "leafId"
        case orphans
        case pendingToolCalls
    }
}

/// Where a compaction should cut (Session.compactionPlan; docs/compaction-planning.md).
public struct CompactionPlan: Codable, Sendable, Hashable {
    public var needed: Bool
    @Nullable public var firstKeptEntryID: String?
    public var toSummarise: [String]
    public var tokensBefore: Int64
    public var keptTokens: Int64

    private enum CodingKeys: String, CodingKey {
        case needed
        case firstKeptEntryID = "firstKeptEntryId"
        case toSummarise
        case tokensBefore
        case keptTokens
    }
}

/// One session of Store.list, newest first; the last three only with `full`.
public struct SessionListing: Codable, Sendable, Hashable {
    public var path: String
    public var id: String
    public var cwd: String
    public var timestamp: String
    public var modified: Int64
    public var size: Int64
    @Nullable public var title: String?
    @Nullable public var parentSession: String?
    public var version: JSONValue
    public var needsMigration: Bool
    public var corruptCopies: Int64
    public var archived: Bool
    @Nullable public var firstMessage: String?
    @Nullable public var firstPrompt: String?
    public var messageCount: Int64?
    public var entryCount: Int64?
    public var diagnostics: Int64?
}

/// A blob of Store.listBlobs; `problem` is nil unless listed with verify (then .some(nil) or why it is bad).
public struct BlobInfo: Codable, Sendable, Hashable {
    public var hash: String
    public var size: Int64
    public var mtimeMs: Int64
    @Tristate public var problem: String??
}

/// A file of the blob directory that is not a blob, or one the collector deleted or spared.
public struct FileInfo: Codable, Sendable, Hashable {
    public var name: String
    public var size: Int64
    public var mtimeMs: Int64
}

/// The blob directory (Store.listBlobs).
public struct BlobList: Codable, Sendable, Hashable {
    public var count: Int64
    public var bytes: Int64
    public var blobs: [BlobInfo]
    public var others: [FileInfo]
}

/// What Store.collectGarbage did (or would do, dry run).
public struct GCReport: Codable, Sendable, Hashable {
    public var dryRun: Bool
    public var filesScanned: Int64
    public var referenced: Int64
    public var bytesFreed: Int64
    public var deleted: [FileInfo]
    public var young: [FileInfo]
    public var missing: [String]
}

/// A session Store.archive compressed.
public struct ArchivedSession: Codable, Sendable, Hashable {
    public var path: String
    public var bytes: Int64
    public var gzBytes: Int64
}

/// A candidate Store.archive left alone, and why.
public struct ArchiveSkip: Codable, Sendable, Hashable {
    public var path: String
    public var reason: String
    public var detail: String
}

/// What Store.archive did (docs/retention.md).
public struct ArchiveReport: Codable, Sendable, Hashable {
    public var dryRun: Bool
    public var archived: [ArchivedSession]
    public var skipped: [ArchiveSkip]
}

/// An archive Store.prune deleted.
public struct PrunedArchive: Codable, Sendable, Hashable {
    public var path: String
    public var gzBytes: Int64
    public var archivedMs: Int64
}

/// What Store.prune did.
public struct PruneReport: Codable, Sendable, Hashable {
    public var dryRun: Bool
    public var pruned: [PrunedArchive]
}

/// A record Keys.fixStats rewrote: the stat fields before (null: absent) and after.
public struct StatsFix: Codable, Sendable, Hashable {
    public var key: String
    public var sessionID: String
    public var before: [String: JSONValue]
    public var after: [String: JSONValue]

    private enum CodingKeys: String, CodingKey {
        case key
        case sessionID = "sessionId"
        case before
        case after
    }
}

/// A record Keys.fixStats could not check.
public struct KeySkip: Codable, Sendable, Hashable {
    public var key: String
    public var reason: String
}

/// What Keys.fixStats checked and rewrote.
public struct FixStatsReport: Codable, Sendable, Hashable {
    public var checked: Int64
    public var fixed: [StatsFix]
    public var skipped: [KeySkip]
}
