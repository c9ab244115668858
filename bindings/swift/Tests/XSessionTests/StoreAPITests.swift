// The Store API beyond the conformance cases: blobs (put, get, list, garbage collection),
// listing decoded into an app's own types, in-memory stores, URL roots.
import Foundation
import Testing
import XSession

/// A Decodable view of one Store.list item, as an app would declare it.
struct Listing: Decodable, Equatable {
    let id: String
    let cwd: String
    let title: String?
    let firstMessage: String?
    let messageCount: Int?
}

@Suite struct StoreAPI {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    static let helloHash = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"  // sha256("hello")

    @Test func blobsRoundTrip() throws {
        #expect(try store.putBlob(Data("hello".utf8)) == Self.helloHash)
        #expect(try store.blob(Self.helloHash) == Data("hello".utf8))
        // Over the first buffer: the XS_EBUFS retry returns every byte.
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let hash = try store.putBlob(big)
        #expect(try store.blob(hash) == big)
        #expect(try store.putBlob(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try store.blob("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == Data())
        let missing = String(repeating: "0", count: 64)
        #expect(throws: XSessionError.self) { try store.blob(missing) }
        #expect((try? store.blob(missing)) == nil)
        let bad = #expect(throws: XSessionError.self) { try store.blob("not-a-hash") }
        #expect(bad?.code == .invalidArgument)
    }

    @Test func listBlobsAndVerify() throws {
        #expect(try store.listBlobsJSON().string == #"{"count":0,"bytes":0,"blobs":[],"others":[]}"#)
        try store.putBlob(Data("hello".utf8))
        try Files.write(dir.file("blobs/" + Self.helloHash.replacingOccurrences(of: "2cf2", with: "0000")), Array("x".utf8))
        let listed = try store.listBlobsJSON(verify: true).dictionary()
        #expect(listed["count"] as? Int == 2 && listed["bytes"] as? Int == 6)
        let problems = (listed["blobs"] as? [[String: Any]])?.map { $0["problem"] is NSNull }
        #expect(problems == [false, true])  // sorted by hash: the damaged "0000..." copy first
    }

    @Test func garbageCollection() throws {
        let kept = try store.putBlob(Data("kept".utf8))
        let orphan = try store.putBlob(Data("orphan".utf8))
        let s = try store.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        try s.appendCustom("ref", data: JSONText(#"{"ref":"blob:sha256:\#(kept)"}"#))
        // Young blobs are safe: the default grace period keeps both.
        let young = try store.collectGarbageJSON(GCOptions(dryRun: true)).dictionary()
        #expect((young["deleted"] as? [Any])?.count == 0 && (young["young"] as? [Any])?.count == 1)
        let dry = try store.collectGarbageJSON(GCOptions(dryRun: true, graceMs: 0)).dictionary()
        #expect(dry["dryRun"] as? Bool == true)
        #expect((dry["deleted"] as? [[String: Any]])?.map { $0["name"] as? String } == [orphan])
        #expect(try store.blob(orphan) == Data("orphan".utf8))
        let real = try store.collectGarbageJSON(GCOptions(graceMs: 0)).dictionary()
        #expect(real["dryRun"] as? Bool == false && real["bytesFreed"] as? Int == 6)
        #expect(throws: XSessionError.self) { try store.blob(orphan) }
        #expect(try store.blob(kept) == Data("kept".utf8))
        let negative = #expect(throws: XSessionError.self) { try store.collectGarbageJSON(GCOptions(graceMs: -1)) }
        #expect(negative?.code == .invalidArgument)
    }

    @Test func aLargeReportIsNotComputedTwice() throws {
        // A report over the first 4 KiB buffer takes the XS_EBUFS retry. Had the retry run the
        // collection again, the second run would have found nothing left to delete.
        let hashes = try (0..<60).map { try store.putBlob(Data("orphan \($0)".utf8)) }
        let report = try store.collectGarbageJSON(GCOptions(graceMs: 0))
        #expect(report.data.count > 4096)
        let deleted = try report.dictionary()["deleted"] as? [[String: Any]]
        #expect(Set(deleted?.compactMap { $0["name"] as? String } ?? []) == Set(hashes))
        #expect(try store.listBlobsJSON().string == #"{"count":0,"bytes":0,"blobs":[],"others":[]}"#)
    }

    @Test func listDecodesIntoAppTypes() throws {
        for (i, cwd) in ["/a", "/b"].enumerated() {
            var o = fixedOptions
            o.sessionID = "sess\(i)"
            o.flags = .noDefer
            let s = try store.createSession(cwd: cwd, options: o)
            try s.appendMessage(JSONText(#"{"role":"user","content":"question \#(i)"}"#))
        }
        let all = try store.listJSON(ListOptions(full: true)).decode([Listing].self).sorted { $0.id < $1.id }
        #expect(all == [
            Listing(id: "sess0", cwd: "/a", title: nil, firstMessage: "question 0", messageCount: 1),
            Listing(id: "sess1", cwd: "/b", title: nil, firstMessage: "question 1", messageCount: 1),
        ])
        let onlyB = try store.listJSON(ListOptions(cwd: "/b")).decode([Listing].self)
        #expect(onlyB.map(\.id) == ["sess1"] && onlyB[0].messageCount == nil)
        #expect(try store.listJSON(ListOptions(limit: 1)).array().count == 1)
        #expect(try store.resolve("sess1").hasSuffix("_sess1.jsonl"))
        let ambiguous = #expect(throws: XSessionError.self) { try store.resolve("sess") }
        #expect(ambiguous?.code == .ambiguous)
        let opened = try store.openSession("sess0", options: SessionOptions(flags: .readOnly))
        #expect(try opened.info().id == "sess0")
    }

    @Test func inMemoryStoresTouchNoDisk() throws {
        let memory = try Store.inMemory()
        let s = try memory.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        try s.appendMessage(#"{"role":"assistant","content":"hello"}"#)
        #expect(try s.info().entryCount == 2)
        #expect(try s.buildContextJSON().dictionary()["messages"].map { ($0 as? [Any])?.count } == 2)
        #expect(Files.read(try s.info().path) == nil)
    }

    @Test func urlRootsAndBreadcrumbs() throws {
        let url = URL(fileURLWithPath: dir.path).appendingPathComponent("Application Support/App", isDirectory: true)
        let byURL = try Store(root: url)
        let s = try byURL.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        let path = try s.info().path
        #expect(path.hasPrefix(url.path + "/sessions/"))
        try s.close()
        try byURL.writeBreadcrumb(terminalID: "tty1", cwd: "/w", sessionPath: path)
        let recent = try byURL.continueRecent(cwd: "/w", terminalID: "tty1")
        #expect(try recent.info().path == path)
    }
}
