// Store.import and Store.foreignList beyond the conformance cases: the options' C struct
// (defaults, version, layout), argument errors with their exact statuses, a dry run that writes
// nothing, and a report longer than the first buffer.
//
// @testable: ImportOptions.cStruct is what the library receives; the public API never shows it.
import CXSession
import Foundation
import Testing
@testable import XSession

/// A Claude Code project directory (at `project`, else in `dir`) holding one conversation of a
/// user and an assistant row.
func claudeProject(_ dir: ScratchDirectory, at project: String? = nil) throws -> String {
    let project = project ?? dir.file("source/-tmp-demo")
    let id = "11111111-2222-4333-8444-555555555555"
    let rows = [
        #"{"parentUuid":null,"cwd":"/tmp/demo","sessionId":"\#(id)","type":"user","#
            + #""message":{"role":"user","content":"Say hi"},"uuid":"aaaaaaaa-0000-4000-8000-000000000001","#
            + #""timestamp":"2026-02-02T05:25:37.961Z"}"#,
        #"{"parentUuid":"aaaaaaaa-0000-4000-8000-000000000001","cwd":"/tmp/demo","sessionId":"\#(id)","#
            + #""type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","#
            + #""content":[{"type":"text","text":"hi"}]},"uuid":"aaaaaaaa-0000-4000-8000-000000000002","#
            + #""timestamp":"2026-02-02T05:25:39.000Z"}"#,
    ]
    try Files.write(project + "/\(id).jsonl", Array((rows.joined(separator: "\n") + "\n").utf8))
    return project
}

