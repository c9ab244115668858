// Import (docs/import.md): another agent's store read into native sessions of this one, and the
// read-only listing of what such a store holds. The source is only ever read. The report and
// the listing are typed (ImportOutputs.swift), with JSON twins giving the library's bytes.
internal import CXSession

/// The kinds of foreign store the library imports. An enum, so a kind the library does not know
/// cannot be passed at all (C's XS_EINVAL for it has no Swift counterpart).
public enum ImportKind: String, Sendable, Hashable, CaseIterable {
    /// Claude Code (~/.claude/projects): one project directory (it holds a *.jsonl file or
    /// sessions-index.json directly) or the projects root (docs/import-claude.md).
    case claude
    /// A myagents store (~/.myagents): the directory holding sessions.json and sessions/.
    case myagents
    /// A gateway state directory such as ~/.openclaw, its agents/ directory, or one
    /// agents/<id>/sessions/ directory (docs/import-hosts.md).
    case gateway
    /// Codex CLI's sessions directory ($CODEX_HOME/sessions or ~/.codex/sessions), whose
    /// rollout-*.jsonl files are read at any depth (docs/import-codex.md).
    case codex
}

/// Options of Store.import (xs_import_options). `ImportOptions()` is the library's defaults.
public struct ImportOptions: Sendable, Hashable {
    /// Report what would be imported; write nothing (not even the store's directory).
    public var dryRun: Bool
    /// `.claude` only: the cwd of every imported session; nil = each conversation's own (else
    /// the index's originalPath). Absolute, without "." or ".." components.
    public var targetCwd: String?
    /// `.gateway`, `.myagents` and `.codex` only: the cwd of a session its source names none
    /// for; nil = the source directory. Absolute, as targetCwd.
    public var fallbackCwd: String?
    /// How long to wait (ms, >= 0) for a host's index lock before reading the index anyway, with
    /// a note; nil = the library's default (2000). A lock older than 30 s is not waited for.
    public var lockWaitMs: Int64?
    /// "Now" for a lock's age (ms since the epoch); nil = the system clock.
    public var nowMs: Int64?

    public init(dryRun: Bool = false, targetCwd: String? = nil, fallbackCwd: String? = nil,
                lockWaitMs: Int64? = nil, nowMs: Int64? = nil) {
        self.dryRun = dryRun
        self.targetCwd = targetCwd
        self.fallbackCwd = fallbackCwd
        self.lockWaitMs = lockWaitMs
        self.nowMs = nowMs
    }

    /// The C struct (version 2; the progress callback is set by importJSON); its strings live in
    /// `args`.
    func cStruct(_ args: CArgs) throws -> xs_import_options {
        var o = xs_import_options()
        try initialised(xs_import_options_init(&o, UInt32(XS_IMPORT_OPTIONS_VERSION)))
        if dryRun { o.flags |= UInt32(XS_IMPORT_DRY_RUN) }
        o.target_cwd = try args.cString(targetCwd)
        o.fallback_cwd = try args.cString(fallbackCwd)
        if let lockWaitMs { o.lock_wait_ms = lockWaitMs }
        if let nowMs { o.now_ms = nowMs }
        return o
    }
}

extension Store {
    /// Imports the store of `kind` at `sourcePath` (a directory; relative to the process's
    /// working directory) into this store: every conversation becomes a native session (created,
    /// or continued by a re-import, which adds only what is new), every host index key a key of
    /// the keyed store. The report (docs/import.md#the-report): {"source","root","dryRun",
    /// "rowsRead","imported","keptAsCustom","alreadyImported","skipped","sessions":[{"sourceFile",
    /// "sessionId","sessionFile","created","rowsRead","imported","keptAsCustom","alreadyImported",
    /// "skipped"}],"skippedRows":[{"file","line","reason"}],"notes":[...]}. Bad rows and files
    /// inside the source are in the report, never an error.
    ///
    /// Throws `.invalidArgument` (an empty path, one that is a file, a cwd of the wrong kind,
    /// relative or with ".." components, a negative lockWaitMs), `.notFound` (the path does not
    /// exist; for `.myagents`, a directory with neither sessions.json nor sessions/), and the
    /// store's write errors (`.io`, `.noSpace`, `.locked`...); sessions written before a failed
    /// write stay whole. An import can take long: the store is busy meanwhile (other calls on it
    /// wait), so call it off the main thread.
    ///
    /// `progress(done, total)` (options version 2) counts source bytes: once with 0 before the
    /// first, then about a thousand times, the last with done == total. It follows archive's
    /// rules: it runs on the calling thread while the import holds the store (calls on this
    /// store from it throw `.misuse`), and it cannot throw.
    @discardableResult
    public func importJSON(_ kind: ImportKind, from sourcePath: String, options: ImportOptions = ImportOptions(),
                           progress: ((_ done: UInt64, _ total: UInt64) -> Void)? = nil) throws -> JSONText {
        try CArgs.with { a in
            let k = try a.cString(kind.rawValue), p = try a.cString(sourcePath)
            var o = try options.cStruct(a)
            guard let progress else { return JSONText(try handle.readString { xs_import($0, k, p, &o, $1, $2, $3) }) }
            let box = ProgressBox(progress)
            o.progress = { done, total, user in
                Unmanaged<ProgressBox>.fromOpaque(user!).takeUnretainedValue().report(done, total)
            }
            o.progress_user = Unmanaged.passUnretained(box).toOpaque()
            return try withExtendedLifetime(box) {
                JSONText(try handle.readStringWithCallbacks { xs_import($0, k, p, &o, $1, $2, $3) })
            }
        }
    }

    /// What the store of `kind` at `sourcePath` holds, read only (nothing is written anywhere,
    /// this store included). `.claude`: {"source":"claude","root","projects":[{"dir","hasIndex",
    /// "originalPath","transcripts":[...],"skippedRows":[...],"notes":[...]}]}
    /// (docs/import-claude.md#the-listing); `.gateway` and `.myagents`: the listings of
    /// docs/import-hosts.md#listing-json; `.codex`: its rollouts (docs/import-codex.md#the-listing).
    /// `lockWaitMs` and `nowMs` as in ImportOptions. Throws
    /// as `import` does for its arguments, and `.io`.
    public func foreignListJSON(_ kind: ImportKind, at sourcePath: String, lockWaitMs: Int64? = nil,
                                nowMs: Int64? = nil) throws -> JSONText {
        try CArgs.with { a in
            let k = try a.cString(kind.rawValue), p = try a.cString(sourcePath)
            var o = try ImportOptions(lockWaitMs: lockWaitMs, nowMs: nowMs).cStruct(a)
            return JSONText(try handle.readString { xs_foreign_list($0, k, p, &o, $1, $2, $3) })
        }
    }

    /// Store.importJSON, typed.
    @discardableResult
    public func `import`(_ kind: ImportKind, from sourcePath: String, options: ImportOptions = ImportOptions(),
                         progress: ((_ done: UInt64, _ total: UInt64) -> Void)? = nil) throws -> ImportReport {
        try importJSON(kind, from: sourcePath, options: options, progress: progress).decode()
    }

    /// Store.foreignListJSON, typed: the listing of `kind`.
    public func foreignList(_ kind: ImportKind, at sourcePath: String, lockWaitMs: Int64? = nil,
                            nowMs: Int64? = nil) throws -> ForeignListing {
        try foreignListJSON(kind, at: sourcePath, lockWaitMs: lockWaitMs, nowMs: nowMs).decode()
    }
}
