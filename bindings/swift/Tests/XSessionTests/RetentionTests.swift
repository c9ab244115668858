// Store.archive and Store.prune: the progress closure (its calls in order, a call back into the
// store from it, a close() from it), argument errors, and an archive read back read-only.
import Foundation
import Testing
import XSession

@Suite struct RetentionAPI {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    /// `n` written, closed sessions from 2026 (idle long enough by farFuture); their ids.
    func oldSessions(_ n: Int) throws -> [String] {
        try (0..<n).map { i in
            var o = fixedOptions
            o.sessionID = "old\(i)"
            o.flags = .noDefer
            let s = try store.createSession(cwd: "/w", options: o)
            try s.appendMessage(userGo)
            try s.close()
            return "old\(i)"
        }
    }

    func archivedPaths(_ report: JSONText) throws -> [String] {
        try (report.dictionary()["archived"] as! [[String: Any]]).map { $0["path"] as! String }
    }

    @Test func progressRunsBeforeTheFirstAndAfterEachAndMayNotCallItsStore() throws {
        _ = try oldSessions(3)
        var calls: [[UInt64]] = []
        var inner: [XSessionError] = []
        let report = try store.archiveJSON(ArchiveOptions(olderThanMs: oneDay, nowMs: farFuture)) { done, total in
            calls.append([done, total])
            do {
                _ = try store.listJSON()
            } catch let e as XSessionError {
                inner.append(e)
            } catch {}
        }
        #expect(calls == [[0, 3], [1, 3], [2, 3], [3, 3]])
        #expect(inner.count == 4 && inner.allSatisfy { $0.code == .misuse })
        #expect(try archivedPaths(report).count == 3)
        #expect(try report.dictionary()["dryRun"] as? Bool == false)
        // The store works again once the archive returned; the archives are listed as such.
        let listed = try store.listJSON().array() as! [[String: Any]]
        #expect(listed.count == 3 && listed.allSatisfy { $0["archived"] as? Bool == true })
    }

    @Test func aCloseFromTheProgressClosureTakesEffectWhenTheArchiveReturns() throws {
        _ = try oldSessions(2)
        var closedInside: [Bool] = []
        let report = try store.archiveJSON(ArchiveOptions(olderThanMs: oneDay, nowMs: farFuture)) { _, _ in
            store.close()
            closedInside.append(store.isClosed)
        }
        #expect(closedInside == [true, true, true])
        #expect(try archivedPaths(report).count == 2)
        #expect(store.isClosed)
        let error = #expect(throws: XSessionError.self) { try store.listJSON() }
        #expect(error?.code == .closed)
    }

    @Test func dryRunChangesNothingAndALimitIsRequired() throws {
        let ids = try oldSessions(1)
        let path = try store.resolve(ids[0])
        let dry = try store.archiveJSON(ArchiveOptions(olderThanMs: oneDay, nowMs: farFuture, dryRun: true))
        #expect(try archivedPaths(dry) == [path])
        #expect(FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + ".gz"))
        // Nothing is idle for a century by 2100.
        #expect(try archivedPaths(store.archiveJSON(ArchiveOptions(olderThanMs: 100 * 365 * oneDay, nowMs: farFuture)))
                .isEmpty)
        for call in [{ try store.archiveJSON(ArchiveOptions(olderThanMs: -1)) },
                     { try store.pruneJSON(ArchiveOptions(olderThanMs: -1)) }] {
            let error = #expect(throws: XSessionError.self) { _ = try call() }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test func anArchiveOpensReadOnlyAndPruneDeletesIt() throws {
        let ids = try oldSessions(1)
        let path = try store.resolve(ids[0])
        _ = try store.archiveJSON(ArchiveOptions(olderThanMs: oneDay, nowMs: farFuture))
        #expect(!FileManager.default.fileExists(atPath: path))
        let s = try store.openSession(ids[0])
        let info = try s.info()
        #expect(info.archived && info.readOnly && info.path == path + ".gz")
        #expect(try s.buildContextJSON().string.contains(#"{"role":"user","content":"go"}"#))
        let write = #expect(throws: XSessionError.self) { try s.appendMessage(userGo) }
        #expect(write?.code == .readOnly)
        try s.close()

        let kept = try store.pruneJSON(ArchiveOptions(olderThanMs: 100 * 365 * oneDay, nowMs: farFuture))
        #expect(kept.string == #"{"dryRun":false,"pruned":[]}"#)
        let pruned = try store.pruneJSON(ArchiveOptions(olderThanMs: oneDay, nowMs: farFuture)).dictionary()
        #expect((pruned["pruned"] as! [[String: Any]]).map { $0["path"] as! String } == [path + ".gz"])
        #expect(!FileManager.default.fileExists(atPath: path + ".gz"))
    }
}
