// The session index: rebuild and refresh reports with exact values, verify before and after the
// first refresh, list order and fields, info counts (a damaged file too), the options' layout and
// defaults, the in-memory store's refusal, close, an index outliving its store, the typed results'
// round trip. Search is in IndexSearchTests.swift.
import CXSession
import Foundation
import Testing
@testable import XSession

/// The fixed clock of the sessions these tests write (tests/capi/search_test.cc's kT0).
let indexT0: Int64 = 1_771_237_230_000

/// Ids of what `indexSession` wrote.
struct IndexedTurn {
    let path: String
    let userID: String
    let assistantID: String
}

/// A session "s<n>" in `cwd` with a user prompt and an assistant answer carrying usage: its header
/// is stamped indexT0 + n minutes, the prompt a second later, the answer two.
@discardableResult
func indexSession(_ store: Store, _ n: Int64, cwd: String, prompt: String, answer: String) throws -> IndexedTurn {
    let options = SessionOptions(fixedClock: .init(startMs: indexT0 + n * 60_000, stepMs: 1000),
                                 idSeed: 42 + UInt64(n), sessionID: "s\(n)")
    let s = try store.createSession(cwd: cwd, options: options)
    let user = try s.appendMessage(Message(role: "user", content: .string(prompt)))
    let assistant = try s.appendMessage(JSONText(
        #"{"role":"assistant","content":[{"type":"text","text":"\#(answer)"}],"api":"x","provider":"p","#
            + #""model":"m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"#
            + #""cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.25}},"stopReason":"stop","#
            + #""timestamp":2}"#))
    let path = try s.info().path
    try s.close()
    return IndexedTurn(path: path, userID: user, assistantID: assistant)
}

/// The error `body` throws (an issue is recorded when it throws none).
func indexFailure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> XSessionError? {
    #expect(throws: XSessionError.self, sourceLocation: sourceLocation) { try body() }
}

/// A report with these counts (the others 0).
func indexReport(files: Int64, unchanged: Int64 = 0, added: Int64 = 0, entries: Int64 = 0) -> IndexReport {
    IndexReport(files: files, unchanged: unchanged, appended: 0, reindexed: 0, added: added, removed: 0,
                unreadable: 0, raced: 0, entries: entries)
}

@Suite struct IndexAPI {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    @Test func rebuildReportsWhatItIndexedAndInfoCountsTheRows() throws {
        try indexSession(store, 1, cwd: "/w/app", prompt: "deploy the staging server", answer: "staging is deployed")
        try indexSession(store, 2, cwd: "/w/lib", prompt: "write a unit test", answer: "the test passes")
        let ix = try store.openIndex()
        let empty = try ix.infoJSON()
        #expect(empty.string == #"{"path":"\#(dir.file("index.db"))","schemaVersion":2,"sessions":0,"entries":0,"#
                + #""damaged":null}"#)
        #expect(try ix.rebuild() == indexReport(files: 2, added: 2, entries: 4))
        let info = try ix.info()
        #expect(info.path == dir.file("index.db") && info.schemaVersion == 2 && info.damaged == nil)
        #expect(info.sessions == 2 && info.entries == 4)
        try expectRoundTrip(info, try ix.infoJSON())
        // A rebuild starts from nothing: every file is added again.
        let again = try ix.rebuildJSON()
        #expect(again.string == #"{"files":2,"unchanged":0,"appended":0,"reindexed":0,"added":2,"removed":0,"#
                + #""unreadable":0,"raced":0,"entries":4}"#)
        try expectRoundTrip(try again.decode(IndexReport.self), again)
        ix.close()
    }

    @Test func refreshAddsANewSessionAndVerifyFindsItMissingBefore() throws {
        let first = try indexSession(store, 1, cwd: "/w/app", prompt: "first prompt", answer: "first answer")
        let ix = try store.openIndex()
        let before = try ix.verify()
        #expect(before == IndexVerifyReport(ok: false, files: 1, indexed: 0, missing: [first.path], extra: [],
                                            stale: []))
        try expectRoundTrip(before, try ix.verifyJSON())
        #expect(try ix.refresh() == indexReport(files: 1, added: 1, entries: 2))
        #expect(try ix.refresh() == indexReport(files: 1, unchanged: 1))
        let after = try ix.verifyJSON()
        #expect(after.string == #"{"ok":true,"files":1,"indexed":1,"missing":[],"extra":[],"stale":[]}"#)
        #expect(try after.decode(IndexVerifyReport.self).ok)
        #expect(try ix.searchJSON("second").string == "[]")

        try indexSession(store, 2, cwd: "/w/app", prompt: "second prompt", answer: "second answer")
        let text = try ix.refreshJSON()
        #expect(text.string == #"{"files":2,"unchanged":1,"appended":0,"reindexed":0,"added":1,"removed":0,"#
                + #""unreadable":0,"raced":0,"entries":2}"#)
        try expectRoundTrip(try text.decode(IndexReport.self), text)
        #expect(try ix.search("second").map(\.sessionID) == ["s2", "s2"])
        #expect(try ix.verify().ok)
        ix.close()
    }

    @Test func listIsNewestFirstWithEveryField() throws {
        let one = try indexSession(store, 1, cwd: "/w/app", prompt: "deploy the staging server", answer: "done")
        let two = try indexSession(store, 2, cwd: "/w/lib", prompt: "write a unit test", answer: "the test passes")
        let ix = try store.openIndex()
        #expect(try ix.list().isEmpty)  // nothing is indexed before a refresh
        try ix.refresh()
        let all = try ix.list()
        #expect(all.map(\.id) == ["s2", "s1"] && all.map(\.path) == [two.path, one.path])
        let s2 = try #require(all.first)
        #expect(s2.cwd == "/w/lib" && s2.title == nil && s2.firstPrompt == "write a unit test")
        #expect(s2.created == indexT0 + 120_000 && s2.updated == indexT0 + 122_000)
        #expect(s2.entries == 2 && s2.messages == 2 && s2.inputTokens == 10 && s2.outputTokens == 5)
        #expect(s2.cost == 0.25 && s2.dialect == .omp && s2.sourceAgent == nil && s2.parentSession == nil)
        #expect(!s2.archived && s2.leafID == two.assistantID)
        let attributes = try FileManager.default.attributesOfItem(atPath: two.path)
        #expect(s2.size == (attributes[.size] as? NSNumber)?.int64Value)
        let mtime = try #require(attributes[.modificationDate] as? Date)
        #expect(abs(s2.modifiedDate.timeIntervalSince(mtime)) < 0.002, "\(s2.modified) \(mtime)")
        #expect(s2.createdDate == Date(timeIntervalSince1970: Double(indexT0 + 120_000) / 1000))
        #expect(s2.updatedDate == Date(timeIntervalSince1970: Double(indexT0 + 122_000) / 1000))
        let text = try ix.listJSON()
        #expect(text.string.hasPrefix(#"[{"path":"\#(two.path)","id":"s2","cwd":"/w/lib","title":null,"#
                                      + #""firstPrompt":"write a unit test","created":\#(indexT0 + 120_000),"#
                                      + #""updated":\#(indexT0 + 122_000),"modified":"#), "\(text)")
        try expectRoundTrip(all, text)

        #expect(try ix.list(cwd: "/w/app").map(\.id) == ["s1"])
        #expect(try ix.list(limit: 1).map(\.id) == ["s2"])
        #expect(try ix.listJSON(cwd: "/nowhere").string == "[]")
        #expect(try ix.list(limit: 10000).count == 2)  // the largest limit is allowed
        let error = indexFailure { _ = try ix.list(limit: 10001) }
        #expect(error?.code == .invalidArgument && error?.status == XS_EINVAL)
        ix.close()
    }

    @Test func optionsAreTheLibrarysDefaultsAndTheirLayoutIsTheHeaders() throws {
        try CArgs.with { a in
            let o = try IndexOptions().cStruct(a)
            #expect(o.version == UInt32(XS_INDEX_OPTIONS_VERSION) && o.flags == 0 && o.path == nil)
            #expect(o.busy_timeout_ms == 0)  // 0 = the library's 5000
            let set = try IndexOptions(path: "/p/index.db", busyTimeoutMs: 250).cStruct(a)
            #expect(String(cString: try #require(set.path)) == "/p/index.db" && set.busy_timeout_ms == 250)
            let following = try IndexOptions(followWrites: true).cStruct(a)
            #expect(set.flags == 0 && following.flags == UInt32(XS_INDEX_FOLLOW_WRITES))
        }
        typealias I = xs_index_options
        #expect(MemoryLayout<I>.size == 24)
        #expect([\I.version, \I.flags].map { MemoryLayout<I>.offset(of: $0) } == [0, 4])
        #expect(MemoryLayout<I>.offset(of: \I.path) == 8 && MemoryLayout<I>.offset(of: \I.busy_timeout_ms) == 16)
        typealias S = xs_search_options
        #expect(MemoryLayout<S>.size == 48)
        #expect([\S.version, \S.flags].map { MemoryLayout<S>.offset(of: $0) } == [0, 4])
        #expect([\S.cwd, \S.role].map { MemoryLayout<S>.offset(of: $0) } == [8, 16])
        #expect([\S.since_ms].map { MemoryLayout<S>.offset(of: $0) } == [24])
        #expect([\S.session_id, \S.limit].map { MemoryLayout<S>.offset(of: $0) } == [32, 40])

        let path = dir.file("elsewhere/ix.db")
        let ix = try store.openIndex(IndexOptions(path: path, busyTimeoutMs: 100))
        #expect(try ix.info().path == path && FileManager.default.fileExists(atPath: path))
        ix.close()
    }

    @Test func aDamagedFileIsKeptAsideAndNamedInInfo() throws {
        try Files.write(dir.file("index.db"), Array(repeating: UInt8(ascii: "x"), count: 4096))
        let ix = try store.openIndex()
        let info = try ix.info()
        let damaged = try #require(info.damaged)
        #expect(damaged.path.hasPrefix(dir.file("index.db.damaged-")) && !damaged.reason.isEmpty)
        #expect(Files.read(damaged.path) == Array(repeating: UInt8(ascii: "x"), count: 4096))
        #expect(info.sessions == 0 && info.entries == 0)
        try expectRoundTrip(info, try ix.infoJSON())
        ix.close()
    }

    @Test func closeTwiceAndCallsAfterCloseThrowClosed() throws {
        let ix = try store.openIndex()
        #expect(!ix.isClosed)
        ix.close()
        ix.close()  // nothing left to do
        #expect(ix.isClosed)
        let closed = XSessionError(code: .closed, message: "the index is closed")
        #expect(indexFailure { try ix.refresh() } == closed)
        #expect(indexFailure { try ix.rebuildJSON() } == closed)
        #expect(indexFailure { _ = try ix.verify() } == closed)
        #expect(indexFailure { _ = try ix.list() } == closed)
        #expect(indexFailure { _ = try ix.infoJSON() } == closed)
        #expect(indexFailure { _ = try ix.search("x") } == closed)
        #expect(closed.status == XS_EMISUSE)
    }

    @Test func anIndexOutlivesItsStore() throws {
        let turn = try indexSession(store, 1, cwd: "/w/app", prompt: "kept after the store", answer: "yes")
        var owner: Store? = try Store(root: dir.path)
        let ix = try #require(owner).openIndex()
        owner = nil  // the last reference: the store handle is freed
        store.close()
        #expect(try ix.refresh() == indexReport(files: 1, added: 1, entries: 2))
        #expect(try ix.search("kept").map(\.entryID) == [turn.userID])
        #expect(indexFailure { _ = try store.openIndex() } ==
                XSessionError(code: .closed, message: "the store is closed"))
        ix.close()
    }

    @Test func anInMemoryStoreNeedsAPath() throws {
        let memory = try Store.inMemory()
        let error = indexFailure { _ = try memory.openIndex() }
        #expect(error == XSessionError(code: .invalidArgument,
                                       message: "an in-memory store keeps no index.db: name a path in the options"))
        #expect(error?.status == XS_EINVAL)
        let path = dir.file("memory/index.db")
        let ix = try memory.openIndex(IndexOptions(path: path))
        memory.close()  // the index keeps what it reads through
        #expect(try ix.refresh() == indexReport(files: 0))
        #expect(try ix.info().path == path && FileManager.default.fileExists(atPath: path))
        ix.close()
    }
}
