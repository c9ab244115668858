// Options for opening stores and sessions and for listing, mirrored as Swift values. Each is
// turned into its C struct by the library's own *_init function first, so a field Swift leaves
// alone keeps the library's default (and new fields of later versions stay defaulted).
internal import CXSession

public struct StoreOptions: Sendable, Hashable {
    /// Sessions live in memory only; nothing touches the disk.
    public var inMemory: Bool
    /// The dialect of new sessions that do not force one (`.pi`: XS_STORE_DIALECT_PI).
    public var dialect: Dialect
    /// The keyed store's document (`Store.keys`); nil = <root>/sessions.json.
    public var keysPath: String?
    /// The reset policy of `Store.sessionForKey` when a call names none; nil = sessions never
    /// expire. Its time zone is read when the store opens (an unknown one: `.invalidArgument`).
    public var resetPolicy: ResetPolicy?

    public init(inMemory: Bool = false, dialect: Dialect = .omp, keysPath: String? = nil,
                resetPolicy: ResetPolicy? = nil) {
        self.inMemory = inMemory
        self.dialect = dialect
        self.keysPath = keysPath
        self.resetPolicy = resetPolicy
    }

    /// The C struct (version 3: keys_path, reset_policy); its strings and policy live in `args`.
    func cStruct(_ args: CArgs) throws -> xs_store_options {
        var o = xs_store_options()
        try initialised(xs_store_options_init(&o, UInt32(XS_STORE_OPTIONS_VERSION)))
        if inMemory { o.flags |= UInt32(XS_STORE_IN_MEMORY) }
        if dialect == .pi { o.flags |= UInt32(XS_STORE_DIALECT_PI) }
        o.keys_path = try args.cString(keysPath)
        if let resetPolicy { o.reset_policy = args.pointer(to: try resetPolicy.cStruct(args)) }
        return o
    }
}

public struct SessionOptions: Sendable, Hashable {
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// No writer lock; writes throw `.readOnly`; nothing is ever written (not even a migration).
        public static let readOnly = Flags(rawValue: UInt32(XS_SESSION_READ_ONLY))
        /// open(): a missing file becomes a new session at that path.
        public static let create = Flags(rawValue: UInt32(XS_SESSION_CREATE))
        /// Write the file at once instead of at the first assistant message.
        public static let noDefer = Flags(rawValue: UInt32(XS_SESSION_NO_DEFER))
        /// fdatasync every append before returning (power-loss safe).
        public static let sync = Flags(rawValue: UInt32(XS_SESSION_SYNC))
    }

    /// A reproducible clock for tests that compare exact bytes: the first timestamp is
    /// `startMs` (ms since the epoch), each later one `stepMs` further.
    public struct FixedClock: Sendable, Hashable {
        public var startMs: Int64
        public var stepMs: Int64
        public init(startMs: Int64, stepMs: Int64 = 0) {
            self.startMs = startMs
            self.stepMs = stepMs
        }
    }

    public var flags: Flags
    /// Longest line accepted on load or append; 0 = the library's default (64 MiB).
    public var maxLineBytes: UInt64
    /// Deepest JSON value accepted; 0 = the library's default (256).
    public var maxDepth: UInt32
    /// Forces the dialect the session writes, for a new session and an existing file alike.
    /// nil (auto): an existing file's own (as its lines show), else the store's default; forks
    /// and branched sessions take their source's.
    public var dialect: Dialect?
    public var fixedClock: FixedClock?
    /// Non-zero: entry ids come from a reproducible sequence.
    public var idSeed: UInt64
    /// For new sessions: header cwd (open only; create takes the cwd as an argument).
    public var cwd: String?
    /// For new sessions: the id ([A-Za-z0-9_-], 1-64 chars); nil = generated (16 hex chars; a
    /// UUIDv7 in the pi dialect).
    public var sessionID: String?
    /// For new sessions: the header's title (in the pi dialect a first session_info entry).
    public var title: String?
    /// For new sessions: header parentSession (an id or a path).
    public var parentSession: String?
    /// A key of the store's keyed document (`Store.keys`) this session writes its stats into
    /// (see `Session.stats()`); nil = none. Not with `.readOnly` (`.invalidArgument`).
    public var key: String?

    public init(flags: Flags = [], maxLineBytes: UInt64 = 0, maxDepth: UInt32 = 0, dialect: Dialect? = nil,
                fixedClock: FixedClock? = nil, idSeed: UInt64 = 0, cwd: String? = nil, sessionID: String? = nil,
                title: String? = nil, parentSession: String? = nil, key: String? = nil) {
        self.flags = flags
        self.maxLineBytes = maxLineBytes
        self.maxDepth = maxDepth
        self.dialect = dialect
        self.fixedClock = fixedClock
        self.idSeed = idSeed
        self.cwd = cwd
        self.sessionID = sessionID
        self.title = title
        self.parentSession = parentSession
        self.key = key
    }

    /// The C struct; its strings live in `args`.
    func cStruct(_ args: CArgs) throws -> xs_session_options {
        var o = xs_session_options()
        try initialised(xs_session_options_init(&o, UInt32(XS_SESSION_OPTIONS_VERSION)))
        o.flags |= flags.rawValue
        if let fixedClock {
            o.flags |= UInt32(XS_SESSION_FIXED_CLOCK)
            o.clock_start_ms = fixedClock.startMs
            o.clock_step_ms = fixedClock.stepMs
        }
        o.max_line_bytes = maxLineBytes
        o.max_depth = maxDepth
        o.dialect = dialect?.cValue ?? UInt32(XS_DIALECT_AUTO)
        o.id_seed = idSeed
        o.cwd = try args.cString(cwd)
        o.session_id = try args.cString(sessionID)
        o.title = try args.cString(title)
        o.parent_session = try args.cString(parentSession)
        o.key = try args.cString(key)
        return o
    }
}

/// Options of Store.list.
public struct ListOptions: Sendable, Hashable {
    /// Only sessions whose header names this cwd; nil = every working directory.
    public var cwd: String?
    /// Read whole files: adds messageCount, entryCount and diagnostics.
    public var full: Bool
    /// At most this many (the newest); 0 = all.
    public var limit: UInt64

    public init(cwd: String? = nil, full: Bool = false, limit: UInt64 = 0) {
        self.cwd = cwd
        self.full = full
        self.limit = limit
    }

    func cStruct(_ args: CArgs) throws -> xs_list_options {
        var o = xs_list_options()
        try initialised(xs_list_options_init(&o, UInt32(XS_LIST_OPTIONS_VERSION)))
        if full { o.flags |= UInt32(XS_LIST_FULL) }
        o.limit = limit
        o.cwd = try args.cString(cwd)
        return o
    }
}

/// How entries are read (Session.entries, entry, path, children, tree).
public struct ReadFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Blob refs replaced by the blobs' content, as contexts show them (default: as stored).
    public static let resolveBlobs = ReadFlags(rawValue: UInt32(XS_READ_RESOLVE_BLOBS))
}

/// An *_init function failing means this binding and the library disagree about a struct
/// version: a build problem, reported with the library's status.
func initialised(_ rc: xs_status) throws {
    if rc != XS_OK { throw XSessionError(status: rc) }
}
