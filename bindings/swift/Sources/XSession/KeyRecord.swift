// KeyRecord: a record of the keyed session store (docs/keyed-store.md), typed. The record is the
// host's own object: the members the library reads and writes are typed, and every other
// member (or a known one holding null or a value of another type) is kept in `members`, so
// encoding a record gives back the object as read.
import Foundation

public struct KeyRecord: Codable, Sendable, Hashable {
    public var sessionID: String
    public var sessionFile: String?
    public var title: String?
    public var cwd: String?
    public var chatType: String?
    /// Milliseconds since the epoch.
    public var createdAt: Double?
    public var updatedAt: Double?
    // The session's stats (docs/session-stats.md), written by a bound session.
    public var inputTokens: Double?
    public var outputTokens: Double?
    public var cacheRead: Double?
    public var cacheWrite: Double?
    public var totalTokens: Double?
    public var contextTokens: Double?
    public var cost: Double?
    public var compactionCount: Double?
    public var memoryFlushAt: Double?
    public var memoryFlushCompactionCount: Double?
    /// Earlier session ids of the key, newest last (docs/reset-policies.md).
    public var previousSessionIDs: [String]?
    /// The other members, as written.
    public var members: [String: JSONValue]

    public init(sessionID: String, members: [String: JSONValue] = [:]) {
        self.sessionID = sessionID
        self.members = members
    }

    nonisolated(unsafe) private static let strings: [(String, WritableKeyPath<KeyRecord, String?>)] = [
        ("sessionFile", \.sessionFile), ("title", \.title), ("cwd", \.cwd), ("chatType", \.chatType),
    ]
    nonisolated(unsafe) private static let numbers: [(String, WritableKeyPath<KeyRecord, Double?>)] = [
        ("createdAt", \.createdAt), ("updatedAt", \.updatedAt), ("inputTokens", \.inputTokens),
        ("outputTokens", \.outputTokens), ("cacheRead", \.cacheRead), ("cacheWrite", \.cacheWrite),
        ("totalTokens", \.totalTokens), ("contextTokens", \.contextTokens), ("cost", \.cost),
        ("compactionCount", \.compactionCount), ("memoryFlushAt", \.memoryFlushAt),
        ("memoryFlushCompactionCount", \.memoryFlushCompactionCount),
    ]

    public init(from decoder: any Decoder) throws {
        var rest = try otherMembers(decoder, known: [])
        guard let id = rest.removeValue(forKey: "sessionId")?.string else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                   debugDescription: "a record needs a string sessionId"))
        }
        self.init(sessionID: id)
        for (name, path) in KeyRecord.strings {
            if let s = rest[name]?.string { self[keyPath: path] = s; rest[name] = nil }
        }
        for (name, path) in KeyRecord.numbers {
            if let n = rest[name], case .double(let d) = n { self[keyPath: path] = d; rest[name] = nil }
            // An integer keeps its spelling in `members` unless a Double holds it exactly.
            else if let n = rest[name], case .integer(let i) = n, Double(exactly: i) != nil {
                self[keyPath: path] = Double(i)
                rest[name] = nil
            }
        }
        if let ids = rest["previousSessionIds"]?.array, ids.allSatisfy({ $0.string != nil }) {
            previousSessionIDs = ids.compactMap(\.string)
            rest["previousSessionIds"] = nil
        }
        members = rest
    }

    public func encode(to encoder: any Encoder) throws {
        var out = members
        out["sessionId"] = .string(sessionID)
        for (name, path) in KeyRecord.strings { if let s = self[keyPath: path] { out[name] = .string(s) } }
        for (name, path) in KeyRecord.numbers {
            guard let d = self[keyPath: path] else { continue }
            // Whole numbers are written as integers, as the library writes counts and times.
            out[name] = d.rounded() == d && abs(d) < 9e15 ? .integer(Int64(d)) : .double(d)
        }
        if let previousSessionIDs { out["previousSessionIds"] = .array(previousSessionIDs.map { .string($0) }) }
        try encodeMembers(out, encoder)
    }
}

/// One record of Keys.list.
public struct KeyEntry: Codable, Sendable, Hashable {
    public var key: String
    public var record: KeyRecord
}
