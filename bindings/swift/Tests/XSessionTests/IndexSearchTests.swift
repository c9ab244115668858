// Search through the session index: hits with the snippet markers, each filter (role, cwd,
// sessionID, since, limit, literal) changing the result as it should, the refusals with their
// exact statuses and messages, the async forms, calls from many tasks, and the README's example.
import CXSession
import Foundation
import Testing
@testable import XSession

@Suite struct IndexSearch {
    let dir: ScratchDirectory
    let store: Store
    let one: IndexedTurn
    let two: IndexedTurn

    init() throws {
        (dir, store) = try scratchStore()
        one = try indexSession(store, 1, cwd: "/w/app", prompt: "deploy the staging server",
                               answer: "staging is deployed")
        two = try indexSession(store, 2, cwd: "/w/lib", prompt: "write a unit test", answer: "the test passes")
    }

    func rebuilt() throws -> SessionIndex {
        let ix = try store.openIndex()
        try ix.rebuild()
        return ix
    }

    @Test func aHitShowsTheMatchBetweenTheMarkers() throws {
        let ix = try rebuilt()
        let hits = try ix.search("staging")
        #expect(hits.count == 2 && hits.allSatisfy { $0.sessionID == "s1" && $0.sessionPath == one.path })
        let user = try #require(hits.first { $0.role == .user })
        #expect(user.entryID == one.userID && user.snippet == "deploy the \u{2}staging\u{3} server")
        #expect(user.cwd == "/w/app" && user.sessionTitle == nil && user.onPath && user.score < 0)
        #expect(user.timestamp == indexT0 + 61_000 && user.date == Date(timeIntervalSince1970: 1_771_237_291))
        #expect(user.snippet.firstIndex(of: SearchHit.matchStart) != nil)
        let answer = try #require(hits.first { $0.role == .assistant })
        #expect(answer.entryID == one.assistantID && answer.snippet == "\u{2}staging\u{3} is deployed")
        let text = try ix.searchJSON("staging")
        #expect(text.string.contains(#""entryId":"\#(one.userID)","role":"user","onPath":true,"#
                                     + #""timestamp":\#(indexT0 + 61_000),"score":"#), "\(text)")
        #expect(text.string.contains(#""snippet":"deploy the \u0002staging\u0003 server"}"#), "\(text)")
        try expectRoundTrip(hits, text)
        ix.close()
    }

    @Test func eachFilterNarrowsTheResult() throws {
        let ix = try rebuilt()
        func entries(_ query: String, _ options: SearchOptions = SearchOptions()) throws -> Set<String> {
            Set(try ix.search(query, options: options).map(\.entryID))
        }
        let everything = [one.userID, one.assistantID, two.userID, two.assistantID]
        #expect(try entries("test OR staging") == Set(everything))
        // role
        #expect(try entries("staging", SearchOptions(role: .assistant)) == [one.assistantID])
        #expect(try ix.search("staging", options: SearchOptions(role: .user)).map(\.role) == [.user])
        #expect(try entries("staging", SearchOptions(role: .tool)).isEmpty)
        // cwd
        #expect(try entries("test OR staging", SearchOptions(cwd: "/w/lib")) == [two.userID, two.assistantID])
        #expect(try ix.searchJSON("staging", options: SearchOptions(cwd: "/w/lib")).string == "[]")
        // sessionID
        #expect(try entries("test OR staging", SearchOptions(sessionID: "s1")) == [one.userID, one.assistantID])
        // since: only the second session's entries are that new (ms, or a Date)
        var since = SearchOptions()
        since.sinceMs = indexT0 + 120_000
        #expect(try entries("test OR staging", since) == [two.userID, two.assistantID])
        let date = Date(timeIntervalSince1970: Double(indexT0 + 122_000) / 1000)
        #expect(try entries("test OR staging", SearchOptions(since: date)) == [two.assistantID])
        // limit
        #expect(try ix.search("test OR staging", options: SearchOptions(limit: 3)).count == 3)
        #expect(try ix.search("test OR staging", options: SearchOptions(limit: 10000)).count == 4)
        // literal: plain words, the last a prefix; without it "te" is a whole word nothing has
        #expect(try entries("unit te").isEmpty)
        #expect(try entries("unit te", SearchOptions(literal: true)) == [two.userID])
        // all at once
        let all = SearchOptions(cwd: "/w/lib", role: .assistant, since: date, sessionID: "s2", limit: 1)
        #expect(try entries("test", all) == [two.assistantID])
        #expect(try entries("test", SearchOptions(cwd: "/w/app", sessionID: "s2")).isEmpty)
        ix.close()
    }

    @Test func sinceAsADateIsTheMillisecondItStartsIn() {
        #expect(SearchOptions().since == nil && SearchOptions().sinceMs == nil)
        #expect(SearchOptions(since: Date(timeIntervalSince1970: 1.5)).sinceMs == 1500)
        #expect(SearchOptions(since: Date(timeIntervalSince1970: 0.0004)).sinceMs == 1)  // at or after
        let ms = indexT0 + 122_001
        #expect(SearchOptions(since: Date(timeIntervalSince1970: Double(ms) / 1000)).sinceMs == ms)
        var o = SearchOptions()
        o.sinceMs = 2500
        #expect(o.since == Date(timeIntervalSince1970: 2.5))
        #expect(SearchOptions(since: Date(timeIntervalSince1970: -1e300)).sinceMs == Int64.min)  // refused by C
    }

