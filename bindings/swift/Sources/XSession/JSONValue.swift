// JSONValue: caller-owned JSON inside typed results (message content, entry data and details),
// which this binding does not re-type; and the property wrappers that let the typed results
// encode back exactly what the library wrote (a null member stays null, an absent one absent).
import Foundation

/// Any JSON value. Numbers keep whether they were integers; two numbers are equal when their
/// values are (1 == 1.0), as JSON's data model says.
public enum JSONValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The value of JSON text (any value, not only objects and arrays).
    public init(parsing text: JSONText) throws {
        self = try text.decode(JSONValue.self)
    }

    /// The JSON text of the value (members sorted, so equal values give equal text).
    public var text: JSONText {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case is a JSON value (a NaN cannot be parsed).
        return JSONText((try? encoder.encode(self)) ?? Data("null".utf8))
    }

    public var description: String { text.string }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        default:
            guard let x = a.number, let y = b.number else { return false }
            return x == y
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .integer, .double: hasher.combine(number!)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }

    // --- reading ---------------------------------------------------------------------------

    public var isNull: Bool { self == .null }
    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var object: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }

    /// A number as a Double.
    public var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// A number that is a whole Int64.
    public var int64: Int64? {
        switch self {
        case .integer(let i): return i
        case .double(let d): return d.rounded() == d && abs(d) < 9.2e18 ? Int64(d) : nil
        default: return nil
        }
    }

    /// A member of an object (nil for other values and missing members).
    public subscript(key: String) -> JSONValue? { object?[key] }

    /// An element of an array (nil out of range and for other values).
    public subscript(index: Int) -> JSONValue? {
        guard let a = array, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// The value as Swift type `T` (a struct of the fields an app reads from its own JSON).
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(type, from: text.data)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral {
    // Not ExpressibleByNilLiteral: `nil` must stay Optional's absent, never turn into .null.
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// --- members that are null or absent -----------------------------------------------------------

/// A member that is always written, null when there is no value ("leafId": null). Absent in
/// the input is a decoding error: the library always writes it.
@propertyWrapper
public struct Nullable<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = c.decodeNil() ? nil : try c.decode(Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let wrappedValue { try c.encode(wrappedValue) } else { try c.encodeNil() }
    }
}

/// A member that may be absent, null or a value: `nil` is absent, `.some(nil)` null.
@propertyWrapper
public struct Tristate<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value??

    public init(wrappedValue: Value??) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        wrappedValue = .some(c.decodeNil() ? nil : try c.decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch wrappedValue {
        case .none: break  // not reached: the keyed container below leaves the member out
        case .some(.none): try c.encodeNil()
        case .some(.some(let v)): try c.encode(v)
        }
    }
}

extension KeyedDecodingContainer {
    /// An absent member of a Tristate is `nil` rather than an error; null is `.some(nil)`
    /// (decodeIfPresent would read null as absent).
    public func decode<V>(_ type: Tristate<V>.Type, forKey key: Key) throws -> Tristate<V> {
        guard contains(key) else { return Tristate(wrappedValue: nil) }
        return try Tristate<V>(from: superDecoder(forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// A Tristate that is `nil` leaves its member out.
    public mutating func encode<V>(_ value: Tristate<V>, forKey key: Key) throws {
        if value.wrappedValue != nil { try encodeIfPresent(value as Tristate<V>?, forKey: key) }
    }
}

// --- objects that keep members no type names ----------------------------------------------------

/// Any member name, for reading and writing the members a type does not name.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The members of the object being decoded that are not in `known`.
func otherMembers(_ decoder: any Decoder, known: Set<String>) throws -> [String: JSONValue] {
    let c = try decoder.container(keyedBy: AnyKey.self)
    var out: [String: JSONValue] = [:]
    for key in c.allKeys where !known.contains(key.stringValue) {
        out[key.stringValue] = try c.decode(JSONValue.self, forKey: key)
    }
    return out
}

/// Writes `members` into the object being encoded.
func encodeMembers(_ members: [String: JSONValue], _ encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyKey.self)
    for (k, v) in members { try c.encode(v, forKey: AnyKey(k)) }
}
