// The prompt history's typed results (History.recent, search, info). Members are the library's,
// so encoding one gives back its JSON (capi/schema/history-*.schema.json).
import Foundation

/// One prompt of History.recent.
public struct HistoryItem: Codable, Sendable, Hashable {
    /// The row id: increasing in the order prompts were written.
    public var id: Int64
    /// The prompt as added, exactly.
    public var prompt: String
    /// When it was typed, ms since the epoch.
    public var createdAt: Int64
    /// The working directory it was typed in; nil for none.
    @Nullable public var cwd: String?

    /// createdAt as a Date.
    public var created: Date { Date(timeIntervalSince1970: Double(createdAt) / 1000) }
}

/// One match of History.search.
public struct HistoryHit: Codable, Sendable, Hashable {
    /// What surrounds each match in `snippet`: U+0002 before it, U+0003 after it.
    public static let matchStart: Character = "\u{2}"
    public static let matchEnd: Character = "\u{3}"

    public var id: Int64
    public var prompt: String
    /// ms since the epoch.
    public var createdAt: Int64
    @Nullable public var cwd: String?
    /// bm25 of the match: lower (more negative) is better.
    public var score: Double
    /// Part of the prompt around the matches, each between matchStart and matchEnd; cut parts are
    /// shown as "…".
    public var snippet: String

    public var created: Date { Date(timeIntervalSince1970: Double(createdAt) / 1000) }
}

/// Facts about a prompt history (History.info).
public struct HistoryInfo: Codable, Sendable, Hashable {
    /// The database's `synchronous` setting: `.normal`, or `.full` with HistoryOptions.sync.
    public struct Synchronous: RawRepresentable, Codable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let normal = Synchronous(rawValue: "normal")
        public static let full = Synchronous(rawValue: "full")
    }

    /// A file the open found damaged and kept aside before it started a fresh one.
    public struct Damaged: Codable, Sendable, Hashable {
        /// Where it is now: "<path>.damaged-<UTC time>".
        public var path: String
        public var reason: String
    }

    /// The database file.
    public var path: String
    /// PRAGMA user_version of the file.
    public var schemaVersion: Int
    /// The committed prompts in the file.
    public var count: Int64
    /// This handle's prompts queued and not yet written.
    public var pending: Int64
    public var synchronous: Synchronous
    @Nullable public var damaged: Damaged?
}
