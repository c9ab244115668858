// Typed results of the keys' stats repair and of the imports (docs/import.md,
// docs/import-claude.md#the-listing, docs/import-hosts.md#listing-json); see Outputs.swift.

/// A row or file of a foreign store that was not imported (or listed), and why.
public struct SkippedRow: Codable, Sendable, Hashable {
    public var file: String
    public var line: Int64
    public var reason: String
}

/// One session an import wrote or continued.
public struct ImportedSession: Codable, Sendable, Hashable {
    public var sourceFile: String
    public var sessionID: String
    public var sessionFile: String
    public var created: Bool
    public var rowsRead: Int64
    public var imported: Int64
    public var keptAsCustom: Int64
    public var alreadyImported: Int64
    public var skipped: Int64

    private enum CodingKeys: String, CodingKey {
        case sourceFile
        case sessionID = "sessionId"
        case sessionFile
        case created
        case rowsRead
        case imported
        case keptAsCustom
        case alreadyImported
        case skipped
    }
}

/// What Store.import did (docs/import.md#the-report).
public struct ImportReport: Codable, Sendable, Hashable {
    public var source: String
    public var root: String
    public var dryRun: Bool
    public var rowsRead: Int64
    public var imported: Int64
    public var keptAsCustom: Int64
    public var alreadyImported: Int64
    public var skipped: Int64
    public var sessions: [ImportedSession]
    public var skippedRows: [SkippedRow]
    public var notes: [String]
}

/// A transcript of a Claude Code project (docs/import-claude.md#the-listing).
public struct ClaudeTranscript: Codable, Sendable, Hashable {
    public var file: String
    public var kind: String
    public var sessionID: String
    public var parentSessionID: String
    public var agentID: String
    public var cwd: String
    public var firstPrompt: String
    public var summary: String
    public var title: String
    public var rows: Int64
    public var badRows: Int64
    public var size: Int64
    public var mtime: Int64
    public var leafUUID: String
    public var inIndex: Bool

    private enum CodingKeys: String, CodingKey {
        case file
        case kind
        case sessionID = "sessionId"
        case parentSessionID = "parentSessionId"
        case agentID = "agentId"
        case cwd
        case firstPrompt
        case summary
        case title
        case rows
        case badRows
        case size
        case mtime
        case leafUUID = "leafUuid"
        case inIndex
    }
}

/// A Claude Code project directory.
public struct ClaudeProject: Codable, Sendable, Hashable {
    public var dir: String
    public var hasIndex: Bool
    public var originalPath: String
    public var transcripts: [ClaudeTranscript]
    public var skippedRows: [SkippedRow]
    public var notes: [String]
}

/// Store.foreignList(.claude).
public struct ClaudeListing: Codable, Sendable, Hashable {
    public var source: String
    public var root: String
    public var projects: [ClaudeProject]
}

/// A key of a gateway agent's index (docs/import-hosts.md#listing-json).
public struct GatewayKey: Codable, Sendable, Hashable {
    public var key: String
    public var sessionID: String
    public var line: Int64
    @Nullable public var transcript: String?

    private enum CodingKeys: String, CodingKey {
        case key
        case sessionID = "sessionId"
        case line
        case transcript
    }
}

/// A transcript of a gateway agent.
public struct GatewayTranscript: Codable, Sendable, Hashable {
    public var file: String
    public var path: String
    public var sessionID: String
    @Nullable public var threadID: String?
    public var generation: String
    @Nullable public var stamp: String?
    public var size: Int64
    public var mtimeMs: Int64
    public var writeLock: Bool
    public var keys: [String]

    private enum CodingKeys: String, CodingKey {
        case file
        case path
        case sessionID = "sessionId"
        case threadID = "threadId"
        case generation
        case stamp
        case size
        case mtimeMs
        case writeLock
        case keys
    }
}

/// An agent directory of a gateway store.
public struct GatewayAgent: Codable, Sendable, Hashable {
    public var id: String
    public var dir: String
    @Nullable public var index: String?
    public var indexRows: Int64
    public var keys: [GatewayKey]
    public var transcripts: [GatewayTranscript]
    public var problems: [SkippedRow]
    public var notes: [String]
}

/// Store.foreignList(.gateway).
public struct GatewayListing: Codable, Sendable, Hashable {
    public var source: String
    public var root: String
    public var agents: [GatewayAgent]
}

/// A session of a myagents store.
public struct MyAgentsSession: Codable, Sendable, Hashable {
    public var id: String
    @Nullable public var messagesFile: String?
    @Nullable public var legacyFile: String?
    public var legacyBeside: Bool
    public var inIndex: Bool
    @Nullable public var line: Int64?
    @Nullable public var title: String?
    @Nullable public var agentDir: String?
    @Nullable public var createdAt: String?
    @Nullable public var lastActiveAt: String?
    @Nullable public var stats: [String: Double]?

    private enum CodingKeys: String, CodingKey {
        case id
        case messagesFile
        case legacyFile
        case legacyBeside
        case inIndex
        case line
        case title
        case agentDir
        case createdAt
        case lastActiveAt
        case stats
    }
}

/// Store.foreignList(.myagents).
public struct MyAgentsListing: Codable, Sendable, Hashable {
    public var source: String
    public var root: String
    @Nullable public var index: String?
    public var indexLock: String
    public var indexRows: Int64
    public var sessions: [MyAgentsSession]
    public var problems: [SkippedRow]
    public var notes: [String]
}

/// A rollout of a Codex sessions directory (docs/import-codex.md#the-listing); "" where the
/// rollout does not say.
public struct CodexSession: Codable, Sendable, Hashable {
    public var file: String
    public var sessionId: String
    public var cwd: String
    public var started: String
    public var cliVersion: String
    public var originator: String
    public var model: String
    public var firstPrompt: String
    public var rows: Int64
    public var badRows: Int64
    public var size: Int64
    public var mtime: Int64
}

/// Store.foreignList(.codex).
public struct CodexListing: Codable, Sendable, Hashable {
    public var source: String
    public var root: String
    public var sessions: [CodexSession]
    public var problems: [SkippedRow]
    public var notes: [String]
}

/// What Store.foreignList returns: the listing of the kind of store asked for.
public enum ForeignListing: Codable, Sendable, Hashable {
    case claude(ClaudeListing)
    case gateway(GatewayListing)
    case myagents(MyAgentsListing)
    case codex(CodexListing)

    private enum CodingKeys: String, CodingKey { case source }

    public init(from decoder: any Decoder) throws {
        let source = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .source)
        switch source {
        case "claude": self = .claude(try ClaudeListing(from: decoder))
        case "gateway": self = .gateway(try GatewayListing(from: decoder))
        case "myagents": self = .myagents(try MyAgentsListing(from: decoder))
        case "codex": self = .codex(try CodexListing(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                   debugDescription: "unknown listing source \(source)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .claude(let l): try l.encode(to: encoder)
        case .gateway(let l): try l.encode(to: encoder)
        case .myagents(let l): try l.encode(to: encoder)
        case .codex(let l): try l.encode(to: encoder)
        }
    }
}
