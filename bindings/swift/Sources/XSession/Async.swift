// The async API. Every call of the library blocks its thread (the handle's lock, file I/O,
// fsync), and a thread of Swift's cooperative pool must never block: so each async method runs
// the blocking call on the handle's own serial DispatchQueue and suspends the caller until it is
// done (a checked continuation). In async code these overloads are the ones Swift picks, so the
// agent loop never blocks the pool by accident; the synchronous methods stay for other threads.
// A call that started is not cancelled by cancelling its task: the library's calls cannot stop
// half way.

extension Session {
    /// Runs `body` with this session on the session's queue: any synchronous method, async.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Session) throws -> T) async throws -> T {
        try await handle.onQueue { try body(self) }
    }

    @discardableResult
    public func append(_ entry: JSONText) async throws -> String { try await perform { try $0.append(entry) } }

    @discardableResult
    public func appendMessage(_ message: JSONText) async throws -> String {
        try await perform { try $0.appendMessage(message) }
    }

    @discardableResult
    public func appendMessage(_ message: Message) async throws -> String {
        try await perform { try $0.appendMessage(message) }
    }

    @discardableResult
    public func branchWithSummary(from fromID: String?, summary: String, details: JSONText? = nil,
                                  fromExtension: Bool? = nil) async throws -> String {
        try await perform {
            try $0.branchWithSummary(from: fromID, summary: summary, details: details, fromExtension: fromExtension)
        }
    }

    public func buildContext(leaf: String? = nil) async throws -> SessionContext {
        try await perform { try $0.buildContext(leaf: leaf) }
    }

    public func entries(_ flags: ReadFlags = []) async throws -> [Entry] { try await perform { try $0.entries(flags) } }

    public func path(to id: String? = nil, _ flags: ReadFlags = []) async throws -> [Entry] {
        try await perform { try $0.path(to: id, flags) }
    }

    public func tree(_ flags: ReadFlags = []) async throws -> [TreeNode] { try await perform { try $0.tree(flags) } }

    public func info() async throws -> SessionInfo { try await perform { try $0.info() } }

    public func leaf() async throws -> String? { try await perform { try $0.leaf() } }

    public func setLeaf(_ id: String?) async throws { try await perform { try $0.setLeaf(id) } }

    public func stats() async throws -> SessionStats { try await perform { try $0.stats() } }

    public func flush() async throws { try await perform { try $0.flush() } }

    /// close(), async: throws the final flush error.
    public func close() async throws { try await perform { try $0.close() } }
}

extension Store {
    /// Runs `body` with this store on the store's queue: any synchronous method, async.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (Store) throws -> T) async throws -> T {
        try await handle.onQueue { try body(self) }
    }

    public func createSession(cwd: String, options: SessionOptions = SessionOptions()) async throws -> Session {
        try await perform { try $0.createSession(cwd: cwd, options: options) }
    }

    public func openSession(_ pathOrID: String, options: SessionOptions = SessionOptions()) async throws -> Session {
        try await perform { try $0.openSession(pathOrID, options: options) }
    }

    public func continueRecent(cwd: String, terminalID: String? = nil,
                               options: SessionOptions = SessionOptions()) async throws -> Session {
        try await perform { try $0.continueRecent(cwd: cwd, terminalID: terminalID, options: options) }
    }

    public func list(_ options: ListOptions = ListOptions()) async throws -> [SessionListing] {
        try await perform { try $0.list(options) }
    }

    /// Store.import, async; `progress` runs on the store's queue.
    @discardableResult
    public func `import`(_ kind: ImportKind, from sourcePath: String, options: ImportOptions = ImportOptions(),
                         progress: (@Sendable (_ done: UInt64, _ total: UInt64) -> Void)? = nil) async throws
        -> ImportReport {
        try await perform { try $0.import(kind, from: sourcePath, options: options, progress: progress) }
    }

    @discardableResult
    public func export(_ sessions: [String], to path: String, options: ExportOptions = ExportOptions()) async throws
        -> BundleExportReport {
        try await perform { try $0.export(sessions, to: path, options: options) }
    }

    @discardableResult
    public func importBundle(from bundlePath: String, options: ImportBundleOptions = ImportBundleOptions())
        async throws -> BundleImportReport {
        try await perform { try $0.importBundle(from: bundlePath, options: options) }
    }

    @discardableResult
    public func exportHTML(_ sessions: [String], to path: String) async throws -> HTMLReport {
        try await perform { try $0.exportHTML(sessions, to: path) }
    }
}
