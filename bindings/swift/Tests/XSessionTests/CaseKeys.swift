// The keyed store's steps of a conformance case (tests/conformance/README.md, "Keyed store"; the
// C++ reference is tests/conformance/keys_steps.cc). Where the C API says XS_ENOTFOUND, Keys
// answers nil (get) or false (delete) instead of throwing.
import CXSession
import Foundation
import XSession

extension CaseRunner {
    func runKeysStep(_ op: String, _ s: CaseJSON) throws -> Bool {
        let keys = store.keys
        let document = root + "/sessions.json"
        let expected = s["expect"]?.string ?? "XS_OK"
        switch op {
        case "keys_put":
            let key = try text(s, "key"), record = JSONText(try text(s, "record"))
            _ = try expecting(s) { try keys.put(key, record) }
        case "keys_patch":
            let key = try text(s, "key"), patch = JSONText(try text(s, "patch"))
            _ = try expecting(s) { try keys.patch(key, patch) }
        case "keys_delete":
            let key = try text(s, "key")
            if expected == "XS_ENOTFOUND" {
                try require(try keys.delete(key) == false, "delete found a record")
            } else if let removed = try expecting(s, { try keys.delete(key) }) {
                try require(removed, "delete found no record")
            }
        case "keys_update": try keysUpdate(s, keys, expected)
        case "check_keys_get":
            let key = try text(s, "key")
            if expected == "XS_ENOTFOUND" {
                let got = try keys.getJSON(key)
                try require(got == nil, "get gave \(got.map(\.string) ?? "")")
            } else if let got = try expecting(s, { try keys.getJSON(key) }) {
                if let got { try roundTrip(got, as: KeyRecord.self) }
                let want = try text(s, "json")
                try require(got.map { sameBytes($0.string, want) } ?? false, "get gave \(String(describing: got))")
            }
        case "check_keys_list":
            let prefix = optionalText(s, "prefix")
            if let got = try expecting(s, { try keys.listJSON(prefix: prefix) }) {
                try roundTrip(got, as: [KeyEntry].self)
                let want = try text(s, "json")
                try require(sameBytes(got.string, want), "list gave\n\(got)\nexpected\n\(want)")
            }
        case "check_keys_file":
            let bytes = Files.read(document)
            if s["exists"]?.bool == false {
                try require(bytes == nil, "sessions.json should not exist")
            } else {
                let want = Array(try text(s, "raw").utf8)
                try require(bytes == want, "sessions.json is\n\(String(decoding: bytes ?? [], as: UTF8.self))")
            }
        case "check_keys_preserved":
            let found = Files.list(root).filter { $0.hasPrefix("sessions.json.corrupt-") }
            try require(found.count == 1, "\(found.count) preserved copies: \(found)")
            try require(Files.read(root + "/" + found[0]) == Array(try text(s, "raw").utf8), "preserved bytes differ")
        default:
            return false
        }
        return true
    }

    /// The closure answers `result` (JSON text; null or absent: remove), or cancels by throwing
    /// the error that names the status `cancel`: that very error is what update throws.
    private func keysUpdate(_ s: CaseJSON, _ keys: Keys, _ expected: String) throws {
        let key = try text(s, "key")
        let result = optionalText(s, "result").map { JSONText($0) }
        let cancel = try s["cancel"]?.string.map { name -> XSessionError in
            guard let status = statusNames[name] else { throw fail("unknown status \(name)") }
            return XSessionError(code: .init(status: status), message: "cancelled with \(name)")
        }
        var seen: [JSONText?] = []
        let update = {
            try keys.update(key) { current in
                seen.append(current)
                if let cancel { throw cancel }
                return result.map { .set($0) } ?? .remove
            }
        }
        if let cancel {
            try require(expected == s["cancel"]?.string, "a cancelled update returns the closure's status")
            do {
                try update()
                throw fail("the update was not cancelled")
            } catch let e as XSessionError {
                try require(e == cancel, "update threw \(e), not the closure's error")
            }
        } else {
            _ = try expecting(s, update)
        }
        if let want = s["expect_current"] {
            try require(seen.count == 1, "the closure ran \(seen.count) times")
            if want.isNull {
                try require(seen[0] == nil, "the closure saw \(String(describing: seen[0]))")
            } else {
                let text = try text(s, "expect_current")
                try require(seen[0].map { sameBytes($0.string, text) } ?? false, "the closure saw \(String(describing: seen[0]))")
            }
        }
    }
}
