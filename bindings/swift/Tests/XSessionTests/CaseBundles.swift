// The bundle steps of a conformance case (tests/conformance/README.md, "Bundles"; the C++
// reference is tests/conformance/bundle_steps.cc): a bundle exported from one store of the case
// and imported into another, through Store.exportJSON and Store.importBundleJSON (the typed
// round trip checks BundleExportReport and BundleImportReport), the reports compared member by
// member after the placeholders {bundles}, {root} and {root:NAME} are replaced.
import Foundation
import XSession

extension CaseRunner {
    func runBundleStep(_ op: String, _ s: CaseJSON) throws -> Bool {
        switch op {
        case "use_store": try useStore(try text(s, "store"))
        case "damage_bundle": try damageBundle(s)
        case "export_bundle":
            let ids = (s["sessions"]?.array ?? []).map { text(of: $0) }
            let options = ExportOptions(lineage: !(s["no_lineage"]?.bool ?? false), gzip: s["gzip"]?.bool ?? false)
            let to = try bundlePath(try text(s, "bundle"))
            let export = { try self.store.exportJSON(ids, to: to, options: options) }
            guard let got = try expectingMessage(s, placed: placed, export) else { return true }
            try roundTrip(got, as: BundleExportReport.self)
            try requireReport(try CaseJSON.parse(got.string), s["report"], got)
        case "import_bundle":
            var cwdMap: [(from: String, to: String)] = []
            for pair in s["cwd_map"]?.array ?? [] {
                guard let p = pair.array, p.count == 2 else { throw fail("a cwd_map item is not an [old, new] pair") }
                cwdMap.append((from: text(of: p[0]), to: text(of: p[1])))
            }
            let options = ImportBundleOptions(cwdMap: cwdMap, rename: s["rename"]?.bool ?? false,
                                              dryRun: s["dry_run"]?.bool ?? false)
            let from = try bundlePath(try text(s, "bundle"))
            let importBundle = { try self.store.importBundleJSON(from: from, options: options) }
            guard let got = try expectingMessage(s, placed: placed, importBundle) else { return true }
            try roundTrip(got, as: BundleImportReport.self)
            try requireReport(try CaseJSON.parse(got.string), s["report"], got)
        default:
            return false
        }
        return true
    }

    /// The store `name` becomes the current one, opened in a fresh directory on first use; the
    /// current session is closed first.
    private func useStore(_ name: String) throws {
        try? session?.close()
        session = nil
        path = ""
        (scratch, store) = try namedStore(name)
    }

    /// The store `name`, opened (with the case's store options) when the case names it first.
    private func namedStore(_ name: String) throws -> (scratch: ScratchDirectory, store: Store) {
        if let known = stores[name] { return known }
        let opened = try Self.openStore(storeOptions)
        stores[name] = opened
        return opened
    }

    /// The case's bundle directory: on the local disk, outside every store root, made on first use.
    private func bundles() throws -> String {
        if let bundleDirectory { return bundleDirectory.path }
        let made = try ScratchDirectory("xs-swift-conformance-bundles")
        bundleDirectory = made
        return made.path
    }

    private func bundlePath(_ name: String) throws -> String { try bundles() + "/" + name }

    /// An expected text with "{bundles}", "{root:NAME}" (that store's root; a store named here
    /// first is opened) and "{root}" (the current store's) replaced.
    private func placed(_ given: String) throws -> String {
        var text = given.replacingOccurrences(of: "{bundles}", with: try bundles())
        while let start = text.range(of: "{root:") {
            guard let end = text[start.upperBound...].firstIndex(of: "}") else {
                throw fail("unclosed {root: in \(given)")
            }
            let root = try namedStore(String(text[start.upperBound..<end])).scratch.path
            text.replaceSubrange(start.lowerBound...end, with: root)
        }
        return text.replacingOccurrences(of: "{root}", with: root)
    }

    /// An expected JSON value with the placeholders of its strings replaced.
    private func placed(_ v: CaseJSON) throws -> CaseJSON {
        switch v {
        case .string(let s): return .string(try placed(s))
        case .array(let items): return .array(try items.map { try placed($0) })
        case .object(let members): return .object(try members.map { ($0.0, try placed($0.1)) })
        default: return v
        }
    }

    /// Each member the step's report lists equals the report's (which may have more). A list has
    /// as many items as the report's, in order: a string equal to the report's item, or an object
    /// each of whose members equals the item's.
    private func requireReport(_ got: CaseJSON, _ want: CaseJSON?, _ text: JSONText) throws {
        guard let members = want?.members else { throw fail("the step has no report object") }
        for (member, value) in members {
            guard let have = got[member] else { throw fail("the report has no \(member): \(text)") }
            guard let wanted = value.array else {
                let expected = try placed(value)
                try require(have == expected, "\(member) is \(have), expected \(expected): \(text)")
                continue
            }
            let items = have.array ?? []
            try require(items.count == wanted.count,
                        "\(member) has \(items.count) items, expected \(wanted.count): \(text)")
            for (i, (item, w)) in zip(items, wanted).enumerated() {
                guard let fields = w.members else {
                    let expected = try placed(w)
                    try require(item == expected, "\(member) \(i) is \(item), expected \(expected): \(text)")
                    continue
                }
                for (key, field) in fields {
                    let expected = try placed(field)
                    let have = item[key]?.description ?? "(none)"
                    try require(item[key] == expected,
                                "\(member) \(i) \(key) is \(have), expected \(expected): \(text)")
                }
            }
        }
    }

    /// A bundle cut short ("truncate": its first N bytes kept) and/or with the byte at "flip"
    /// inverted, written to "to" (a name in the bundle directory; absent: in place).
    private func damageBundle(_ s: CaseJSON) throws {
        let from = try bundlePath(try text(s, "bundle"))
        guard var bytes = Files.read(from) else { throw fail("no bundle \(from)") }
        if let cut = s["truncate"]?.uint64 {
            try require(cut < bytes.count, "the bundle (\(bytes.count) bytes) is not longer than the cut \(cut)")
            bytes.removeSubrange(Int(cut)...)
        }
        if let at = s["flip"]?.uint64 {
            try require(at < bytes.count,
                        "the bundle (\(bytes.count) bytes) is shorter than the flipped byte's offset \(at)")
            bytes[Int(at)] = ~bytes[Int(at)]
        }
        try Files.write(try s["to"].map { try bundlePath(text(of: $0)) } ?? from, bytes)
    }
}
