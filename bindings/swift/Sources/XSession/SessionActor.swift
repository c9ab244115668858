// SessionActor: how an app shares one session between its UI and its agent loop.
//
// Session is already Sendable (its lock serialises calls and keeps each call's error text its
// own). What the lock cannot give is a *sequence* without interleaving: "build the context,
// await the model, append the reply" must not see a message that another task appended while
// the model was thinking. An actor alone does not give that either: it is reentrant, so while
// one call awaits the model, another call on the actor runs. SessionActor therefore queues its
// calls (FIFO): a perform and every method below wait until the perform before them has
// finished, awaits included. The blocking library calls run on the session's queue (Async.swift),
// never on the actor's or the cooperative pool's threads. Share the actor, not the session.

public actor SessionActor {
    /// The wrapped session. Calls made on it directly bypass the actor's ordering.
    public nonisolated let session: Session
    /// A perform or call holds the turn; the others wait here in order.
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The actors whose turn the current task holds: a call from inside a perform (the same
    /// task, or a child task it awaits) runs at once instead of waiting for itself.
    @TaskLocal private static var turns: Set<ObjectIdentifier> = []

    public init(_ session: Session) { self.session = session }

    /// Runs `body` with no other call of this actor in between, even while `body` awaits (the
    /// model's reply): build a context, await the model, append the reply. Calls of this actor
    /// from inside `body` run at once; a Task that `body` starts and does not await must not
    /// use the actor after `body` returns (it would inherit the turn).
    public func perform<T: Sendable>(_ body: @Sendable (isolated SessionActor) async throws -> T) async throws -> T {
        let me = ObjectIdentifier(self)
        if SessionActor.turns.contains(me) { return try await body(self) }
        await takeTurn()
        defer { passTurn() }
        return try await SessionActor.$turns.withValue(SessionActor.turns.union([me])) { try await body(self) }
    }

    /// Session.appendMessage, in turn.
    @discardableResult
    public func appendMessage(_ message: JSONText) async throws -> String {
        try await inTurn { try $0.appendMessage(message) }
    }

    /// Session.appendMessage of a typed message, in turn.
    @discardableResult
    public func appendMessage(_ message: Message) async throws -> String {
        try await inTurn { try $0.appendMessage(message) }
    }

    /// Session.append, in turn.
    @discardableResult
    public func append(_ entry: JSONText) async throws -> String { try await inTurn { try $0.append(entry) } }

    /// Session.branchWithSummary, in turn.
    @discardableResult
    public func branchWithSummary(from fromID: String?, summary: String, details: JSONText? = nil,
                                  fromExtension: Bool? = nil) async throws -> String {
        try await inTurn {
            try $0.branchWithSummary(from: fromID, summary: summary, details: details, fromExtension: fromExtension)
        }
    }

    /// Session.buildContext, in turn.
    public func buildContext(leaf: String? = nil) async throws -> SessionContext {
        try await inTurn { try $0.buildContext(leaf: leaf) }
    }

    /// Session.entries, in turn.
    public func entries(_ flags: ReadFlags = []) async throws -> [Entry] { try await inTurn { try $0.entries(flags) } }

    /// Session.flush, in turn.
    public func flush() async throws { try await inTurn { try $0.flush() } }

    /// Closes the session once the calls before this one are done; throws the final flush
    /// error. Later calls throw `.closed`.
    public func close() async throws { try await inTurn { try $0.close() } }

    /// Any synchronous Session method, in turn, on the session's queue.
    public func call<T: Sendable>(_ body: @escaping @Sendable (Session) throws -> T) async throws -> T {
        try await inTurn(body)
    }

    // --- the queue of turns ----------------------------------------------------------------

    /// One session call in turn (at once inside a perform, whose turn it is).
    private func inTurn<T: Sendable>(_ body: @escaping @Sendable (Session) throws -> T) async throws -> T {
        if SessionActor.turns.contains(ObjectIdentifier(self)) { return try await session.perform(body) }
        await takeTurn()
        defer { passTurn() }
        return try await session.perform(body)
    }

    private func takeTurn() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }  // passTurn hands it over: busy stays true
    }

    private func passTurn() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
