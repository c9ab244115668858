// Typed reports of Store.export, Store.importBundle (docs/bundles.md) and Store.exportHTML
// (docs/html-view.md); see Outputs.swift for the conventions (@Nullable: written as null).

/// How a bundle is compressed.
public enum BundleCompression: String, Codable, Sendable, Hashable {
    case zstd, gzip
}

/// A session a bundle carries, in the order they travel: the named ones, then their ancestors.
public struct ExportedSession: Codable, Sendable, Hashable {
    public var id: String
    /// The session's file in the source store.
    public var path: String
    public var cwd: String
    /// Carried as its retention archive (.jsonl.gz).
    public var archived: Bool
    /// Carried only as an ancestor of a named session.
    public var lineage: Bool
    public var bytes: Int64
    /// The header's parentSession (an id or a file path).
    @Nullable public var parentSession: String?
    /// The parent travels in the same bundle.
    public var parentInBundle: Bool
}

/// A blob a bundle carries.
public struct ExportedBlob: Codable, Sendable, Hashable {
    public var hash: String
    public var bytes: Int64
}

/// What Store.export wrote (docs/bundles.md#export).
public struct BundleExportReport: Codable, Sendable, Hashable {
    /// The bundle file.
    public var path: String
    public var bytes: Int64
    public var compression: BundleCompression
    public var sessions: [ExportedSession]
    public var blobs: [ExportedBlob]
    /// Blobs the sessions reference that the blob store does not have: not carried.
    public var missingBlobs: [String]
    /// The keys of the key records carried.
    public var keys: [String]
}

/// What an import did with one thing of the bundle.
public enum BundleImportAction: String, Codable, Sendable, Hashable {
    /// Placed in the store.
    case imported
    /// A session placed under a new id (ImportBundleOptions.rename).
    case renamed
    /// Already in the store with the same content: left as it was.
    case present
    /// A key the store has with another record: the store's record is kept.
    case kept
}

/// A session of an imported bundle, in manifest order.
public struct BundleImportedSession: Codable, Sendable, Hashable {
    /// The id in the bundle.
    public var id: String
    /// The id it got when renamed; nil otherwise.
    @Nullable public var newID: String?
    /// Its file in this store (the existing one when present).
    public var path: String
    /// Its cwd in this store (after the cwd map).
    public var cwd: String
    /// The cwd the bundle carried, when the cwd map changed it.
    @Nullable public var oldCwd: String?
    public var archived: Bool
    public var action: BundleImportAction

    private enum CodingKeys: String, CodingKey {
        case id
        case newID = "newId"
        case path
        case cwd
        case oldCwd
        case archived
        case action
    }
}

/// A blob of an imported bundle.
public struct BundleImportedBlob: Codable, Sendable, Hashable {
    public var hash: String
    public var action: BundleImportAction
}

/// A key record of an imported bundle.
public struct BundleImportedKey: Codable, Sendable, Hashable {
    public var key: String
    public var action: BundleImportAction
}

/// What Store.importBundle did (docs/bundles.md#import).
public struct BundleImportReport: Codable, Sendable, Hashable {
    public var dryRun: Bool
    /// The bundle file.
    public var bundle: String
    /// The root of the store the bundle was exported from.
    public var sourceRoot: String
    public var sessions: [BundleImportedSession]
    public var blobs: [BundleImportedBlob]
    public var keys: [BundleImportedKey]
}

/// A page Store.exportHTML wrote.
public struct HTMLPage: Codable, Sendable, Hashable {
    public var path: String
    /// The id in the session's header.
    public var sessionID: String
    /// Every entry of the session, once.
    public var entries: Int64
    /// Message entries (elements article.msg).
    public var messages: Int64
    /// Places where the tree forks (elements div.branch-point).
    public var branchPoints: Int64
    /// Branches other than the one the page goes on with, each collapsed where it leaves.
    public var branches: Int64
    public var bytes: Int64

    private enum CodingKeys: String, CodingKey {
        case path
        case sessionID = "sessionId"
        case entries
        case messages
        case branchPoints
        case branches
        case bytes
    }
}

/// The index page of several sessions' pages.
public struct HTMLIndexPage: Codable, Sendable, Hashable {
    public var path: String
    public var bytes: Int64
}

/// What Store.exportHTML wrote (docs/html-view.md).
public struct HTMLReport: Codable, Sendable, Hashable {
    /// In the order the sessions were named.
    public var pages: [HTMLPage]
    /// `<path>/index.html` for several sessions; nil for one.
    @Nullable public var index: HTMLIndexPage?
}
