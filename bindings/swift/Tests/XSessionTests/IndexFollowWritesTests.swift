// The session index following the store's writes (IndexOptions.followWrites, docs/search.md
// "Kept current") and SessionIndex.flush(): with it a session written after the open is found
// without a refresh once flush() returns; without it flush() has nothing to wait for and only a
// refresh finds the session; an update the index's thread could not make (another connection
// held SQLite's write lock past the busy timeout) is thrown by flush() once, as `.locked`, and
// made by the next refresh. Reference: tests/capi/search_test.cc.
import CXSession
import Foundation
import Testing
import XSession

/// Another SQLite connection, through the libsqlite3 the library itself is linked with (found by
/// dlopen: the package gains no dependency for this test).
final class OtherConnection {
    private typealias Open = @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias Exec = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?,
                                             UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
    private typealias Close = @convention(c) (OpaquePointer?) -> Int32
    private let exec: Exec
    private let close: Close
    private var db: OpaquePointer?

    init(_ path: String) throws {
        #if os(macOS)
        let library = dlopen("/usr/lib/libsqlite3.dylib", RTLD_NOW)
        #else
        let library = dlopen("libsqlite3.so.0", RTLD_NOW)
        #endif
        let lib = try #require(library, "no libsqlite3: \(String(cString: dlerror()))")
        let open = unsafeBitCast(try #require(dlsym(lib, "sqlite3_open")), to: Open.self)
        exec = unsafeBitCast(try #require(dlsym(lib, "sqlite3_exec")), to: Exec.self)
        close = unsafeBitCast(try #require(dlsym(lib, "sqlite3_close")), to: Close.self)
        try #require(open(path, &db) == 0, "sqlite3_open \(path)")
    }

    deinit { _ = close(db) }

    /// The SQLITE_ status of `sql`.
    func run(_ sql: String) -> Int32 { exec(db, sql, nil, nil, nil) }
}

@Suite struct IndexFollowWrites {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    @Test func aSessionWrittenAfterTheOpenIsFoundAfterFlushWithoutARefresh() throws {
        let ix = try store.openIndex(IndexOptions(followWrites: true))
        #expect(try ix.rebuild() == indexReport(files: 0))
        let turn = try indexSession(store, 1, cwd: "/w/app", prompt: "launch the zeppelin", answer: "zeppelin launched")
        // The index's own thread indexes it shortly after; flush waits for it.
        try ix.flush()
        let hits = try ix.search("zeppelin")
        #expect(hits.count == 2 && Set(hits.map(\.entryID)) == [turn.userID, turn.assistantID])
        #expect(hits.allSatisfy { $0.sessionID == "s1" && $0.sessionPath == turn.path })
        // Nothing left for a refresh to do.
        #expect(try ix.refresh() == indexReport(files: 1, unchanged: 1))
        ix.close()
        #expect(indexFailure { try ix.flush() }?.code == .closed)
    }

    @Test func withoutItFlushSucceedsAndOnlyARefreshFindsTheSession() async throws {
        let ix = try await store.openIndex()
        #expect(try await ix.rebuild() == indexReport(files: 0))
        try indexSession(store, 1, cwd: "/w/app", prompt: "launch the zeppelin", answer: "zeppelin launched")
        try await ix.flush()  // nothing to wait for
        #expect(try await ix.search("zeppelin").isEmpty)
        #expect(try await ix.refresh() == indexReport(files: 1, added: 1, entries: 2))
        #expect(try await ix.search("zeppelin").map(\.sessionID) == ["s1", "s1"])
        await ix.close()
    }

    @Test func flushThrowsAFailedUpdateOnceAndARefreshMakesIt() throws {
        let ix = try store.openIndex(IndexOptions(busyTimeoutMs: 50, followWrites: true))
        #expect(try ix.rebuild() == indexReport(files: 0))
        // Another connection holds the write lock longer than the index waits for it.
        let other = try OtherConnection(dir.file("index.db"))
        try #require(other.run("BEGIN IMMEDIATE") == 0)
        try indexSession(store, 1, cwd: "/w/app", prompt: "launch the zeppelin", answer: "zeppelin launched")
        let error = try #require(indexFailure { try ix.flush() })
        #expect(error.code == .locked && error.status == XS_ELOCKED)
        #expect(error.message.hasPrefix("indexing what sessions wrote: "), "\(error.message)")
        try ix.flush()  // thrown once
        try #require(other.run("COMMIT") == 0)
        #expect(try ix.search("zeppelin").isEmpty)
        #expect(try ix.refresh() == indexReport(files: 1, added: 1, entries: 2))
        #expect(try ix.search("zeppelin").map(\.sessionID) == ["s1", "s1"])
        ix.close()
    }
}
