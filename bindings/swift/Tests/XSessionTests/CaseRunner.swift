// Replays one conformance case (tests/conformance/README.md) through the Swift API, with the
// semantics of the C++ runner (tests/conformance/conformance_runner.cc). The steps themselves
// are in CaseSteps.swift.
import CXSession
import Foundation
import XSession

/// The first mismatch of a case: its file, step index and what differed.
struct CaseMismatch: Error, CustomStringConvertible {
    let description: String
}

/// Status names of the cases, mapped to the header's macros (not to the binding's table, which
/// is what is being tested).
let statusNames: [String: Int32] = [
    "XS_OK": XS_OK, "XS_ERROR": XS_ERROR, "XS_ENOMEM": XS_ENOMEM, "XS_EINVAL": XS_EINVAL,
    "XS_EMISUSE": XS_EMISUSE, "XS_ENOTFOUND": XS_ENOTFOUND, "XS_EEXISTS": XS_EEXISTS,
    "XS_EBUFS": XS_EBUFS, "XS_ECORRUPT": XS_ECORRUPT, "XS_EIO": XS_EIO, "XS_ELOCKED": XS_ELOCKED,
    "XS_EVERSION": XS_EVERSION, "XS_ENOSPC": XS_ENOSPC, "XS_EREADONLY": XS_EREADONLY,
    "XS_ECONFLICT": XS_ECONFLICT, "XS_ELIMIT": XS_ELIMIT, "XS_ENOHEADER": XS_ENOHEADER,
    "XS_EPOISONED": XS_EPOISONED, "XS_EAMBIGUOUS": XS_EAMBIGUOUS, "XS_EDIALECT": XS_EDIALECT,
    "XS_EINTERNAL": XS_EINTERNAL,
]

final class CaseRunner {
    let name: String
    let doc: CaseJSON
    /// The options every store of the case is opened with (store_dialect, store_reset_policy).
    let storeOptions: StoreOptions
    /// The case's stores by name: "main", its own, and those use_store steps opened
    /// (tests/conformance/README.md, "Bundles"); each lives, with its directory, until the case ends.
    var stores: [String: (scratch: ScratchDirectory, store: Store)] = [:]
    /// The current store, which the steps act on, and its directory.
    var scratch: ScratchDirectory
    var store: Store
    /// The case's bundle directory (CaseBundles.swift), made on first use.
    var bundleDirectory: ScratchDirectory?
    var session: Session?
    /// The current session's file ("path_" of the C++ runner).
    var path = ""
    /// The step being run, for messages.
    var where_ = ""
    /// How many outputs went through the typed round trip (CaseTyped.swift).
    var typedOutputs = 0
    /// The types they were decoded as.
    var typedKinds: Set<String> = []
    /// Outputs holding a number beyond Double's range, which no Swift type can decode.
    var outOfRangeOutputs = 0

    var root: String { scratch.path }

    init(file: String) throws {
        name = (file as NSString).lastPathComponent
        let text = try String(contentsOfFile: file, encoding: .utf8)
        doc = try CaseJSON.parse(text)
        guard doc["description"] != nil, doc["steps"]?.array != nil else {
            throw CaseMismatch(description: "\(name): no description or steps")
        }
        // "store_dialect": the default dialect of the store's new sessions.
        var storeOptions = StoreOptions()
        if let given = doc["store_dialect"]?.string {
            guard let dialect = Dialect(rawValue: given) else {
                throw CaseMismatch(description: "\(name): unknown store_dialect \(given)")
            }
            storeOptions.dialect = dialect
        }
        // "store_reset_policy": the store's default policy (options version 3).
        storeOptions.resetPolicy = doc["store_reset_policy"].map(resetPolicy)
        self.storeOptions = storeOptions
        let main = try Self.openStore(storeOptions)
        scratch = main.0
        store = main.1
        stores["main"] = main
    }

    /// A store in a fresh empty directory of its own.
    static func openStore(_ options: StoreOptions) throws -> (ScratchDirectory, Store) {
        let directory = try ScratchDirectory("xs-swift-conformance")
        return (directory, try Store(root: directory.path, options: options))
    }

    func run() throws {
        if let lines = doc["input"]?.array {
            try Files.write(root + "/input.jsonl", lineBytes(lines))
        } else if let raw = doc["input_raw"] {
            try Files.write(root + "/input.jsonl", Array(text(of: raw).utf8))
        } else if let hex = doc["input_hex"]?.string {
            try Files.write(root + "/input.jsonl", hexBytes(hex))
        }
        for (i, step) in doc["steps"]!.array!.enumerated() {
            where_ = "\(name) step \(i) (\(step["op"]?.string ?? "?"))"
            do {
                try run(step)
            } catch let e as XSessionError {
                throw fail("unexpected \(e)")  // a call the step did not expect to fail
            }
        }
        try? session?.close()
    }