/// A myagents store of `count` two-message sessions.
func myagentsStore(_ dir: ScratchDirectory, count: Int) throws -> String {
    let source = dir.file("source/myagents")
    var index: [String] = []
    for i in 0..<count {
        let id = String(format: "3f1c2a4e-8b7d-4e21-9a35-%012d", i)
        index.append(#"{"id":"\#(id)","agentDir":"/tmp/demo","title":"T\#(i)","createdAt":"2026-02-10T09:00:00.000Z"}"#)
        let messages = #"{"id":"m1","role":"user","content":"Q\#(i)","timestamp":"2026-02-10T09:00:01.000Z"}"#
            + "\n" + #"{"id":"m2","role":"assistant","content":"A\#(i)","timestamp":"2026-02-10T09:00:05.000Z"}"# + "\n"
        try Files.write(source + "/sessions/\(id).jsonl", Array(messages.utf8))
    }
    try Files.write(source + "/sessions.json", Array(("[" + index.joined(separator: ",") + "]\n").utf8))
    return source
}

/// A gateway state directory (agents/main/sessions/) with one keyed transcript.
func gatewayState(_ state: String) throws {
    let sessions = state + "/agents/main/sessions", id = "4ab09157-4770-4cc8-a762-6e86a25cfa13"
    let index = #"{"agent:main:main":{"sessionId":"\#(id)","updatedAt":1772246597629}}"# + "\n"
    let transcript = #"{"type":"session","version":3,"id":"\#(id)","timestamp":"2026-02-28T02:43:17.628Z","#
        + #""cwd":"/tmp/demo"}"# + "\n" + #"{"type":"message","id":"5b24a573","parentId":null,"#
        + #""timestamp":"2026-02-28T02:43:18.000Z","message":{"role":"user","content":"hello"}}"# + "\n"
    try Files.write(sessions + "/sessions.json", Array(index.utf8))
    try Files.write(sessions + "/\(id).jsonl", Array(transcript.utf8))
}

@Suite struct ImportAPI {
    let dir: ScratchDirectory  // the store's root
    let sources: ScratchDirectory  // the foreign stores, apart from the root
    let store: Store

    init() throws {
        (dir, store) = try scratchStore()
        sources = try ScratchDirectory("xs-swift-import-source")
    }

    func code(_ call: () throws -> Any) -> XSessionError.Code? {
        do {
            _ = try call()
            return nil
        } catch let e as XSessionError {
            return e.code
        } catch {
            return .unknown(0)
        }
    }

    @Test func defaultOptionsAreTheLibrarysCurrentVersion() throws {
        let o = try CArgs.with { try ImportOptions().cStruct($0) }
        #expect(o.version == 2 && XS_IMPORT_OPTIONS_VERSION == 2)
        #expect(o.progress == nil && o.progress_user == nil)
        #expect(o.flags == 0)
        #expect(o.target_cwd == nil && o.fallback_cwd == nil)
        #expect(o.lock_wait_ms == 2000 && o.now_ms == 0)
    }

    @Test func everyOptionReachesItsField() throws {
        let options = ImportOptions(dryRun: true, targetCwd: "/w/t", fallbackCwd: "/w/f", lockWaitMs: 0, nowMs: 42)
        try CArgs.with { a in
            let o = try options.cStruct(a)
            #expect(o.version == 2 && o.flags == UInt32(XS_IMPORT_DRY_RUN))
            #expect(String(cString: o.target_cwd) == "/w/t" && String(cString: o.fallback_cwd) == "/w/f")
            #expect(o.lock_wait_ms == 0 && o.now_ms == 42)
        }
    }

    /// The struct Swift imports from the header is the layout of the contract: version 1's 40
    /// bytes, then version 2's progress function and its user pointer.
    @Test func optionsLayoutIsTheHeaders() {
        typealias O = xs_import_options
        #expect(MemoryLayout<O>.size == 56)
        #expect([\O.progress, \O.progress_user].map { MemoryLayout<O>.offset(of: $0) } == [40, 48])
        #expect([\O.version, \O.flags].map { MemoryLayout<O>.offset(of: $0) } == [0, 4])
        #expect([\O.target_cwd, \O.fallback_cwd].map { MemoryLayout<O>.offset(of: $0) } == [8, 16])
        #expect([\O.lock_wait_ms, \O.now_ms].map { MemoryLayout<O>.offset(of: $0) } == [24, 32])
    }

    /// The library's kind names; any other name is no ImportKind (the type refuses it).
    @Test func kindsAreTheLibrarysNames() {
        #expect(ImportKind.allCases.map(\.rawValue) == ["claude", "myagents", "gateway", "codex"])
        #expect(ImportKind(rawValue: "opencode") == nil && ImportKind(rawValue: "Claude") == nil)
    }

    @Test func argumentErrorsHaveTheirExactStatuses() throws {
        let project = try claudeProject(sources)
        let file = project + "/11111111-2222-4333-8444-555555555555.jsonl"
        #expect(code { try store.importJSON(.claude, from: sources.file("nowhere")) } == .notFound)
        #expect(code { try store.foreignListJSON(.gateway, at: sources.file("nowhere")) } == .notFound)
        #expect(code { try store.importJSON(.claude, from: "") } == .invalidArgument)
        #expect(code { try store.importJSON(.claude, from: file) } == .invalidArgument)
        #expect(code { try store.foreignListJSON(.claude, at: file) } == .invalidArgument)
        // myagents needs sessions.json or sessions/: a project directory has neither.
        #expect(code { try store.importJSON(.myagents, from: project) } == .notFound)
        let bad: [ImportOptions] = [
            ImportOptions(targetCwd: "relative/dir"), ImportOptions(targetCwd: "/w/../x"),
            ImportOptions(fallbackCwd: "/w"),  // fallbackCwd is not the claude importer's
            ImportOptions(lockWaitMs: -1),
        ]
        for options in bad {
            #expect(code { try store.importJSON(.claude, from: project, options: options) } == .invalidArgument,
                    "\(options)")
        }
        #expect(code { try store.importJSON(.gateway, from: project + "\0x") } == .invalidArgument)  // the binding's
        // None of them wrote anything: the store's root is as empty as it was made.
        #expect(Files.list(dir.path).isEmpty)
        store.close()
        #expect(code { try store.importJSON(.claude, from: project) } == .closed)
        #expect(code { try store.foreignListJSON(.claude, at: project) } == .closed)
    }

    @Test func aDryRunReportsWhatTheImportDoesAndWritesNothing() throws {
        let project = try claudeProject(sources)
        let listing = try store.foreignListJSON(.claude, at: project).dictionary()
        let transcripts = (listing["projects"] as! [[String: Any]])[0]["transcripts"] as! [[String: Any]]
        #expect(transcripts.map { $0["rows"] as? Int } == [2])
        let dry = try store.importJSON(.claude, from: project, options: ImportOptions(dryRun: true)).dictionary()
        #expect(dry["dryRun"] as? Bool == true && dry["imported"] as? Int == 2)
        #expect(((dry["sessions"] as! [[String: Any]])[0]["sessionFile"] as? String) == "")
        #expect(Files.list(dir.path).isEmpty)  // not even the store's sessions/ directory

        let real = try store.importJSON(.claude, from: project, options: ImportOptions(targetCwd: "/work/here"))
            .dictionary()
        #expect(real["dryRun"] as? Bool == false && real["imported"] as? Int == 2)
        let path = (real["sessions"] as! [[String: Any]])[0]["sessionFile"] as! String
        #expect(path.hasPrefix(try store.sessionDirectory(cwd: "/work/here") + "/"))
        #expect(try store.openSession(path).info().cwd == "/work/here")
        let again = try store.importJSON(.claude, from: project, options: ImportOptions(targetCwd: "/work/here"))
            .dictionary()
        #expect(again["imported"] as? Int == 0 && again["alreadyImported"] as? Int == 2)
    }

    /// A report longer than the first 4096-byte attempt comes whole from the XS_EBUFS retry, and
    /// the retry imports nothing a second time.
    @Test func aLongReportComesWholeAndImportsOnce() throws {
        let source = try myagentsStore(sources, count: 30)
        let report = try store.importJSON(.myagents, from: source)
        #expect(report.string.utf8.count > Handle.firstCapacity)
        let first = try report.dictionary()
        #expect(first["imported"] as? Int == 30 * 2 + 30)  // the messages, then the 30 index keys
        #expect((first["sessions"] as! [Any]).count == 31)
        let second = try store.importJSON(.myagents, from: source).dictionary()
        #expect(second["imported"] as? Int == 0 && second["alreadyImported"] as? Int == 90)
        #expect(try store.keys.listJSON().array().count == 30)
    }

    /// The progress closure (import options version 2): from 0 to all of the source's bytes, on
    /// the calling thread, with the store busy (a call on it from there throws `.misuse`).
    @Test func importReportsProgress() throws {
        let source = try myagentsStore(sources, count: 3)
        var calls: [(done: UInt64, total: UInt64)] = []
        var misuse: XSessionError.Code?
        let report = try store.import(.myagents, from: source) { done, total in
            calls.append((done, total))
            if calls.count == 1 {
                misuse = (#expect(throws: XSessionError.self) { try self.store.listJSON() })?.code
            }
        }
        #expect(report.imported == 3 * 2 + 3)
        #expect(misuse == .misuse)
        #expect(calls.count >= 2 && calls.first?.done == 0)
        #expect(Set(calls.map(\.total)).count == 1 && calls.last.map { $0.done == $0.total } == true)
        #expect(zip(calls, calls.dropFirst()).allSatisfy { $0.done <= $1.done })
        // Without a closure nothing changes, and a dry run reports progress too.
        let dry = try store.import(.myagents, from: source, options: ImportOptions(dryRun: true)) { _, _ in }
        #expect(dry.imported == 0 && dry.alreadyImported == 9)
    }

    /// README: "Import", with a scratch directory standing in for the home directory.
    @Test func readmeExampleRuns() throws {
        let home = sources.path
        let project = try claudeProject(sources, at: home + "/.claude/projects/-work-app")
        try gatewayState(home + "/.openclaw")
        let listing = try store.foreignList(.claude, at: project)  // writes nothing
        #expect(Files.list(dir.path).isEmpty)
        let plan = try store.import(.claude, from: project, options: ImportOptions(dryRun: true))
        let report = try store.import(.claude, from: project, options: ImportOptions(targetCwd: "/work/app"))
        try store.import(.gateway, from: home + "/.openclaw")  // a re-import adds only what is new
        guard case .claude(let claude) = listing else {
            Issue.record("listing \(listing)")
            return
        }
        #expect(claude.projects.count == 1 && !claude.projects[0].transcripts.isEmpty)
        #expect(plan.imported == 2 && plan.dryRun && report.imported == 2 && report.sessions.allSatisfy(\.created))
        let gatewayAgain = try store.import(.gateway, from: home + "/.openclaw")
        #expect(gatewayAgain.imported == 0 && gatewayAgain.alreadyImported == 2)
        #expect(try store.keys.getJSON("agent:main:main") != nil)
    }
}
