// The import steps of a conformance case (tests/conformance/README.md, "Import"; the C++
// reference is tests/conformance/import_steps.cc). The sources' bytes come from ordinary
// write_file steps under <root>/source/.
import Foundation
import XSession

extension CaseRunner {
    func runImportStep(_ op: String, _ s: CaseJSON) throws -> Bool {
        switch op {
        case "import", "foreign_list": try importOrList(op, s)
        case "check_raw_file":
            let p = try text(s, "path")
            guard let bytes = Files.read(root + "/" + p) else { throw fail("\(p) does not exist") }
            let want = try text(s, "raw")
            try require(bytes == Array(want.utf8),
                        "\(p) is\n\(String(decoding: bytes, as: UTF8.self))\nexpected\n\(want)")
        default:
            return false
        }
        return true
    }

    private func importOrList(_ op: String, _ s: CaseJSON) throws {
        let name = try text(s, "kind"), source = root + "/" + (try text(s, "path"))
        guard let kind = ImportKind(rawValue: name) else {
            // ImportKind is an enum: the Swift API cannot pass a kind the library does not know,
            // which is its form of the library's XS_EINVAL. A case expecting anything else fails.
            try require(s["expect"]?.string == "XS_EINVAL", "kind \(name) is not an ImportKind")
            return
        }
        let got: JSONText?
        if op == "import" {
            let options = ImportOptions(dryRun: s["dry_run"]?.bool ?? false, targetCwd: optionalText(s, "target_cwd"),
                                        fallbackCwd: optionalText(s, "fallback_cwd"),
                                        lockWaitMs: s["lock_wait_ms"]?.int64, nowMs: s["now_ms"]?.int64)
            got = try expecting(s) { try store.importJSON(kind, from: source, options: options) }
        } else {
            let lockWait = s["lock_wait_ms"]?.int64, now = s["now_ms"]?.int64
            got = try expecting(s) { try store.foreignListJSON(kind, at: source, lockWaitMs: lockWait, nowMs: now) }
        }
        guard let got else { return }
        if op == "import" { try roundTrip(got, as: ImportReport.self) } else { try roundTrip(got, as: ForeignListing.self) }
        let shown = op == "import" ? got.string : withoutMtimes(got.string)
        let want = rooted(try text(s, "json"))
        try require(sameBytes(shown, want), "\(op) gave\n\(shown)\nexpected\n\(want)")
    }
}

/// A listing's modification times are the test run's, not the case's: the number after each
/// "mtime": and "mtimeMs": becomes 0.
func withoutMtimes(_ json: String) -> String {
    let bytes = Array(json.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    let names = [Array(#""mtime":"#.utf8), Array(#""mtimeMs":"#.utf8)]
    var at = 0
    while at < bytes.count {
        if let name = names.first(where: { bytes[at...].starts(with: $0) }) {
            out += name
            at += name.count
            while at < bytes.count, bytes[at] == UInt8(ascii: "-") || (bytes[at] >= 0x30 && bytes[at] <= 0x39) {
                at += 1
            }
            out.append(UInt8(ascii: "0"))
        } else {
            out.append(bytes[at])
            at += 1
        }
    }
    return String(decoding: out, as: UTF8.self)
}
