// History: the prompts a user typed, kept apart from transcripts (xs_history; docs/history.md).
// One SQLite database per store with a full-text index: adds return at once (a background thread
// of the handle writes them), flush waits for them, search and recent read what is committed.
internal import CXSession
import Foundation

/// Options of Store.openHistory. A field left nil keeps the library's default (the C struct is
/// filled by xs_history_options_init first).
public struct HistoryOptions: Sendable, Hashable {
    /// The database file; nil = <root>/history.db. Required for an in-memory store. Its
    /// directory is created.
    public var path: String?
    /// synchronous=FULL: a flushed prompt survives power loss too (by default it survives a crash
    /// or kill -9 of the process).
    public var sync: Bool
    /// How long a call waits for another writer; nil = 5000 ms.
    public var busyTimeoutMs: UInt32?
    /// The longest prompt `add` takes, in UTF-8 bytes; nil = 1 MiB.
    public var maxPromptBytes: UInt32?

    public init(path: String? = nil, sync: Bool = false, busyTimeoutMs: UInt32? = nil, maxPromptBytes: UInt32? = nil) {
        self.path = path
        self.sync = sync
        self.busyTimeoutMs = busyTimeoutMs
        self.maxPromptBytes = maxPromptBytes
    }

    /// The C struct; its path lives in `args`.
    func cStruct(_ args: CArgs) throws -> xs_history_options {
        var o = xs_history_options()
        try initialised(xs_history_options_init(&o, UInt32(XS_HISTORY_OPTIONS_VERSION)))
        if sync { o.flags |= UInt32(XS_HISTORY_SYNC) }
        o.path = try args.cString(path)
        if let busyTimeoutMs { o.busy_timeout_ms = busyTimeoutMs }
        if let maxPromptBytes { o.max_prompt_bytes = maxPromptBytes }
        return o
    }
}

extension HandleFunctions {
    /// deinit drops the final flush's status; History.close() reads it first (see there).
    static let history = HandleFunctions(
        what: "history", errcode: { xs_history_errcode($0) }, errmsg: { xs_history_errmsg($0) },
        release: { _ = xs_history_close($0) })
}

/// A store's prompt history (Store.openHistory). Sendable: calls from several threads or tasks are
/// serialised by the handle's lock, as a Session's are. Independent of its Store once open.
/// close() (or deinit) writes what is queued and stops the handle's writer thread.
public final class History: Sendable {
    let handle: Handle

    init(_ raw: OpaquePointer) { handle = Handle(raw, .history) }

    /// Writes what is queued, stops the writer and frees the handle; later calls throw `.closed`.
    /// The handle is released even when the writer failed, and that error is thrown (the prompts
    /// it names were not written). Closing a closed history does nothing.
    public func close() throws {
        // xs_history_close returns the same status but its message is gone with the handle:
        // the flush before it reports the error with the library's text.
        try handle.close { xs_history_flush($0) }
    }

    public var isClosed: Bool { handle.isClosed }

    /// Queues `prompt` and returns without waiting for the disk (only a writer 64 MiB behind makes
    /// it wait). A prompt equal to the last one this handle added with the same cwd (for its first
    /// add: to the file's last row) is skipped without an error.
    /// - Parameters:
    ///   - cwd: the working directory it was typed in; nil or "": none.
    ///   - timeMs: when it was typed, ms since the epoch; nil (or 0): now.
    /// Throws `.invalidArgument` (empty, a NUL byte, a negative time), `.limit` (over
    /// HistoryOptions.maxPromptBytes, a cwd over 64 KiB), or the writer's sticky error ("history
    /// writer: …"; reopen the history to write again).
    public func add(_ prompt: String, cwd: String? = nil, timeMs: Int64? = nil) throws {
        var prompt = prompt
        try prompt.withUTF8 { try add(bytes: $0, cwd: cwd, timeMs: timeMs) }
    }

    /// add(_:cwd:timeMs:) for a prompt as UTF-8 bytes (a terminal's raw line): bytes that are not
    /// UTF-8 throw `.invalidArgument`.
    public func add(_ prompt: Data, cwd: String? = nil, timeMs: Int64? = nil) throws {
        try prompt.withUnsafeBytes { try add(bytes: $0.bindMemory(to: UInt8.self), cwd: cwd, timeMs: timeMs) }
    }

    private func add(bytes: UnsafeBufferPointer<UInt8>, cwd: String?, timeMs: Int64?) throws {
        try CArgs.with { a in
            let c = try a.cString(cwd)
            try bytes.withMemoryRebound(to: CChar.self) { text in
                // An empty prompt must still be a non-NULL pointer: the library tells "the prompt
                // is empty" from "prompt is NULL".
                var nothing: CChar = 0
                try withUnsafePointer(to: &nothing) { empty in
                    try handle.call { xs_history_add($0, text.baseAddress ?? empty, text.count, c, timeMs ?? 0) }
                }
            }
        }
    }

