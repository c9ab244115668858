// The session index and search (xs_index, xs_search; docs/search.md). One SQLite database per
// store with a row per session and per entry and a full-text index over what each entry says:
// listing sessions and searching every transcript read it instead of every file. Derived data
// only: rebuild() makes it again from the session files, refresh() brings it up to date with what
// changed on the disk. Opened with followWrites, what the store's sessions append is indexed by a
// thread of the index shortly after (flush() waits for it); otherwise refresh before searching.
internal import CXSession
import Foundation

/// Options of Store.openIndex. A field left nil keeps the library's default (the C struct is
/// filled by xs_index_options_init first).
public struct IndexOptions: Sendable, Hashable {
    /// The database file; nil = <root>/index.db. Required for an in-memory store. Its directory
    /// is created.
    public var path: String?
    /// How long a call waits for another writer; nil = 5000 ms.
    public var busyTimeoutMs: UInt32?
    /// While the index is open, what sessions of this Store write is indexed by a thread of the
    /// index shortly after each write (an append never waits for it; SessionIndex.flush() does).
    /// Writes of other Store handles and processes still need refresh().
    public var followWrites: Bool

    public init(path: String? = nil, busyTimeoutMs: UInt32? = nil, followWrites: Bool = false) {
        self.path = path
        self.busyTimeoutMs = busyTimeoutMs
        self.followWrites = followWrites
    }

    /// The C struct; its path lives in `args`.
    func cStruct(_ args: CArgs) throws -> xs_index_options {
        var o = xs_index_options()
        try initialised(xs_index_options_init(&o, UInt32(XS_INDEX_OPTIONS_VERSION)))
        o.path = try args.cString(path)
        if let busyTimeoutMs { o.busy_timeout_ms = busyTimeoutMs }
        if followWrites { o.flags |= UInt32(XS_INDEX_FOLLOW_WRITES) }
        return o
    }
}

/// The filters of SessionIndex.search. `SearchOptions()` is the library's defaults: every
/// session, every role, any time, 20 hits, FTS5 syntax.
public struct SearchOptions: Sendable, Hashable {
    /// Only sessions of this working directory (the header's, exact); nil: every session.
    public var cwd: String?
    /// Only entries of this role; nil: every role.
    public var role: SearchRole?
    /// Only entries stamped at or after this time, in ms since the epoch; nil (or 0): any time.
    /// Negative: `.invalidArgument`.
    public var sinceMs: Int64?
    /// Only this session (its id); nil: every session.
    public var sessionID: String?
    /// At most this many hits; 0 = 20; at most 10000 (over it: `.invalidArgument`).
    public var limit: UInt32
    /// The query is plain words, not FTS5 syntax: each word must occur (quotes and operators are
    /// ordinary characters), the last one as a prefix.
    public var literal: Bool

    public init(cwd: String? = nil, role: SearchRole? = nil, since: Date? = nil, sessionID: String? = nil,
                limit: UInt32 = 0, literal: Bool = false) {
        self.cwd = cwd
        self.role = role
        self.sessionID = sessionID
        self.limit = limit
        self.literal = literal
        self.since = since
    }

    /// sinceMs as a Date. A Date between two milliseconds keeps the entries of the later one
    /// (those stamped at or after it); the microseconds are rounded first, so a Date made from
    /// whole milliseconds gives them back despite Double's rounding.
    public var since: Date? {
        get { sinceMs.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
        set {
            sinceMs = newValue.map {
                let micros = ($0.timeIntervalSince1970 * 1_000_000).rounded()
                // A Date no Int64 of ms can hold is clamped: the library refuses a negative one.
                return Int64(exactly: (micros / 1000).rounded(.up)) ?? (micros < 0 ? Int64.min : Int64.max)
            }
        }
    }

    /// The C struct; its texts live in `args`.
    func cStruct(_ args: CArgs) throws -> xs_search_options {
        var o = xs_search_options()
        try initialised(xs_search_options_init(&o, UInt32(XS_SEARCH_OPTIONS_VERSION)))
        if literal { o.flags |= UInt32(XS_SEARCH_LITERAL) }
        o.cwd = try args.cString(cwd)
        o.role = try args.cString(role?.rawValue)
        if let sinceMs { o.since_ms = sinceMs }
        o.session_id = try args.cString(sessionID)
        o.limit = limit
        return o
    }
}

extension HandleFunctions {
    static let index = HandleFunctions(
        what: "index", errcode: { xs_index_errcode($0) }, errmsg: { xs_index_errmsg($0) },
        release: { xs_index_close($0) })
}

/// A store's session index (Store.openIndex). Sendable: calls from several threads or tasks are
/// serialised by the handle's lock, as a Session's are. Independent of its Store once open (it
/// keeps what it reads the sessions through). A new index is empty until rebuild() or refresh().
public final class SessionIndex: Sendable {
    let handle: Handle

