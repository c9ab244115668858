// The README's example, compiled and run (with a scratch directory standing in for
// Application Support), so the documentation cannot drift from the API.
import Foundation
import Testing
import XSession

/// The message type of the README's app.
struct ChatMessage: Codable, Sendable {
    let role: String
    let content: String
}

/// README: "Opening the store".
func openAppStore(applicationSupport: URL) throws -> Store {
    try Store(root: applicationSupport.appendingPathComponent("MyAgent", isDirectory: true))
}

/// README: one turn of the agent loop (`callModel` stands for the app's model call).
func turn(_ shared: SessionActor, prompt: String, callModel: @escaping @Sendable (Data) throws -> String) async throws {
    try await shared.appendMessage(JSONText(encoding: ChatMessage(role: "user", content: prompt)))
    try await shared.perform { session in
        let context = try session.buildContext()  // exact JSON bytes, as the model sees them
        let reply = try callModel(context.data)
        try session.appendMessage(JSONText(encoding: ChatMessage(role: "assistant", content: reply)))
    }
}

/// What the test's model reads from a context.
struct ModelInput: Decodable {
    let messages: [ChatMessage]
}

@Suite struct Example {
    @Test func readmeExampleRuns() async throws {
        let support = try ScratchDirectory("xs-swift-appsupport")
        let store = try openAppStore(applicationSupport: URL(fileURLWithPath: support.path))
        let session = try store.continueRecent(cwd: "/Users/me/project", terminalID: "window-1")
        let shared = SessionActor(session)
        try await turn(shared, prompt: "hello") { context in
            let input = try JSONDecoder().decode(ModelInput.self, from: context)
            return "hi, \(input.messages.count) message(s) so far"
        }
        let messages = try session.buildContext().decode(ModelInput.self).messages
        #expect(messages.map(\.content) == ["hello", "hi, 1 message(s) so far"])
        let info = try session.info()
        #expect(info.entryCount == 2 && info.persisted)  // the assistant's reply ended the deferral
        #expect(info.path.hasPrefix(support.path + "/MyAgent/sessions/--Users-me-project--/"))
        // The next launch (after this one closed it) continues the same session.
        await shared.close()
        let again = try store.continueRecent(cwd: "/Users/me/project", terminalID: "window-1")
        #expect(try again.info().id == info.id)
    }
}
