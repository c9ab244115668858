// Session stats (docs/session-stats.md): counters every append keeps current, written into a
// bound key's record; and resume analysis (docs/context.md#resume-analysis): what an agent must
// know before it continues a session.
internal import CXSession

/// A session's counters (xs_session_stats), over the whole file (every branch). Token and cost
/// sums are added up as doubles, as Usage's are, hence Double.
public struct SessionStats: Sendable, Hashable, Decodable {
    public let inputTokens: Double
    public let outputTokens: Double
    public let cacheRead: Double
    public let cacheWrite: Double
    /// The four-way sum of the above.
    public let totalTokens: Double
    /// The last reply on the current path (docs/session-stats.md#context-tokens); 0 after a
    /// compaction.
    public let contextTokens: Double
    public let cost: Double
    public let compactionCount: Int
    /// Message entries by role ("custom" for custom messages). The library's order (first
    /// occurrence) is kept in Session.statsJSON().
    public let messageCounts: [String: Int]
    /// "toolCall" blocks of assistant messages.
    public let toolCalls: Int
}

/// What Session.resumeCheck reports.
public struct ResumeCheck: Sendable, Hashable, Decodable {
    /// An entry whose parentId names no entry: it reads as a root.
    public struct Orphan: Sendable, Hashable, Decodable {
        public let id: String
        public let parentID: String
        /// 1-based line of the session file.
        public let line: Int

        private enum CodingKeys: String, CodingKey {
            case id
            case parentID = "parentId"
            case line
        }
    }

    /// A toolCall block on the path that no toolResult on the path answers.
    public struct PendingToolCall: Sendable, Hashable, Decodable {
        /// The assistant message holding the call.
        public let entryID: String
        public let toolCallID: String
        public let name: String

        private enum CodingKeys: String, CodingKey {
            case entryID = "entryId"
            case toolCallID = "toolCallId"
            case name
        }
    }

    /// The entry the check continues from; nil when the leaf is none.
    public let leafID: String?
    /// In file order.
    public let orphans: [Orphan]
    /// In path order.
    public let pendingToolCalls: [PendingToolCall]

    private enum CodingKeys: String, CodingKey {
        case leafID = "leafId"
        case orphans, pendingToolCalls
    }
}

extension Session {
    /// The session's counters, kept current by every append. A session bound to a key
    /// (`SessionOptions.key`, `Store.sessionForKey`) writes them into the key's record after each
    /// assistant message, on flush() and on close; a failed record write shows at the next flush().
    public func stats() throws -> SessionStats { try statsJSON().decode() }

    /// Session.stats as the library's JSON text: {"inputTokens","outputTokens","cacheRead",
    /// "cacheWrite","totalTokens","contextTokens","cost","compactionCount","messageCounts",
    /// "toolCalls"}.
    public func statsJSON() throws -> JSONText {
        try read { xs_session_stats($0, $1, $2, $3) }
    }

    /// What an agent must know before it continues from `leaf` (nil: the session's leaf): the
    /// orphans of the file and the tool calls on the path still waiting for a result. Reads only
    /// what is loaded. `.notFound` for an unknown entry.
    public func resumeCheck(leaf: String? = nil) throws -> ResumeCheck {
        try resumeCheckJSON(leaf: leaf).decode()
    }

    /// Session.resumeCheck as the library's JSON text: {"leafId","orphans":[{"id","parentId",
    /// "line"}],"pendingToolCalls":[{"entryId","toolCallId","name"}]}.
    public func resumeCheckJSON(leaf: String? = nil) throws -> JSONText {
        try read(leaf) { xs_session_resume_check($0, $1, $2, $3, $4) }
    }
}

extension Keys {
    /// Recounts the session of each record whose key starts with `prefix` (nil or "": all) and
    /// rewrites, under the document's lock, only the stat fields that differ. The report:
    /// {"checked":N,"fixed":[{"key","sessionId","before":{field: old or null},"after":{field: new}}],
    /// "skipped":[{"key","reason"}]}; a record whose session cannot be found or read is skipped,
    /// not an error.
    public func fixStats(prefix: String? = nil) throws -> JSONText {
        try CArgs.with { a in
            let p = try a.cString(prefix)
            return JSONText(try handle.readString { xs_keys_fix_stats($0, p, $1, $2, $3) })
        }
    }
}