    // --- helpers for the steps ---------------------------------------------------------------

    func fail(_ what: String) -> CaseMismatch { CaseMismatch(description: "\(where_): \(what)") }

    func require(_ ok: Bool, _ what: @autoclosure () -> String) throws {
        if !ok { throw fail(what()) }
    }

    /// A text argument: a string, or parts (strings and {"repeat": s, "times": n}).
    func text(of v: CaseJSON) -> String {
        if let s = v.string { return s }
        return (v.array ?? []).map { part in
            part.string ?? String(repeating: part["repeat"]!.string!, count: Int(part["times"]!.int64!))
        }.joined()
    }

    /// Lines joined with '\n', plus a final '\n'.
    func lineBytes(_ lines: [CaseJSON]) -> [UInt8] {
        lines.flatMap { Array(text(of: $0).utf8) + [0x0A] }
    }

    func text(_ s: CaseJSON, _ key: String) throws -> String {
        guard let v = s[key] else { throw fail("missing argument \(key)") }
        return text(of: v)
    }

    /// A text argument that may be absent (or null).
    func optionalText(_ s: CaseJSON, _ key: String) -> String? {
        guard let v = s[key], !v.isNull else { return nil }
        return text(of: v)
    }

    func json(_ s: CaseJSON, _ key: String) -> JSONText? { optionalText(s, key).map { JSONText($0) } }

    func current() throws -> Session {
        // The C runner passes a NULL handle here, which the library answers with XS_EMISUSE.
        guard let session else { throw XSessionError(code: .misuse, message: "no session is open") }
        return session
    }

    func relative(_ p: String) -> String {
        p.hasPrefix(root + "/") ? String(p.dropFirst(root.count + 1)) : p
    }

    /// The case's `options`, with the step's own `flags` and `dialect` in place of the case's.
    func options(_ step: CaseJSON) throws -> SessionOptions {
        var o = SessionOptions()
        let opts = doc["options"]
        // "auto" (or no dialect at all) is nil: the library decides.
        if let name = (step["dialect"] ?? opts?["dialect"])?.string, name != "auto" {
            guard let dialect = Dialect(rawValue: name) else { throw fail("unknown dialect \(name)") }
            o.dialect = dialect
        }
        if let start = opts?["clock_start_ms"]?.int64 {
            o.fixedClock = .init(startMs: start, stepMs: opts?["clock_step_ms"]?.int64 ?? 0)
        }
        o.idSeed = opts?["id_seed"]?.uint64 ?? 0
        o.maxLineBytes = opts?["max_line_bytes"]?.uint64 ?? 0
        o.maxDepth = UInt32(opts?["max_depth"]?.uint64 ?? 0)
        o.cwd = opts?["cwd"].map { text(of: $0) }  // a fresh header's cwd
        o.key = optionalText(step, "key")  // a session bound to a key (options version 2)
        for flag in (step["flags"] ?? opts?["flags"])?.array ?? [] {
            switch flag.string {
            case "read_only": o.flags.insert(.readOnly)
            case "create": o.flags.insert(.create)
            case "no_defer": o.flags.insert(.noDefer)
            case "sync": o.flags.insert(.sync)
            default: throw fail("unknown flag \(flag)")
            }
        }
        return o
    }

    /// Runs a call that the step expects to return `expect`: its value when it succeeded as
    /// expected, nil when it failed as expected, a mismatch otherwise.
    func expecting<T>(_ step: CaseJSON, _ call: () throws -> T) throws -> T? {
        let expected = step["expect"]?.string ?? "XS_OK"
        guard let status = statusNames[expected] else { throw fail("unknown status \(expected)") }
        do {
            let value = try call()
            try require(status == XS_OK, "expected \(expected), the call succeeded")
            return value
        } catch let e as XSessionError {
            try require(e.status == status && e.code.name == expected, "expected \(expected), got \(e)")
            return nil
        }
    }

    /// A session made by create, open, fork and friends becomes the current one.
    func adopt(_ fresh: Session) throws {
        try? session?.close()
        session = fresh
        path = try fresh.info().path
    }

    func open(_ p: String, step: CaseJSON) throws {
        var o = try options(step)
        if let cwd = optionalText(step, "cwd") { o.cwd = cwd }  // an open's own cwd replaces the case's
        if let s = try expecting(step, { try store.openSession(p, options: o) }) {
            session = s
            path = p
        }
    }
}