    /// Waits until every prompt added before the call is committed: from then on it survives a
    /// crash (with HistoryOptions.sync, power loss too) and other handles' searches find it.
    /// Throws the writer's sticky error.
    public func flush() throws { try handle.call { xs_history_flush($0) } }

    /// The committed prompts matching `query`, best first (bm25; ties newest first).
    /// - Parameters:
    ///   - query: FTS5 syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(…)); with `literal`,
    ///     plain words that must all occur (quotes and operators are ordinary characters), the
    ///     last one as a prefix.
    ///   - cwd: only prompts added with this cwd; nil (or ""): every prompt.
    ///   - limit: at most this many; 0 = 20; at most 10000.
    /// Throws `.invalidArgument` for an empty query, a limit over 10000, or a query FTS5 refuses
    /// (the message is "bad history query: " and SQLite's words).
    public func search(_ query: String, cwd: String? = nil, literal: Bool = false,
                       limit: UInt32 = 0) throws -> [HistoryHit] {
        try searchJSON(query, cwd: cwd, literal: literal, limit: limit).decode()
    }

    /// History.search as the library's JSON text: [{"id","prompt","createdAt","cwd","score",
    /// "snippet"}] (capi/schema/history-search.schema.json).
    public func searchJSON(_ query: String, cwd: String? = nil, literal: Bool = false,
                           limit: UInt32 = 0) throws -> JSONText {
        try CArgs.with { a in
            let q = try a.cString(query), c = try a.cString(cwd)
            let flags = literal ? UInt32(XS_HISTORY_LITERAL) : 0
            return JSONText(try handle.readString { xs_history_search($0, q, c, flags, limit, $1, $2, $3) })
        }
    }

    /// The newest committed prompts, newest first; only those added with `cwd` unless it is nil.
    /// `limit`: 0 = 20; at most 10000 (over it: `.invalidArgument`).
    public func recent(cwd: String? = nil, limit: UInt32 = 0) throws -> [HistoryItem] {
        try recentJSON(cwd: cwd, limit: limit).decode()
    }

    /// History.recent as the library's JSON text: [{"id","prompt","createdAt","cwd"}]
    /// (capi/schema/history-recent.schema.json).
    public func recentJSON(cwd: String? = nil, limit: UInt32 = 0) throws -> JSONText {
        try CArgs.with { a in
            let c = try a.cString(cwd)
            return JSONText(try handle.readString { xs_history_recent($0, c, limit, $1, $2, $3) })
        }
    }

    /// Facts about the history: its file, counts, durability, and the damaged file the open kept
    /// aside, if any.
    public func info() throws -> HistoryInfo { try infoJSON().decode() }

    /// History.info as the library's JSON text: {"path","schemaVersion","count","pending",
    /// "synchronous","damaged"} (capi/schema/history-info.schema.json).
    public func infoJSON() throws -> JSONText {
        JSONText(try handle.readString { xs_history_info($0, $1, $2, $3) })
    }
}

extension Store {
    /// Opens (creating) the store's prompt history. An older file is migrated; one SQLite cannot
    /// read is renamed "<path>.damaged-<UTC time>" and a fresh one started (HistoryInfo.damaged).
    /// Throws `.invalidArgument` (an in-memory store without HistoryOptions.path), `.version` (a
    /// file a newer xsession wrote), `.locked` (another process kept it locked past the busy
    /// timeout), `.io`, `.noSpace`.
    public func openHistory(_ options: HistoryOptions = HistoryOptions()) throws -> History {
        try CArgs.with { a in
            var o = try options.cStruct(a)
            return History(try handle.open { xs_history_open($0, &o, $1) })
        }
    }

    /// Store.openHistory, async (the open may wait for another writer, or migrate the file).
    public func openHistory(_ options: HistoryOptions = HistoryOptions()) async throws -> History {
        try await perform { try $0.openHistory(options) }
    }
}

// The async forms (see Async.swift): each runs on the history's own serial queue, since any call
// may wait for the handle's lock, another writer, or the disk.
extension History {
    /// Runs `body` with this history on its queue: any synchronous method, async.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (History) throws -> T) async throws -> T {
        try await handle.onQueue { try body(self) }
    }

    public func add(_ prompt: String, cwd: String? = nil, timeMs: Int64? = nil) async throws {
        try await perform { try $0.add(prompt, cwd: cwd, timeMs: timeMs) }
    }

    public func flush() async throws { try await perform { try $0.flush() } }

    public func search(_ query: String, cwd: String? = nil, literal: Bool = false,
                       limit: UInt32 = 0) async throws -> [HistoryHit] {
        try await perform { try $0.search(query, cwd: cwd, literal: literal, limit: limit) }
    }

    public func recent(cwd: String? = nil, limit: UInt32 = 0) async throws -> [HistoryItem] {
        try await perform { try $0.recent(cwd: cwd, limit: limit) }
    }

    public func info() async throws -> HistoryInfo { try await perform { try $0.info() } }

    /// close(), async: throws the writer's error.
    public func close() async throws { try await perform { try $0.close() } }
}
