// Shared test helpers: scratch directories, raw file access, where the repository is.
import Foundation
import XSession

/// A fresh empty directory, removed when the value is released.
final class ScratchDirectory: Sendable {
    let path: String

    init(_ label: String = "xs-swift") throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ relative: String) -> String { path + "/" + relative }
}

/// What most suites start from: a store in a fresh scratch directory. Keep the directory alive as
/// long as the store is used (`defer { withExtendedLifetime(scratch) {} }` in a test body): one
/// bound to `_` is removed at once, and the store then makes the path again, never to be removed.
func scratchStore() throws -> (ScratchDirectory, Store) {
    let dir = try ScratchDirectory()
    return (dir, try Store(root: dir.path))
}

enum Files {
    static func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Appends bytes the way another process would.
    static func append(_ path: String, _ bytes: [UInt8]) throws {
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? h.close() }
        try h.seekToEnd()
        try h.write(contentsOf: Data(bytes))
    }

    static func list(_ directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }
}

enum Repository {
    /// The repository root, from this file's place in it (bindings/swift/Tests/XSessionTests).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// tests/conformance/cases, or XS_CONFORMANCE_DIR when set.
    static var conformanceCases: String {
        ProcessInfo.processInfo.environment["XS_CONFORMANCE_DIR"] ?? root + "/tests/conformance/cases"
    }

    static var header: String { root + "/capi/include/xsession.h" }
    static var bindingSources: String { root + "/bindings/swift/Sources/XSession" }
}

func hexBytes(_ hex: String) -> [UInt8] {
    let chars = Array(hex.utf8)
    return stride(from: 0, to: chars.count - 1, by: 2).map {
        UInt8(String(decoding: chars[$0...$0 + 1], as: UTF8.self), radix: 16)!
    }
}

/// A fixed clock and seed, so tests can compare exact bytes.
let fixedOptions = SessionOptions(fixedClock: .init(startMs: 1_771_237_230_000, stepMs: 1000), idSeed: 1)

/// Runs `body` synchronously: inside it, Swift picks the blocking methods rather than their
/// async overloads (tests of the handle's lock call them from many threads at once).
@discardableResult
func blocking<T>(_ body: () throws -> T) rethrows -> T { try body() }
