// Store.export and Store.importBundle (docs/bundles.md) on real stores in scratch directories,
// sessions written through the binding: the report of a session and its fork, a round trip into
// an empty store with the same bytes, idempotence, a dry run, a cwd map, an id clash and rename, a
// truncated bundle; the options' C structs; argument errors with their exact statuses.
//
// @testable: the options' cStruct is what the library receives; the public API never shows it.
import CXSession
import Foundation
import Testing
@testable import XSession

/// Every file under `root` (relative path -> bytes): what a failed import must leave as it was.
func snapshot(_ root: String) -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    guard let walk = FileManager.default.enumerator(atPath: root) else { return files }
    for case let relative as String in walk {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue {
            files[relative] = Files.read(root + "/" + relative)
        }
    }
    return files
}

/// The error code `call` throws; nil when it returns.
func thrownCode(_ call: () throws -> Any) -> XSessionError.Code? {
    (#expect(throws: XSessionError.self) { _ = try call() })?.code
}

/// A source store holding a parent session (cwd /w/app, a user message referencing a blob and an
/// assistant message), its fork (one more message, referencing a blob the store does not have)
/// and a key record naming the fork.
struct Lineage {
    let dir: ScratchDirectory
    let store: Store
    let parent: SessionInfo
    let child: SessionInfo
    let blob: String
    static let grammar = Data("lexer grammar".utf8)
    static let missingBlob = String(repeating: "ab", count: 32)

    init() throws {
        (dir, store) = try scratchStore()
        blob = try store.putBlob(Lineage.grammar)
        let p = try store.createSession(cwd: "/w/app", options: SessionOptions(flags: .noDefer))
        try p.appendMessage(Message(role: "user", content: .string("Parse the lexer: blob:sha256:\(blob)")))
        try p.appendMessage(Message(role: "assistant", content: "Done"))
        let c = try p.fork(options: SessionOptions(flags: .noDefer))
        try c.appendMessage(Message(role: "user", content: .string("Now blob:sha256:\(Lineage.missingBlob)")))
        (parent, child) = (try p.info(), try c.info())
        try p.close()
        try c.close()
        try store.keys.put("agent:main", JSONText(#"{"sessionId":"\#(child.id)"}"#))
    }
}

@Suite struct Bundles {
    let source: Lineage
    let out: ScratchDirectory  // bundles and pages, apart from every store
    var bundle: String { out.file("lexer.xsb") }

    init() throws {
        source = try Lineage()
        out = try ScratchDirectory("xs-swift-bundle-out")
    }

    @Test func defaultOptionsAreTheLibrarysCurrentVersion() throws {
        let e = try ExportOptions().cStruct()
        #expect(e.version == 1 && XS_EXPORT_OPTIONS_VERSION == 1 && e.flags == 0)
        try CArgs.with { a in
            let i = try ImportBundleOptions().cStruct(a)
            #expect(i.version == 1 && XS_IMPORT_BUNDLE_OPTIONS_VERSION == 1 && i.flags == 0)
            #expect(i.cwd_map == nil && i.cwd_map_len == 0)
        }
    }

    @Test func everyOptionReachesItsField() throws {
        #expect(try ExportOptions(lineage: false).cStruct().flags == UInt32(XS_EXPORT_NO_LINEAGE))
        #expect(try ExportOptions(gzip: true).cStruct().flags == UInt32(XS_EXPORT_GZIP))
        let options = ImportBundleOptions(cwdMap: [("/a", "/b"), (from: "/c", to: "/d/e")], rename: true, dryRun: true)
        try CArgs.with { a in
            let o = try options.cStruct(a)
            #expect(o.flags == UInt32(XS_IMPORT_BUNDLE_RENAME) | UInt32(XS_IMPORT_BUNDLE_DRY_RUN))
            #expect(o.cwd_map_len == 4)
            #expect((0..<4).map { String(cString: o.cwd_map[$0]!) } == ["/a", "/b", "/c", "/d/e"])
        }
        #expect(options == ImportBundleOptions(cwdMap: [("/a", "/b"), ("/c", "/d/e")], rename: true, dryRun: true))
        #expect(options != ImportBundleOptions(cwdMap: [("/c", "/d/e"), ("/a", "/b")], rename: true, dryRun: true))
    }

    /// The structs Swift imports from the header are the layouts of the contract.
    @Test func optionsLayoutsAreTheHeaders() {
        #expect(MemoryLayout<xs_export_options>.size == 8 && MemoryLayout<xs_html_options>.size == 8)
        typealias I = xs_import_bundle_options
        #expect(MemoryLayout<I>.size == 24)
        #expect([\I.version, \I.flags].map { MemoryLayout<I>.offset(of: $0) } == [0, 4])
        #expect([\I.cwd_map, \I.cwd_map_len].map { MemoryLayout<I>.offset(of: $0) } == [8, 16])
    }

    @Test func exportCarriesTheLineage() throws {
        let store = source.store
        let (parent, child) = (source.parent, source.child)
        let report = try store.export([child.id], to: bundle)
        try expectRoundTrip(report, try store.exportJSON([child.id], to: bundle))
        #expect(report.path == bundle && report.compression == .zstd)
        #expect(report.bytes == Int64(Files.read(bundle)!.count))
        #expect(report.sessions.map(\.id) == [child.id, parent.id])
        #expect(report.sessions.map(\.lineage) == [false, true])
        #expect(report.sessions.map(\.path) == [child.path, parent.path])
        #expect(report.sessions.map(\.cwd) == ["/w/app", "/w/app"] && report.sessions.allSatisfy { !$0.archived })
        #expect(report.sessions.map { Int($0.bytes) } == [child.path, parent.path].map { Files.read($0)!.count })
        #expect(child.parentSession != nil && report.sessions[0].parentSession == child.parentSession)
        #expect(report.sessions[0].parentInBundle && report.sessions[1].parentSession == nil)
        #expect(report.blobs == [ExportedBlob(hash: source.blob, bytes: Int64(Lineage.grammar.count))])
        #expect(report.missingBlobs == [Lineage.missingBlob] && report.keys == ["agent:main"])

        // Both named: neither is lineage, the parent still travels with its child.
        let both = try store.export([child.id, parent.id, child.id], to: bundle)
        #expect(both.sessions.map(\.id) == [child.id, parent.id] && both.sessions.allSatisfy { !$0.lineage })
        #expect(both.sessions[0].parentInBundle)

        let alone = try store.export([child.path], to: bundle, options: ExportOptions(lineage: false, gzip: true))
        #expect(alone.compression == .gzip && Array(Files.read(bundle)!.prefix(2)) == [0x1f, 0x8b])
        #expect(alone.sessions.map(\.id) == [child.id] && !alone.sessions[0].parentInBundle)
        #expect(alone.sessions[0].parentSession == child.parentSession)
    }

    @Test func importIntoAnEmptyStoreKeepsEveryByte() throws {
        let exported = try source.store.export([source.child.id], to: bundle)
        let (target, into) = try scratchStore()
        let text = try into.importBundleJSON(from: bundle)
        let report = try text.decode(BundleImportReport.self)
        try expectRoundTrip(report, text)
        #expect(!report.dryRun && report.bundle == bundle && report.sourceRoot == source.dir.path)
        #expect(report.sessions.map(\.id) == [source.child.id, source.parent.id])
        #expect(report.sessions.allSatisfy { $0.action == .imported && $0.newID == nil && $0.oldCwd == nil })
        #expect(report.sessions.map(\.cwd) == ["/w/app", "/w/app"])
        for (placed, carried) in zip(report.sessions, exported.sessions) {
            // The same file name under the same cwd directory, and the same bytes.
            #expect(placed.path == target.path + carried.path.dropFirst(source.dir.path.count))
            #expect(Files.read(placed.path) == Files.read(carried.path))
        }
        #expect(report.blobs == [BundleImportedBlob(hash: source.blob, action: .imported)])
        #expect(try into.blob(source.blob) == Lineage.grammar)
        #expect(report.keys == [BundleImportedKey(key: "agent:main", action: .imported)])
        #expect(try into.keys.get("agent:main")?.sessionID == source.child.id)
        #expect(try into.openSession(source.child.id).info().parentSession == source.child.parentSession)

        let before = snapshot(target.path)
        let again = try into.importBundle(from: bundle)
        #expect(again.sessions.map(\.action) == [.present, .present] && again.keys.map(\.action) == [.present])
        #expect(again.blobs.map(\.action) == [.present])
        #expect(again.sessions.map(\.path) == report.sessions.map(\.path))
        #expect(snapshot(target.path) == before)
    }

    @Test func aDryRunWritesNothing() throws {
        try source.store.export([source.child.id], to: bundle)
        let (target, into) = try scratchStore()
        let dry = try into.importBundle(from: bundle, options: ImportBundleOptions(dryRun: true))
        #expect(dry.dryRun && dry.sessions.map(\.action) == [.imported, .imported])
        #expect(Files.list(target.path).isEmpty)
        try expectRoundTrip(dry, try into.importBundleJSON(from: bundle, options: ImportBundleOptions(dryRun: true)))
    }

    @Test func aCwdMapMovesTheSessions() throws {
        try source.store.export([source.child.id], to: bundle)
        let (scratch, into) = try scratchStore()
        defer { withExtendedLifetime(scratch) {} }
        let report = try into.importBundle(from: bundle, options: ImportBundleOptions(cwdMap: [(from: "/w", to: "/srv/w")]))
        #expect(report.sessions.map(\.cwd) == ["/srv/w/app", "/srv/w/app"])
        #expect(report.sessions.map(\.oldCwd) == ["/w/app", "/w/app"])
        let directory = try into.sessionDirectory(cwd: "/srv/w/app")
        #expect(report.sessions.allSatisfy { $0.path.hasPrefix(directory + "/") && $0.action == .imported })
        let moved = try into.openSession(report.sessions[0].path)
        #expect(try moved.info().cwd == "/srv/w/app")
        #expect(try moved.header().members["originalCwd"] == "/w/app")
        #expect(try into.keys.get("agent:main")?.sessionID == source.child.id)
    }

    @Test func aClashThrowsExistsUntilRenamed() throws {
        try source.store.export([source.child.id], to: bundle)
        let (target, into) = try scratchStore()
        // The parent's id with other bytes.
        let other = try into.createSession(cwd: "/w/app", options: SessionOptions(flags: .noDefer, sessionID: source.parent.id))
        try other.appendMessage(Message(role: "user", content: "something else"))
        let otherPath = try other.info().path
        try other.close()
        let otherBytes = Files.read(otherPath)
        let before = snapshot(target.path)
        #expect(thrownCode { try into.importBundle(from: bundle) } == .exists)
        #expect(snapshot(target.path) == before)

        let renamed = try into.importBundle(from: bundle, options: ImportBundleOptions(rename: true))
        let parent = try #require(renamed.sessions.first { $0.id == source.parent.id })
        let newID = try #require(parent.newID)
        #expect(parent.action == .renamed && newID != source.parent.id && parent.path != otherPath)
        #expect(try into.openSession(parent.path).info().id == newID)
        #expect(renamed.sessions.first { $0.id == source.child.id }?.action == .imported)
        #expect(Files.read(otherPath) == otherBytes)  // the store's own session is left alone
        // The copy made is found again.
        let again = try into.importBundle(from: bundle, options: ImportBundleOptions(rename: true))
        #expect(again.sessions.map(\.action) == [.present, .present])
        #expect(again.sessions.first { $0.id == source.parent.id }?.newID == newID)
    }

    @Test func aTruncatedBundleIsCorruptAndChangesNothing() throws {
        try source.store.export([source.child.id], to: bundle)
        let whole = try #require(Files.read(bundle))
        let cut = out.file("cut.xsb")
        try Files.write(cut, Array(whole.prefix(whole.count / 2)))
        let (target, into) = try scratchStore()
        let kept = try into.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        try kept.appendMessage(Message(role: "user", content: "mine"))
        try kept.close()
        let before = snapshot(target.path)
        let error = #expect(throws: XSessionError.self) { try into.importBundle(from: cut) }
        #expect(error?.code == .corrupt && error?.status == XS_ECORRUPT)
        // The bundle is one small zstd frame: cut in half, it yields not even the manifest's header.
        #expect(error?.message == "not a bundle, or a damaged one (Truncated zstd input)")
        #expect(snapshot(target.path) == before)
    }

    @Test func emptyAndBadArgumentsAreRefused() throws {
        let store = source.store
        let error = #expect(throws: XSessionError.self) { try store.export([], to: bundle) }
        #expect(error?.code == .invalidArgument && error?.message == "n_ids is 0: name at least one session")
        #expect(thrownCode { try store.export([""], to: bundle) } == .invalidArgument)
        #expect(thrownCode { try store.export([source.child.id], to: "") } == .invalidArgument)
        #expect(thrownCode { try store.export(["a\0b"], to: bundle) } == .invalidArgument)  // the binding's
        #expect(thrownCode { try store.export(["nope"], to: bundle) } == .notFound)
        #expect(!FileManager.default.fileExists(atPath: bundle))
        #expect(thrownCode { try store.importBundle(from: "") } == .invalidArgument)
        #expect(thrownCode { try store.importBundle(from: bundle) } == .notFound)
        try store.export([source.child.id], to: bundle)
        let relative = ImportBundleOptions(cwdMap: [(from: "w", to: "/x")])
        #expect(thrownCode { try store.importBundle(from: bundle, options: relative) } == .invalidArgument)
        store.close()
        #expect(thrownCode { try store.export([source.child.id], to: bundle) } == .closed)
        #expect(thrownCode { try store.importBundle(from: bundle) } == .closed)
    }

    /// In async code the async overloads are the ones called (on the store's queue).
    @Test func theAsyncFormsExportAndImport() async throws {
        let exported = try await source.store.export([source.child.id], to: bundle)
        #expect(exported.sessions.count == 2)
        let (scratch, into) = try scratchStore()
        defer { withExtendedLifetime(scratch) {} }
        let imported = try await into.importBundle(from: bundle, options: ImportBundleOptions(dryRun: true))
        #expect(imported.dryRun && imported.sessions.count == 2)
        let done = try await into.importBundle(from: bundle)
        #expect(done.sessions.map(\.action) == [.imported, .imported])
        await #expect(throws: XSessionError.self) { try await into.export([], to: bundle) }
    }

    /// README: "Bundles and HTML pages".
    @Test func readmeExampleRuns() throws {
        let (store, id) = (source.store, source.child.id)
        let (scratch, other) = try scratchStore()
        defer { withExtendedLifetime(scratch) {} }
        let pages = try ScratchDirectory("xs-swift-pages")
        let exported = try store.export([id], to: out.file("lexer.xsb"))  // the session and its ancestors
        let report = try other.importBundle(from: out.file("lexer.xsb"),
                                                  options: ImportBundleOptions(cwdMap: [(from: "/w", to: "/srv/w")]))
        try other.exportHTML([id], to: pages.file("lexer.html"))
        #expect(exported.sessions.count == 2 && report.sessions.allSatisfy { $0.action == .imported })
        #expect(FileManager.default.fileExists(atPath: pages.file("lexer.html")))
    }
}
