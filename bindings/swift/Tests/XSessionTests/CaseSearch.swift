// The session index and search steps of a conformance case (tests/conformance/README.md,
// "Session index and search"; the C++ reference is tests/conformance/search_steps.cc). Each step
// opens a SessionIndex at <root>/index.db, makes its one call through the JSON twin of the typed
// method (the typed round trip checks the typed value), compares what the step lists, and closes.
//
// @testable: SearchRole is a closed enum, so a role none of the five ("robot") cannot go through
// SearchOptions; such a step sends it in the C struct through the binding's internal
// searchJSON(_:_:_:) so that the library itself refuses it.
import CXSession
import Foundation
@testable import XSession

extension CaseRunner {
    func runSearchStep(_ op: String, _ s: CaseJSON) throws -> Bool {
        guard ["index_refresh", "index_rebuild", "index_verify", "index_list", "search"].contains(op) else {
            return false
        }
        let ix = try store.openIndex(IndexOptions(path: root + "/index.db"))
        defer { ix.close() }
        switch op {
        case "search":
            guard let got = try expectingMessage(s, { try search(ix, s) }) else { return true }
            try roundTrip(got, as: [SearchHit].self)
            try requireItems(try CaseJSON.parse(got.string), s["hits"], got)
        case "index_list":
            let cwd = optionalText(s, "cwd"), limit = UInt32(s["limit"]?.uint64 ?? 0)
            guard let got = try expectingMessage(s, { try ix.listJSON(cwd: cwd, limit: limit) }) else { return true }
            try roundTrip(got, as: [IndexedSession].self)
            try requireItems(try CaseJSON.parse(got.string), s["sessions"], got)
        case "index_verify":
            guard let got = try expectingMessage(s, { try ix.verifyJSON() }) else { return true }
            try roundTrip(got, as: IndexVerifyReport.self)
            try requireMembers(try CaseJSON.parse(got.string), s["report"], got)
        default:
            let call: () throws -> JSONText = { op == "index_refresh" ? try ix.refreshJSON() : try ix.rebuildJSON() }
            guard let got = try expectingMessage(s, call) else { return true }
            try roundTrip(got, as: IndexReport.self)
            try requireMembers(try CaseJSON.parse(got.string), s["report"], got)
        }
        return true
    }

    /// The step's search: its filters as SearchOptions; a role outside SearchRole in the C struct.
    private func search(_ ix: SessionIndex, _ s: CaseJSON) throws -> JSONText {
        let query = try text(s, "query"), roleName = optionalText(s, "role")
        var o = SearchOptions(cwd: optionalText(s, "cwd"), sessionID: optionalText(s, "session_id"),
                              limit: UInt32(s["limit"]?.uint64 ?? 0), literal: s["literal"]?.bool ?? false)
        o.sinceMs = s["since_ms"]?.int64
        guard let roleName else { return try ix.searchJSON(query, options: o) }
        if let role = SearchRole(rawValue: roleName) {
            o.role = role
            return try ix.searchJSON(query, options: o)
        }
        return try CArgs.with { a in
            var c = try o.cStruct(a)
            c.role = try a.cString(roleName)
            return try ix.searchJSON(query, &c, a)
        }
    }

    /// `expecting`, and with an error "expect", the message starts with the step's "message_prefix"
    /// (its placeholders replaced by `placed`: the bundle steps' {root}, {bundles}...).
    func expectingMessage<T>(_ s: CaseJSON, placed: (String) throws -> String = { $0 },
                             _ call: () throws -> T) throws -> T? {
        var message: String?
        let value = try expecting(s) {
            do {
                return try call()
            } catch let e as XSessionError {
                message = e.message
                throw e
            }
        }
        if value == nil, let given = s["message_prefix"]?.string {
            let prefix = try placed(given)
            try require(message?.utf8.starts(with: prefix.utf8) == true,
                        "message \(message ?? "(none)") does not start with \(prefix)")
        }
        return value
    }

    /// A JSON string naming a path under the store root, as relative to it; any other value as it is.
    private func relativeJSON(_ v: CaseJSON) -> CaseJSON {
        if let p = v.string, p.utf8.starts(with: (root + "/").utf8) { return .string(relative(p)) }
        return v
    }

    /// The expected items against the output's, in order: as many, each a path equal to the
    /// output's, or an object each of whose members equals the output item's.
    private func requireItems(_ got: CaseJSON, _ want: CaseJSON?, _ text: JSONText) throws {
        guard let items = got.array, let wanted = want?.array else { throw fail("no list to compare: \(text)") }
        try require(items.count == wanted.count, "\(items.count) items, expected \(wanted.count): \(text)")
        for (i, (g, w)) in zip(items, wanted).enumerated() {
            if w.string != nil {
                try require(relativeJSON(g) == w, "item \(i) is \(relativeJSON(g)), expected \(w): \(text)")
                continue
            }
            for (member, value) in w.members ?? [] {
                let have = g[member].map(relativeJSON)
                try require(have == value, "item \(i) member \(member) is \(have?.description ?? "(none)"), "
                            + "expected \(value): \(text)")
            }
        }
    }

    /// Each member the step's report lists equals the output's; a list item by item.
    private func requireMembers(_ got: CaseJSON, _ want: CaseJSON?, _ text: JSONText) throws {
        for (member, value) in want?.members ?? [] {
            guard let have = got[member] else { throw fail("the report has no \(member): \(text)") }
            if have.array != nil {
                try requireItems(have, value, text)
            } else {
                try require(have == value, "\(member) is \(have), expected \(value): \(text)")
            }
        }
    }
}
