// The agent loop of examples/c/agent_loop.c with typed values, in a downstream package: open a
// store, append a user message and the assistant's reply, label it, branch back with a summary,
// build the context and read its messages. No JSON is decoded here.
import Foundation
import XSession

@main
struct AgentLoop {
    static func main() async throws {
        guard CommandLine.arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: AgentLoop STORE_DIR\n".utf8))
            exit(2)
        }
        let store = try Store(root: CommandLine.arguments[1])
        let session = SessionActor(try await store.createSession(cwd: "/home/dev/project"))
        let question = try await session.appendMessage(Message(role: "user", content: "Why does the build fail?"))
        let answer = try await session.perform { s in
            // The model's turn: context in, reply out, nothing else appended in between.
            let context = try await s.buildContext()
            let reply = "A missing header (\(context.messages.count) message seen)."
            let content: JSONValue = [["type": "text", "text": .string(reply)]]
            return try await s.appendMessage(Message(role: "assistant", content: content,
                                                     members: ["provider": "anthropic", "model": "claude-sonnet-4-5"]))
        }
        try await session.call { try $0.appendLabel("diagnosis", for: answer) }
        try await session.branchWithSummary(from: question, summary: "Tried the header fix; it did not help.")
        try await session.flush()

        let context = try await session.buildContext()
        for message in context.messages {
            print("\(message.role): \(message.text)")
        }
        let entries = try await session.entries()
        print("entries: \(entries.map(\.type).joined(separator: " "))")
        if case .branchSummary(let summary) = entries.last {
            print("branched from the question: \(summary.fromID == question)")
        }
        let info = try await session.call { try $0.info() }
        print("persisted: \(info.persisted), entries: \(info.entryCount), dialect: \(info.dialect.rawValue)")
        try await session.close()
    }
}
