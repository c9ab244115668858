// JSONText: JSON going in and out of the library, kept as the exact UTF-8 bytes.
//
// The engine stores caller JSON token for token and returns stored lines byte for byte, so the
// binding never re-serialises: what you pass is what is stored, and what you read is what the
// library wrote. Decoding (Decodable, or Foundation's [String: Any]) is a convenience on top.
import Foundation

public struct JSONText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    // Both forms are kept as given: turning Data into a String would replace invalid UTF-8
    // (which the library must see, and refuse) with U+FFFD.
    private enum Storage: Sendable {
        case string(String)
        case data(Data)
    }

    private let storage: Storage

    /// JSON text, for instance `#"{"role":"user","content":"hi"}"#`.
    public init(_ string: String) { storage = .string(string) }
    /// UTF-8 JSON bytes.
    public init(_ data: Data) { storage = .data(data) }
    public init(stringLiteral value: String) { storage = .string(value) }

    /// The JSON encoding of `value` (the encoder decides key order and number spelling).
    public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONEncoder()) throws {
        storage = .data(try encoder.encode(value))
    }

    /// The text as a String.
    public var string: String {
        switch storage {
        case .string(let s): return s
        case .data(let d): return String(decoding: d, as: UTF8.self)
        }
    }

    /// The text as UTF-8 bytes.
    public var data: Data {
        switch storage {
        case .string(let s): return Data(s.utf8)
        case .data(let d): return d
        }
    }

    public var description: String { string }

    public static func == (a: JSONText, b: JSONText) -> Bool {
        a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Decodes the text as `type` (a context, an entry, a list of sessions...). JSON may hold a
    /// lone UTF-16 surrogate ("\ud83d" alone), which a Swift String cannot: such an escape
    /// decodes as U+FFFD (the exact text stays in this JSONText).
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            guard let replaced = JSONText.replacingLoneSurrogates(data) else { throw error }
            return try decoder.decode(type, from: replaced)
        }
    }

    /// `json` with each \uD800-\uDFFF escape that is not half of a pair replaced by \uFFFD;
    /// nil when there is none.
    static func replacingLoneSurrogates(_ json: Data) -> Data? {
        var bytes = [UInt8](json)
        var changed = false
        /// The UTF-16 unit of the escape "\uXXXX" starting at i, if there is one.
        func unit(at i: Int) -> UInt16? {
            guard i + 6 <= bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else { return nil }
            return UInt16(String(decoding: bytes[i + 2..<i + 6], as: UTF8.self), radix: 16)
        }
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x5C else {
                i += 1
                continue
            }
            guard let u = unit(at: i) else {
                i += 2  // another escape (an escaped backslash too): skip both bytes
                continue
            }
            if (0xD800...0xDBFF).contains(u), let low = unit(at: i + 6), (0xDC00...0xDFFF).contains(low) {
                i += 12  // a pair
            } else if (0xD800...0xDFFF).contains(u) {
                bytes.replaceSubrange(i + 2..<i + 6, with: Array("fffd".utf8))
                changed = true
                i += 6
            } else {
                i += 6
            }
        }
        return changed ? Data(bytes) : nil
    }

    /// The value as Foundation objects (NSDictionary / NSArray / NSString / NSNumber / NSNull).
    public func jsonObject() throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// The value as a dictionary; `.invalidArgument` if it is not a JSON object.
    public func dictionary() throws -> [String: Any] {
        guard let object = try jsonObject() as? [String: Any] else {
            throw XSessionError.invalid("the JSON value is not an object")
        }
        return object
    }

    /// The value as an array; `.invalidArgument` if it is not a JSON array.
    public func array() throws -> [Any] {
        guard let array = try jsonObject() as? [Any] else {
            throw XSessionError.invalid("the JSON value is not an array")
        }
        return array
    }

    /// The UTF-8 bytes, without a copy when the storage is already contiguous.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch storage {
        case .string(var s): return try s.withUTF8(body)
        case .data(let d): return try d.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
        }
    }
}
