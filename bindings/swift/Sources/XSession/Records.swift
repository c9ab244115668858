// The typed entries that take several fields (xs_compaction, xs_custom_message,
// xs_session_init_entry), as Swift values. JSON fields are JSONText: stored token for token.
internal import CXSession

/// A "compaction" entry: a summary replacing the entries before `firstKeptEntryID` in contexts.
public struct Compaction: Sendable, Hashable {
    public var summary: String
    public var shortSummary: String?
    /// Not checked against the tree: an id that is not on the path keeps nothing before the
    /// compaction in contexts.
    public var firstKeptEntryID: String
    public var tokensBefore: Int64
    public var details: JSONText?
    /// nil = absent.
    public var fromExtension: Bool?
    public var preserveData: JSONText?

    public init(summary: String, shortSummary: String? = nil, firstKeptEntryID: String, tokensBefore: Int64,
                details: JSONText? = nil, fromExtension: Bool? = nil, preserveData: JSONText? = nil) {
        self.summary = summary
        self.shortSummary = shortSummary
        self.firstKeptEntryID = firstKeptEntryID
        self.tokensBefore = tokensBefore
        self.details = details
        self.fromExtension = fromExtension
        self.preserveData = preserveData
    }

    func cStruct(_ a: CArgs) throws -> xs_compaction {
        var c = xs_compaction()
        try initialised(xs_compaction_init(&c, UInt32(XS_COMPACTION_VERSION)))
        c.from_extension = triState(fromExtension)
        (c.summary, c.summary_len) = a.text(summary)
        (c.short_summary, c.short_summary_len) = a.text(shortSummary)
        c.first_kept_entry_id = try a.cString(firstKeptEntryID)
        c.tokens_before = tokensBefore
        (c.details_json, c.details_len) = a.json(details)
        (c.preserve_data_json, c.preserve_data_len) = a.json(preserveData)
        return c
    }
}

/// A "custom_message" entry: an extension's message, part of the context.
public struct CustomMessage: Sendable, Hashable {
    public var customType: String
    /// A JSON string or an array of content blocks.
    public var content: JSONText
    public var display: Bool
    public var details: JSONText?
    /// nil = "agent".
    public var attribution: String?

    public init(customType: String, content: JSONText, display: Bool = true, details: JSONText? = nil,
                attribution: String? = nil) {
        self.customType = customType
        self.content = content
        self.display = display
        self.details = details
        self.attribution = attribution
    }

    func cStruct(_ a: CArgs) throws -> xs_custom_message {
        var m = xs_custom_message()
        try initialised(xs_custom_message_init(&m, UInt32(XS_CUSTOM_MESSAGE_VERSION)))
        m.display = display ? 1 : 0
        m.custom_type = try a.cString(customType)
        (m.content_json, m.content_len) = a.json(content)
        (m.details_json, m.details_len) = a.json(details)
        m.attribution = try a.cString(attribution)
        return m
    }
}

/// A "session_init" entry: the system prompt, task and tools a (sub)agent started with.
public struct SessionInitEntry: Sendable, Hashable {
    public var systemPrompt: String
    public var task: String
    /// A JSON array of tool names.
    public var tools: JSONText
    public var outputSchema: JSONText?

    public init(systemPrompt: String, task: String, tools: JSONText, outputSchema: JSONText? = nil) {
        self.systemPrompt = systemPrompt
        self.task = task
        self.tools = tools
        self.outputSchema = outputSchema
    }

    func cStruct(_ a: CArgs) throws -> xs_session_init_entry {
        var si = xs_session_init_entry()
        try initialised(xs_session_init_entry_init(&si, UInt32(XS_SESSION_INIT_ENTRY_VERSION)))
        (si.system_prompt, si.system_prompt_len) = a.text(systemPrompt)
        (si.task, si.task_len) = a.text(task)
        (si.tools_json, si.tools_len) = a.json(tools)
        (si.output_schema_json, si.output_schema_len) = a.json(outputSchema)
        return si
    }
}
