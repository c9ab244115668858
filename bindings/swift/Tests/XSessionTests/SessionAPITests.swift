// The Session API beyond the conformance cases: typed values, JSONText conveniences, exact
// bytes of results larger than the first buffer, upkeep.
import Foundation
import Testing
import XSession

/// A Decodable view of a context, as an app would declare it.
struct ContextView: Decodable {
    struct Message: Decodable {
        let role: String
        let content: String
    }
    let leafId: String?
    let messages: [Message]
    let thinkingLevel: String
    let models: [String: String]
}

@Suite struct SessionAPI {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    func fixedSession(_ extra: SessionOptions.Flags = []) throws -> Session {
        var o = fixedOptions
        o.sessionID = "s1"
        o.title = "Title"
        o.flags = extra
        return try store.createSession(cwd: "/w", options: o)
    }

    @Test func headerInfoAndLeafAreTyped() throws {
        let s = try fixedSession()
        #expect(try s.headerJSON() == #"{"type":"session","version":3,"id":"s1","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w","title":"Title"}"#)
        #expect(try s.leaf() == nil)
        let id = try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        try s.appendModelChange("anthropic/claude", role: nil)
        #expect(try s.leaf() != id)
        let info = try s.info()
        #expect(info.id == "s1" && info.cwd == "/w" && info.title == "Title" && info.parentSession == nil)
        #expect(info.timestamp == "2026-02-16T10:20:30.000Z")
        #expect(info.path == (try store.sessionDirectory(cwd: "/w")) + "/2026-02-16T10-20-30-000Z_s1.jsonl")
        #expect(info.version == 3 && info.entryCount == 2 && info.diagnostics == 0)
        #expect(info.leafID == (try s.leaf()))
        #expect(info.persisted == false && info.readOnly == false)
        #expect(info.entryTypes == ["message": 1, "model_change": 1])
        #expect(try s.infoJSON().string.hasSuffix(#","entryTypes":{"message":1,"model_change":1}}"#))
        try s.setLeaf(id)
        #expect(try s.leaf() == id)
        try s.setLeaf(nil)
        #expect(try s.leaf() == nil)
    }

    @Test func sessionDirectoryEncodesTheCwd() throws {
        #expect(try store.sessionDirectory(cwd: "/a/b:c") == dir.path + "/sessions/--a-b-c--")
    }

    @Test func contextsDecodeToDecodableAndFoundationValues() throws {
        let s = try fixedSession()
        try s.appendThinkingLevel("high")
        try s.appendModelChange("openai/gpt", role: "default")
        try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        let leaf = try s.appendMessage(JSONText(encoding: ["role": "assistant", "content": "hello"]))
        let context = try s.buildContextJSON().decode(ContextView.self)
        #expect(context.leafId == leaf)
        #expect(context.messages.map(\.content) == ["hi", "hello"])
        #expect(context.thinkingLevel == "high" && context.models == ["default": "openai/gpt"])
        let object = try s.buildContextJSON().dictionary()
        #expect(object["leafId"] as? String == leaf)
        #expect(try s.entriesJSON().array().count == 4)
        #expect(throws: XSessionError.self) { try s.entriesJSON().dictionary() }
        #expect(try s.buildContextJSON().data == Data(try s.buildContextJSON().string.utf8))
    }

    @Test func largeResultsComeBackWhole() throws {
        let s = try fixedSession()
        // 800 KB, far over the first buffer (each string under the 500,000-unit truncation rule).
        let big = String(repeating: "0123456789", count: 40_000)
        let message = #"{"role":"user","content":"\#(big)","extra":"\#(big)"}"#
        let id = try s.appendMessage(JSONText(message))
        let entry = try s.entryJSON(id).string
        #expect(entry.utf8.count > 800_000)
        #expect(entry.hasSuffix(#","message":\#(message)}"#))
        #expect(try s.buildContextJSON().string == #"{"leafId":"\#(id)","messages":[\#(message)],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"}"#)
        #expect(try s.pathJSON().string == "[\(entry)]")
        #expect(try s.childrenJSON(of: id).string == "[]")
        #expect(try s.treeJSON().string.contains(#""entry":\#(entry)"#))
    }

