// XSessionError: what every failing call throws. The code is the library's status (xs_status),
// the message the library's text for that very call (read under the handle's lock, so it is
// never another thread's message).
internal import CXSession

import Foundation

public struct XSessionError: LocalizedError, Sendable, Hashable, CustomStringConvertible {
    /// The status codes of xsession.h, plus `.closed` (the binding's own) and `.unknown` for a
    /// code newer than this binding: an old binding must not crash on a new library.
    public enum Code: Sendable, Hashable, CustomStringConvertible {
        case error, outOfMemory, invalidArgument, misuse, notFound, exists, bufferTooSmall
        case corrupt, io, locked, version, noSpace, readOnly, conflict, limit, noHeader
        case poisoned, ambiguous, dialect, internalError
        /// The Store or Session was closed. It is a misuse, so its status is XS_EMISUSE (as
        /// in the Node binding's XS_ECLOSED); the name tells it apart from the library's.
        case closed
        /// The library returned text that is not UTF-8 where the binding promises a String (a
        /// path with such bytes, from Store.resolve): replacing them would name another file.
        /// Its status is XS_ERROR, which has no more specific macro.
        case invalidUTF8
        case unknown(Int32)

        /// One table drives both directions, so a code and its number cannot drift apart.
        private static let table: [(Code, Int32, String)] = [
            (.error, XS_ERROR, "XS_ERROR"), (.outOfMemory, XS_ENOMEM, "XS_ENOMEM"),
            (.invalidArgument, XS_EINVAL, "XS_EINVAL"), (.misuse, XS_EMISUSE, "XS_EMISUSE"),
            (.notFound, XS_ENOTFOUND, "XS_ENOTFOUND"), (.exists, XS_EEXISTS, "XS_EEXISTS"),
            (.bufferTooSmall, XS_EBUFS, "XS_EBUFS"), (.corrupt, XS_ECORRUPT, "XS_ECORRUPT"),
            (.io, XS_EIO, "XS_EIO"), (.locked, XS_ELOCKED, "XS_ELOCKED"),
            (.version, XS_EVERSION, "XS_EVERSION"), (.noSpace, XS_ENOSPC, "XS_ENOSPC"),
            (.readOnly, XS_EREADONLY, "XS_EREADONLY"), (.conflict, XS_ECONFLICT, "XS_ECONFLICT"),
            (.limit, XS_ELIMIT, "XS_ELIMIT"), (.noHeader, XS_ENOHEADER, "XS_ENOHEADER"),
            (.poisoned, XS_EPOISONED, "XS_EPOISONED"), (.ambiguous, XS_EAMBIGUOUS, "XS_EAMBIGUOUS"),
            (.dialect, XS_EDIALECT, "XS_EDIALECT"),
            (.internalError, XS_EINTERNAL, "XS_EINTERNAL"), (.closed, XS_EMISUSE, "XS_ECLOSED"),
            (.invalidUTF8, XS_ERROR, "XS_ERROR"),
        ]

        /// The code for a status the library returned (never XS_OK). XS_EMISUSE maps to
        /// `.misuse` and XS_ERROR to `.error`: only the binding itself raises `.closed` and
        /// `.invalidUTF8`.
        public init(status: Int32) {
            self = Code.table.first { $0.1 == status && $0.0 != .closed && $0.0 != .invalidUTF8 }?.0 ?? .unknown(status)
        }

        /// The xs_status number (`.closed` is XS_EMISUSE).
        public var status: Int32 {
            if case .unknown(let n) = self { return n }
            return Code.table.first { $0.0 == self }!.1
        }

        /// The macro name, "XS_ENOTFOUND"; "XS_ECLOSED" for `.closed`; an unknown code is a
        /// generic "XS_ERROR" (its number stays in `status`).
        public var name: String {
            Code.table.first { $0.0 == self }?.2 ?? "XS_ERROR"
        }

        public var description: String { name }
    }

    public let code: Code
    /// The library's message for the failing call (its static status text if it gave none).
    public let message: String

    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The xs_status number; XS_EMISUSE for `.closed`.
    public var status: Int32 { code.status }

    public var description: String { "\(code.name): \(message)" }

    /// What an app shows (NSError.localizedDescription, a SwiftUI alert): the library's message
    /// and the status it belongs to, "session file is locked by another writer (XS_ELOCKED)".
    /// A message that is the static text already names its status ("XS_ENOTFOUND: not found").
    public var errorDescription: String? {
        message == XSessionLibrary.statusString(status) ? message : "\(message) (\(code.name))"
    }

    /// The status's static text when the message says something else ("not found").
    public var failureReason: String? {
        let general = XSessionLibrary.statusString(status)
        return general == message ? nil : general
    }
}

extension XSessionError {
    /// An error for `status` whose message is the library's static text for it.
    init(status: Int32) {
        self.init(code: Code(status: status), message: XSessionLibrary.statusString(status))
    }

    static func closed(_ what: String) -> XSessionError {
        XSessionError(code: .closed, message: "the \(what) is closed")
    }

    static func invalid(_ message: String) -> XSessionError {
        XSessionError(code: .invalidArgument, message: message)
    }
}
