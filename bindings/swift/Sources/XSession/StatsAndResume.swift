// Session stats (docs/session-stats.md): counters every append keeps current, written into a
// bound key's record; and resume analysis (docs/context.md#resume-analysis): what an agent must
// know before it continues a session.
internal import CXSession

extension ResumeCheck {
    public typealias Orphan = ResumeOrphan
    public typealias PendingToolCall = XSession.PendingToolCall
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
    public func fixStatsJSON(prefix: String? = nil) throws -> JSONText {
        try CArgs.with { a in
            let p = try a.cString(prefix)
            return JSONText(try handle.readString { xs_keys_fix_stats($0, p, $1, $2, $3) })
        }
    }

    /// Keys.fixStatsJSON, typed.
    @discardableResult
    public func fixStats(prefix: String? = nil) throws -> FixStatsReport { try fixStatsJSON(prefix: prefix).decode() }
}
