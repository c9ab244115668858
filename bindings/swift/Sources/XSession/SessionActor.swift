// SessionActor: how an app shares one session between its UI and its agent loop.
//
// Session is already Sendable (its lock serialises calls and keeps each call's error text its
// own), so any task may call it. What the lock cannot give is a *sequence* without interleaving:
// "append the assistant's reply, then build the next context" must not see a user message that
// another task appended in between. An actor gives exactly that, and `await`ing it keeps the
// file I/O off the main actor. Share the actor, not the session it wraps.

public actor SessionActor {
    /// The wrapped session. Calls made on it directly bypass the actor's ordering.
    public nonisolated let session: Session

    public init(_ session: Session) { self.session = session }

    /// Runs `body` with no other call of this actor in between (append, then build a context).
    public func perform<T: Sendable>(_ body: @Sendable (Session) throws -> T) throws -> T {
        try body(session)
    }

    /// Session.appendMessage, ordered with the actor's other calls.
    @discardableResult
    public func appendMessage(_ message: JSONText) throws -> String {
        try session.appendMessage(message)
    }

    /// Session.buildContext, ordered with the actor's other calls.
    public func buildContext(leaf: String? = nil) throws -> JSONText {
        try session.buildContext(leaf: leaf)
    }

    /// Closes the session; later calls throw `.closed`.
    public func close() { session.close() }
}
