// Keys: the keyed session store of a Store (docs/keyed-store.md; xs_keys_*). One JSON document
// (<root>/sessions.json, or StoreOptions.keysPath) mapping a host's session key
// ("agent:<id>:main", "cron:<job>") to a record: an object with a string "sessionId", typed known
// fields and any others, kept token for token. Changes are read-modify-writes under a lock held
// across processes, published atomically; reads take no lock.
internal import CXSession
import Foundation

/// What an update's closure decides the record becomes.
public enum KeyUpdate: Sendable, Hashable {
    /// Leave it as it is (nothing is written; no record stays no record).
    case keep
    /// Replace it with this record.
    case set(JSONText)
    /// Remove it.
    case remove
}

/// A store's keyed session store (`store.keys`). Absence is not an error: `get` returns nil and
/// `delete` false where the library says XS_ENOTFOUND. Keys are 1-256 bytes of printable UTF-8
/// without "/" or "\"; writes with another key throw `.invalidArgument` (reads find no record).
public struct Keys: Sendable {
    let handle: Handle

    /// The record of `key` as the library keeps it (minified, tokens as stored), or nil.
    public func getJSON(_ key: String) throws -> JSONText? {
        try CArgs.with { a in
            let k = try a.cString(key)
            do {
                return JSONText(try handle.readString { xs_keys_get($0, k, $1, $2, $3) })
            } catch let e as XSessionError where e.code == .notFound {
                return nil
            }
        }
    }

    /// The record of `key` decoded as `type` (a struct of the fields an app reads), or nil.
    public func get<T: Decodable>(_ key: String, as type: T.Type,
                                  decoder: JSONDecoder = JSONDecoder()) throws -> T? {
        try getJSON(key)?.decode(type, using: decoder)
    }

    /// [{"key","record"}...] for the keys starting with `prefix` (nil or "": all), in the
    /// document's order.
    public func listJSON(prefix: String? = nil) throws -> JSONText {
        try CArgs.with { a in
            let p = try a.cString(prefix)
            return JSONText(try handle.readString { xs_keys_list($0, p, $1, $2, $3) })
        }
    }

    /// The record of `key`, typed, or nil.
    public func get(_ key: String) throws -> KeyRecord? { try getJSON(key)?.decode() }

    /// The records of the keys starting with `prefix` (nil or "": all), in the document's order.
    public func list(prefix: String? = nil) throws -> [KeyEntry] { try listJSON(prefix: prefix).decode() }

    /// Replaces the record of `key` with `record` (encoded as KeyRecord encodes).
    public func put(_ key: String, _ record: KeyRecord) throws {
        try put(key, JSONValue(encoding: record).text)
    }

    /// Replaces the record of `key` (a new key goes last).
    public func put(_ key: String, _ record: JSONText) throws {
        try CArgs.with { a in
            let k = try a.cString(key)
            try record.withCText { text, n in try handle.call { xs_keys_put($0, k, text, n) } }
        }
    }

    /// Merges `patch` into the record of `key` (RFC 7386: null removes a field, objects merge,
    /// anything else replaces; new fields go last). A missing record starts as {} (the result
    /// still needs its "sessionId").
    public func patch(_ key: String, _ patch: JSONText) throws {
        try CArgs.with { a in
            let k = try a.cString(key)
            try patch.withCText { text, n in try handle.call { xs_keys_patch($0, k, text, n) } }
        }
    }

    /// Removes the record of `key`; false if there was none.
    @discardableResult
    public func delete(_ key: String) throws -> Bool {
        try CArgs.with { a in
            let k = try a.cString(key)
            return try handle.with { st in
                let rc = xs_keys_delete(st, k)
                if rc == XS_ENOTFOUND { return false }
                try handle.check(rc, st)
                return true
            }
        }
    }

    /// Runs `body` once under the document's lock with the record of `key` (nil: none) and applies
    /// what it returns: a read-modify-write no other process or handle can interleave with. An
    /// error `body` throws cancels (nothing is written) and is rethrown as it is. `body` runs on
    /// the calling thread; calls on this store from it throw `.misuse`, and it must not wait for
    /// another thread that uses this store (that thread waits for the update).
    public func update(_ key: String, _ body: (JSONText?) throws -> KeyUpdate) throws {
        try CArgs.with { a in
            let k = try a.cString(key)
            try withoutActuallyEscaping(body) { body in
                let box = UpdateBox(body)
                try handle.withCallbacks { st in
                    let rc = xs_keys_update(st, k, { user, current, len, out, outLen in
                        // No Swift error crosses this C frame: the box keeps it for the caller.
                        Unmanaged<UpdateBox>.fromOpaque(user!).takeUnretainedValue().decide(current, len, out!, outLen!)
                    }, Unmanaged.passUnretained(box).toOpaque())
                    if let thrown = box.thrown { throw thrown }
                    try handle.check(rc, st)
                }
            }
        }
    }
}

/// The closure of one update and what it answered, reached from the C callback through its
/// user pointer. Lives for the duration of the xs_keys_update call.
private final class UpdateBox {
    let body: (JSONText?) throws -> KeyUpdate
    var thrown: (any Error)?
    /// The new record's bytes, kept until the library has copied them (after the callback).
    var answer: UnsafeMutableBufferPointer<CChar>?

    init(_ body: @escaping (JSONText?) throws -> KeyUpdate) { self.body = body }

    deinit { answer?.deallocate() }

    func decide(_ current: UnsafePointer<CChar>?, _ len: Int, _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>,
                _ outLen: UnsafeMutablePointer<Int>) -> xs_status {
        let record = current.map {
            JSONText(String(decoding: UnsafeRawBufferPointer(start: $0, count: len), as: UTF8.self))
        }
        do {
            switch try body(record) {
            case .keep:
                break  // *out is the current record (or none) already
            case .remove:
                out.pointee = nil
                outLen.pointee = 0
            case .set(let json):
                let copy = json.withUTF8 { bytes in
                    let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(bytes.count, 1))
                    bytes.withMemoryRebound(to: CChar.self) { _ = buffer.initialize(from: $0) }
                    return (buffer, bytes.count)
                }
                answer = copy.0
                out.pointee = UnsafePointer(copy.0.baseAddress)
                outLen.pointee = copy.1
            }
            return XS_OK
        } catch {
            thrown = error
            return XS_ERROR  // cancels; update() rethrows `thrown` in its place
        }
    }
}
