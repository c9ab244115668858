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
        var invalidAt: Int?
        var raw: [UInt8] = []
        let text = try grow(h) { cap, needed in
            var rc = XS_OK
            let text = String(unsafeUninitializedCapacity: cap) { buf in
                rc = buf.withMemoryRebound(to: CChar.self) { fill(h, $0.baseAddress, cap, &needed) }
                guard rc == XS_OK else { return 0 }
                // String(unsafeUninitializedCapacity:) would replace bytes that are not UTF-8
                // with U+FFFD: a path (xs_store_resolve) would then name a file that does not
                // exist. Such text is an error instead, as in the Rust binding.
                let written = UnsafeBufferPointer(rebasing: buf[0..<needed])
                invalidAt = firstInvalidUTF8(written)
                if invalidAt != nil { raw = Array(written) }
                return needed
            }
            return (rc, text)
        }
        if let invalidAt {
            throw XSessionError(code: .invalidUTF8, message: "the library returned bytes that are not UTF-8 (at byte "
                                + "\(invalidAt)): \(String(decoding: raw, as: UTF8.self))")
        }
        return text
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

/// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence; nil when
/// all of it is UTF-8.
func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var input = bytes.makeIterator()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &input) {
        case .valid(let scalar): offset += scalar.count
        case .error: return offset
        case .emptyInput: return nil
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