    init(_ raw: OpaquePointer) { handle = Handle(raw, .index) }

    /// Frees the handle (deinit does it otherwise); later calls throw `.closed`. Waits for a call
    /// in flight. Closing a closed index does nothing.
    public func close() { handle.close() }

    public var isClosed: Bool { handle.isClosed }

    /// Makes the index again from nothing: every session of the store, live and archived, read
    /// whole. Throws `.locked` (another writer kept it past the busy timeout), `.io`, `.noSpace`.
    @discardableResult
    public func rebuild() throws -> IndexReport { try rebuildJSON().decode() }

    /// SessionIndex.rebuild as the library's JSON text (capi/schema/index-report.schema.json).
    @discardableResult
    public func rebuildJSON() throws -> JSONText {
        JSONText(try handle.readString { xs_index_rebuild($0, $1, $2, $3) })
    }

    /// Brings the index up to date with the files: unchanged files are not read, files grown in
    /// place only from their last indexed byte, others whole; rows of files gone are removed.
    /// Throws as rebuild().
    @discardableResult
    public func refresh() throws -> IndexReport { try refreshJSON().decode() }

    /// SessionIndex.refresh as the library's JSON text (capi/schema/index-report.schema.json).
    @discardableResult
    public func refreshJSON() throws -> JSONText {
        JSONText(try handle.readString { xs_index_refresh($0, $1, $2, $3) })
    }

    /// Waits until what the sessions of the index's Store wrote before this call is indexed
    /// (with IndexOptions.followWrites; without it there is nothing to wait for): call it before
    /// a search that must find the session's own last append. A write the index's thread could
    /// not index is left for the next refresh(), and the first such failure since the last flush
    /// is thrown here, once, with its status (`.locked`, `.io`, `.noSpace`...) and message
    /// ("indexing what sessions wrote: ..."). The sessions keep appending meanwhile.
    public func flush() throws { try handle.call { xs_index_flush($0) } }

    /// Every difference between the index and the files, changing nothing. Differences are not
    /// errors: read `ok`.
    public func verify() throws -> IndexVerifyReport { try verifyJSON().decode() }

    /// SessionIndex.verify as the library's JSON text (capi/schema/index-verify.schema.json).
    public func verifyJSON() throws -> JSONText {
        JSONText(try handle.readString { xs_index_verify($0, $1, $2, $3) })
    }

    /// Sessions newest first (file mtime, then creation), from the index alone.
    /// - Parameters:
    ///   - cwd: only sessions of this working directory; nil: every session.
    ///   - limit: at most this many; 0 = 20; at most 10000 (over it: `.invalidArgument`).
    public func list(cwd: String? = nil, limit: UInt32 = 0) throws -> [IndexedSession] {
        try listJSON(cwd: cwd, limit: limit).decode()
    }

    /// SessionIndex.list as the library's JSON text (capi/schema/index-sessions.schema.json).
    public func listJSON(cwd: String? = nil, limit: UInt32 = 0) throws -> JSONText {
        try CArgs.with { a in
            let c = try a.cString(cwd)
            return JSONText(try handle.readString { xs_index_list($0, c, limit, $1, $2, $3) })
        }
    }

    /// Facts about the index: its file, row counts, and the damaged file the open kept aside.
    public func info() throws -> IndexInfo { try infoJSON().decode() }

