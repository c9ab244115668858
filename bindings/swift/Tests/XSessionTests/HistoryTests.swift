// The prompt history: add, flush, search (snippet markers, cwd filter, literal words, bad FTS
// queries), recent, info (a damaged file too), the refusals with their exact statuses, the
// duplicate rule, close, the async forms, calls from many threads, and the README's example.
import CXSession
import Foundation
import Testing
import XSession

@Suite struct HistoryAPI {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    /// The error `body` throws (an issue is recorded when it throws none).
    func failure(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> XSessionError? {
        #expect(throws: XSessionError.self, sourceLocation: sourceLocation) { try body() }
    }

    @Test func addFlushSearchShowsTheMatchBetweenTheMarkers() throws {
        let h = try store.openHistory()
        try h.add("deploy the staging server", cwd: "/w/app", timeMs: 1000)
        try h.add("write a unit test", timeMs: 2000)
        try h.flush()
        let hits = try h.search("stag*")
        #expect(hits.count == 1)
        let hit = try #require(hits.first)
        #expect(hit.id == 1 && hit.prompt == "deploy the staging server" && hit.createdAt == 1000)
        #expect(hit.cwd == "/w/app" && hit.score < 0)
        #expect(hit.snippet == "deploy the \u{2}staging\u{3} server")
        #expect(hit.snippet.firstIndex(of: HistoryHit.matchStart) != nil && hit.created == Date(timeIntervalSince1970: 1))
        let text = try h.searchJSON("stag*")
        #expect(text.string.hasPrefix(#"[{"id":1,"prompt":"deploy the staging server","createdAt":1000,"cwd":"/w/app","score":"#))
        #expect(text.string.hasSuffix(#","snippet":"deploy the \u0002staging\u0003 server"}]"#), "\(text)")
        try expectRoundTrip(hits, text)
        try h.close()
    }

    @Test func recentIsNewestFirstAndBothReadersFilterByCwd() throws {
        let h = try store.openHistory()
        try h.add("build alpha", cwd: "/a", timeMs: 1000)
        try h.add("build beta", cwd: "/b", timeMs: 2000)
        try h.add("build gamma", timeMs: 3000)
        try h.flush()
        let recent = try h.recent()
        #expect(recent.map(\.prompt) == ["build gamma", "build beta", "build alpha"])
        #expect(recent.map(\.cwd) == [nil, "/b", "/a"] && recent.map(\.id) == [3, 2, 1])
        let text = try h.recentJSON()
        #expect(text.string == #"[{"id":3,"prompt":"build gamma","createdAt":3000,"cwd":null},"#
                + #"{"id":2,"prompt":"build beta","createdAt":2000,"cwd":"/b"},"#
                + #"{"id":1,"prompt":"build alpha","createdAt":1000,"cwd":"/a"}]"#)
        try expectRoundTrip(recent, text)
        #expect(try h.recent(limit: 2).map(\.prompt) == ["build gamma", "build beta"])
        #expect(try h.recent(cwd: "/a").map(\.prompt) == ["build alpha"])
        #expect(try h.recentJSON(cwd: "/nowhere").string == "[]")
        #expect(Set(try h.search("build").map(\.prompt)) == ["build alpha", "build beta", "build gamma"])
        #expect(try h.search("build", cwd: "/b").map(\.prompt) == ["build beta"])
        #expect(try h.search("build", limit: 1).count == 1)
        #expect(try h.searchJSON("build", cwd: "/nowhere").string == "[]")
        try h.close()
    }

    @Test func literalQueriesTakeQuotesAndOperatorsAsText() throws {
        let h = try store.openHistory()
        try h.add(#"say "hello" AND NOT goodbye"#)
        try h.flush()
        // As FTS5 syntax NOT excludes the prompt; as plain words every one of them occurs in it.
        #expect(try h.search("hello NOT goodbye").isEmpty)
        #expect(try h.search("hello NOT goodbye", literal: true).map(\.prompt) == [#"say "hello" AND NOT goodbye"#])
        // An open quote: a syntax error for FTS5, an ordinary character (and the last word a
        // prefix) for the literal search.
        let hits = try h.search(#""hel"#, literal: true)
        #expect(hits.map(\.snippet) == ["say \"\u{2}hello\u{3}\" AND NOT goodbye"])
        let error = failure { _ = try h.search(#""hel"#) }
        #expect(error?.code == .invalidArgument && error?.status == XS_EINVAL)
        #expect(error?.message.hasPrefix("bad history query: ") == true, "\(String(describing: error))")
        #expect(try h.search(#""hello" AND"#, literal: true).count == 1)
        try h.close()
    }

    @Test func badQueriesAndLimitsAreInvalidArguments() throws {
        let h = try store.openHistory()
        try h.add("ok")
        try h.flush()
        for query in [#""open"#, "a AND", "NEAR("] {
            for call in [{ _ = try h.search(query) }, { _ = try h.searchJSON(query) }] as [() throws -> Void] {
                let error = failure(call)
                #expect(error?.code == .invalidArgument, "\(query)")
                #expect(error?.message.hasPrefix("bad history query: ") == true, "\(query): \(String(describing: error))")
            }
        }
        #expect(failure { _ = try h.search("") } == XSessionError(code: .invalidArgument, message: "the query is empty"))
        #expect(failure { _ = try h.search("ok", limit: 10001) }?.code == .invalidArgument)
        #expect(failure { _ = try h.recent(limit: 10001) }?.code == .invalidArgument)
        #expect(try h.search("ok", limit: 10000).count == 1)  // the largest limit is allowed
        try h.close()
    }

    @Test func refusedPromptsHaveExactStatusesAndMessages() throws {
        let h = try store.openHistory()
        let cases: [(String, () throws -> Void, XSessionError)] = [
            ("NUL", { try h.add("a\0b") }, XSessionError(code: .invalidArgument, message: "the prompt contains a NUL byte")),
            ("bytes", { try h.add(Data([0xC0, 0xAF])) },
             XSessionError(code: .invalidArgument, message: "the prompt is not valid UTF-8")),
            ("empty", { try h.add("") }, XSessionError(code: .invalidArgument, message: "the prompt is empty")),
            ("empty bytes", { try h.add(Data()) }, XSessionError(code: .invalidArgument, message: "the prompt is empty")),
            ("time", { try h.add("x", timeMs: -5) }, XSessionError(code: .invalidArgument, message: "time_ms is negative")),
            ("size", { try h.add(String(repeating: "p", count: 1_048_577)) },
             XSessionError(code: .limit, message: "the prompt has 1048577 bytes; the limit is 1048576")),
        ]
        for (name, call, expected) in cases {
            #expect(failure(call) == expected, "\(name)")
        }
        #expect(failure { try h.add("x", cwd: "/a\0b") }?.code == .invalidArgument)  // refused before C
        try h.add(String(repeating: "p", count: 1_048_576))  // exactly the limit
        try h.add(Data("valid bytes".utf8), cwd: "/w")
        try h.flush()
        #expect(try h.recent().map(\.prompt.utf8.count) == [11, 1_048_576])

        // HistoryOptions.maxPromptBytes sets the limit.
        let small = try store.openHistory(HistoryOptions(path: dir.file("small/h.db"), maxPromptBytes: 4))
        #expect(failure { try small.add("12345") } ==
                XSessionError(code: .limit, message: "the prompt has 5 bytes; the limit is 4"))
        try small.add("1234")
        try small.close()
        try h.close()
    }

    @Test func aConsecutiveDuplicateIsSkipped() throws {
        let h = try store.openHistory()
        try h.add("same", cwd: "/w", timeMs: 1)
        try h.add("same", cwd: "/w", timeMs: 2)  // skipped
        try h.add("same", cwd: "/x", timeMs: 3)  // another cwd: kept
        try h.add("other", timeMs: 4)
        try h.add("same", cwd: "/x", timeMs: 5)  // not the last one: kept
        try h.flush()
        #expect(try h.recent().map(\.createdAt) == [5, 4, 3, 1])
        try h.close()
        // A new handle's first add is compared with the file's last row.
        let again = try store.openHistory()
        try again.add("same", cwd: "/x", timeMs: 6)
        try again.flush()
        #expect(try again.info().count == 4)
        try again.close()
    }

    @Test func infoRoundTripsAndOptionsShowInIt() throws {
        let h = try store.openHistory()
        try h.add("one")
        try h.add("two")
        try h.flush()
        let text = try h.infoJSON()
        #expect(text.string == #"{"path":"\#(dir.file("history.db"))","schemaVersion":3,"count":2,"pending":0,"#
                + #""synchronous":"normal","damaged":null}"#)
        let info = try h.info()
        #expect(info.synchronous == .normal && info.damaged == nil && info.count == 2)
        try expectRoundTrip(info, text)
        try h.close()

        let path = dir.file("elsewhere/h.db")
        let synced = try store.openHistory(HistoryOptions(path: path, sync: true, busyTimeoutMs: 100))
        let syncedInfo = try synced.info()
        #expect(syncedInfo.path == path && syncedInfo.synchronous == .full && syncedInfo.count == 0)
        try synced.close()
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aDamagedFileIsKeptAsideAndNamedInInfo() throws {
        try Files.write(dir.file("history.db"), Array("garbage that is not a database".utf8))
        let h = try store.openHistory()
        let info = try h.info()
        let damaged = try #require(info.damaged)
        #expect(damaged.path.hasPrefix(dir.file("history.db.damaged-")) && !damaged.reason.isEmpty)
        #expect(Files.read(damaged.path) == Array("garbage that is not a database".utf8))
        #expect(info.count == 0)
        try expectRoundTrip(info, try h.infoJSON())
        try h.add("fresh", timeMs: 1)
        try h.flush()
        #expect(try h.recentJSON().string == #"[{"id":1,"prompt":"fresh","createdAt":1,"cwd":null}]"#)
        try h.close()
    }

    @Test func closeAndDeinitWriteWhatIsQueued() throws {
        let h = try store.openHistory()
        try h.add("queued, never flushed", timeMs: 7)
        #expect(h.isClosed == false)
        try h.close()
        try h.close()  // nothing left to do, nothing thrown
        #expect(h.isClosed)
        let closed = XSessionError(code: .closed, message: "the history is closed")
        #expect(failure { try h.add("late") } == closed)
        #expect(failure { try h.flush() } == closed)
        #expect(failure { _ = try h.search("late") } == closed)
        #expect(failure { _ = try h.recentJSON() } == closed)
        #expect(failure { _ = try h.info() } == closed)
        do {
            let dropped = try store.openHistory()
            try dropped.add("dropped without close", timeMs: 8)
        }  // deinit closes it, which writes the prompt too
        let reopened = try store.openHistory()
        #expect(try reopened.recent().map(\.prompt) == ["dropped without close", "queued, never flushed"])
        try reopened.close()
    }

    @Test func aHistoryOutlivesItsStoreAndNeedsAPathInMemory() throws {
        let h = try store.openHistory()
        store.close()
        try h.add("after the store", timeMs: 1)
        try h.flush()
        #expect(try h.recent().count == 1)
        try h.close()
        #expect(failure { _ = try store.openHistory() } == XSessionError(code: .closed, message: "the store is closed"))

        let memory = try Store.inMemory()
        #expect(failure { _ = try memory.openHistory() } ==
                XSessionError(code: .invalidArgument,
                              message: "an in-memory store keeps no history.db: name a path in the options"))
        let kept = try memory.openHistory(HistoryOptions(path: dir.file("memory/history.db")))
        #expect(try kept.info().path == dir.file("memory/history.db"))
        try kept.close()
    }

    @Test func asyncFormsRunOnTheHistorysQueue() async throws {
        let h = try await store.openHistory()
        #expect(currentQueueLabel() != "xsession.history")
        #expect(try await h.perform { _ in currentQueueLabel() } == "xsession.history")
        try await h.add("async prompt", cwd: "/w", timeMs: 5)
        try await h.flush()
        #expect(try await h.search("async").map(\.prompt) == ["async prompt"])
        #expect(try await h.search("prom", cwd: "/w", literal: true, limit: 1).map(\.createdAt) == [5])
        #expect(try await h.recent(cwd: "/w").map(\.createdAt) == [5])
        #expect(try await h.info().count == 1)
        try await h.close()
        #expect(h.isClosed)
        try await h.close()
    }

    /// Adds from eight tasks at once, half of them refused: every refusal carries its own
    /// message and every accepted prompt is written once.
    @Test func callsFromManyTasksAreSerialised() async throws {
        let h = try await store.openHistory()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<25 {
                        try blocking { try h.add("prompt \(t)-\(i)") }
                        let refused = i % 2 == 0 ? "" : "nul\0\(t)"
                        let expected = i % 2 == 0 ? "the prompt is empty" : "the prompt contains a NUL byte"
                        #expect(failure { try h.add(refused) }?.message == expected)
                    }
                }
            }
            try await group.waitForAll()
        }
        try await h.flush()
        #expect(try await h.info().count == 200)
        let prompts = Set(try await h.recent(limit: 200).map(\.prompt))
        #expect(prompts == Set((0..<8).flatMap { t in (0..<25).map { "prompt \(t)-\($0)" } }))
        try await h.close()
    }

    /// README.md, "Prompt history".
    @Test func readmeExample() async throws {
        let history = try await store.openHistory()
        try await history.add("deploy the staging server", cwd: "/work/app")  // returns at once
        try await history.flush()  // committed: searches find it
        for hit in try await history.search("stag*") {
            #expect(hit.snippet == "deploy the \u{2}staging\u{3} server")
        }
        let mine = try await history.recent(cwd: "/work/app", limit: 10)
        let words = try await history.search(#"the "staging"#, literal: true)
        try await history.close()
        #expect(mine.map(\.prompt) == ["deploy the staging server"] && words.count == 1)
    }
}
