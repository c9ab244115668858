// Concurrent tasks on one Session and one Store: nothing lost, every error its own, large reads
// whole while appends run, and the actor's sequences uninterrupted.
import Foundation
import Testing
@testable import XSession

@Suite struct Concurrency {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    @Test func concurrentAppendsAreAllKept() async throws {
        let s = try blocking { try store.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer)) }
        let ids = try await withThrowingTaskGroup(of: [String].self) { group in
            for t in 0..<8 {
                group.addTask {
                    try blocking { try (0..<25).map { i in try s.appendMessage(JSONText(#"{"role":"user","content":"t\#(t) m\#(i)"}"#)) } }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(ids.count == 200 && Set(ids).count == 200)
        let entries = try s.entriesJSON().array()
        #expect(entries.count == 200)
        let stored = Set(entries.compactMap { ($0 as? [String: Any])?["id"] as? String })
        #expect(stored == Set(ids))
        // Each append was one whole line of the file: header + 200.
        let file = try #require(Files.read(try await s.info().path))
        #expect(file.filter { $0 == 0x0A }.count == 201)
    }

    @Test func concurrentFailuresEachSeeTheirOwnMessage() async throws {
        let s = try await store.createSession(cwd: "/w")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask { try failThenAppend(s, task: t) }
            }
            try await group.waitForAll()
        }
        #expect(try await s.info().entryCount == 8 * 20)
    }

    @Test func largeReadsStayWholeWhileAppendsRun() async throws {
        let s = try await store.createSession(cwd: "/w")
        let big = String(repeating: "x", count: 20_000)  // each context is far over the first buffer
        try await s.appendMessage(JSONText(#"{"role":"user","content":"\#(big)"}"#))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<100 { try blocking { try s.appendMessage(JSONText(#"{"role":"user","content":"\#(i)"}"#)) } }
            }
            for _ in 0..<4 {
                group.addTask {
                    var last = 0
                    for _ in 0..<50 {
                        // A retry that met another call's result would give a cut or mixed text.
                        let context = try s.buildContextJSON().dictionary()
                        let count = (context["messages"] as? [Any])?.count ?? 0
                        #expect(count >= max(last, 1) && count <= 101)
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await s.info().entryCount == 101)
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
        let shared = SessionActor(try await store.createSession(cwd: "/w"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<10 {
                        // Append, then read the context: the last message must be our own.
                        let content = "task \(t) turn \(i)"
                        let last = try await shared.perform { actor in
                            try await actor.appendMessage(Message(role: "user", content: .string(content)))
                            return try await actor.buildContext().messages.last?.text
                        }
                        #expect(last == content)
                    }
                }
            }
            try await group.waitForAll()
        }
        let id = try await shared.appendMessage(#"{"role":"assistant","content":"done"}"#)
        #expect(try await shared.buildContext().leafID == id)
        try await shared.close()
        #expect(shared.session.isClosed)
    }

    /// Two performs that await in the middle (a model call) do not interleave: the second
    /// starts only when the first has finished, and other calls of the actor wait too.
    @Test func performsThatAwaitDoNotInterleave() async throws {
        let shared = SessionActor(try await store.createSession(cwd: "/w"))
        let log = EventLog()
        let firstStarted = AsyncFlag()
        async let first: Void = shared.perform { actor in
            await log.add("A start")
            let context = try await actor.buildContext()
            await firstStarted.set()
            try await Task.sleep(nanoseconds: 200_000_000)  // the model thinks; B and C are queued
            try await actor.appendMessage(Message(role: "assistant", content: .string("A saw \(context.messages.count)")))
            await log.add("A end")
        }
        await firstStarted.wait()
        async let second: Void = shared.perform { actor in
            await log.add("B start")
            let context = try await actor.buildContext()
            try await Task.sleep(nanoseconds: 50_000_000)
            try await actor.appendMessage(Message(role: "assistant", content: .string("B saw \(context.messages.count)")))
            await log.add("B end")
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        // A plain call queued behind them waits for both.
        let third = try await shared.appendMessage(Message(role: "user", content: "C"))
        await log.add("C done")
        _ = try await (first, second)
        #expect(await log.events == ["A start", "A end", "B start", "B end", "C done"])
        let context = try await shared.buildContext()
        #expect(context.messages.map(\.text) == ["A saw 0", "B saw 1", "C"])
        #expect(context.leafID == third)
        // A perform inside a perform runs at once (the task holds the turn).
        let nested = try await shared.perform { actor in try await actor.perform { inner in try await inner.entries().count } }
        #expect(nested == 3)
        try await shared.close()
    }

    /// The async methods run the library on the session's own queue, not on the cooperative
    /// pool that runs the test's task.
    @Test func asyncCallsRunOnTheSessionsQueue() async throws {
        let s = try await store.createSession(cwd: "/w")
        #expect(currentQueueLabel() != "xsession.session")
        #expect(try await s.perform { _ in currentQueueLabel() } == "xsession.session")
        #expect(try await store.perform { _ in currentQueueLabel() } == "xsession.store")
        #expect(try await s.appendMessage(Message(role: "user", content: "hi")).count == 8)
        try await s.close()
        #expect(s.isClosed)
    }
}

/// Forty calls of task `t` on `s`, half failing: each failure carries its own message.
func failThenAppend(_ s: Session, task t: Int) throws {
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

/// The kind of handle whose queue runs the caller ("" on other threads).
func currentQueueLabel() -> String { "xsession." + (DispatchQueue.getSpecific(key: Handle.queueKey) ?? "") }

/// Events in the order they happened, across tasks.
actor EventLog {
    private(set) var events: [String] = []
    func add(_ event: String) { events.append(event) }
}

/// A one-shot signal between tasks.
actor AsyncFlag {
    private var isSet = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func set() {
        isSet = true
        for w in waiters { w.resume() }
        waiters = []
    }
    func wait() async {
        if isSet { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