    @Test func refusalsHaveTheirStatusAndMessage() throws {
        let ix = try rebuilt()
        for query in ["(", #""open"#, "a AND", "NEAR("] {
            for call in [{ _ = try ix.search(query) }, { _ = try ix.searchJSON(query) }] as [() throws -> Void] {
                let error = indexFailure(call)
                #expect(error?.code == .invalidArgument && error?.status == XS_EINVAL, "\(query)")
                #expect(error?.message.hasPrefix("bad search query: ") == true,
                        "\(query): \(String(describing: error))")
            }
        }
        #expect(indexFailure { _ = try ix.search("") } ==
                XSessionError(code: .invalidArgument, message: "the query is empty"))
        #expect(indexFailure { _ = try ix.search("x", options: SearchOptions(limit: 10001)) }?.code == .invalidArgument)
        var negative = SearchOptions()
        negative.sinceMs = -1
        #expect(indexFailure { _ = try ix.search("x", options: negative) } ==
                XSessionError(code: .invalidArgument, message: "xs_search_options.since_ms is negative"))
        #expect(indexFailure { _ = try ix.search("x", options: SearchOptions(cwd: "/a\0b")) }?.code == .invalidArgument)
        // The handle's message is this call's: a good search after a bad one succeeds.
        #expect(try ix.search("staging").count == 2)
        ix.close()
    }

    /// SearchRole is the library's closed set, so no role outside it can be sent through the public
    /// API; one sent through the C struct directly is refused with its status and message.
    @Test func aRoleThatIsNoneOfTheFiveIsRefused() throws {
        #expect(SearchRole.allCases.map(\.rawValue) == ["user", "assistant", "tool", "summary", "label"])
        #expect(SearchRole(rawValue: "robot") == nil && SearchRole(rawValue: "User") == nil)
        #expect(throws: DecodingError.self) { try JSONText(#""robot""#).decode(SearchRole.self) }
        let ix = try rebuilt()
        let error = indexFailure {
            try CArgs.with { a in
                var o = try SearchOptions().cStruct(a)
                o.role = try a.cString("robot")
                _ = try ix.searchJSON("staging", &o, a)
            }
        }
        #expect(error == XSessionError(code: .invalidArgument,
                                       message: #"role "robot" is none of user, assistant, tool, summary, label"#))
        #expect(error?.status == XS_EINVAL)
        ix.close()
    }

    @Test func asyncFormsRunOnTheIndexsQueue() async throws {
        let ix = try await store.openIndex()
        #expect(currentQueueLabel() != "xsession.index")
        #expect(try await ix.perform { _ in currentQueueLabel() } == "xsession.index")
        #expect(try await ix.verify().missing.sorted() == [one.path, two.path].sorted())
        #expect(try await ix.rebuild() == indexReport(files: 2, added: 2, entries: 4))
        #expect(try await ix.refresh() == indexReport(files: 2, unchanged: 2))
        #expect(try await ix.search("unit", options: SearchOptions(role: .user)).map(\.entryID) == [two.userID])
        #expect(try await ix.list(cwd: "/w/app", limit: 5).map(\.id) == ["s1"])
        #expect(try await ix.info().sessions == 2)
        await ix.close()
        #expect(ix.isClosed)
        await ix.close()
    }

    /// Searches from eight tasks at once, half of them refused: every refusal carries its own
    /// message and every good search its own hits.
    @Test func callsFromManyTasksAreSerialised() async throws {
        let ix = try await store.openIndex()
        try await ix.refresh()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<20 {
                        let good = try blocking { try ix.search(t % 2 == 0 ? "staging" : "unit") }
                        #expect(good.map(\.sessionID) == (t % 2 == 0 ? ["s1", "s1"] : ["s2"]))
                        let error = indexFailure { _ = try ix.search(i % 2 == 0 ? "" : "(") }
                        #expect(i % 2 == 0 ? error?.message == "the query is empty"
                                : error?.message.hasPrefix("bad search query: ") == true)
                    }
                }
            }
            try await group.waitForAll()
        }
        await ix.close()
    }

    /// README.md, "Session index and search" (sessions on the real clock: "since" is a week ago).
    @Test func readmeExample() async throws {
        let store = try Store(root: dir.file("readme"))
        let s = try await store.createSession(cwd: "/work/app")
        try await s.appendMessage(Message(role: "user", content: "deploy the staging server"))
        try await s.appendMessage(Message(role: "assistant", content: "deployed"))
        try await s.close()

        let index = try await store.openIndex()
        let report = try await index.refresh()  // reads only what changed since the last refresh
        for hit in try await index.search("stag*") {  // [SearchHit], best first
            #expect(hit.snippet == "deploy the \u{2}staging\u{3} server")
        }
        let lastWeek = SearchOptions(cwd: "/work/app", role: .user, since: .now.addingTimeInterval(-7 * 86_400))
        let mine = try await index.search("deploy", options: lastWeek)
        let words = try await index.search(#"the "staging"#, options: SearchOptions(literal: true))  // no syntax
        let recent = try await index.list(cwd: "/work/app", limit: 10)  // [IndexedSession], newest first
        await index.close()
        #expect(report.added == 1 && recent.map(\.firstPrompt) == ["deploy the staging server"])
        #expect(mine.map(\.role) == [.user] && words.count == 1)
    }
}
