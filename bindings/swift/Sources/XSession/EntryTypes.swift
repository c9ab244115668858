// The Entry enum: one case per entry type the engine writes, and `.other` for everything else
// (see Entries.swift). Each case holds a TypedEntry: the envelope (type, id, parentID,
// timestamp) and the type's own members (its Fields struct, named as in the file), which read
// as members of the entry itself (`compaction.summary`).
import Foundation

public enum Entry: Codable, Sendable, Hashable {
    case message(Message)
    case thinkingLevelChange(ThinkingLevelChange)
    case modelChange(ModelChange)
    case compaction(Compaction)
    case branchSummary(BranchSummary)
    case custom(Custom)
    case customMessage(CustomMessage)
    case label(Label)
    case ttsrInjection(TTSRInjection)
    case sessionInit(SessionInit)
    case modeChange(ModeChange)
    case sessionInfo(SessionInfo)
    case serviceTierChange(ServiceTierChange)
    case mcpToolSelection(MCPToolSelection)
    /// An entry of another type, or of a known type in a shape this binding does not type.
    case other(OtherEntry)

    public init(from decoder: any Decoder) throws {
        let raw = try JSONValue(from: decoder)
        guard case .object = raw else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                   debugDescription: "an entry must be a JSON object"))
        }
        self = Entry.typed(raw) ?? .other(OtherEntry(raw: raw))
    }

    /// The typed case of `raw`, when its type is known and the typed value encodes back to
    /// exactly `raw` (no member dropped or retyped).
    private static func typed(_ raw: JSONValue) -> Entry? {
        func attempt<T: Codable>(_ type: T.Type, _ wrap: (T) -> Entry) -> Entry? {
            guard let value = try? raw.decode(T.self), (try? JSONValue(encoding: value)) == raw else { return nil }
            return wrap(value)
        }
        switch raw["type"]?.string {
        case "message": return attempt(Message.self, Entry.message)
        case "thinking_level_change": return attempt(ThinkingLevelChange.self, Entry.thinkingLevelChange)
        case "model_change": return attempt(ModelChange.self, Entry.modelChange)
        case "compaction": return attempt(Compaction.self, Entry.compaction)
        case "branch_summary": return attempt(BranchSummary.self, Entry.branchSummary)
        case "custom": return attempt(Custom.self, Entry.custom)
        case "custom_message": return attempt(CustomMessage.self, Entry.customMessage)
        case "label": return attempt(Label.self, Entry.label)
        case "ttsr_injection": return attempt(TTSRInjection.self, Entry.ttsrInjection)
        case "session_init": return attempt(SessionInit.self, Entry.sessionInit)
        case "mode_change": return attempt(ModeChange.self, Entry.modeChange)
        case "session_info": return attempt(SessionInfo.self, Entry.sessionInfo)
        case "service_tier_change": return attempt(ServiceTierChange.self, Entry.serviceTierChange)
        case "mcp_tool_selection": return attempt(MCPToolSelection.self, Entry.mcpToolSelection)
        default: return nil
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .message(let e): try e.encode(to: encoder)
        case .thinkingLevelChange(let e): try e.encode(to: encoder)
        case .modelChange(let e): try e.encode(to: encoder)
        case .compaction(let e): try e.encode(to: encoder)
        case .branchSummary(let e): try e.encode(to: encoder)
        case .custom(let e): try e.encode(to: encoder)
        case .customMessage(let e): try e.encode(to: encoder)
        case .label(let e): try e.encode(to: encoder)
        case .ttsrInjection(let e): try e.encode(to: encoder)
        case .sessionInit(let e): try e.encode(to: encoder)
        case .modeChange(let e): try e.encode(to: encoder)
        case .sessionInfo(let e): try e.encode(to: encoder)
        case .serviceTierChange(let e): try e.encode(to: encoder)
        case .mcpToolSelection(let e): try e.encode(to: encoder)
        case .other(let e): try e.encode(to: encoder)
        }
    }

    /// The whole entry as JSON (for a typed entry, what it encodes to: the object as read).
    public var raw: JSONValue {
        if case .other(let e) = self { return e.raw }
        return (try? JSONValue(encoding: self)) ?? .null
    }

    /// The typed struct of the entry; nil for `.other`.
    public var typed: (any EntryEnvelope)? {
        switch self {
        case .message(let e): return e
        case .thinkingLevelChange(let e): return e
        case .modelChange(let e): return e
        case .compaction(let e): return e
        case .branchSummary(let e): return e
        case .custom(let e): return e
        case .customMessage(let e): return e
        case .label(let e): return e
        case .ttsrInjection(let e): return e
        case .sessionInit(let e): return e
        case .modeChange(let e): return e
        case .sessionInfo(let e): return e
        case .serviceTierChange(let e): return e
        case .mcpToolSelection(let e): return e
        case .other: return nil
        }
    }

    public var type: String { typed?.type ?? raw["type"]?.string ?? "" }
    public var id: String { typed?.id ?? raw["id"]?.string ?? "" }
    /// nil for a root.
    public var parentID: String? { typed.map(\.parentID) ?? raw["parentId"]?.string }
    public var timestamp: String { typed?.timestamp ?? raw["timestamp"]?.string ?? "" }

    /// The message of a "message" entry.
    public var message: XSession.Message? {
        if case .message(let e) = self { return e.message }
        return nil
    }
}

