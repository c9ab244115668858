// The typed half of the replay (issue 19): every JSON output a step produces is decoded through
// the typed API (the Codable type its typed method returns), encoded again and compared with
// the library's text as JSON values (members in any order, 1 == 1.0). A member a type drops,
// renames or gives another type fails the case. Entries of the types the engine writes must
// decode to their typed case, not to Entry.other (which keeps any object and so would hide a
// member the typed struct lost), unless the case put files of its own into the store: their
// entries may be in foreign shapes (a message that is a string, a v1 compaction's
// firstKeptEntryIndex), which Entry.other is for.
import Foundation
import XSession

/// The entry types the engine writes, each with a typed case of Entry.
let typedEntryTypes: Set<String> = [
    "message", "thinking_level_change", "model_change", "compaction", "branch_summary", "custom",
    "custom_message", "label", "ttsr_injection", "session_init", "mode_change", "session_info",
    "service_tier_change", "mcp_tool_selection",
]

/// A JSON number beyond Double's range (1e400): Swift's JSONDecoder cannot read it at all.
let outOfRangeNumber = try! NSRegularExpression(pattern: #"[0-9][eE]\+?0*([4-9][0-9]{2}|[0-9]{4,}|3[1-9][0-9])"#)

extension CaseRunner {
    /// Decodes `text` as `T`, re-encodes it and compares; returns the typed value.
    @discardableResult
    func roundTrip<T: Codable>(_ text: JSONText, as type: T.Type) throws -> T? {
        let value: T
        do {
            value = try text.decode(T.self)
        } catch let error as DecodingError {
            // The one thing a Swift value cannot hold: then the typed API throws (the exact text
            // stays available from the JSON method). Checked, not skipped: any other text must decode.
            let s = text.string
            guard outOfRangeNumber.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil else {
                throw fail("\(T.self) cannot decode\n\(text)\n\(error)")
            }
            outOfRangeOutputs += 1
            return nil
        }
        let again = try JSONValue(encoding: value)
        let original = try JSONValue(parsing: text)
        try require(again == original, "\(T.self) does not encode back to the library's JSON:\n\(text)\nbecame\n\(again)")
        try requireTypedEntries(value)
        typedOutputs += 1
        typedKinds.insert(String(describing: T.self))
        return value
    }

    private func requireTypedEntries(_ value: Any) throws {
        let entries: [Entry]
        switch value {
        case let e as Entry: entries = [e]
        case let es as [Entry]: entries = es
        case let nodes as [TreeNode]: entries = nodes.map(\.entry)
        default: return
        }
        // Files the case wrote itself (foreign content) may hold entries in shapes of their own.
        if hasForeignInput { return }
        for case .other(let other) in entries {
            let type = other.raw["type"]?.string ?? ""
            try require(!typedEntryTypes.contains(type), "a \(type) entry decoded as Entry.other:\n\(other.raw)")
        }
    }
}

extension CaseRunner {
    /// Whether the case puts files of its own into the store (input, write_file, append_to_file).
    var hasForeignInput: Bool {
        if doc["input"] != nil || doc["input_raw"] != nil || doc["input_hex"] != nil { return true }
        return (doc["steps"]?.array ?? []).contains { ["write_file", "append_to_file"].contains($0["op"]?.string ?? "") }
    }
}