    @Test func usageIsTyped() throws {
        let s = try fixedSession()
        try s.appendMessage(#"{"role":"assistant","content":"a","usage":{"input":10,"output":5,"cacheRead":1,"cacheWrite":2,"cost":{"total":0.25}}}"#)
        try s.appendMessage(#"{"role":"assistant","content":"b","usage":{"input":1,"output":1,"premiumRequests":1,"cost":{"total":0.5}}}"#)
        let usage = try s.usage()
        #expect(usage == (try s.usageJSON().decode(Usage.self)))
        #expect(usage.input == 11 && usage.output == 6 && usage.cacheRead == 1 && usage.cacheWrite == 2)
        #expect(usage.premiumRequests == 1 && usage.cost == 0.75 && usage.assistantMessages == 2)
        #expect(try s.usageJSON().string == #"{"input":11,"output":6,"cacheRead":1,"cacheWrite":2,"premiumRequests":1,"cost":0.75,"assistantMessages":2}"#)
    }

    @Test func labelsTitlesAndRecords() throws {
        let s = try fixedSession(.noDefer)
        let first = try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        try s.appendLabel("start", for: first)
        #expect(try s.labelsJSON().string == #"[{"targetId":"\#(first)","label":"start","timestamp":"2026-02-16T10:20:32.000Z"}]"#)
        try s.appendCustom("ext", data: #"{"k":1}"#)
        try s.appendCustomMessage(CustomMessage(customType: "note", content: #""text""#, display: false))
        try s.appendSessionInit(SessionInitEntry(systemPrompt: "sys", task: "do", tools: #"["read"]"#))
        try s.appendModeChange("plan")
        try s.appendTTSRInjection(#"["r1"]"#)
        try s.appendCompaction(Compaction(summary: "sum", firstKeptEntryID: first, tokensBefore: 42))
        try s.branchWithSummary(from: first, summary: "back", fromExtension: false)
        try s.setTitle(nil)
        let info = try s.info()
        #expect(info.title == nil && info.entryCount == 9)
        #expect(info.entryTypes.values.reduce(0, +) == 9)
        try s.flush()
        try s.persist()
    }

    @Test func verifyAndRepairATornTail() throws {
        let w = try fixedSession(.noDefer)
        try w.appendMessage(#"{"role":"user","content":"hi"}"#)
        let path = try w.info().path
        try w.close()
        try Files.append(path, Array(#"{"type":"message","id":"torn""#.utf8))  // no newline: a torn write
        let reader = try store.openSession(path, options: SessionOptions(flags: .readOnly))
        let torn = #"{"line":3,"offset":238,"length":29,"code":"incomplete_tail","fixable":true}"#
        #expect(try withoutReasons(reader.verifyJSON()) == CaseJSON.parse(
            #"{"path":"\#(path)","id":"s1","fileVersion":3,"needsMigration":false,"lines":3,"entries":1,"blobRefs":0,"problems":[\#(torn)]}"#))
        #expect(throws: XSessionError.self) { try reader.repairJSON() }  // read-only
        try reader.close()
        let writer = try store.openSession(path)
        #expect(try withoutReasons(writer.repairJSON()) == CaseJSON.parse(
            #"{"path":"\#(path)","done":[{"line":3,"offset":238,"length":29,"code":"newline_written"}]}"#))
        #expect(try writer.repairJSON().string == #"{"path":"\#(path)","done":[]}"#)  // nothing done twice
        #expect(Files.read(path)?.last == 0x0A)
        let after = try withoutReasons(writer.verifyJSON())["problems"]
        #expect(after == (try CaseJSON.parse(#"[{"line":3,"offset":238,"length":29,"code":"invalid_json","fixable":false}]"#)))
    }

    @Test func repairWithQuarantineMovesAGarbageLineAndATornTail() throws {
        let w = try fixedSession(.noDefer)
        try w.appendMessage(#"{"role":"user","content":"hi"}"#)
        let path = try w.info().path
        try w.close()
        let head = Files.read(path) ?? []
        let garbage = Array("not JSON at all\n".utf8)
        let entry = Array(#"{"type":"custom","id":"c1","parentId":null,"timestamp":"2026-02-16T10:20:40.000Z","customType":"x"}"#.utf8) + [0x0A]
        let torn = Array(#"{"type":"message","id":"torn""#.utf8)  // no newline: a torn write
        let original = head + garbage + entry + torn
        try Files.write(path, original)

        let s = try store.openSession(path)
        let report = try CaseJSON.parse(s.repairJSON(quarantine: true).string)
        let done = report["done"]?.array?.map { "\($0["line"]?.int64 ?? 0) \($0["code"]?.string ?? "")" }
        #expect(done == ["3 quarantined", "5 quarantined"])
        let quarantine = try #require(report["quarantine"]?["path"]?.string)
        #expect(quarantine.hasPrefix(path + ".quarantine-") && quarantine.hasSuffix(".jsonl"))
        #expect(report["quarantine"]?["lines"]?.int64 == 2)
        #expect(report["quarantine"]?["bytes"]?.int64 == Int64(garbage.count + torn.count))
        #expect(Files.read(path) == head + entry)  // every other byte kept
        #expect(try CaseJSON.parse(s.verifyJSON().string)["problems"] == .array([]))

        // The records give back the removed bytes, each at its old offset.
        let lines = String(decoding: Files.read(quarantine) ?? [], as: UTF8.self).split(separator: "\n")
        var removed: [UInt8] = []
        for line in lines {
            let r = try CaseJSON.parse(String(line))
            let text = Array((r["text"]?.string ?? "").utf8)
            let offset = Int(r["offset"]?.int64 ?? -1)
            guard offset >= 0, offset + text.count <= original.count else {
                Issue.record("a record at offset \(offset) outside the original file")
                continue
            }
            #expect(Array(original[offset..<offset + text.count]) == text)
            removed += text + (r["newline"]?.bool == true ? [0x0A] : [])
        }
        #expect(removed == garbage + torn)
        #expect(try s.repairJSON(quarantine: true).string == #"{"path":"\#(path)","done":[],"quarantine":null}"#)
    }

    /// A report with its "reason" members removed: reasons are prose, as in the conformance cases.
    func withoutReasons(_ text: JSONText) throws -> CaseJSON {
        func strip(_ v: CaseJSON) -> CaseJSON {
            switch v {
            case .array(let items): return .array(items.map(strip))
            case .object(let members): return .object(members.filter { $0.0 != "reason" }.map { ($0.0, strip($0.1)) })
            default: return v
            }
        }
        return strip(try CaseJSON.parse(text.string))
    }

    @Test func forkAndMove() throws {
        let s = try fixedSession(.noDefer)
        try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        let fork = try s.fork()
        #expect(try fork.info().parentSession == "s1")
        try fork.move(toCwd: "/elsewhere")
        #expect(try fork.info().cwd == "/elsewhere")
        #expect(try fork.info().path.hasPrefix(try store.sessionDirectory(cwd: "/elsewhere") + "/"))
    }
}
