// Appends. Each adds one entry whose parent is the current leaf, moves the leaf to it and
// returns the new entry's id. A failed append leaves the session as it was. In the pi dialect the
// omp-only entries (ttsr injection, session init, mode change, a model role, a compaction's short
// summary or preserve data, a custom message's attribution) throw `.dialect`.
internal import CXSession

extension Session {
    /// Appends a whole entry: a JSON object with a string "type" (unknown types are stored as
    /// given). The session adds "id" (unless given), "parentId" and "timestamp" (unless given).
    @discardableResult
    public func append(_ entry: JSONText) throws -> String {
        try appending { s, id in entry.withCText { xs_append(s, $0, $1, id) } }
    }

    /// Appends a "message" entry; `message` is the AgentMessage object (with a string "role").
    /// The first assistant message ends the deferral and writes the session.
    @discardableResult
    public func appendMessage(_ message: JSONText) throws -> String {
        try appending { s, id in message.withCText { xs_append_message(s, $0, $1, id) } }
    }

    /// Appends a typed message (encoded as Message encodes: role, content, the other members).
    @discardableResult
    public func appendMessage(_ message: Message) throws -> String {
        try appendMessage(try JSONValue(encoding: message).text)
    }

    /// Appends a "thinking_level_change"; nil stores null.
    @discardableResult
    public func appendThinkingLevel(_ level: String?) throws -> String {
        try appending(args: { a in try a.cString(level) }) { s, level, id in xs_append_thinking_level(s, level, id) }
    }

    /// Appends a "model_change" {model: "provider/id", role?}; nil role = absent ("default").
    @discardableResult
    public func appendModelChange(_ model: String, role: String? = nil) throws -> String {
        try appending(args: { a in (try a.cString(model), try a.cString(role)) }) { s, mr, id in
            xs_append_model_change(s, mr.0, mr.1, id)
        }
    }

    /// Appends a "compaction" entry.
    @discardableResult
    public func appendCompaction(_ compaction: Compaction) throws -> String {
        try appending(record: compaction.cStruct, xs_append_compaction)
    }

    /// Appends a "custom" entry (extension state; never part of the context); nil data = absent.
    @discardableResult
    public func appendCustom(_ customType: String, data: JSONText? = nil) throws -> String {
        try appending(args: { a in (try a.cString(customType), a.json(data)) }) { s, t, id in
            xs_append_custom(s, t.0, t.1.0, t.1.1, id)
        }
    }

    /// Appends a "custom_message" entry (extension-provided; part of the context).
    @discardableResult
    public func appendCustomMessage(_ message: CustomMessage) throws -> String {
        try appending(record: message.cStruct, xs_append_custom_message)
    }

    /// Appends a "label" entry for `targetID` (a child of the leaf that moves the leaf, like every
    /// other entry);
    /// nil clears the target's label. `.notFound` for an unknown target.
    @discardableResult
    public func appendLabel(_ label: String?, for targetID: String) throws -> String {
        try appending(args: { a in (try a.cString(targetID), try a.cString(label)) }) { s, tl, id in
            xs_append_label(s, tl.0, tl.1, id)
        }
    }

    /// Appends a "ttsr_injection"; `rules` is a JSON array of rule names.
    @discardableResult
    public func appendTTSRInjection(_ rules: JSONText) throws -> String {
        try appending { s, id in rules.withCText { xs_append_ttsr_injection(s, $0, $1, id) } }
    }

    /// Appends a "session_init" entry.
    @discardableResult
    public func appendSessionInit(_ initial: SessionInitEntry) throws -> String {
        try appending(record: initial.cStruct, xs_append_session_init)
    }

    /// Appends a "mode_change" {mode, data?}; nil data = absent.
    @discardableResult
    public func appendModeChange(_ mode: String, data: JSONText? = nil) throws -> String {
        try appending(args: { a in (try a.cString(mode), a.json(data)) }) { s, md, id in
            xs_append_mode_change(s, md.0, md.1.0, md.1.1, id)
        }
    }

    /// pi dialect: appends pi's title entry, a "session_info" {name} (trimmed as JavaScript's
    /// trim() does; "" clears the title); the title is the last one's name. `.dialect` in the
    /// omp dialect, which keeps the title in the header (setTitle).
    @discardableResult
    public func appendSessionInfo(_ name: String) throws -> String {
        try appending(args: { a in a.text(name) }) { s, n, id in xs_append_session_info(s, n.0, n.1, id) }
    }

    /// Moves the leaf to `fromID` (nil: a new root) and appends a "branch_summary" there: the
    /// durable way to branch. `fromExtension` nil = absent.
    @discardableResult
    public func branchWithSummary(from fromID: String?, summary: String, details: JSONText? = nil,
                                  fromExtension: Bool? = nil) throws -> String {
        try appending(args: { a in (try a.cString(fromID), a.text(summary), a.json(details)) }) { s, x, id in
            xs_session_branch_with_summary(s, x.0, x.1.0, x.1.1, x.2.0, x.2.1, triState(fromExtension), id)
        }
    }

    // --- helpers -------------------------------------------------------------------------

    /// An append without arguments to convert: runs `call` with the handle and an id buffer.
    private func appending(_ call: (OpaquePointer, UnsafeMutablePointer<CChar>) -> xs_status) throws -> String {
        try appending(args: { _ in () }) { s, _, id in call(s, id) }
    }

    /// An append that takes one record struct (compaction, custom message, session init).
    private func appending<Record>(
        record: (CArgs) throws -> Record,
        _ call: (OpaquePointer?, UnsafePointer<Record>?, UnsafeMutablePointer<CChar>?) -> xs_status
    ) throws -> String {
        try appending(args: record) { s, r, id in withUnsafePointer(to: r) { call(s, $0, id) } }
    }

    /// An append whose arguments `args` converts to C first (outside the lock: a NUL in a
    /// C string is refused before the library is called).
    private func appending<Args>(args: (CArgs) throws -> Args,
                                 _ call: (OpaquePointer, Args, UnsafeMutablePointer<CChar>) -> xs_status) throws -> String {
        try CArgs.with { a in
            let converted = try args(a)
            return try handle.with { s in
                try newEntryID { id in try handle.check(call(s, converted, id), s) }
            }
        }
    }
}

/// XS_UNSET, 0 or 1 for an optional Bool.
func triState(_ value: Bool?) -> Int32 {
    guard let value else { return Int32(XS_UNSET) }
    return value ? 1 : 0
}
