// Session: one open transcript (xs_session). Lifecycle, navigation and whole-session writes
// here; appends in SessionWrite.swift, readers in SessionRead.swift.
internal import CXSession

/// An open session. Made by a Store (or by fork/createBranched), never directly. Sendable: calls
/// from several threads or tasks are serialised by the session's lock, and each failing call
/// throws its own message. close() (or deinit) flushes and releases the writer lock.
public final class Session: Sendable {
    let handle: Handle

    init(_ raw: OpaquePointer) { handle = Handle(raw, .session) }

    /// Flushes, releases the writer lock and frees the handle; later calls throw `.closed`.
    /// The handle is released even when the flush fails, and that failure is thrown (`.io`,
    /// `.poisoned` after an earlier failed write): the last appends may not be durable.
    /// Closing a closed session does nothing. deinit closes too, but can only drop the error.
    public func close() throws { try handle.close { xs_session_flush($0) } }

    public var isClosed: Bool { handle.isClosed }

    /// Makes everything appended so far durable (fdatasync). `.poisoned` after a failed write.
    public func flush() throws { try handle.call { xs_session_flush($0) } }

    /// Writes a deferred session to disk now, ending the deferral (a no-op when on disk).
    public func persist() throws { try handle.call { xs_session_persist($0) } }

    /// Read-only sessions: picks up entries another process appended; returns the change in the
    /// number of entries. `.misuse` on a writable session (it is the only writer).
    @discardableResult
    public func reload() throws -> Int64 {
        var added: Int64 = 0
        try handle.call { xs_session_reload($0, &added) }
        return added
    }

    /// Moves the leaf to entry `id`, or to none for nil (the next append then starts a new root).
    /// Nothing is written: the leaf is not persisted. `.notFound` for an unknown id, and the leaf
    /// stays where it was.
    public func setLeaf(_ id: String?) throws {
        try CArgs.with { a in
            let i = try a.cString(id)
            try handle.call { xs_session_set_leaf($0, i) }
        }
    }

    /// Sets the title (nil removes it). omp dialect: the header's, the file rewritten atomically
    /// when on disk; pi dialect: appends a session_info entry as appendSessionInfo does (nil: an
    /// empty name).
    public func setTitle(_ title: String?) throws {
        try CArgs.with { a in
            let (t, n) = a.text(title)
            try handle.call { xs_session_set_title($0, t, n) }
        }
    }

    /// The dialect the session writes (forced, detected from its file, or the store's default).
    /// Read-only sessions too.
    public func dialect() throws -> Dialect {
        var value: UInt32 = 0
        try handle.call { xs_session_dialect($0, &value) }
        guard let dialect = Dialect(cValue: value) else {
            throw XSessionError(code: .error, message: "dialect \(value) is newer than this binding")
        }
        return dialect
    }

    /// Moves the session (file and artifacts directory) to `cwd`'s session directory.
    public func move(toCwd cwd: String) throws {
        try CArgs.with { a in
            let c = try a.cString(cwd)
            try handle.call { xs_session_move_to($0, c) }
        }
    }

    /// A copy of this session under a new id beside it (written at once); this one stays open.
    public func fork(options: SessionOptions = SessionOptions()) throws -> Session {
        try handle.newSession(options) { s, _, o, out in xs_session_fork(s, o, out) }
    }

    /// A new session holding the path from the root to `leaf` (nil: the current leaf), with
    /// fresh label entries for the labels on it; parentSession is this session's file path.
    public func createBranched(leaf: String? = nil, options: SessionOptions = SessionOptions()) throws -> Session {
        try handle.newSession(options) { s, a, o, out in xs_session_create_branched(s, try a.cString(leaf), o, out) }
    }
}

/// A C constructor of sessions: (parent handle, arena, options, out) -> status.
typealias SessionConstructor = (OpaquePointer, CArgs, UnsafePointer<xs_session_options>,
                                UnsafeMutablePointer<OpaquePointer?>) throws -> xs_status

extension Handle {
    /// A new Session made by `construct` on this handle (a store, or the session forked):
    /// the constructor's errors are reported on this handle.
    func newSession(_ options: SessionOptions, _ construct: SessionConstructor) throws -> Session {
        try CArgs.with { a in
            var o = try options.cStruct(a)
            return Session(try open { parent, out in try construct(parent, a, &o, out) })
        }
    }
}
