// Portable bundles (docs/bundles.md) and the HTML view (docs/html-view.md): sessions written out
// of the store, as one bundle file another store imports, or as pages a browser opens. The
// reports are typed (BundleOutputs.swift), with JSON twins giving the library's bytes.
internal import CXSession

/// Options of Store.export (xs_export_options). `ExportOptions()` is the library's defaults.
public struct ExportOptions: Sendable, Hashable {
    /// Carry the sessions the named ones descend from (their parentSession chains) too.
    public var lineage: Bool
    /// Compress with gzip instead of zstd.
    public var gzip: Bool

    public init(lineage: Bool = true, gzip: Bool = false) {
        self.lineage = lineage
        self.gzip = gzip
    }

    func cStruct() throws -> xs_export_options {
        var o = xs_export_options()
        try initialised(xs_export_options_init(&o, UInt32(XS_EXPORT_OPTIONS_VERSION)))
        if !lineage { o.flags |= UInt32(XS_EXPORT_NO_LINEAGE) }
        if gzip { o.flags |= UInt32(XS_EXPORT_GZIP) }
        return o
    }
}

/// Options of Store.importBundle (xs_import_bundle_options). `ImportBundleOptions()` is the
/// library's defaults.
public struct ImportBundleOptions: Sendable, Hashable {
    /// Where sessions go: a session whose cwd is `from` or lies below it gets `to` (+ the rest)
    /// instead, and its header keeps the old cwd as "originalCwd". The first pair that applies
    /// wins, hence a list rather than a dictionary. Absolute paths without "." or ".."
    /// components or a trailing "/".
    public var cwdMap: [(from: String, to: String)]
    /// A session id the store holds with other content: import the bundle's copy under a new id
    /// (derived from the old id and its bytes, so a repeated import finds it) instead of
    /// throwing `.exists`.
    public var rename: Bool
    /// Check everything and report what would be done; write nothing.
    public var dryRun: Bool

    public init(cwdMap: [(from: String, to: String)] = [], rename: Bool = false, dryRun: Bool = false) {
        self.cwdMap = cwdMap
        self.rename = rename
        self.dryRun = dryRun
    }

    // Tuples are neither Equatable nor Hashable as types: compare and hash the pairs in order.
    public static func == (a: ImportBundleOptions, b: ImportBundleOptions) -> Bool {
        a.rename == b.rename && a.dryRun == b.dryRun && a.cwdMap.elementsEqual(b.cwdMap) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rename)
        hasher.combine(dryRun)
        for pair in cwdMap {
            hasher.combine(pair.from)
            hasher.combine(pair.to)
        }
    }

    /// The C struct; the map's strings (old0, new0, old1, new1...) live in `args`.
    func cStruct(_ args: CArgs) throws -> xs_import_bundle_options {
        var o = xs_import_bundle_options()
        try initialised(xs_import_bundle_options_init(&o, UInt32(XS_IMPORT_BUNDLE_OPTIONS_VERSION)))
        if rename { o.flags |= UInt32(XS_IMPORT_BUNDLE_RENAME) }
        if dryRun { o.flags |= UInt32(XS_IMPORT_BUNDLE_DRY_RUN) }
        if !cwdMap.isEmpty {
            o.cwd_map = try args.cStrings(cwdMap.flatMap { [$0.from, $0.to] })
            o.cwd_map_len = cwdMap.count * 2
        }
        return o
    }
}

extension Store {
    /// Writes a bundle of `sessions` (ids, unambiguous id prefixes or session files of this
    /// store; one named twice travels once) to `path`, replacing a file there whole. It holds the
    /// sessions byte for byte, unless `options.lineage` is false the sessions they descend from,
    /// every blob they reference and the key records pointing at them. The report
    /// (docs/bundles.md#export): {"path","bytes","compression","sessions":[{"id","path","cwd",
    /// "archived","lineage","bytes","parentSession","parentInBundle"}],"blobs":[{"hash","bytes"}],
    /// "missingBlobs":[...],"keys":[...]}.
    ///
    /// Throws `.invalidArgument` (no sessions, an empty name or path, a session whose id cannot
    /// travel), `.notFound` (a session the store does not have), `.ambiguous`, `.corrupt` (a
    /// damaged blob or archived session), `.conflict` (a file changed during the export: export
    /// again), `.io`, `.noSpace`.
    @discardableResult
    public func exportJSON(_ sessions: [String], to path: String, options: ExportOptions = ExportOptions()) throws
        -> JSONText {
        try CArgs.with { a in
            let ids = try a.cStrings(sessions), p = try a.cString(path)
            var o = try options.cStruct()
            return JSONText(try handle.readString { xs_export($0, ids, sessions.count, p, &o, $1, $2, $3) })
        }
    }

