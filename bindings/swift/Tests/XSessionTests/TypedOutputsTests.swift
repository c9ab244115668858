// The typed results the conformance cases do not produce (verify and repair reports, blob
// lists, GC reports), each decoded through its typed method, encoded again and compared with the
// library's text as JSON values; and the typed values' own behaviour: unknown entries keep their
// object, caller JSON stays JSON, records keep the members no field names.
import Foundation
import Testing
import XSession

/// `typed` (what the typed method returned) encodes back to `text` (the JSON method's text).
func expectRoundTrip<T: Codable & Equatable>(_ typed: T, _ text: JSONText,
                                             sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try JSONValue(encoding: typed) == JSONValue(parsing: text), "\(text)", sourceLocation: sourceLocation)
    #expect(try text.decode(T.self) == typed, sourceLocation: sourceLocation)
}

@Suite struct TypedOutputs {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    @Test func verifyAndRepairReports() throws {
        let w = try store.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        try w.appendMessage(Message(role: "user", content: "hi"))
        let path = try w.info().path
        try w.close()
        try Files.append(path, Array("not JSON\n".utf8) + Array(#"{"type":"message","id":"torn""#.utf8))
        let s = try store.openSession(path)

        let verify = try s.verify()
        try expectRoundTrip(verify, try s.verifyJSON())
        #expect(verify.problems.map(\.code) == ["invalid_json", "incomplete_tail"])
        #expect(verify.problems.map(\.fixable) == [false, true])
        #expect(verify.entries == 1 && verify.fileVersion == .integer(3) && !verify.needsMigration)

        let repaired = try s.repair(quarantine: true)
        #expect(repaired.done.map(\.code) == ["quarantined", "quarantined"])
        let quarantine = try #require(repaired.quarantine ?? nil)
        #expect(quarantine.lines == 2 && quarantine.path.hasPrefix(path + ".quarantine-"))
        // Nothing left: "quarantine": null, and without the flag no member at all.
        let again = try s.repair(quarantine: true)
        #expect(again.quarantine != nil && again.quarantine! == nil)
        try expectRoundTrip(again, try s.repairJSON(quarantine: true))
        let plain = try s.repair()
        #expect(plain.quarantine == nil && plain.done.isEmpty)
        try expectRoundTrip(plain, try s.repairJSON())
        #expect(try JSONValue(encoding: plain)["quarantine"] == nil)  // absent stays absent
        try s.close()
    }

    @Test func blobListAndGarbageCollection() throws {
        let kept = try store.putBlob(Data("kept".utf8))
        let damaged = try store.putBlob(Data("damaged".utf8))
        try Data("other bytes".utf8).write(to: URL(fileURLWithPath: dir.file("blobs/\(damaged)")))
        let plain = try store.listBlobs()
        try expectRoundTrip(plain, try store.listBlobsJSON())
        #expect(plain.count == 2 && plain.blobs.allSatisfy { $0.problem == nil })
        let verified = try store.listBlobs(verify: true)
        try expectRoundTrip(verified, try store.listBlobsJSON(verify: true))
        let byHash = Dictionary(uniqueKeysWithValues: verified.blobs.map { ($0.hash, $0) })
        #expect(byHash[kept]?.problem == .some(nil))  // verified: null
        #expect((byHash[damaged]?.problem ?? nil) != nil)  // why it is bad

        let dry = try store.collectGarbage(GCOptions(dryRun: true, graceMs: 0))
        #expect(dry.dryRun && Set(dry.deleted.map(\.name)) == [kept, damaged] && dry.young.isEmpty)
        let young = try store.collectGarbage(GCOptions(dryRun: true))
        #expect(young.deleted.isEmpty && young.young.count == 2)
        let text = try store.collectGarbageJSON(GCOptions(dryRun: true, graceMs: 0))
        try expectRoundTrip(try text.decode(GCReport.self), text)
    }

    @Test func entriesOfEveryKindAndUnknownOnes() throws {
        let s = try store.createSession(cwd: "/w", options: fixedOptions)
        let user = try s.appendMessage(Message(role: "user", content: "q", members: ["n": 1.5]))
        try s.appendThinkingLevel("high")
        try s.appendModelChange("anthropic/claude", role: "smol")
        try s.appendLabel("start", for: user)
        try s.appendCustom("ext", data: #"{"k":[1,2]}"#)
        try s.append(#"{"type":"from_another_agent","payload":{"x":null}}"#)
        try s.append(#"{"type":"service_tier_change","serviceTier":"flex"}"#)
        try s.append(#"{"type":"mcp_tool_selection","selectedToolNames":["t1"]}"#)
        try s.branchWithSummary(from: user, summary: "went elsewhere", details: #"{"why":"test"}"#)
        let entries = try s.entries()
        try expectRoundTrip(entries, try s.entriesJSON())
        #expect(entries.map(\.type) == ["message", "thinking_level_change", "model_change", "label", "custom",
                                        "from_another_agent", "service_tier_change", "mcp_tool_selection",
                                        "branch_summary"])
        guard case .message(let m) = entries[0], case .thinkingLevelChange(let t) = entries[1],
              case .modelChange(let mc) = entries[2], case .label(let l) = entries[3], case .custom(let c) = entries[4],
              case .other(let other) = entries[5], case .serviceTierChange(let tier) = entries[6],
              case .mcpToolSelection(let mcp) = entries[7], case .branchSummary(let b) = entries[8] else {
            Issue.record("entries decoded as \(entries)")
            return
        }
        #expect(m.message.members["n"] == .double(1.5) && m.parentID == nil && m.id == user)
        #expect(t.thinkingLevel == "high" && mc.model == .some("anthropic/claude") && mc.role == .some("smol"))
        #expect(l.targetID == user && l.label == .some("start"))
        #expect(c.customType == "ext" && c.data == .some(["k": [1, 2]]))
        #expect(other.raw["payload"] == ["x": .null] && entries[5].id.count == 8)
        #expect(tier.serviceTier == .some("flex") && mcp.selectedToolNames == .some(["t1"]))
        #expect(b.fromID == user && b.details == .some(["why": "test"]))
        #expect(entries.map(\.parentID) == [nil] + entries.prefix(7).map { Optional($0.id) } + [user])
        #expect(try s.entry(user) == entries[0])
        let tree = try s.tree()
        try expectRoundTrip(tree, try s.treeJSON())
        #expect(tree.first { $0.id == user }?.label == .some("start"))
        #expect(try s.labels().map(\.label) == ["start"])
    }

    @Test func loneSurrogatesDecodeAsReplacementCharacters() throws {
        let s = try store.createSession(cwd: "/w")
        try s.appendMessage(#"{"role":"user","content":"cut \ud83d and \udc00, whole \ud83d\ude00, kept \\ud83d"}"#)
        let context = try s.buildContext()
        #expect(context.messages[0].text == "cut \u{FFFD} and \u{FFFD}, whole 😀, kept \\ud83d")
        // The exact text stays available.
        #expect(try s.buildContextJSON().string.contains(#"cut \ud83d and \udc00"#))
    }

    @Test func keyRecordsKeepEveryMember() throws {
        let keys = store.keys
        try keys.put("agent:a", #"{"sessionId":"s1","cost":2.5,"inputTokens":10,"title":null,"chatType":"dm","mine":{"x":1}}"#)
        let record = try #require(try keys.get("agent:a"))
        #expect(record.sessionID == "s1" && record.cost == 2.5 && record.inputTokens == 10 && record.chatType == "dm")
        #expect(record.title == nil && record.members == ["title": .null, "mine": ["x": 1]])
        try expectRoundTrip(record, try #require(try keys.getJSON("agent:a")))
        var changed = record
        changed.outputTokens = 5
        try keys.put("agent:a", changed)
        #expect(try keys.get("agent:a")?.outputTokens == 5)
        #expect(try keys.list().map(\.key) == ["agent:a"])
        try keys.put("agent:b", #"{"sessionId":"s3","previousSessionIds":["s1","s2"]}"#)
        #expect(try keys.get("agent:b")?.previousSessionIDs == ["s1", "s2"])
        try expectRoundTrip(try keys.list(), try keys.listJSON())
    }

    /// What the replay relies on: a member a type does not follow shows in the round trip. A new
    /// member of a report is lost by its struct (the replay's comparison fails); a known entry
    /// type with a member its struct does not name stays whole as Entry.other.
    @Test func aMemberTheTypesDoNotFollowIsNoticed() throws {
        let s = try store.createSession(cwd: "/w", options: fixedOptions)
        let info = try s.infoJSON().string
        let grown = JSONText(String(info.dropLast()) + #","newMember":1}"#)
        let decoded = try grown.decode(SessionInfo.self)
        #expect(try JSONValue(encoding: decoded) != JSONValue(parsing: grown))
        #expect(try JSONValue(encoding: decoded) == JSONValue(parsing: s.infoJSON()))

        let line: JSONText = #"{"type":"label","id":"l1","parentId":null,"timestamp":"t","targetId":"x","mood":"new"}"#
        let entry = try line.decode(Entry.self)
        guard case .other(let other) = entry else {
            Issue.record("decoded as \(entry)")
            return
        }
        #expect(other.raw["mood"] == "new" && entry.type == "label" && entry.id == "l1")
        #expect(try JSONValue(encoding: entry) == JSONValue(parsing: line))
        // Without the new member it is the typed case.
        let known = try JSONText(#"{"type":"label","id":"l1","parentId":null,"timestamp":"t","targetId":"x"}"#)
            .decode(Entry.self)
        guard case .label(let label) = known else {
            Issue.record("decoded as \(known)")
            return
        }
        #expect(label.targetID == "x" && label.label == nil)
    }
}
