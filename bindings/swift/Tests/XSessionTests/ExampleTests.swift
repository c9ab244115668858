// The README's example, compiled and run (with a scratch directory standing in for
// Application Support), so the documentation cannot drift from the API. It is the agent loop
// of examples/c/agent_loop.c with typed values: no JSON decoding of the app's own.
import Foundation
import Testing
import XSession

/// README: "Opening the store".
func openAppStore(applicationSupport: URL) throws -> Store {
    try Store(root: applicationSupport.appendingPathComponent("MyAgent", isDirectory: true))
}

/// README: one turn of the agent loop (`callModel` stands for the app's model call). The turn
/// is one perform: no other call of the actor runs while the model thinks.
func turn(_ shared: SessionActor, prompt: String,
          callModel: @escaping @Sendable ([Message]) async throws -> String) async throws {
    // One turn of the agent loop: no other call of the actor runs until it is done, not even
    // while the model thinks.
    try await shared.perform { session in
        try await session.appendMessage(Message(role: "user", content: .string(prompt)))
        let context = try await session.buildContext()      // SessionContext: leafID, messages, models…
        let reply = try await callModel(context.messages)   // your code; message.role, .text, .content
        try await session.appendMessage(Message(role: "assistant", content: .string(reply)))
    }
}

@Suite struct Example {
    @Test func readmeExampleRuns() async throws {
        let support = try ScratchDirectory("xs-swift-appsupport")
        let store = try openAppStore(applicationSupport: URL(fileURLWithPath: support.path))
        let session = try await store.continueRecent(cwd: "/Users/me/project", terminalID: "window-1")
        let shared = SessionActor(session)
        try await turn(shared, prompt: "hello") { messages in "hi, \(messages.count) message(s) so far" }
        let messages = try await shared.buildContext().messages
        #expect(messages.map(\.role) == ["user", "assistant"])
        #expect(messages.map(\.text) == ["hello", "hi, 1 message(s) so far"])
        let info = try await session.info()
        #expect(info.entryCount == 2 && info.persisted)  // the assistant's reply ended the deferral
        #expect(info.path.hasPrefix(support.path + "/MyAgent/sessions/--Users-me-project--/"))
        // The next launch (after this one closed it) continues the same session.
        try await shared.close()
        let again = try await store.continueRecent(cwd: "/Users/me/project", terminalID: "window-1")
        #expect(try await again.info().id == info.id)
    }

    /// The README shows turn(_:prompt:callModel:)'s body as it is.
    @Test func readmeShowsTheTurn() throws {
        let readme = try String(contentsOfFile: Repository.root + "/bindings/swift/README.md", encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let body = source.components(separatedBy: "callModel: @escaping @Sendable ([Message]) async throws -> String) async throws {\n")[1]
            .components(separatedBy: "\n}\n")[0]
        let unindented = body.split(separator: "\n").map { $0.dropFirst(4) }.joined(separator: "\n")
        #expect(readme.contains(unindented + "\n"), "the README's turn is ExampleTests.turn's body")
    }

    /// examples/c/agent_loop.c, step for step: open, append user + assistant, branch with a
    /// summary, build the context and read its messages as typed values.
    @Test func theAgentLoopOfTheCExample() async throws {
        let dir = try ScratchDirectory("xs-swift-agentloop")
        let store = try Store(root: dir.path)
        let session = try await store.createSession(cwd: "/work/project")
        let first = try await session.appendMessage(Message(role: "user", content: "What is 2 + 2?"))
        try await session.appendMessage(Message(role: "assistant", content: [["type": "text", "text": "4"]],
                                                members: ["provider": "anthropic", "model": "claude-sonnet-4-5"]))
        try await session.branchWithSummary(from: first, summary: "Asked about arithmetic; answered 4.")
        try await session.appendMessage(Message(role: "user", content: "And 3 + 3?"))
        let context = try await session.buildContext()
        #expect(context.messages.map(\.role) == ["user", "branchSummary", "user"])
        #expect(context.messages.map(\.text) == ["What is 2 + 2?", "Asked about arithmetic; answered 4.", "And 3 + 3?"])
        let entries = try await session.entries()
        #expect(entries.map(\.type) == ["message", "message", "branch_summary", "message"])
        guard case .branchSummary(let summary) = entries[2] else {
            Issue.record("entry 2 is \(entries[2])")
            return
        }
        #expect(summary.fromID == first && summary.parentID == first)
        #expect(entries[1].message?.members["model"] == "claude-sonnet-4-5")
        try await session.close()
    }
}