    /// SessionIndex.info as the library's JSON text (capi/schema/index-info.schema.json).
    public func infoJSON() throws -> JSONText {
        JSONText(try handle.readString { xs_index_info($0, $1, $2, $3) })
    }

    /// Entries matching `query`, best first (bm25; ties newest first). Only the newest 1,000
    /// matches that pass the filters are ranked (docs/search.md#ranking).
    /// - Parameters:
    ///   - query: FTS5 syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(…)); plain words with
    ///     `options.literal`. Always bound as a parameter, never spliced into SQL.
    /// Throws `.invalidArgument` for an empty query, a negative `sinceMs`, a limit over 10000, or a
    /// query FTS5 refuses (the message is "bad search query: " and SQLite's words).
    public func search(_ query: String, options: SearchOptions = SearchOptions()) throws -> [SearchHit] {
        try searchJSON(query, options: options).decode()
    }

    /// SessionIndex.search as the library's JSON text (capi/schema/search-hits.schema.json).
    public func searchJSON(_ query: String, options: SearchOptions = SearchOptions()) throws -> JSONText {
        try CArgs.with { a in
            var o = try options.cStruct(a)
            return try searchJSON(query, &o, a)
        }
    }

    /// The call itself, with a C struct as given: tests send ones SearchOptions never makes.
    func searchJSON(_ query: String, _ o: inout xs_search_options, _ a: CArgs) throws -> JSONText {
        let q = try a.cString(query)
        return JSONText(try withUnsafePointer(to: &o) { p in
            try handle.readString { xs_search($0, q, p, $1, $2, $3) }
        })
    }
}

extension Store {
    /// Opens (creating) the store's session index. It is not read or brought up to date here: a
    /// new index is empty until rebuild() or refresh(). An older file is migrated; one SQLite
    /// cannot read is renamed "<path>.damaged-<UTC time>" and a fresh one started
    /// (IndexInfo.damaged). Throws `.invalidArgument` (an in-memory store without
    /// IndexOptions.path), `.version` (a file a newer xsession wrote), `.locked`, `.io`, `.noSpace`.
    public func openIndex(_ options: IndexOptions = IndexOptions()) throws -> SessionIndex {
        try CArgs.with { a in
            var o = try options.cStruct(a)
            return SessionIndex(try handle.open { xs_index_open($0, &o, $1) })
        }
    }

    /// Store.openIndex, async (the open may wait for another writer, or migrate the file).
    public func openIndex(_ options: IndexOptions = IndexOptions()) async throws -> SessionIndex {
        try await perform { try $0.openIndex(options) }
    }
}

// The async forms (see Async.swift): each runs on the index's own serial queue, since a rebuild,
// refresh or search may take long and any call may wait for the handle's lock or another writer.
extension SessionIndex {
    /// Runs `body` with this index on its queue: any synchronous method, async.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (SessionIndex) throws -> T) async throws -> T {
        try await handle.onQueue { try body(self) }
    }

    @discardableResult
    public func rebuild() async throws -> IndexReport { try await perform { try $0.rebuild() } }

    @discardableResult
    public func refresh() async throws -> IndexReport { try await perform { try $0.refresh() } }

    public func flush() async throws { try await perform { try $0.flush() } }

    public func verify() async throws -> IndexVerifyReport { try await perform { try $0.verify() } }

    public func list(cwd: String? = nil, limit: UInt32 = 0) async throws -> [IndexedSession] {
        try await perform { try $0.list(cwd: cwd, limit: limit) }
    }

    public func info() async throws -> IndexInfo { try await perform { try $0.info() } }

    public func search(_ query: String, options: SearchOptions = SearchOptions()) async throws -> [SearchHit] {
        try await perform { try $0.search(query, options: options) }
    }

    /// close(), async: it waits for a call in flight on the index's queue, not on the caller's
    /// thread.
    public func close() async {
        // The body cannot throw, so neither can the queued call: nothing is dropped here.
        _ = try? await perform { $0.close() }
    }
}
