// A small JSON reader for the conformance case files and for the parsed comparisons they ask
// for. Foundation's JSONSerialization is not used: it turns true into 1 (NSNumber), which would
// let a wrong boolean compare equal, and it forgets key order, which the C++ runner compares.

/// A parsed JSON value. Numbers keep their text; objects keep their key order.
enum CaseJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([CaseJSON])
    case object([(String, CaseJSON)])

    static func parse(_ text: String) throws -> CaseJSON {
        var p = Parser(bytes: Array(text.utf8))
        let value = try p.value()
        p.skipSpace()
        guard p.at == p.bytes.count else { throw p.fail("trailing bytes") }
        return value
    }

    subscript(key: String) -> CaseJSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    var int64: Int64? { if case .number(let n) = self { return Int64(n) } else { return nil } }
    var uint64: UInt64? { if case .number(let n) = self { return UInt64(n) } else { return nil } }
    var array: [CaseJSON]? { if case .array(let a) = self { return a } else { return nil } }
    var members: [(String, CaseJSON)]? { if case .object(let m) = self { return m } else { return nil } }
    var isNull: Bool { self == .null }

    /// Equality as the C++ runner's (RapidJSON re-serialisation): key order matters, integers
    /// and non-integers differ, non-integers compare by value.
    static func == (a: CaseJSON, b: CaseJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return sameBytes(x, y)
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameBytes($0.0, $1.0) && $0.1 == $1.1 }
        case (.number(let x), .number(let y)):
            let xi = isInteger(x), yi = isInteger(y)
            if xi != yi { return false }
            return xi ? x == y : Double(x) == Double(y)
        default: return false
        }
    }

    private static func isInteger(_ n: String) -> Bool { !n.contains { ".eE".contains($0) } }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return "\"\(s)\""
        case .array(let a): return "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let m): return "{" + m.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
    }
}

/// Byte equality: Swift's String == is canonical equivalence ("é" == "e\u{301}"), which would
/// hide a byte difference the cases exist to catch.
func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

struct CaseJSONError: Error, CustomStringConvertible {
    let description: String
}

private struct Parser {
    let bytes: [UInt8]
    var at = 0

    func fail(_ why: String) -> CaseJSONError { CaseJSONError(description: "JSON: \(why) at byte \(at)") }

    mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    mutating func literal(_ word: String, _ value: CaseJSON) throws -> CaseJSON {
        let w = Array(word.utf8)
        guard bytes.count - at >= w.count, Array(bytes[at..<at + w.count]) == w else { throw fail("bad literal") }
        at += w.count
        return value
    }

    mutating func value() throws -> CaseJSON {
        skipSpace()
        guard at < bytes.count else { throw fail("unexpected end") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    mutating func object() throws -> CaseJSON {
        .object(try elements(closedBy: "}") { p in
            p.skipSpace()
            guard p.at < p.bytes.count, p.bytes[p.at] == UInt8(ascii: "\"") else { throw p.fail("expected a key") }
            let key = try p.string()
            p.skipSpace()
            guard p.at < p.bytes.count, p.bytes[p.at] == UInt8(ascii: ":") else { throw p.fail("expected ':'") }
            p.at += 1
            return (key, try p.value())
        })
    }

    mutating func array() throws -> CaseJSON {
        .array(try elements(closedBy: "]") { try $0.value() })
    }

    /// The comma-separated elements of an object or array, from its opening byte to `close`.
    mutating func elements<T>(closedBy close: Unicode.Scalar, _ element: (inout Parser) throws -> T) throws -> [T] {
        at += 1
        var items: [T] = []
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: close) { at += 1; return items }
        while true {
            items.append(try element(&self))
            skipSpace()
            guard at < bytes.count else { throw fail("unterminated \(close == "]" ? "array" : "object")") }
            at += 1
            if bytes[at - 1] == UInt8(ascii: close) { return items }
            guard bytes[at - 1] == UInt8(ascii: ",") else { throw fail("expected ',' or '\(close)'") }
        }
    }

    mutating func number() throws -> CaseJSON {
        let start = at
        while at < bytes.count, "+-0123456789.eE".utf8.contains(bytes[at]) { at += 1 }
        guard at > start else { throw fail("unexpected byte") }
        return .number(String(decoding: bytes[start..<at], as: UTF8.self))
    }

    mutating func hex4() throws -> UInt32 {
        guard bytes.count - at >= 4, let v = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16)
        else { throw fail("bad \\u escape") }
        at += 4
        return v
    }

    /// A string; escapes decoded. A lone surrogate cannot be a Swift String, so it is an error
    /// (the cases keep lone surrogates inside JSON *text*, where they stay escaped).
    mutating func string() throws -> String {
        at += 1
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("unterminated string") }
            let b = bytes[at]
            at += 1
            if b == UInt8(ascii: "\"") { break }
            if b != UInt8(ascii: "\\") { out.append(b); continue }
            guard at < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard bytes.count - at >= 6, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                    else { throw fail("lone surrogate") }
                    at += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("lone surrogate") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: out.append(e)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)  // the file was valid UTF-8 when read
    }
}
