// Readers. Each returns the library's exact bytes (JSONText) or, where the shape is small and
// fixed, a typed value decoded from them.
internal import CXSession

extension Session {
    /// The context the model sees for the path ending at `leaf` (nil: the current leaf):
    /// {"leafId","messages":[...],"thinkingLevel","models","injectedTtsrRules","mode",...}; the pi
    /// dialect adds pi's "model" ({"provider","modelId"} or null) after "thinkingLevel".
    public func buildContextJSON(leaf: String? = nil) throws -> JSONText {
        try read(leaf) { xs_build_context($0, $1, $2, $3, $4) }
    }

    /// The header line, as stored.
    public func headerJSON() throws -> JSONText {
        try read { xs_session_header($0, $1, $2, $3) }
    }

    /// All entries in file order: a JSON array of the stored lines.
    public func entriesJSON(_ flags: ReadFlags = []) throws -> JSONText {
        try read { xs_session_entries($0, flags.rawValue, $1, $2, $3) }
    }

    /// One entry, as stored; `.notFound` for an unknown id.
    public func entryJSON(_ id: String, _ flags: ReadFlags = []) throws -> JSONText {
        try read(id) { xs_session_entry($0, $1, flags.rawValue, $2, $3, $4) }
    }

    /// The entries from the root down to `id` (nil: the leaf; [] when the leaf is none).
    public func pathJSON(to id: String? = nil, _ flags: ReadFlags = []) throws -> JSONText {
        try read(id) { xs_session_path($0, $1, flags.rawValue, $2, $3, $4) }
    }

    /// The direct children of `id` in file order.
    public func childrenJSON(of id: String, _ flags: ReadFlags = []) throws -> JSONText {
        try read(id) { xs_session_children($0, $1, flags.rawValue, $2, $3, $4) }
    }

    /// The whole tree, flat, depth-first: [{"id","parentId","depth","children","label"?,...,"entry"}].
    public func treeJSON(_ flags: ReadFlags = []) throws -> JSONText {
        try read { xs_session_tree($0, flags.rawValue, $1, $2, $3) }
    }

    /// Live labels in the order they were first set: [{"targetId","label","timestamp"}].
    public func labelsJSON() throws -> JSONText {
        try read { xs_session_labels($0, $1, $2, $3) }
    }

    /// The leaf's id; nil when the leaf is none.
    public func leaf() throws -> String? {
        let id = try handle.readString { xs_session_leaf($0, $1, $2, $3) }
        return id.isEmpty ? nil : id
    }

    /// What the loader skipped or noticed: [{"line","offset","length","code","reason"}].
    public func diagnosticsJSON() throws -> JSONText {
        try read { xs_session_diagnostics($0, $1, $2, $3) }
    }

    /// The context the model sees for the path ending at `leaf` (nil: the current leaf), typed.
    public func buildContext(leaf: String? = nil) throws -> SessionContext { try buildContextJSON(leaf: leaf).decode() }

    /// The header line, typed.
    public func header() throws -> SessionHeader { try headerJSON().decode() }

    /// All entries in file order.
    public func entries(_ flags: ReadFlags = []) throws -> [Entry] { try entriesJSON(flags).decode() }

    /// One entry; `.notFound` for an unknown id.
    public func entry(_ id: String, _ flags: ReadFlags = []) throws -> Entry { try entryJSON(id, flags).decode() }

    /// The entries from the root down to `id` (nil: the leaf; [] when the leaf is none).
    public func path(to id: String? = nil, _ flags: ReadFlags = []) throws -> [Entry] {
        try pathJSON(to: id, flags).decode()
    }

    /// The direct children of `id` in file order.
    public func children(of id: String, _ flags: ReadFlags = []) throws -> [Entry] {
        try childrenJSON(of: id, flags).decode()
    }

    /// The whole tree, flat, depth-first.
    public func tree(_ flags: ReadFlags = []) throws -> [TreeNode] { try treeJSON(flags).decode() }

    /// Live labels in the order they were first set.
    public func labels() throws -> [Label] { try labelsJSON().decode() }

    /// What the loader skipped or noticed.
    public func diagnostics() throws -> [Diagnostic] { try diagnosticsJSON().decode() }

    /// Facts about the session (id, path, leaf, counts...).
    public func info() throws -> SessionInfo { try infoJSON().decode() }

    /// Session.info as the library's JSON text.
    public func infoJSON() throws -> JSONText {
        try read { xs_session_info($0, $1, $2, $3) }
    }

    /// Token and cost totals over every assistant message.
    public func usage() throws -> Usage { try usageJSON().decode() }

    /// Session.usage as the library's JSON text.
    public func usageJSON() throws -> JSONText {
        try read { xs_session_usage($0, $1, $2, $3) }
    }

    // --- helpers -------------------------------------------------------------------------

    func read(_ fill: TextFill) throws -> JSONText {
        JSONText(try handle.readString(fill))
    }

    /// A reader that takes one optional id (NULL = the leaf).
    func read(_ id: String?,
              _ fill: @escaping (OpaquePointer, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int,
                                 UnsafeMutablePointer<Int>) -> xs_status) throws -> JSONText {
        try CArgs.with { a in
            let i = try a.cString(id)
            return try read { fill($0, i, $1, $2, $3) }
        }
    }
}
