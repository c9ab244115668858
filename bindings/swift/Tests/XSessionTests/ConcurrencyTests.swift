// Concurrent tasks on one Session and one Store: nothing lost, every error its own, large reads
// whole while appends run, and the actor's sequences uninterrupted.
import Foundation
import Testing
import XSession

@Suite struct Concurrency {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    @Test func concurrentAppendsAreAllKept() async throws {
        let s = try store.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        let ids = try await withThrowingTaskGroup(of: [String].self) { group in
            for t in 0..<8 {
                group.addTask {
                    try (0..<25).map { i in try s.appendMessage(JSONText(#"{"role":"user","content":"t\#(t) m\#(i)"}"#)) }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ids.count == 200 && Set(ids).count == 200)
        let entries = try s.entries().array()
        #expect(entries.count == 200)
        let stored = Set(entries.compactMap { ($0 as? [String: Any])?["id"] as? String })
        #expect(stored == Set(ids))
        // Each append was one whole line of the file: header + 200.
        let file = try #require(Files.read(try s.info().path))
        #expect(file.filter { $0 == 0x0A }.count == 201)
    }

    @Test func concurrentFailuresEachSeeTheirOwnMessage() async throws {
        let s = try store.createSession(cwd: "/w")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<40 {
                        let target = "missing-\(t)-\(i)"
                        if i % 2 == 0 {
                            let error = #expect(throws: XSessionError.self) { try s.appendLabel("l", for: target) }
                            #expect(error?.code == .notFound)
                            #expect(error?.message.contains(target) == true, "\(String(describing: error))")
                        } else {
                            let error = #expect(throws: XSessionError.self) { try s.append(JSONText("[\(t)]")) }
                            #expect(error?.message == "an entry must be a JSON object")
                            try s.appendMessage(#"{"role":"user","content":"ok"}"#)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try s.info().entryCount == 8 * 20)
    }

    @Test func largeReadsStayWholeWhileAppendsRun() async throws {
        let s = try store.createSession(cwd: "/w")
        let big = String(repeating: "x", count: 20_000)  // each context is far over the first buffer
        try s.appendMessage(JSONText(#"{"role":"user","content":"\#(big)"}"#))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<100 { try s.appendMessage(JSONText(#"{"role":"user","content":"\#(i)"}"#)) }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    for _ in 0..<50 {
                        // A retry that met another call's result would give a cut or mixed text.
                        let context = try s.buildContext().dictionary()
                        let count = (context["messages"] as? [Any])?.count ?? 0
                        #expect(count >= max(last, 1) && count <= 101)
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try s.info().entryCount == 101)
    }

    @Test func storeCallsFromManyTasks() async throws {
        let hashes = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<16 { group.addTask { try store.putBlob(Data("blob \(i % 4)".utf8)) } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(hashes.count == 4)
        for h in hashes { #expect(try store.blob(h).starts(with: Data("blob ".utf8))) }
    }

    @Test func actorSequencesAreNotInterleaved() async throws {
        let shared = SessionActor(try store.createSession(cwd: "/w"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<10 {
                        // Append, then read the context: the last message must be our own.
                        let content = "task \(t) turn \(i)"
                        let last = try await shared.perform { s in
                            try s.appendMessage(JSONText(#"{"role":"user","content":"\#(content)"}"#))
                            let messages = try s.buildContext().dictionary()["messages"] as? [[String: Any]]
                            return messages?.last?["content"] as? String
                        }
                        #expect(last == content)
                    }
                }
            }
            try await group.waitForAll()
        }
        let id = try await shared.appendMessage(#"{"role":"assistant","content":"done"}"#)
        #expect(try await shared.buildContext().dictionary()["leafId"] as? String == id)
        await shared.close()
        #expect(shared.session.isClosed)
    }
}
