// One owned C handle (xs_store*, xs_session*, xs_history* or xs_index*) behind a lock.
//
// Why a lock although the library serialises calls on a handle itself: the handle's error text
// belongs to whichever call ran last on it, and an XS_EBUFS retry must meet the result cached by
// *its* first attempt. Holding one lock across "call, read errcode/errmsg, retry" makes both
// true, and it also orders close() against calls in flight. That is what makes Store and Session
// honestly Sendable (see Concurrency in the README).
//
// Two calls run caller code while they hold the lock: a keyed store update's closure and an
// archive's progress closure (withCallbacks). A call on the same handle from that closure would
// wait for the lock its own thread holds, so it throws `.misuse` instead (as the library itself
// answers such a call), and a close() from it takes effect when the call returns.
internal import CXSession
import Foundation

/// The C functions that differ between the handle kinds.
struct HandleFunctions: Sendable {
    let what: String  // "store", "session", "history" or "index", for the `.closed` message
    let errcode: @Sendable (OpaquePointer) -> xs_status
    let errmsg: @Sendable (OpaquePointer) -> UnsafePointer<CChar>?
    let release: @Sendable (OpaquePointer) -> Void

    static let store = HandleFunctions(
        what: "store", errcode: { xs_store_errcode($0) }, errmsg: { xs_store_errmsg($0) },
        release: { xs_store_free($0) })
    static let session = HandleFunctions(
        what: "session", errcode: { xs_session_errcode($0) }, errmsg: { xs_session_errmsg($0) },
        release: { xs_session_close($0) })
}

final class Handle: @unchecked Sendable {  // every access to `raw` holds `lock`
    private let lock = NSLock()
    /// Where the async API runs this handle's calls: they block (on `lock`, on fsync), which a
    /// thread of Swift's cooperative pool must never do. Serial, so queued calls keep their order.
    private let queue: DispatchQueue
    private var raw: OpaquePointer?
    private let fns: HandleFunctions
    /// The thread running caller code inside a call on this handle (it holds `lock`), if any.
    private let callbackLock = NSLock()
    private var callbackThread: pthread_t?
    /// close() was called from that code (touched only by that thread, which holds `lock`).
    private var closeAfterCallback = false

    init(_ raw: OpaquePointer, _ fns: HandleFunctions) {
        self.raw = raw
        self.fns = fns
        queue = DispatchQueue(label: "xsession.\(fns.what)")
        queue.setSpecific(key: Handle.queueKey, value: fns.what)
    }

    /// Marks the handles' queues (their `what`), for tests of where calls run.
    static let queueKey = DispatchSpecificKey<String>()

    /// Runs `body` on this handle's queue and resumes the caller with its result.
    func onQueue<R: Sendable>(_ body: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { done in
            queue.async { done.resume(with: Result { try body() }) }
        }
    }

    deinit {
        // The last reference is gone, so no call can be in flight: no lock needed.
        if let raw { fns.release(raw) }
    }

    /// Releases the handle now; later calls throw `.closed`. Idempotent.
    func close() {
        if onCallbackThread() {
            closeAfterCallback = true
            return
        }
        lock.lock()
        defer { lock.unlock() }
        if let raw { fns.release(raw) }
        raw = nil
    }

    /// close(), running `finish` on the handle first (a session's final flush) under the same
    /// lock, and throwing its error after the handle is released: close() always releases.
    /// Closing a closed handle does nothing and throws nothing.
    func close(finishing finish: (OpaquePointer) -> xs_status) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let h = raw else { return }
        let rc = finish(h)
        let failure = rc == XS_OK ? nil : error(rc, h)
        fns.release(h)
        raw = nil
        if let failure { throw failure }
    }

    var isClosed: Bool {
        if onCallbackThread() { return closeAfterCallback }
        lock.lock()
        defer { lock.unlock() }
        return raw == nil
    }

    /// Runs `body` on the open handle with the lock held; `.closed` once it was closed.
    func with<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        if onCallbackThread() {
            throw XSessionError(code: .misuse, message: "a keys update closure or archive progress closure may not "
                                + "call its own store (the call running it holds the store)")
        }
        lock.lock()
        defer { lock.unlock() }
        guard let raw else { throw XSessionError.closed(fns.what) }
        return try body(raw)
    }

    /// `with`, for a call that runs caller code on this thread while it holds the lock.
    func withCallbacks<R>(_ body: (OpaquePointer) throws -> R) throws -> R {
        try with { h in
            setCallbackThread(pthread_self())
            defer {
                setCallbackThread(nil)
                if closeAfterCallback {
                    closeAfterCallback = false
                    fns.release(h)
                    raw = nil
                }
            }
            return try body(h)
        }
    }

    private func setCallbackThread(_ thread: pthread_t?) {
        callbackLock.lock()
        defer { callbackLock.unlock() }
        callbackThread = thread
    }

    private func onCallbackThread() -> Bool {
        callbackLock.lock()
        defer { callbackLock.unlock() }
        guard let callbackThread else { return false }
        return pthread_equal(callbackThread, pthread_self()) != 0
    }

    /// A call that makes another handle from this one (a session, history or index of a store):
    /// `open` receives where to put it; its errors are reported on this handle.
    func open(_ body: (OpaquePointer, UnsafeMutablePointer<OpaquePointer?>) throws -> xs_status) throws
        -> OpaquePointer {
        var out: OpaquePointer?
        try call { try body($0, &out) }
        guard let out else { throw XSessionError(status: XS_EINTERNAL) }
        return out
    }

    /// A call that returns only a status.
    func call(_ body: (OpaquePointer) throws -> xs_status) throws {
        try with { h in try check(try body(h), h) }
    }

    /// Throws for a failing status, with the message of this call. Call it with the lock held
    /// (inside `with`), before anything else runs on the handle.
    func check(_ rc: xs_status, _ h: OpaquePointer) throws {
        if rc != XS_OK { throw error(rc, h) }
    }

    /// The error for status `rc` that the last call on `h` returned (lock held).
    func error(_ rc: xs_status, _ h: OpaquePointer) -> XSessionError {
        // errcode equal to rc says the text on the handle is this call's; otherwise (a status
        // the library returned without recording it) fall back to the static name.
        let text = fns.errcode(h) == rc ? fns.errmsg(h).map { String(cString: $0) } ?? "" : ""
        return XSessionError(code: .init(status: rc),
                             message: text.isEmpty ? XSessionLibrary.statusString(rc) : text)
    }
}