/// What every typed entry has: the envelope of docs/format.md.
public protocol EntryEnvelope: Codable, Sendable, Hashable {
    var type: String { get }
    var id: String { get }
    /// nil for a root.
    var parentID: String? { get }
    var timestamp: String { get }
}

/// An entry of a type this binding types: the envelope and the type's own members (`Fields`),
/// read from and written to one JSON object. The fields read as members of the entry
/// (`entry.summary` for `entry.fields.summary`).
@dynamicMemberLookup
public struct TypedEntry<Fields: Codable & Sendable & Hashable>: EntryEnvelope {
    public var type: String
    public var id: String
    /// nil for a root ("parentId": null; the member is always written).
    public var parentID: String?
    public var timestamp: String
    public var fields: Fields

    public init(type: String, id: String, parentID: String?, timestamp: String, fields: Fields) {
        (self.type, self.id, self.parentID, self.timestamp, self.fields) = (type, id, parentID, timestamp, fields)
    }

    private enum CodingKeys: String, CodingKey {
        case type, id
        case parentID = "parentId"
        case timestamp
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decode(String.self, forKey: .type)
        id = try c.decode(String.self, forKey: .id)
        parentID = try c.decodeNil(forKey: .parentID) ? nil : try c.decode(String.self, forKey: .parentID)
        timestamp = try c.decode(String.self, forKey: .timestamp)
        fields = try Fields(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(id, forKey: .id)
        if let parentID { try c.encode(parentID, forKey: .parentID) } else { try c.encodeNil(forKey: .parentID) }
        try c.encode(timestamp, forKey: .timestamp)
        try fields.encode(to: encoder)  // the same object: JSONEncoder merges keyed containers
    }

    public subscript<T>(dynamicMember path: WritableKeyPath<Fields, T>) -> T {
        get { fields[keyPath: path] }
        set { fields[keyPath: path] = newValue }
    }
}

/// An entry this binding does not type: the object as read.
public struct OtherEntry: Codable, Sendable, Hashable {
    public var raw: JSONValue

    public init(raw: JSONValue) { self.raw = raw }
    public init(from decoder: any Decoder) throws { raw = try JSONValue(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try raw.encode(to: encoder) }
}

extension Entry {
    /// A "message" entry.
    public typealias Message = TypedEntry<MessageFields>

    /// The members of a "message" entry.
    public struct MessageFields: Codable, Sendable, Hashable {
        public var message: XSession.Message
    }

    /// A "thinking_level_change" entry.
    public typealias ThinkingLevelChange = TypedEntry<ThinkingLevelChangeFields>

    /// The members of a "thinking_level_change" entry.
    public struct ThinkingLevelChangeFields: Codable, Sendable, Hashable {
        @Nullable public var thinkingLevel: String?
    }

    /// A "model_change" entry: omp writes `model` ("provider/id") and `role`, pi `provider` and `modelID`.
    public typealias ModelChange = TypedEntry<ModelChangeFields>

    /// The members of a "model_change" entry.
    public struct ModelChangeFields: Codable, Sendable, Hashable {
        @Tristate public var model: String??
        @Tristate public var role: String??
        @Tristate public var provider: String??
        @Tristate public var modelID: String??

        private enum CodingKeys: String, CodingKey {
            case model
            case role
            case provider
            case modelID = "modelId"
        }
    }

    /// A "compaction" entry: a summary replacing the entries before `firstKeptEntryID`.
    public typealias Compaction = TypedEntry<CompactionFields>

