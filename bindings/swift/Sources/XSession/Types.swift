// Typed views of the small, fixed-shape results. Everything open-ended (entries, contexts,
// trees) stays JSONText: its shape follows the agent's messages, not this binding.

/// What Session.info reports (xs_session_info).
public struct SessionInfo: Sendable, Hashable, Decodable {
    public let id: String
    /// The session file (it may not exist yet while the session is deferred).
    public let path: String
    public let cwd: String
    /// The header's ISO-8601 timestamp.
    public let timestamp: String
    /// The header's title, or in the pi dialect the name of the last session_info entry.
    public let title: String?
    public let parentSession: String?
    /// The format version (3 once loaded: older files are migrated in memory).
    public let version: Int
    /// The dialect the session writes.
    public let dialect: Dialect
    public let entryCount: Int
    public let leafID: String?
    /// Whether the file has been written (false while deferred).
    public let persisted: Bool
    public let readOnly: Bool
    /// Opened from an archive ("<file>.jsonl.gz", docs/retention.md): always read-only.
    public let archived: Bool
    /// How many diagnostics the loader reported (see Session.diagnostics).
    public let diagnostics: Int
    /// Entry counts by type ("unknown" for types the engine does not know). The library's
    /// order is kept in Session.infoJSON().
    public let entryTypes: [String: Int]

    private enum CodingKeys: String, CodingKey {
        case id, path, cwd, timestamp, title, parentSession, version, dialect, entryCount
        case leafID = "leafId"
        case persisted, readOnly, archived, diagnostics, entryTypes
    }
}

/// Token and cost totals over every assistant message (xs_session_usage). The sums are
/// added up as doubles and written as JavaScript writes numbers (they may be fractional),
/// hence Double.
public struct Usage: Sendable, Hashable, Decodable {
    public let input: Double
    public let output: Double
    public let cacheRead: Double
    public let cacheWrite: Double
    public let premiumRequests: Double
    public let cost: Double
    public let assistantMessages: Int
}
