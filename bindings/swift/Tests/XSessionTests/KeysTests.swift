// store.keys, the keyed session store (docs/keyed-store.md): exact document bytes, absence as
// nil and false, update's closure (keep, set, remove, a thrown error, calls back into its own
// store, close from inside), keysPath, bad keys, and updates from many tasks and two stores.
import CXSession
import Foundation
import Testing
import XSession

/// The fields a gateway reads, as an app would declare them.
struct GatewayRecord: Decodable, Equatable {
    let sessionId: String
    let title: String?
    let inputTokens: Int?
}

/// An app's own reason to stop an update.
struct NotNow: Error, Equatable {}

/// README, "Keyed store": its example, returning what it reads.
struct SessionRef: Codable, Equatable { let sessionId: String }

func keyedStoreExample(_ store: Store) throws -> (SessionRef?, [KeyEntry]) {
    let keys = store.keys
    try keys.put("agent:main", #"{"sessionId":"a1b2c3d4","title":"Main"}"#)
    try keys.patch("agent:main", #"{"title":null,"inputTokens":812}"#)  // RFC 7386 merge patch
    // Move the conversation to a new session unless another process already did: the closure runs
    // under the lock, so nothing can change the record between its read and this write.
    try keys.update("agent:main") { current in
        guard try current?.decode(SessionRef.self).sessionId == "a1b2c3d4" else { return .keep }
        return .set(try JSONText(encoding: SessionRef(sessionId: "e5f6a7b8")))
    }
    let now = try keys.get("agent:main", as: SessionRef.self)  // SessionRef(sessionId: "e5f6a7b8")
    let all = try keys.list(prefix: "agent:")  // [KeyEntry]: key "agent:main", record.sessionID "e5f6a7b8"
    return (now, all)
}

/// A record with a counter, for the update tests.
func counter(_ n: Int) -> JSONText { JSONText(#"{"sessionId":"s","n":\#(n)}"#) }
func count(of record: JSONText?) throws -> Int { try record?.dictionary()["n"] as? Int ?? 0 }

@Suite struct KeysAPI {
    let dir: ScratchDirectory
    let store: Store
    var document: String { dir.file("sessions.json") }

    init() throws { (dir, store) = try scratchStore() }

    func bytes() -> String { String(decoding: Files.read(document) ?? [], as: UTF8.self) }

    @Test func roundTrip() throws {
        let keys = store.keys
        #expect(try keys.getJSON("agent:main") == nil)
        #expect(try keys.listJSON().string == "[]")
        try keys.put("agent:main", #"{"sessionId":"a1","title":"Main","inputTokens":10}"#)
        try keys.put("cron:nightly", #"{"sessionId":"c1","cost":1.0e3}"#)  // token for token
        #expect(bytes() == """
            {
              "agent:main": {
                "sessionId": "a1",
                "title": "Main",
                "inputTokens": 10
              },
              "cron:nightly": {
                "sessionId": "c1",
                "cost": 1.0e3
              }
            }

            """)
        #expect(try keys.getJSON("cron:nightly") == #"{"sessionId":"c1","cost":1.0e3}"#)
        #expect(try keys.get("agent:main", as: GatewayRecord.self)
                == GatewayRecord(sessionId: "a1", title: "Main", inputTokens: 10))
        #expect(try keys.get("nobody", as: GatewayRecord.self) == nil)
        #expect(try keys.listJSON(prefix: "cron").string == #"[{"key":"cron:nightly","record":{"sessionId":"c1","cost":1.0e3}}]"#)

        try keys.patch("agent:main", #"{"title":null,"outputTokens":5}"#)
        #expect(try keys.getJSON("agent:main") == #"{"sessionId":"a1","inputTokens":10,"outputTokens":5}"#)
        #expect(try keys.delete("cron:nightly") == true)
        #expect(try keys.delete("cron:nightly") == false)
        #expect(try keys.listJSON().string == #"[{"key":"agent:main","record":{"sessionId":"a1","inputTokens":10,"outputTokens":5}}]"#)
    }

    @Test func readmeExampleRuns() throws {
        let (now, all) = try keyedStoreExample(store)
        #expect(now == SessionRef(sessionId: "e5f6a7b8"))
        #expect(all.map(\.key) == ["agent:main"] && all[0].record.sessionID == "e5f6a7b8" && all[0].record.members.isEmpty)
        // Run again, the record is no longer the stale one: the closure keeps it.
        try store.keys.update("agent:main") { _ in .set(#"{"sessionId":"other"}"#) }
        #expect(try keyedStoreExample(store).0 == SessionRef(sessionId: "e5f6a7b8"))
        let readme = try String(contentsOfFile: Repository.root + "/bindings/swift/README.md", encoding: .utf8)
        let body = try String(contentsOfFile: #filePath, encoding: .utf8)
            .components(separatedBy: "    let keys = store.keys\n")[1].components(separatedBy: "    return (now, all)")[0]
        let unindented = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.dropFirst(4) }
            .joined(separator: "\n")
        #expect(readme.contains("let keys = store.keys\n" + unindented), "the README's example is this function's body")
    }

    @Test func updateSetsKeepsAndRemoves() throws {
        let keys = store.keys
        var seen: [JSONText?] = []
        try keys.update("k") { seen.append($0); return .set(counter(1)) }
        try keys.update("k") { seen.append($0); return .set(counter(try count(of: $0) + 1)) }
        #expect(seen == [nil, counter(1)])
        #expect(try keys.getJSON("k") == counter(2))
        // .keep writes nothing: the document is not even replaced.
        let inode = try FileManager.default.attributesOfItem(atPath: document)[.systemFileNumber] as? Int
        try keys.update("k") { _ in .keep }
        #expect(try FileManager.default.attributesOfItem(atPath: document)[.systemFileNumber] as? Int == inode)
        try keys.update("k") { _ in .remove }
        #expect(try keys.getJSON("k") == nil)
        #expect(bytes() == "{}\n")
        try keys.update("never") { current in
            #expect(current == nil)
            return .keep
        }
        #expect(bytes() == "{}\n")
    }

    @Test func aThrowingClosureCancelsAndItsErrorComesBack() throws {
        let keys = store.keys
        try keys.put("k", counter(1))
        let before = bytes()
        #expect(throws: NotNow.self) { try keys.update("k") { _ in throw NotNow() } }
        let conflict = XSessionError(code: .conflict, message: "someone else won")
        let thrown = #expect(throws: XSessionError.self) { try keys.update("k") { _ in throw conflict } }
        #expect(thrown == conflict)
        // A record the library refuses: its error, as for put.
        let invalid = #expect(throws: XSessionError.self) { try keys.update("k") { _ in .set(#"{"n":2}"#) } }
        #expect(invalid?.code == .invalidArgument)
        #expect(bytes() == before)
    }

    @Test func aClosureCallingItsOwnStoreGetsMisuseNotADeadlock() throws {
        let keys = store.keys
        try keys.put("k", counter(1))
        var errors: [XSessionError.Code] = []
        let calls: [() throws -> Void] = [
            { _ = try keys.getJSON("k") }, { try keys.put("other", counter(0)) }, { _ = try self.store.listJSON() },
            { try keys.update("k") { _ in .remove } }, { _ = try self.store.putBlob(Data("x".utf8)) },
        ]
        try keys.update("k") { current in
            for call in calls {
                do { try call() } catch let e as XSessionError { errors.append(e.code) }
            }
            return .set(counter(try count(of: current) + 1))
        }
        #expect(errors == Array(repeating: .misuse, count: 5))
        #expect(try keys.getJSON("k") == counter(2))
        #expect(try keys.getJSON("other") == nil)
        // Another Store on the same root is another handle: it may read (readers take no lock).
        let other = try Store(root: dir.path)
        try keys.update("k") { current in
            let read = try other.keys.getJSON("k")
            #expect(read == current)
            return .keep
        }
    }

    @Test func otherThreadsWaitForTheUpdateInsteadOfFailing() throws {
        let keys = store.keys
        try keys.put("k", counter(1))
        let done = DispatchSemaphore(value: 0)
        let seen = Locked<Result<JSONText?, any Error>?>(nil)
        try keys.update("k") { current in
            DispatchQueue.global().async {
                seen.set(Result { try keys.getJSON("k") })  // waits for the lock this update holds
                done.signal()
            }
            return .set(counter(try count(of: current) + 1))
        }
        done.wait()
        #expect(try seen.get()?.get() == counter(2))
    }

    @Test func closingFromTheClosureTakesEffectAfterTheUpdate() throws {
        try store.keys.update("k") { _ in
            store.close()
            #expect(store.isClosed)
            return .set(counter(7))
        }
        #expect(store.isClosed)
        let closed = #expect(throws: XSessionError.self) { try store.keys.getJSON("k") }
        #expect(closed?.code == .closed)
        #expect(try Store(root: dir.path).keys.getJSON("k") == counter(7))
    }

    @Test func keysPathPutsTheDocumentElsewhere() throws {
        let elsewhere = dir.file("gateway/state/sessions.json")
        let gateway = try Store(root: dir.file("root"), options: StoreOptions(keysPath: elsewhere))
        try gateway.keys.put("agent:main", #"{"sessionId":"a1"}"#)
        #expect(Files.read(elsewhere) == Array("{\n  \"agent:main\": {\n    \"sessionId\": \"a1\"\n  }\n}\n".utf8))
        #expect(Files.read(dir.file("root/sessions.json")) == nil)
        #expect(try Store(root: dir.file("root")).keys.getJSON("agent:main") == nil)
    }

    @Test func badKeysAreInvalidArguments() throws {
        let keys = store.keys
        try keys.put("ok", counter(1))
        let before = bytes()
        for key in ["a/b", "a\\b", "", String(repeating: "x", count: 257), "tab\there"] {
            var errors: [XSessionError.Code?] = []
            errors.append((#expect(throws: XSessionError.self) { try keys.put(key, counter(1)) })?.code)
            errors.append((#expect(throws: XSessionError.self) { try keys.patch(key, #"{"title":"t"}"#) })?.code)
            errors.append((#expect(throws: XSessionError.self) { try keys.delete(key) })?.code)
            var called = false
            errors.append((#expect(throws: XSessionError.self) {
                try keys.update(key) { _ in called = true; return .remove }
            })?.code)
            #expect(errors == Array(repeating: .invalidArgument, count: 4), "key \(key)")
            #expect(!called)
            let read = #expect(throws: XSessionError.self) { try keys.getJSON(key) }  // reads check keys too
            #expect(read?.code == .invalidArgument, "key \(key)")
        }
        let nul = #expect(throws: XSessionError.self) { try keys.getJSON("a\u{0}b") }
        #expect(nul?.code == .invalidArgument)
        #expect(bytes() == before)
    }

    @Test func updatesFromManyTasksAndTwoStoresLoseNothing() async throws {
        let second = try Store(root: dir.path)
        let stores = [store, second]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for _ in 0..<10 {
                        try stores[t % 2].keys.update("shared") { .set(counter(try count(of: $0) + 1)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try count(of: store.keys.getJSON("shared")) == 80)
    }
}

/// A value shared with another thread.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
    func set(_ v: T) { lock.lock(); defer { lock.unlock() }; value = v }
}
