// Store: a root directory of sessions (and blobs, and terminal breadcrumbs); xs_store.
internal import CXSession
import Foundation

/// A session store. Sendable: every call holds the store's lock across the C call and the
/// reading of its error text (see Handle). Sessions opened from it stay usable after it is
/// closed or released: they keep the library's store internals alive.
public final class Store: Sendable {
    let handle: Handle

    /// Opens the store rooted at `root` (created on the first write; opening writes nothing).
    public convenience init(root: String, options: StoreOptions = StoreOptions()) throws {
        try self.init(rootPath: root, options: options)
    }

    /// Opens the store rooted at the directory `root` (a file URL).
    public convenience init(root: URL, options: StoreOptions = StoreOptions()) throws {
        try self.init(rootPath: root.withUnsafeFileSystemRepresentation { $0.map { String(cString: $0) } },
                      options: options)
    }

    /// A store whose sessions live in memory only; `dialect` is the default of its new sessions.
    public static func inMemory(dialect: Dialect = .omp) throws -> Store {
        try Store(rootPath: nil, options: StoreOptions(inMemory: true, dialect: dialect))
    }

    private init(rootPath: String?, options: StoreOptions) throws {
        guard let raw = xs_store_new() else { throw XSessionError(status: XS_ENOMEM) }
        // The handle owns `raw` from here: a failed open frees it when `handle` goes away.
        let handle = Handle(raw, .store)
        try CArgs.with { a in
            var o = try options.cStruct(a)
            try handle.call { st in xs_store_open(st, try a.cString(rootPath), &o) }
        }
        self.handle = handle
    }

    /// Frees the store now (deinit does it otherwise); later calls throw `.closed`. Sessions
    /// opened from it stay usable. Idempotent.
    public func close() { handle.close() }

    public var isClosed: Bool { handle.isClosed }

    /// The keyed session store: one JSON document mapping a host's session keys to records.
    public var keys: Keys { Keys(handle: handle) }

    /// The directory holding the sessions of working directory `cwd`
    /// (<root>/sessions/--<cwd encoded>--).
    public func sessionDirectory(cwd: String) throws -> String {
        try CArgs.with { a in
            let c = try a.cString(cwd)
            return try handle.readString { xs_store_session_dir($0, c, $1, $2, $3) }
        }
    }

    /// The path of the session whose id, file name or file-name suffix starts with `query`
    /// (case-insensitive); `cwd`'s directory is searched first. `.ambiguous` names the candidates.
    public func resolve(_ query: String, cwd: String? = nil) throws -> String {
        try CArgs.with { a in
            let q = try a.cString(query), c = try a.cString(cwd)
            return try handle.readString { xs_store_resolve($0, q, c, $1, $2, $3) }
        }
    }

    /// Records that terminal `terminalID` uses `sessionPath` in `cwd` (used by continueRecent).
    public func writeBreadcrumb(terminalID: String, cwd: String, sessionPath: String) throws {
        try CArgs.with { a in
            let t = try a.cString(terminalID), c = try a.cString(cwd), p = try a.cString(sessionPath)
            try handle.call { xs_store_write_breadcrumb($0, t, c, p) }
        }
    }

    /// The store's sessions, newest first, as a JSON array of
    /// {"path","id","cwd","timestamp","modified","size","title","parentSession","version",
    ///  "needsMigration","corruptCopies","archived","firstMessage","firstPrompt"[,"messageCount",
    ///  "entryCount","diagnostics"]}. firstPrompt is what a listing should show: the first user
    /// text an agent did not inject, cut to 200 characters + "…"; archived marks an archive
    /// ("<file>.jsonl.gz", whose modified and size are the archive's).
    public func listJSON(_ options: ListOptions = ListOptions()) throws -> JSONText {
        try CArgs.with { a in
            var o = try options.cStruct(a)
            return JSONText(try handle.readString { xs_store_list($0, &o, $1, $2, $3) })
        }
    }

    /// The store's sessions, newest first (Store.listJSON, typed).
    public func list(_ options: ListOptions = ListOptions()) throws -> [SessionListing] {
        try listJSON(options).decode()
    }

    // --- sessions: constructors report their errors on the store ---------------------------

    /// Starts a new session for working directory `cwd`. Nothing is written until the first
    /// assistant message unless `options.flags` has `.noDefer`.
    public func createSession(cwd: String, options: SessionOptions = SessionOptions()) throws -> Session {
        try handle.newSession(options) { st, a, o, out in xs_session_create(st, try a.cString(cwd), o, out) }
    }

    /// Opens a session file (absolute, or relative to the process's directory), or a session id
    /// or unambiguous id prefix. v1/v2 files are migrated (rewritten only by a writable open).
    public func openSession(_ pathOrID: String, options: SessionOptions = SessionOptions()) throws -> Session {
        try handle.newSession(options) { st, a, o, out in xs_session_open(st, try a.cString(pathOrID), o, out) }
    }

    /// This terminal's last session for `cwd` (its breadcrumb), else the newest for `cwd`, else
    /// a new one; opened for writing, and the breadcrumb is updated.
    public func continueRecent(cwd: String, terminalID: String? = nil,
                               options: SessionOptions = SessionOptions()) throws -> Session {
        try handle.newSession(options) { st, a, o, out in
            xs_session_continue_recent(st, try a.cString(cwd), try a.cString(terminalID), o, out)
        }
    }

    /// A copy of another session file as a new session for `targetCwd` (written at once).
    public func forkFrom(_ sourcePath: String, targetCwd: String,
                         options: SessionOptions = SessionOptions()) throws -> Session {
        try handle.newSession(options) { st, a, o, out in
            xs_session_fork_from(st, try a.cString(sourcePath), try a.cString(targetCwd), o, out)
        }
    }
}
