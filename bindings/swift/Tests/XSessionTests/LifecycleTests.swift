// Handles: deinit closes, close() is final and idempotent, use after close throws `.closed`,
// sessions outlive their store.
import CXSession
import Foundation
import Testing
import XSession

@Suite struct Lifecycle {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    /// A written session file (no deferral) and its path.
    func writtenSession() throws -> String {
        let s = try store.createSession(cwd: "/work", options: SessionOptions(flags: .noDefer))
        defer { try? s.close() }
        return try s.info().path
    }

    @Test func deinitReleasesTheWriterLock() throws {
        let path = try writtenSession()
        do {
            let first = try store.openSession(path)
            // While `first` lives it holds the one writer lock.
            let error = #expect(throws: XSessionError.self) { try store.openSession(path) }
            #expect(error?.code == .locked)
            #expect(error?.status == XS_ELOCKED)
            _ = try first.leaf()  // keeps `first` alive until here
        }
        // `first` was released without close(): its deinit closed the handle.
        let second = try store.openSession(path)
        #expect(try second.info().readOnly == false)
    }

    @Test func useAfterCloseThrowsClosed() throws {
        let s = try store.createSession(cwd: "/work")
        let id = try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        #expect(s.isClosed == false)
        try s.close()
        try s.close()  // idempotent
        #expect(s.isClosed)
        let calls: [(String, () throws -> Void)] = [
            ("append", { _ = try s.appendMessage(#"{"role":"user","content":"again"}"#) }),
            ("context", { _ = try s.buildContextJSON() }),
            ("leaf", { _ = try s.leaf() }),
            ("entry", { _ = try s.entryJSON(id) }),
            ("flush", { try s.flush() }),
            ("fork", { _ = try s.fork() }),
            ("verify", { _ = try s.verifyJSON() }),
        ]
        for (name, call) in calls {
            let error = #expect(throws: XSessionError.self, "\(name)") { try call() }
            #expect(error == XSessionError(code: .closed, message: "the session is closed"), "\(name)")
            #expect(error?.status == XS_EMISUSE && error?.code.name == "XS_ECLOSED", "\(name)")
        }
    }

    @Test func closeFlushesAndReleasesTheLock() throws {
        let s = try store.createSession(cwd: "/work", options: SessionOptions(flags: .noDefer))
        let path = try s.info().path
        try s.appendMessage(#"{"role":"user","content":"kept"}"#)
        try s.close()
        let again = try store.openSession(path)
        #expect(try again.info().entryCount == 1)
    }

    @Test func closedStoreThrowsButItsSessionsLiveOn() throws {
        let s = try store.createSession(cwd: "/work")
        store.close()
        #expect(store.isClosed)
        let error = #expect(throws: XSessionError.self) { try store.createSession(cwd: "/work") }
        #expect(error == XSessionError(code: .closed, message: "the store is closed"))
        #expect(throws: XSessionError.self) { try store.listJSON() }
        #expect(throws: XSessionError.self) { try store.putBlob(Data("x".utf8)) }
        // The session keeps the library's store internals alive.
        try s.appendMessage(#"{"role":"user","content":"still here"}"#)
        try s.appendMessage(#"{"role":"assistant","content":"yes"}"#)
        #expect(try s.info().persisted)
    }

    @Test func aSessionOutlivesItsReleasedStore() throws {
        var session: Session?
        do {
            let local = try Store(root: dir.path + "/other")
            session = try local.createSession(cwd: "/w", options: fixedOptions)
        }  // `local` is released here; its deinit freed the store handle
        let s = try #require(session)
        let id = try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        #expect(try s.leaf() == id)
        #expect(try s.buildContextJSON().string.contains(#""messages":[{"role":"user","content":"hi"}]"#))
    }

    @Test func derivedSessionsAreIndependentHandles() throws {
        let s = try store.createSession(cwd: "/work", options: SessionOptions(flags: .noDefer))
        try s.appendMessage(#"{"role":"user","content":"one"}"#)
        let forked = try s.fork()
        let branched = try s.createBranched()
        try s.close()
        #expect(try forked.info().entryCount == 1)
        #expect(try branched.info().entryCount == 1)
        #expect(try forked.info().path != branched.info().path)
    }
}
