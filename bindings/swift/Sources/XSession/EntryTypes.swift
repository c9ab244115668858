// The Entry enum: one case per entry type the engine writes, and `.other` for everything else
// (see Entries.swift). The structs carry the envelope (type, id, parentID, timestamp) and their
// type's members, named as in the file.
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

extension Entry.Message: EntryEnvelope {}
extension Entry.ThinkingLevelChange: EntryEnvelope {}
extension Entry.ModelChange: EntryEnvelope {}
extension Entry.Compaction: EntryEnvelope {}
extension Entry.BranchSummary: EntryEnvelope {}
extension Entry.Custom: EntryEnvelope {}
extension Entry.CustomMessage: EntryEnvelope {}
extension Entry.Label: EntryEnvelope {}
extension Entry.TTSRInjection: EntryEnvelope {}
extension Entry.SessionInit: EntryEnvelope {}
extension Entry.ModeChange: EntryEnvelope {}
extension Entry.SessionInfo: EntryEnvelope {}
extension Entry.ServiceTierChange: EntryEnvelope {}
extension Entry.MCPToolSelection: EntryEnvelope {}

/// An entry this binding does not type: the object as read.
public struct OtherEntry: Codable, Sendable, Hashable {
    public var raw: JSONValue

    public init(raw: JSONValue) { self.raw = raw }
    public init(from decoder: any Decoder) throws { raw = try JSONValue(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try raw.encode(to: encoder) }
}

extension Entry {
    /// A "message" entry.
    public struct Message: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var message: XSession.Message

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case message
        }
    }

    /// A "thinking_level_change" entry.
    public struct ThinkingLevelChange: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        @Nullable public var thinkingLevel: String?

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case thinkingLevel
        }
    }

    /// A "model_change" entry: omp writes `model` ("provider/id") and `role`, pi `provider` and `modelID`.
    public struct ModelChange: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        @Tristate public var model: String??
        @Tristate public var role: String??
        @Tristate public var provider: String??
        @Tristate public var modelID: String??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case model
            case role
            case provider
            case modelID = "modelId"
        }
    }

    /// A "compaction" entry: a summary replacing the entries before `firstKeptEntryID`.
    public struct Compaction: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var summary: String
        @Tristate public var shortSummary: String??
        public var firstKeptEntryID: String?  // absent in compactions migrated from v1 files
        public var tokensBefore: Double
        @Tristate public var details: JSONValue??
        @Tristate public var fromExtension: Bool??
        @Tristate public var fromHook: Bool??
        @Tristate public var preserveData: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
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
    public struct BranchSummary: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var fromID: String
        public var summary: String
        @Tristate public var details: JSONValue??
        @Tristate public var fromExtension: Bool??
        @Tristate public var fromHook: Bool??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case fromID = "fromId"
            case summary
            case details
            case fromExtension
            case fromHook
        }
    }

    /// A "custom" entry: an extension's data, not part of contexts.
    public struct Custom: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var customType: String
        @Tristate public var data: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case customType
            case data
        }
    }

    /// A "custom_message" entry: an extension's message, part of contexts.
    public struct CustomMessage: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var customType: String
        public var content: JSONValue
        public var display: Bool
        @Tristate public var details: JSONValue??
        @Tristate public var attribution: String??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case customType
            case content
            case display
            case details
            case attribution
        }
    }

    /// A "label" entry: sets (or with no label, removes) the label of `targetID`.
    public struct Label: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var targetID: String
        @Tristate public var label: String??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case targetID = "targetId"
            case label
        }
    }

    /// A "ttsr_injection" entry: rules injected into the context.
    public struct TTSRInjection: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var injectedRules: [String]

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case injectedRules
        }
    }

    /// A "session_init" entry: the system prompt, task and tools a (sub)agent started with.
    public struct SessionInit: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var systemPrompt: String
        public var task: String
        public var tools: JSONValue
        @Tristate public var outputSchema: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case systemPrompt
            case task
            case tools
            case outputSchema
        }
    }

    /// A "mode_change" entry.
    public struct ModeChange: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        public var mode: String
        @Tristate public var data: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case mode
            case data
        }
    }

    /// A "session_info" entry (pi): the last one's name is the session's title.
    public struct SessionInfo: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        @Tristate public var name: String??

        private enum CodingKeys: String, CodingKey {
            case type
            case id
            case parentID = "parentId"
            case timestamp
            case name
        }
    }
    /// A "service_tier_change" entry (omp): the service tier contexts report, null for none.
    public struct ServiceTierChange: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        @Tristate public var serviceTier: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case type, id
            case parentID = "parentId"
            case timestamp, serviceTier
        }
    }

    /// A "mcp_tool_selection" entry (omp): the MCP tools selected (contexts'
    /// selectedMCPToolNames).
    public struct MCPToolSelection: Codable, Sendable, Hashable {
        public var type: String
        public var id: String
        @Nullable public var parentID: String?
        public var timestamp: String
        @Tristate public var selectedToolNames: JSONValue??

        private enum CodingKeys: String, CodingKey {
            case type, id
            case parentID = "parentId"
            case timestamp, selectedToolNames
        }
    }
}
