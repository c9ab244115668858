// The session index's typed results (SessionIndex.rebuild/refresh, verify, list, info, search).
// Members are the library's (Swift spelling: sessionID for "sessionId"), so encoding one gives
// back its JSON (capi/schema/index-*.schema.json, search-hits.schema.json).
import Foundation

/// What kind of text an entry holds, as the index files it (docs/search.md#what-is-indexed). An
/// enum, so a role the library does not know cannot be passed at all (C's XS_EINVAL for it has no
/// Swift counterpart).
public enum SearchRole: String, Codable, Sendable, Hashable, CaseIterable {
    /// A user message's text (and custom messages that reach the model as user messages).
    case user
    /// An assistant message's text and tool calls.
    case assistant
    /// A tool result, a bash or python execution, an assistant message of tool calls only.
    case tool
    /// Compaction and branch summaries.
    case summary
    /// A label.
    case label
}

/// What SessionIndex.rebuild or refresh did, session files counted by what became of them.
public struct IndexReport: Codable, Sendable, Hashable {
    /// Session files found (live, and archives whose live original is gone).
    public var files: Int64
    /// Files whose size, mtime, device and inode were as indexed: not read.
    public var unchanged: Int64
    /// Files grown in place: only the lines after the last indexed byte read.
    public var appended: Int64
    /// Files changed otherwise (rewritten, shrunk, replaced): read whole again.
    public var reindexed: Int64
    /// Files that had no row before.
    public var added: Int64
    /// Rows whose file is gone, removed.
    public var removed: Int64
    /// Files that could not be read as a session: not indexed.
    public var unreadable: Int64
    /// Files another refresh changed meanwhile: left for the next one.
    public var raced: Int64
    /// Entry rows written.
    public var entries: Int64
}

/// Every difference between the index and the files (SessionIndex.verify).
public struct IndexVerifyReport: Codable, Sendable, Hashable {
    /// The index and the files agree (the three lists are empty).
    public var ok: Bool
    /// Session files found.
    public var files: Int64
    /// Rows in the index's sessions table.
    public var indexed: Int64
    /// Files without a row (unreadable ones included).
    public var missing: [String]
    /// Rows without a file.
    public var extra: [String]
    /// Rows whose file's size, mtime, device or inode changed since it was indexed.
    public var stale: [String]
}

/// A session as the index knows it (SessionIndex.list). Times are ms since the epoch.
public struct IndexedSession: Codable, Sendable, Hashable {
    /// The agent an imported session came from.
    public enum SourceAgent: String, Codable, Sendable, Hashable, CaseIterable {
        case claude
        case myagents
        case codex
    }

    /// The session file.
    public var path: String
    /// The session's id (its header's).
    public var id: String
    /// The working directory in its header.
    public var cwd: String
    /// The header's title, else pi's last session_info name; nil for none.
    @Nullable public var title: String?
    /// The first user text not injected by an agent, cut for a listing; nil for none.
    @Nullable public var firstPrompt: String?
    /// The header's timestamp; nil when not a date.
    @Nullable public var created: Int64?
    /// The newest entry's timestamp; nil when none is a date.
    @Nullable public var updated: Int64?
    /// The file's modification time when it was indexed.
    public var modified: Int64
    /// The file's size in bytes when it was indexed.
    public var size: Int64
    public var entries: Int64
    /// Message entries.
    public var messages: Int64
    /// Input tokens of every assistant message's usage (all branches).
    public var inputTokens: Int64
    public var outputTokens: Int64
    /// Cost of every assistant message's usage (all branches).
    public var cost: Double
    /// The dialect the file is written in; nil when the index has none for it.
    @Nullable public var dialect: Dialect?
    /// nil for a native session.
    @Nullable public var sourceAgent: SourceAgent?
    @Nullable public var parentSession: String?
    /// The file is an archive (its live original is gone).
    public var archived: Bool
    /// The last entry's id (the current leaf); nil for a session without entries.
    @Nullable public var leafID: String?

    /// created, updated and modified as Dates.
    public var createdDate: Date? { created.map(epochDate(ms:)) }
    public var updatedDate: Date? { updated.map(epochDate(ms:)) }
    public var modifiedDate: Date { epochDate(ms: modified) }

    private enum CodingKeys: String, CodingKey {
        case path, id, cwd, title, firstPrompt, created, updated, modified, size, entries, messages
        case inputTokens, outputTokens, cost, dialect, sourceAgent, parentSession, archived
        case leafID = "leafId"
    }
}

/// Facts about a session index (SessionIndex.info).
public struct IndexInfo: Codable, Sendable, Hashable {
    /// A file the open found damaged and kept aside before it started a fresh one (the same note
    /// as the history's).
    public typealias Damaged = HistoryInfo.Damaged

    /// The database file.
    public var path: String
    /// PRAGMA user_version of the file.
    public var schemaVersion: Int
    /// Session rows.
    public var sessions: Int64
    /// Entry rows.
    public var entries: Int64
    @Nullable public var damaged: Damaged?
}

/// One matching entry of SessionIndex.search.
public struct SearchHit: Codable, Sendable, Hashable {
    /// What surrounds each match in `snippet`: U+0002 before it, U+0003 after it.
    public static let matchStart: Character = "\u{2}"
    public static let matchEnd: Character = "\u{3}"

    public var sessionID: String
    /// nil for a session without a title.
    @Nullable public var sessionTitle: String?
    /// The session file.
    public var sessionPath: String
    /// The working directory in the session's header.
    public var cwd: String
    public var entryID: String
    /// What kind of text matched.
    @Nullable public var role: SearchRole?
    /// Whether the entry is on the session's current branch.
    public var onPath: Bool
    /// The entry's timestamp in ms since the epoch; nil when not a date.
    @Nullable public var timestamp: Int64?
    /// bm25 of the match: lower (more negative) is better.
    public var score: Double
    /// Up to 16 tokens around the best match, each match between matchStart and matchEnd; cut
    /// parts are shown as "…".
    public var snippet: String

    /// timestamp as a Date.
    public var date: Date? { timestamp.map(epochDate(ms:)) }

    private enum CodingKeys: String, CodingKey {
        case sessionID = "sessionId"
        case sessionTitle, sessionPath, cwd
        case entryID = "entryId"
        case role, onPath, timestamp, score, snippet
    }
}

/// A time in ms since the epoch as a Date.
private func epochDate(ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