    /// The members of a "compaction" entry.
    public struct CompactionFields: Codable, Sendable, Hashable {
        public var summary: String
        @Tristate public var shortSummary: String??
        public var firstKeptEntryID: String?  // absent in compactions migrated from v1 files
        public var tokensBefore: Double
        @Tristate public var details: JSONValue??
        @Tristate public var fromExtension: Bool??
        @Tristate public var fromHook: Bool??
        @Tristate public var preserveData: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case summary
            case shortSummary
            case firstKeptEntryID = "firstKeptEntryId"
            case tokensBefore
            case details
            case fromExtension
            case fromHook
            case preserveData
        }
    }

    /// A "branch_summary" entry: what the branch left at `fromID` was about.
    public typealias BranchSummary = TypedEntry<BranchSummaryFields>

    /// The members of a "branch_summary" entry.
    public struct BranchSummaryFields: Codable, Sendable, Hashable {
        public var fromID: String
        public var summary: String
        @Tristate public var details: JSONValue??
        @Tristate public var fromExtension: Bool??
        @Tristate public var fromHook: Bool??

        private enum CodingKeys: String, CodingKey {
            case fromID = "fromId"
            case summary
            case details
            case fromExtension
            case fromHook
        }
    }

    /// A "custom" entry: an extension's data, not part of contexts.
    public typealias Custom = TypedEntry<CustomFields>

    /// The members of a "custom" entry.
    public struct CustomFields: Codable, Sendable, Hashable {
        public var customType: String
        @Tristate public var data: JSONValue??
    }

    /// A "custom_message" entry: an extension's message, part of contexts.
    public typealias CustomMessage = TypedEntry<CustomMessageFields>

    /// The members of a "custom_message" entry.
    public struct CustomMessageFields: Codable, Sendable, Hashable {
        public var customType: String
        public var content: JSONValue
        public var display: Bool
        @Tristate public var details: JSONValue??
        @Tristate public var attribution: String??
    }

    /// A "label" entry: sets (or with no label, removes) the label of `targetID`.
    public typealias Label = TypedEntry<LabelFields>

    /// The members of a "label" entry.
    public struct LabelFields: Codable, Sendable, Hashable {
        public var targetID: String
        @Tristate public var label: String??

        private enum CodingKeys: String, CodingKey {
            case targetID = "targetId"
            case label
        }
    }

    /// A "ttsr_injection" entry: rules injected into the context.
    public typealias TTSRInjection = TypedEntry<TTSRInjectionFields>

    /// The members of a "ttsr_injection" entry.
    public struct TTSRInjectionFields: Codable, Sendable, Hashable {
        public var injectedRules: [String]
    }

    /// A "session_init" entry: the system prompt, task and tools a (sub)agent started with.
    public typealias SessionInit = TypedEntry<SessionInitFields>

    /// The members of a "session_init" entry.
    public struct SessionInitFields: Codable, Sendable, Hashable {
        public var systemPrompt: String
        public var task: String
        public var tools: JSONValue
        @Tristate public var outputSchema: JSONValue??
    }

    /// A "mode_change" entry.
    public typealias ModeChange = TypedEntry<ModeChangeFields>

    /// The members of a "mode_change" entry.
    public struct ModeChangeFields: Codable, Sendable, Hashable {
        public var mode: String
        @Tristate public var data: JSONValue??
    }

    /// A "session_info" entry (pi): the last one's name is the session's title.
    public typealias SessionInfo = TypedEntry<SessionInfoFields>

    /// The members of a "session_info" entry.
    public struct SessionInfoFields: Codable, Sendable, Hashable {
        @Tristate public var name: String??
    }

    /// A "service_tier_change" entry (omp): the service tier contexts report, null for none.
    public typealias ServiceTierChange = TypedEntry<ServiceTierChangeFields>

    /// The members of a "service_tier_change" entry.
    public struct ServiceTierChangeFields: Codable, Sendable, Hashable {
        @Tristate public var serviceTier: JSONValue??
    }

    /// A "mcp_tool_selection" entry (omp): the MCP tools selected (contexts' selectedMCPToolNames).
    public typealias MCPToolSelection = TypedEntry<MCPToolSelectionFields>

    /// The members of a "mcp_tool_selection" entry.
    public struct MCPToolSelectionFields: Codable, Sendable, Hashable {
        @Tristate public var selectedToolNames: JSONValue??
    }
}
