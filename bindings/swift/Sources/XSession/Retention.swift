// Retention (docs/retention.md): nothing is deleted by age alone. Archiving compresses idle
// sessions to "<file>.jsonl.gz" (verified before the original goes); pruning deletes only such
// archives. An archive stays listed ("archived": true), resolves by id, and opens read-only.
internal import CXSession
import Foundation

/// Options of Store.archive and Store.prune (xs_archive_options).
public struct ArchiveOptions: Sendable, Hashable {
    /// The age limit in ms, required (>= 0): archive sessions idle longer than this, or prune
    /// archives made longer ago than this. There is no default on purpose: the limit is always
    /// the caller's choice.
    public var olderThanMs: Int64
    /// "Now" for the age test (ms since the epoch); nil = the system clock.
    public var nowMs: Int64?
    /// Report what would be archived (pruned); change nothing.
    public var dryRun: Bool

    public init(olderThanMs: Int64, nowMs: Int64? = nil, dryRun: Bool = false) {
        self.olderThanMs = olderThanMs
        self.nowMs = nowMs
        self.dryRun = dryRun
    }

    func cStruct() throws -> xs_archive_options {
        var o = xs_archive_options()
        try initialised(xs_archive_options_init(&o, UInt32(XS_ARCHIVE_OPTIONS_VERSION)))
        o.older_than_ms = olderThanMs
        if let nowMs { o.now_ms = nowMs }
        if dryRun { o.flags |= UInt32(XS_ARCHIVE_DRY_RUN) }
        return o
    }
}

extension Store {
    /// Archives every live session idle for longer than `options.olderThanMs` (its last line's
    /// timestamp, else the file's mtime), each under its writer lock; one open for writing
    /// elsewhere is skipped, and a failure with one session skips it and goes on. The report:
    /// {"dryRun","archived":[{"path","bytes","gzBytes"}],"skipped":[{"path","reason","detail"}]},
    /// both in path order; reasons "writer", "too-large", "archive-exists", "changed", "error".
    ///
    /// `progress(done, total)` runs on the calling thread, once before the first candidate
    /// (0 of total) and after each, while the store is busy with the archive: calls on this store
    /// from it throw `.misuse` (a `close()` there takes effect when the archive returns), and it
    /// must not wait for another thread that uses this store. It cannot throw: nothing could stop
    /// the archive half way through a session, so there is no error for it to report.
    @discardableResult
    public func archiveJSON(_ options: ArchiveOptions,
                            progress: ((_ done: UInt64, _ total: UInt64) -> Void)? = nil) throws -> JSONText {
        var o = try options.cStruct()
        guard let progress else {
            return JSONText(try handle.readString { xs_store_archive($0, &o, $1, $2, $3) })
        }
        let box = ProgressBox(progress)
        o.progress = { done, total, user in
            Unmanaged<ProgressBox>.fromOpaque(user!).takeUnretainedValue().report(done, total)
        }
        o.progress_user = Unmanaged.passUnretained(box).toOpaque()
        return try withExtendedLifetime(box) {
            JSONText(try handle.readStringWithCallbacks { xs_store_archive($0, &o, $1, $2, $3) })
        }
    }

    /// Deletes the archives made (last modified) more than `options.olderThanMs` ago; never a
    /// live session. The report: {"dryRun","pruned":[{"path","gzBytes","archivedMs"}]} in path
    /// order. `.io` when a removal failed (the message says how many went before it).
    @discardableResult
    public func pruneJSON(_ options: ArchiveOptions) throws -> JSONText {
        var o = try options.cStruct()
        return JSONText(try handle.readString { xs_store_prune($0, &o, $1, $2, $3) })
    }

    /// Store.archiveJSON, typed.
    @discardableResult
    public func archive(_ options: ArchiveOptions,
                        progress: ((_ done: UInt64, _ total: UInt64) -> Void)? = nil) throws -> ArchiveReport {
        try archiveJSON(options, progress: progress).decode()
    }

    /// Store.pruneJSON, typed.
    @discardableResult
    public func prune(_ options: ArchiveOptions) throws -> PruneReport { try pruneJSON(options).decode() }
}

/// The progress closure of one archive or import, reached from the C callback through its user
/// pointer.
final class ProgressBox {
    let report: (UInt64, UInt64) -> Void
    init(_ report: @escaping (UInt64, UInt64) -> Void) { self.report = report }
}
