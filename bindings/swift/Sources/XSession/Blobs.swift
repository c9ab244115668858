// The store's blobs: <root>/blobs/<sha256 hex>, where appends move large images.
internal import CXSession
import Foundation

/// Options of Store.collectGarbage.
public struct GCOptions: Sendable, Hashable {
    /// Report what would be deleted; delete nothing.
    public var dryRun: Bool
    /// Never delete a file younger than this (ms); nil = the library's default (1 hour).
    public var graceMs: Int64?
    /// "Now" for the age test (ms since the epoch); nil = the system clock.
    public var nowMs: Int64?

    public init(dryRun: Bool = false, graceMs: Int64? = nil, nowMs: Int64? = nil) {
        self.dryRun = dryRun
        self.graceMs = graceMs
        self.nowMs = nowMs
    }

    func cStruct() throws -> xs_gc_options {
        var o = xs_gc_options()
        try initialised(xs_gc_options_init(&o, UInt32(XS_GC_OPTIONS_VERSION)))
        if dryRun { o.flags |= UInt32(XS_GC_DRY_RUN) }
        if let graceMs { o.grace_ms = graceMs }
        if let nowMs { o.now_ms = nowMs }
        return o
    }
}

extension Store {
    /// Stores `data` atomically; returns its SHA-256 as lowercase hex. Storing content that is
    /// already there refreshes its age for the garbage collector.
    @discardableResult
    public func putBlob(_ data: Data) throws -> String {
        try handle.with { st in
            try fixedText(size: XS_HASH_BUFSIZE) { hash in
                try handle.check(data.withUnsafeBytes { xs_blob_put(st, $0.baseAddress, $0.count, hash) }, st)
            }
        }
    }

    /// A blob's bytes, verified against its hash: `.notFound` if missing, `.corrupt` if the
    /// content does not match its name.
    public func blob(_ hash: String) throws -> Data {
        try CArgs.with { a in
            let h = try a.cString(hash)
            return try handle.readData { xs_blob_get($0, h, $1, $2, $3) }
        }
    }

    /// The blob directory as JSON: {"count","bytes","blobs":[{"hash","size","mtimeMs"}],
    /// "others":[...]}; with `verify`, each blob is read and hashed and carries "problem".
    public func listBlobsJSON(verify: Bool = false) throws -> JSONText {
        let flags = verify ? UInt32(XS_BLOB_LIST_VERIFY) : 0
        return JSONText(try handle.readString { xs_blob_list($0, flags, $1, $2, $3) })
    }

    /// Deletes unreferenced blobs older than the grace period; returns the report
    /// {"dryRun","filesScanned","referenced","bytesFreed","deleted","young","missing"}.
    public func collectGarbageJSON(_ options: GCOptions = GCOptions()) throws -> JSONText {
        var o = try options.cStruct()
        return JSONText(try handle.readString { xs_blob_gc($0, &o, $1, $2, $3) })
    }

    /// The blob directory (Store.listBlobsJSON, typed).
    public func listBlobs(verify: Bool = false) throws -> BlobList { try listBlobsJSON(verify: verify).decode() }

    /// Store.collectGarbageJSON, typed.
    @discardableResult
    public func collectGarbage(_ options: GCOptions = GCOptions()) throws -> GCReport {
        try collectGarbageJSON(options).decode()
    }
}