    /// Store.exportJSON, typed.
    @discardableResult
    public func export(_ sessions: [String], to path: String, options: ExportOptions = ExportOptions()) throws
        -> BundleExportReport {
        try exportJSON(sessions, to: path, options: options).decode()
    }

    /// Imports the bundle at `bundlePath` (a local file) into this store: sessions into the
    /// directory of their cwd (after the cwd map) under their own file names, blobs into the blob
    /// store, key records into the keyed store (one the store has with another record is kept).
    /// Every member is checked against the bundle's manifest before anything is placed. Importing
    /// the same bundle again changes nothing (every action "present"). The report
    /// (docs/bundles.md#import): {"dryRun","bundle","sourceRoot","sessions":[{"id","newId","path",
    /// "cwd","oldCwd","archived","action"}],"blobs":[{"hash","action"}],"keys":[{"key","action"}]}.
    ///
    /// Throws `.notFound` (no such file), `.invalidArgument` (an empty path, a cwd map path that is
    /// not absolute), `.version` (a bundle of a newer format), `.corrupt` (a damaged or hostile
    /// bundle; nothing was written), `.exists` (a session id the store holds with other content,
    /// without `rename`; nothing was written), `.io`, `.noSpace`, `.locked` (the keyed store).
    @discardableResult
    public func importBundleJSON(from bundlePath: String, options: ImportBundleOptions = ImportBundleOptions())
        throws -> JSONText {
        try CArgs.with { a in
            let p = try a.cString(bundlePath)
            var o = try options.cStruct(a)
            return JSONText(try handle.readString { xs_import_bundle($0, p, &o, $1, $2, $3) })
        }
    }

    /// Store.importBundleJSON, typed.
    @discardableResult
    public func importBundle(from bundlePath: String, options: ImportBundleOptions = ImportBundleOptions()) throws
        -> BundleImportReport {
        try importBundleJSON(from: bundlePath, options: options).decode()
    }

    /// Writes `sessions` (file paths, ids or unambiguous id prefixes) as self-contained HTML
    /// pages that open offline and fetch nothing. One session: `path` is the page (its directory
    /// must exist). Several: `path` is a directory (made when missing) that gets
    /// "<session id>.html" for each and an "index.html" linking them. The sessions are only read.
    /// The report (docs/html-view.md): {"pages":[{"path","sessionId","entries","messages",
    /// "branchPoints","branches","bytes"}],"index":{"path","bytes"} or null for one session}.
    ///
    /// Throws `.invalidArgument` (no sessions, an empty name or path, one session and `path` a
    /// directory, several and `path` a file, a session named twice), `.notFound` (a name that
    /// matches no session, the page's directory missing), `.ambiguous`, `.noHeader` and
    /// `.corrupt` (a file that is no session), `.io`, `.noSpace`. On an error, pages written
    /// before it stay and no index is written.
    @discardableResult
    public func exportHTMLJSON(_ sessions: [String], to path: String) throws -> JSONText {
        try CArgs.with { a in
            let ids = try a.cStrings(sessions), p = try a.cString(path)
            var o = xs_html_options()
            try initialised(xs_html_options_init(&o, UInt32(XS_HTML_OPTIONS_VERSION)))
            return JSONText(try handle.readString { xs_export_html($0, ids, sessions.count, p, &o, $1, $2, $3) })
        }
    }

    /// Store.exportHTMLJSON, typed.
    @discardableResult
    public func exportHTML(_ sessions: [String], to path: String) throws -> HTMLReport {
        try exportHTMLJSON(sessions, to: path).decode()
    }
}
