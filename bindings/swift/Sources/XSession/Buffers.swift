// Outputs. Variable-length results come through the library's (buf, cap, out_len) protocol and
// land directly in the String or Data that is returned: no intermediate copy. Fixed-size ones
// (new entry ids, blob hashes) use a small temporary buffer.
internal import CXSession
import Foundation

/// One attempt of a reader: fill buf[0..<cap] and set *outLen to the full length.
typealias TextFill = (OpaquePointer, UnsafeMutablePointer<CChar>?, Int, UnsafeMutablePointer<Int>) -> xs_status
typealias BytesFill = (OpaquePointer, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>) -> xs_status

extension Handle {
    /// Most results (ids, headers, small contexts) fit in one attempt of this size; larger ones
    /// cost one XS_EBUFS round trip, which the library answers from its cache.
    static let firstCapacity = 4096

    /// A UTF-8 text result, written by the library straight into the String's storage.
    func readString(_ fill: TextFill) throws -> String {
        try with { h in try readString(h, fill) }
    }

    /// readString, for a call that runs caller code on this thread (see withCallbacks).
    func readStringWithCallbacks(_ fill: TextFill) throws -> String {
        try withCallbacks { h in try readString(h, fill) }
    }

    private func readString(_ h: OpaquePointer, _ fill: TextFill) throws -> String {
        try grow(h) { cap, needed in
            var rc = XS_OK
            let text = String(unsafeUninitializedCapacity: cap) { buf in
                rc = buf.withMemoryRebound(to: CChar.self) { fill(h, $0.baseAddress, cap, &needed) }
                return rc == XS_OK ? needed : 0
            }
            return (rc, text)
        }
    }

    /// A binary result (blob content).
    func readData(_ fill: BytesFill) throws -> Data {
        try with { h in
            try grow(h) { cap, needed in
                var data = Data(count: cap)
                let rc = data.withUnsafeMutableBytes { fill(h, $0.baseAddress, cap, &needed) }
                if rc == XS_OK { data.count = needed }
                return (rc, data)
            }
        }
    }

    /// The XS_EBUFS loop, run with the lock held so the retry meets the result the first attempt
    /// cached: the library copies it instead of computing it again. The header asks callers to
    /// loop in case the handle changed in between; under our lock it cannot, but loop anyway.
    private func grow<R>(_ h: OpaquePointer, _ attempt: (Int, inout Int) -> (xs_status, R)) throws -> R {
        var cap = Handle.firstCapacity
        while true {
            var needed = 0
            let (rc, value) = attempt(cap, &needed)
            if rc == XS_OK { return value }
            // needed <= cap with XS_EBUFS would loop forever: report it instead.
            guard rc == XS_EBUFS, needed > cap else { throw error(rc, h) }
            cap = needed
        }
    }
}

/// Runs `body` with a zeroed buffer of `size` bytes that receives a NUL-terminated string.
func fixedText(size: Int32, _ body: (UnsafeMutablePointer<CChar>) throws -> Void) rethrows -> String {
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(size)) { buf in
        buf.initialize(repeating: 0)
        try body(buf.baseAddress!)
        return String(cString: buf.baseAddress!)
    }
}

/// The id an append wrote into its `id_out` buffer.
func newEntryID(_ body: (UnsafeMutablePointer<CChar>) throws -> Void) rethrows -> String {
    try fixedText(size: XS_ID_BUFSIZE, body)
}
