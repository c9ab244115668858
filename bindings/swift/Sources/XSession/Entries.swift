// Typed entries, messages, contexts and tree nodes (docs/format.md, docs/context.md).
//
// Every entry type the engine writes has a struct; both dialects' spellings are members (pi's
// provider/modelId, omp's model/role). Caller JSON (message content, data, details) stays a
// JSONValue. An entry of a type this binding does not know, or a known type with members it
// does not name or with other types than its own (files from other agents), decodes as
// `.other(OtherEntry)`, which keeps the whole object: nothing read is ever dropped.
import Foundation

/// A message (AgentMessage): `role` and `content` typed, every other member (timestamp, usage,
/// provider, toolCallId...) kept as JSON in `members`.
public struct Message: Codable, Sendable, Hashable {
    public var role: String
    /// A string or an array of content blocks; nil for the summaries a context constructs.
    public var content: JSONValue?
    /// The other members, as written.
    public var members: [String: JSONValue]

    public init(role: String, content: JSONValue? = nil, members: [String: JSONValue] = [:]) {
        self.role = role
        self.content = content
        self.members = members
    }

    private enum CodingKeys: String, CodingKey { case role, content }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        role = try c.decode(String.self, forKey: .role)
        content = try c.decodeIfPresent(JSONValue.self, forKey: .content)
        // decodeIfPresent reads null as absent: keep a null content as it was written.
        if content == nil, c.contains(.content) { content = .null }
        members = try otherMembers(decoder, known: ["role", "content"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(role, forKey: .role)
        try c.encodeIfPresent(content, forKey: .content)
        try encodeMembers(members, encoder)
    }

    /// The message's text: a string content, or its "text" blocks joined; for a summary a
    /// context constructs (no content), its "summary".
    public var text: String {
        switch content {
        case .string(let s): return s
        case .array(let blocks): return blocks.compactMap { $0["text"]?.string }.joined()
        default: return members["summary"]?.string ?? ""
        }
    }

    /// The message as the JSON the append functions take.
    public var json: JSONText { (try? JSONValue(encoding: self).text) ?? "{}" }
}

extension JSONValue {
    /// The JSON value of an Encodable (a typed result, a message).
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }
}

/// pi's model of a context: {"provider","modelId"}.
public struct ContextModel: Codable, Sendable, Hashable {
    public var provider: String
    public var modelID: String

    private enum CodingKeys: String, CodingKey {
        case provider
        case modelID = "modelId"
    }
}

/// What the model sees for a path (Session.buildContext; docs/context.md).
public struct SessionContext: Codable, Sendable, Hashable {
    @Nullable public var leafID: String?
    public var messages: [Message]
    @Nullable public var thinkingLevel: String?
    /// pi dialect only: the model, or .some(nil) when none was chosen.
    @Tristate public var model: ContextModel??
    /// Model roles to "provider/id" (omp).
    public var models: [String: String]
    public var injectedTtsrRules: [String]
    public var mode: String
    @Tristate public var modeData: JSONValue??
    @Tristate public var serviceTier: JSONValue??
    @Tristate public var selectedMCPToolNames: JSONValue??
    @Tristate public var hasPersistedMCPToolSelection: Bool??

    private enum CodingKeys: String, CodingKey {
        case leafID = "leafId"
        case messages, thinkingLevel, model, models, injectedTtsrRules, mode, modeData, serviceTier
        case selectedMCPToolNames, hasPersistedMCPToolSelection
    }
}

/// The header line of a session file. Old and foreign files spell it in many ways, so only
/// `type` and `id` are required; other members are kept in `members`.
public struct SessionHeader: Codable, Sendable, Hashable {
    public var type: String
    public var id: String
    public var version: JSONValue?
    public var timestamp: JSONValue?
    public var cwd: JSONValue?
    public var title: JSONValue?
    public var parentSession: JSONValue?
    public var members: [String: JSONValue]

    private enum CodingKeys: String, CodingKey { case type, id, version, timestamp, cwd, title, parentSession }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        id = try c.decode(String.self, forKey: .id)
        // JSONValue decodes null as .null (not as absent): decode(_:forKey:) when present.
        func member(_ k: CodingKeys) throws -> JSONValue? {
            c.contains(k) ? try c.decode(JSONValue.self, forKey: k) : nil
        }
        (version, timestamp, cwd) = (try member(.version), try member(.timestamp), try member(.cwd))
        (title, parentSession) = (try member(.title), try member(.parentSession))
        members = try otherMembers(decoder, known: ["type", "id", "version", "timestamp", "cwd", "title",
                                                    "parentSession"])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(id, forKey: .id)
        for (k, v) in [(CodingKeys.version, version), (.timestamp, timestamp), (.cwd, cwd), (.title, title),
                       (.parentSession, parentSession)] {
            try c.encodeIfPresent(v, forKey: k)
        }
        try encodeMembers(members, encoder)
    }
}

/// One node of Session.tree: the tree flat, depth first.
public struct TreeNode: Codable, Sendable, Hashable {
    public var id: String
    @Nullable public var parentID: String?
    public var depth: Int
    /// The ids of the direct children, in file order.
    public var children: [String]
    @Tristate public var label: String??
    @Tristate public var labelTimestamp: String??
    public var entry: Entry

    private enum CodingKeys: String, CodingKey {
        case id
        case parentID = "parentId"
        case depth, children, label, labelTimestamp, entry
    }
}
