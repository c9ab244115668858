// Reset policies (docs/reset-policies.md): a keyed conversation's current session, and when it has
// expired and a new one starts (xs_store_session_for_key, xs_reset_policy).
internal import CXSession

/// When a key's session expires: a daily reset at an hour of a time zone's local time and/or an
/// idle expiry; with both, whichever comes first. `ResetPolicy()` never expires.
public struct ResetPolicy: Sendable, Hashable {
    /// 0-23: the session expires once the wall clock passed this hour since its last activity;
    /// nil = no daily reset.
    public var dailyHour: Int?
    /// > 0: the session expires after this many minutes without activity; nil = no idle expiry.
    public var idleMinutes: Int64?
    /// The time zone of `dailyHour`: an IANA name ("Asia/Shanghai"), "UTC", or a fixed offset
    /// ("+08:00", "-0530"); nil = the host's ($TZ, else /etc/localtime, else UTC).
    public var timeZone: String?

    public init(dailyHour: Int? = nil, idleMinutes: Int64? = nil, timeZone: String? = nil) {
        self.dailyHour = dailyHour
        self.idleMinutes = idleMinutes
        self.timeZone = timeZone
    }

    /// The C struct; its time zone lives in `args`. A negative hour is refused here: C's -1
    /// means "no daily reset", which in Swift is nil (the library checks the hours above 23).
    func cStruct(_ args: CArgs) throws -> xs_reset_policy {
        var p = xs_reset_policy()
        try initialised(xs_reset_policy_init(&p, UInt32(XS_RESET_POLICY_VERSION)))
        if let dailyHour {
            guard let hour = Int32(exactly: dailyHour), hour >= 0 else {
                throw XSessionError.invalid("daily hour \(dailyHour) is not 0-23")
            }
            p.daily_hour = hour
        }
        if let idleMinutes { p.idle_minutes = idleMinutes }
        p.time_zone = try args.cString(timeZone)
        return p
    }
}

/// Why `Store.sessionForKey` returned the session it did (XS_RESET_*).
public enum ResetReason: UInt32, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The record's session, not expired.
    case continued = 0
    /// The key had no record: a new session.
    case new = 1
    /// Expired by the daily reset: a new session.
    case daily = 2
    /// Expired by the idle expiry: a new session.
    case idle = 3
    /// `force: true`: a new session.
    case forced = 4

    /// The library's name: "continued", "new", "daily", "idle", "forced" (xs_reset_reason_str).
    public var name: String { String(cString: xs_reset_reason_str(rawValue)) }

    public var description: String { name }
}

extension Store {
    /// The current session of `key`, opened for writing, at the time of a message (`nowMs`, ms
    /// since the epoch; nil = the system clock): the one the key's record names, or a new one when
    /// the key has no record, when `policy` says the record's session expired, or with `force`
    /// (a manual /new). Decided and recorded under the keyed document's lock, so two processes
    /// asking at once get the same session. The session is bound to the key (its stats go into
    /// the record, as `SessionOptions.key` does).
    ///
    /// `policy` nil = the store's (`StoreOptions.resetPolicy`; none: never expires). `options`
    /// apply to the session; its sessionID, title and parentSession only to a new one, and
    /// `.readOnly` is `.invalidArgument`. `.exists` when a new session would get the key's
    /// current id; `.locked` when another writer holds the record's session.
    public func sessionForKey(_ key: String, nowMs: Int64? = nil, policy: ResetPolicy? = nil, force: Bool = false,
                              options: SessionOptions = SessionOptions()) throws
        -> (session: Session, reason: ResetReason) {
        try CArgs.with { a in
            let k = try a.cString(key)
            let p = try policy.map { a.pointer(to: try $0.cStruct(a)) }
            var o = try options.cStruct(a)
            var out: OpaquePointer?
            var reason: UInt32 = 0
            try handle.call { st in
                xs_store_session_for_key(st, k, nowMs ?? 0, p, force ? UInt32(XS_RESET_FORCE) : 0, &o, &out, &reason)
            }
            guard let out else { throw XSessionError(status: XS_EINTERNAL) }
            let session = Session(out)  // owns the handle from here, whatever follows
            guard let known = ResetReason(rawValue: reason) else {
                throw XSessionError(code: .error, message: "reset reason \(reason) is newer than this binding")
            }
            return (session, known)
        }
    }
}
