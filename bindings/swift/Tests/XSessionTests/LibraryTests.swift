// The session library calls beyond what the conformance cases replay: typed results against the
// library's own JSON, argument errors (refused by the binding or by the library), the archive's
// progress closure (order, calls back into its store, close from inside), and a struct version
// the library does not know.
import CXSession
import Foundation
import Testing
@testable import XSession

/// 2100-01-01: "now" for archives, so every session written today is idle long enough.
let farFuture: Int64 = 4_102_444_800_000
let oneDay: Int64 = 86_400_000

let userGo: JSONText = #"{"role":"user","content":"go"}"#
let assistantCalls: JSONText = #"""
{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{}},{"type":"toolCall","id":"c2","name":"bash","arguments":{}}],"usage":{"input":100,"output":20,"cacheRead":5,"cacheWrite":7,"cost":{"total":0.25}}}
"""#
let resultC1: JSONText = #"{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[],"isError":false}"#

/// README, "Session library": its example on a fresh store, returning what it found.
func sessionLibraryExample(_ store: Store) throws
    -> (ResetReason, [ResumeCheck.PendingToolCall], [[String]], Bool, JSONText) {
    var summarised: [[String]] = []
    func summarise(_ ids: [String], keeping: String?) throws { summarised.append(ids) }

    // A conversation's current session under a reset policy (docs/reset-policies.md), bound to the
    // key: its stats (session.stats()) are written into the key's record.
    let (session, reason) = try store.sessionForKey("agent:main",
                                                    policy: ResetPolicy(dailyHour: 4, timeZone: "Asia/Shanghai"))
    let pending = try session.resumeCheck().pendingToolCalls  // tool calls still waiting for a result

    // Compaction (docs/compaction-planning.md): decide, then cut where the plan says.
    let settings = CompactionSettings(contextWindow: 200_000)  // nil fields: the library's defaults
    let tokens = Int64(try session.stats().contextTokens)
    if try settings.shouldCompact(contextTokens: tokens) {
        let plan = try session.compactionPlan(settings: settings)
        try summarise(plan.toSummarise, keeping: plan.firstKeptEntryID)  // your code, then appendCompaction
    }
    // The memory flush, once per compaction cycle, decided under the keyed document's lock.
    let flush = try store.keys.claimMemoryFlush("agent:main", settings: settings, contextTokens: tokens)

    // Retention (docs/retention.md): archive sessions idle for 30 days, prune archives after a year.
    let report = try store.archiveJSON(ArchiveOptions(olderThanMs: 30 * 86_400_000)) { done, total in
        print("archiving: \(done) of \(total)")  // on the calling thread
    }
    try store.pruneJSON(ArchiveOptions(olderThanMs: 365 * 86_400_000))
    try session.close()
    return (reason, pending, summarised, flush, report)
}

@Suite struct LibraryAPI {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    /// A written session with a user prompt, two tool calls and one result.
    func toolSession(id: String, key: String? = nil) throws -> Session {
        var o = fixedOptions
        o.sessionID = id
        o.key = key
        let s = try store.createSession(cwd: "/w", options: o)
        for message in [userGo, assistantCalls, resultC1] { try s.appendMessage(message) }
        return s
    }

    @Test func readmeExample() throws {
        let (reason, pending, summarised, flush, report) = try sessionLibraryExample(store)
        // A new key's session is new and empty: nothing to compact, flush or archive (it is not
        // written before its first reply), but the key has its record.
        #expect(reason == .new && pending.isEmpty && summarised.isEmpty && !flush)
        #expect(report.string == #"{"dryRun":false,"archived":[],"skipped":[]}"#)
        #expect(try store.keys.getJSON("agent:main") != nil)
    }

    @Test func decisionsAndTheirArgumentErrors() throws {
        let settings = CompactionSettings(contextWindow: 200_000)
        #expect(try settings.shouldCompact(contextTokens: 180_000) == false)
        #expect(try settings.shouldCompact(contextTokens: 180_001) == true)
        // The flush runs 4000 tokens earlier, once per compaction cycle (nil: never ran).
        #expect(try settings.shouldFlushMemory(contextTokens: 176_001, compactionCount: 2,
                                               lastFlushCompactionCount: nil) == true)
        #expect(try settings.shouldFlushMemory(contextTokens: 176_001, compactionCount: 2,
                                               lastFlushCompactionCount: 2) == false)
        // Handle-less calls: the status's own text.
        let noWindow = XSessionError(code: .invalidArgument, message: XSessionLibrary.statusString(XS_EINVAL))
        #expect(throws: noWindow) { try CompactionSettings().shouldCompact(contextTokens: 1) }
        #expect(throws: noWindow) { try settings.shouldCompact(contextTokens: -1) }
        #expect(throws: noWindow) {
            try settings.shouldFlushMemory(contextTokens: 1, compactionCount: 0, lastFlushCompactionCount: -2)
        }
    }

    @Test func aStructVersionTheLibraryDoesNotKnowIsRefused() throws {
        var settings = CompactionSettings(contextWindow: 200_000)
        settings.structVersion = 99
        let error = #expect(throws: XSessionError.self) { try settings.shouldCompact(contextTokens: 1) }
        #expect(error?.code == .version)
        let s = try toolSession(id: "v99")
        #expect(throws: XSessionError.self) { try s.compactionPlan(settings: settings) }
    }

    @Test func planAndResumeCheckAreTypedViewsOfTheLibrarysJSON() throws {
        let s = try toolSession(id: "plan")
        let ids = try s.pathJSON().array().map { ($0 as! [String: Any])["id"] as! String }
        let plan = try s.compactionPlan(settings: CompactionSettings(keepRecentTokens: 1))
        #expect(plan == (try s.compactionPlanJSON(settings: CompactionSettings(keepRecentTokens: 1)).decode()))
        // The tool result is kept with its call: the cut is at the assistant message.
        #expect(plan.needed && plan.firstKeptEntryID == ids[1] && plan.toSummarise == [ids[0]])
        let none = try s.compactionPlan()  // default: keep 20000 tokens, far more than there are
        #expect(!none.needed && none.firstKeptEntryID == nil && none.toSummarise.isEmpty)

        let check = try s.resumeCheck()
        #expect(check == ResumeCheck.init(leafID: ids[2], orphans: [],
                                          pendingToolCalls: [.init(entryID: ids[1], toolCallID: "c2", name: "bash")]))
        #expect(try s.resumeCheck(leaf: ids[1]).pendingToolCalls.map(\.toolCallID) == ["c1", "c2"])
        #expect(try s.resumeCheckJSON(leaf: ids[0]).string
                == #"{"leafId":"\#(ids[0])","orphans":[],"pendingToolCalls":[]}"#)
        #expect(throws: XSessionError.self) { try s.resumeCheck(leaf: "nope") }
        let unknown = #expect(throws: XSessionError.self) { try s.compactionPlan(leaf: "nope") }
        #expect(unknown?.code == .notFound)
    }

    @Test func statsAndABoundKey() throws {
        let s = try toolSession(id: "st", key: "agent:a")
        let stats = try s.stats()
        #expect(stats.inputTokens == 100 && stats.outputTokens == 20 && stats.totalTokens == 132)
        #expect(stats.cost == 0.25 && stats.toolCalls == 2 && stats.compactionCount == 0)
        #expect(stats.messageCounts == ["user": 1, "assistant": 1, "toolResult": 1])
        #expect(try s.statsJSON().string.contains(#""messageCounts":{"user":1,"assistant":1,"toolResult":1}"#))
        // The record got the stats of the assistant message; flush() writes the tool result's.
        try s.flush()
        let record = try #require(try store.keys.getJSON("agent:a")).dictionary()
        #expect(record["sessionId"] as? String == "st" && record["inputTokens"] as? Int == 100)
        // Nothing to fix; a NUL in the prefix is refused before the library is called.
        #expect(try store.keys.fixStatsJSON(prefix: "agent:").string == #"{"checked":1,"fixed":[],"skipped":[]}"#)
        #expect(throws: XSessionError.invalid("text passed as a C string contains a NUL byte")) {
            try store.keys.fixStatsJSON(prefix: "a\0")
        }
        // A key with a read-only session is refused by the library.
        let path = try s.info().path
        let error = #expect(throws: XSessionError.self) {
            try store.openSession(path, options: SessionOptions(flags: .readOnly, key: "agent:a"))
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func claimMemoryFlushOncePerCycle() throws {
        let settings = CompactionSettings(contextWindow: 200_000)
        let missing = #expect(throws: XSessionError.self) {
            try store.keys.claimMemoryFlush("k", settings: settings, contextTokens: 190_000)
        }
        #expect(missing?.code == .notFound)
        try store.keys.put("k", #"{"sessionId":"s","compactionCount":3}"#)
        #expect(try store.keys.claimMemoryFlush("k", settings: settings, contextTokens: 190_000, nowMs: 5) == true)
        #expect(try store.keys.getJSON("k")
                == #"{"sessionId":"s","compactionCount":3,"memoryFlushAt":5,"memoryFlushCompactionCount":3}"#)
        #expect(try store.keys.claimMemoryFlush("k", settings: settings, contextTokens: 190_000) == false)
    }

    @Test func sessionForKeyReasonsAndPolicyErrors() throws {
        let first = try store.sessionForKey("chat:1", nowMs: 1_000, options: fixedOptions)
        #expect(first.reason == .new)
        let id = try first.session.info().id
        try first.session.close()
        let again = try store.sessionForKey("chat:1", nowMs: 2_000)
        #expect(try again.reason == .continued && again.session.info().id == id)
        try again.session.close()
        let forced = try store.sessionForKey("chat:1", nowMs: 3_000, force: true)
        #expect(try forced.reason == .forced && forced.session.info().id != id)
        try forced.session.close()
        let idle = try store.sessionForKey("chat:1", nowMs: 3_000 + 61_000, policy: ResetPolicy(idleMinutes: 1))
        #expect(idle.reason == .idle)
        try idle.session.close()
        #expect(ResetReason.allCases.map(\.name) == ["continued", "new", "daily", "idle", "forced"])

        let before = try store.keys.getJSON("chat:1")
        // C's -1 ("no daily reset") is nil in Swift: a negative hour is refused by the binding.
        #expect(throws: XSessionError.invalid("daily hour -1 is not 0-23")) {
            try store.sessionForKey("chat:1", policy: ResetPolicy(dailyHour: -1))
        }
        for policy in [ResetPolicy(dailyHour: 24), ResetPolicy(dailyHour: 4, timeZone: "Mars/Olympus"),
                       ResetPolicy(idleMinutes: -1)] {
            let error = #expect(throws: XSessionError.self) { try store.sessionForKey("chat:1", policy: policy) }
            #expect(error?.code == .invalidArgument)
        }
        let readOnly = #expect(throws: XSessionError.self) {
            try store.sessionForKey("chat:1", options: SessionOptions(flags: .readOnly))
        }
        #expect(readOnly?.code == .invalidArgument)
        #expect(try store.keys.getJSON("chat:1") == before)
        // A store's default policy with an unknown zone fails the open.
        let bad = #expect(throws: XSessionError.self) {
            try Store(root: dir.path, options: StoreOptions(resetPolicy: ResetPolicy(dailyHour: 4, timeZone: "Nowhere")))
        }
        #expect(bad?.code == .invalidArgument)
    }
}
