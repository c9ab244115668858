// Inputs. Short texts (paths, ids, names) go to C as NUL-terminated strings, JSON and long
// texts as (pointer, length). CArgs owns the C copies that option and record structs point at,
// for exactly the duration of one call.
internal import CXSession

final class CArgs {
    private var allocations: [UnsafeMutablePointer<CChar>] = []
    /// Structs that option structs point at (a store's reset policy), freed with the arena.
    private var structs: [UnsafeMutableRawPointer] = []

    /// Runs `body` with an arena whose copies are freed when it returns.
    static func with<R>(_ body: (CArgs) throws -> R) rethrows -> R {
        let args = CArgs()
        defer {
            for p in args.allocations { p.deallocate() }
            for p in args.structs { p.deallocate() }
        }
        return try body(args)
    }

    /// A copy of a plain C struct (no Swift references inside) that lives as long as the arena.
    func pointer<T>(to value: T) -> UnsafePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: 1)
        p.initialize(to: value)
        structs.append(UnsafeMutableRawPointer(p))
        return UnsafePointer(p)
    }

    private func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<CChar> {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        bytes.withMemoryRebound(to: CChar.self) { src in
            if let base = src.baseAddress { p.initialize(from: base, count: src.count) }
        }
        p[bytes.count] = 0
        allocations.append(p)
        return p
    }

    /// A NUL-terminated copy. A NUL inside would silently cut the text short in C, so it is
    /// refused instead.
    func cString(_ s: String) throws -> UnsafePointer<CChar> {
        var s = s
        return try s.withUTF8 { bytes in
            if bytes.contains(0) { throw XSessionError.invalid("text passed as a C string contains a NUL byte") }
            return UnsafePointer(copy(bytes))
        }
    }

    func cString(_ s: String?) throws -> UnsafePointer<CChar>? {
        guard let s else { return nil }
        return try cString(s) as UnsafePointer<CChar>
    }

    /// An array of NUL-terminated copies (`const char *const *`), as long as the arena. Never
    /// NULL, even for no strings: the library then answers for the count of 0, not for a NULL.
    func cStrings(_ list: [String]) throws -> UnsafePointer<UnsafePointer<CChar>?> {
        let p = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(list.count, 1))
        p.initialize(repeating: nil, count: max(list.count, 1))
        structs.append(UnsafeMutableRawPointer(p))
        for (i, s) in list.enumerated() { p[i] = try cString(s) as UnsafePointer<CChar> }
        return UnsafePointer(p)
    }

    /// A (pointer, length) copy of UTF-8 text; (nil, 0) for nil.
    func text(_ s: String?) -> (UnsafePointer<CChar>?, Int) {
        guard var s else { return (nil, 0) }
        return s.withUTF8 { (UnsafePointer(copy($0)), $0.count) }
    }

    /// A (pointer, length) copy of JSON text; (nil, 0) for nil.
    func json(_ j: JSONText?) -> (UnsafePointer<CChar>?, Int) {
        guard let j else { return (nil, 0) }
        return j.withUTF8 { (UnsafePointer(copy($0)), $0.count) }
    }
}

extension JSONText {
    /// The bytes as (pointer, length) for a direct call, without a copy.
    func withCText<R>(_ body: (UnsafePointer<CChar>?, Int) throws -> R) rethrows -> R {
        try withUTF8 { bytes in
            try bytes.withMemoryRebound(to: CChar.self) { chars in
                // Empty text must still be a non-NULL pointer: NULL means "absent" to the library.
                guard let base = chars.baseAddress else {
                    var nothing: CChar = 0
                    return try body(&nothing, 0)
                }
                return try body(base, chars.count)
            }
        }
    }
}
