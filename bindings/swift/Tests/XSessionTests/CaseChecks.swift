// The check steps of a conformance case: exact bytes, or parsed comparisons where the README
// says so (info, diagnostics, list).
import Foundation
import XSession

extension CaseRunner {
    func runCheck(_ op: String, _ s: CaseJSON) throws -> Bool {
        let flags: ReadFlags = s["resolve_blobs"]?.bool == true ? .resolveBlobs : []
        switch op {
        case "check_file": try checkFile(s)
        case "check_context":
            let leaf = optionalText(s, "leaf")
            try checkText(s, "context", SessionContext.self) { try $0.buildContextJSON(leaf: leaf) }
        case "check_leaf":
            let got = try current().leaf() ?? ""
            let want = optionalText(s, "id") ?? ""
            try require(sameBytes(got, want), "leaf \(got), expected \(want)")
        case "check_dialect":
            let want = try text(s, "dialect")
            if let got = try expecting(s, { try current().dialect() }) {
                try require(got.rawValue == want, "dialect \(got), expected \(want)")
            }
        case "check_header": try checkText(s, "json", SessionHeader.self) { try $0.headerJSON() }
        case "check_entries": try checkText(s, "json", [Entry].self) { try $0.entriesJSON(flags) }
        case "check_entry":
            let id = try text(s, "id")
            try checkText(s, "json", Entry.self) { try $0.entryJSON(id, flags) }
        case "check_path":
            let id = optionalText(s, "id")
            try checkText(s, "json", [Entry].self) { try $0.pathJSON(to: id, flags) }
        case "check_children":
            let id = try text(s, "id")
            try checkText(s, "json", [Entry].self) { try $0.childrenJSON(of: id, flags) }
        case "check_tree": try checkText(s, "json", [TreeNode].self) { try $0.treeJSON(flags) }
        case "check_labels": try checkText(s, "json", [Label].self) { try $0.labelsJSON() }
        case "check_usage": try checkText(s, "json", Usage.self) { try $0.usageJSON() }
        case "check_info":
            let infoText = try current().infoJSON()
            try roundTrip(infoText, as: SessionInfo.self)
            let info = try CaseJSON.parse(infoText.string)
            for (field, want) in s["fields"]?.members ?? [] {
                guard let got = info[field] else { throw fail("info has no field \(field)") }
                try require(got == want, "info field \(field) is \(got), expected \(want)")
            }
        case "check_diagnostics":
            let diagsText = try current().diagnosticsJSON()
            try roundTrip(diagsText, as: [Diagnostic].self)
            let diags = diagsText.string
            let got = try CaseJSON.parse(diags).array ?? []
            let want = s["expected"]?.array ?? []
            try require(got.count == want.count, "\(got.count) diagnostics, expected \(want.count): \(diags)")
            for (g, w) in zip(got, want) {
                for (field, value) in w.members ?? [] {
                    try require(g[field] == value, "diagnostic field \(field): \(diags)")
                }
            }
        case "check_preserved": try checkPreserved(s)
        case "check_blob":
            let hash = try text(s, "hash")
            if let got = try expecting(s, { try store.blob(hash) }) {
                try require(got == Data(try text(s, "data").utf8), "blob \(hash) has other bytes")
            }
        case "check_resolve":
            let query = try text(s, "query"), cwd = optionalText(s, "cwd")
            if let got = try expecting(s, { try store.resolve(query, cwd: cwd) }) {
                try require(relative(got) == (try text(s, "path")), "resolved to \(got)")
            }
        case "check_list": try checkList(s)
        default:
            return false
        }
        return true
    }

    /// Compares a reader's exact bytes with the step's text `key` (only the status when the step
    /// expects an error).
    private func checkText<T: Codable>(_ s: CaseJSON, _ key: String, _ type: T.Type,
                                       _ read: (Session) throws -> JSONText) throws {
        guard let got = try expecting(s, { try read(try current()) }) else { return }
        try roundTrip(got, as: type)
        let want = try text(s, key)
        try require(sameBytes(got.string, want), "got\n\(got)\nexpected\n\(want)")
    }

    private func checkFile(_ s: CaseJSON) throws {
        let bytes = Files.read(path.isEmpty ? try current().info().path : path)
        if s["exists"]?.bool == false {
            try require(bytes == nil, "the session file should not exist yet")
            return
        }
        guard let bytes else { throw fail("the session file does not exist") }
        let want: [UInt8]
        if let raw = s["raw"] {
            want = Array(text(of: raw).utf8)
        } else if let hex = s["raw_hex"]?.string {
            want = hexBytes(hex)
        } else {
            // "{root}" stands for the store's directory (paths the library writes into files).
            let lines = (s["lines"]?.array ?? []).map { text(of: $0) + "\n" }.joined()
            want = Array(lines.replacingOccurrences(of: "{root}", with: root).utf8)
        }
        try require(bytes == want, "file\n\(String(decoding: bytes, as: UTF8.self))\nexpected\n"
                    + String(decoding: want, as: UTF8.self))
    }

    private func checkPreserved(_ s: CaseJSON) throws {
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".corrupt-"
        let found = Files.list(dir).filter { $0.hasPrefix(prefix) }
        try require(found.count == 1, "\(found.count) preserved copies in \(dir)")
        try require(Files.read(dir + "/" + found[0]) == Array(try text(s, "raw").utf8), "preserved bytes differ")
    }

    private func checkList(_ s: CaseJSON) throws {
        let options = ListOptions(cwd: optionalText(s, "cwd"), full: s["full"]?.bool ?? false,
                                  limit: s["limit"]?.uint64 ?? 0)
        let listingText = try store.listJSON(options)
        try roundTrip(listingText, as: [SessionListing].self)
        let listing = listingText.string
        // Listed newest first by file time, which ties within a test: compare in path order.
        let got = (try CaseJSON.parse(listing).array ?? []).sorted {
            Array(($0["path"]?.string ?? "").utf8).lexicographicallyPrecedes(Array(($1["path"]?.string ?? "").utf8))
        }
        let want = s["expected"]?.array ?? []
        try require(got.count == want.count, "\(got.count) sessions listed, expected \(want.count): \(listing)")
        for (g, w) in zip(got, want) {
            for (field, value) in w.members ?? [] {
                if field == "path" {
                    try require(relative(g["path"]?.string ?? "") == value.string, "list path: \(listing)")
                } else {
                    try require(g[field] == value, "list field \(field) of \(listing)")
                }
            }
        }
    }
}
