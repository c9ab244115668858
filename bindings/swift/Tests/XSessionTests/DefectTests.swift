// Regression tests of issue 19's Swift defects: a returned path that is not UTF-8 was silently
// "repaired" into a path that does not exist, and close() dropped the final flush error.
import CXSession
import Foundation
import Testing
import XSession

@Suite struct DefectTests {
    @Test func aPathThatIsNotUTF8IsAnErrorNotAnotherPath() throws {
        let (dir, store) = try scratchStore()
        let sessions = dir.file("sessions/--p--")
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        // A file name with the bytes FF FE: Swift's String cannot hold them, so create it with open(2).
        let name: [UInt8] = Array("\(sessions)/2026-01-01T00-00-00-000Z_".utf8) + [0xFF, 0xFE] + Array("abc.jsonl".utf8)
        let header = #"{"type":"session","version":3,"id":"abc","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}"#
        let fd = (name + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY | O_EXCL, 0o644) }
        }
        #expect(fd >= 0)
        let line = Array((header + "\n").utf8)
        #expect(line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == line.count)
        close(fd)

        // The library's JSON is UTF-8 (the bytes show as U+FFFD), the raw path is not.
        let shown = "2026-01-01T00-00-00-000Z_\u{FFFD}\u{FFFD}abc.jsonl"
        #expect(try store.listJSON().string.contains(shown))
        let error = #expect(throws: XSessionError.self) { try store.resolve("abc") }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.status == XS_ERROR)
        #expect(error?.message.hasPrefix("the library returned bytes that are not UTF-8 (at byte \(name.count - 11))")
                == true, "\(String(describing: error))")
        // The repaired text names no file: that is exactly why it must not be returned.
        #expect(!FileManager.default.fileExists(atPath: "\(sessions)/\(shown)"))
        // The store still works, and the session opens by its id.
        let session = try store.openSession("abc", options: SessionOptions(flags: .readOnly))
        #expect(try session.headerJSON().string == header)
        try session.close()
    }

    @Test func validUTF8PathsAreReturnedUnchanged() throws {
        let (scratch, store) = try scratchStore()
        defer { withExtendedLifetime(scratch) {} }
        let s = try store.createSession(cwd: "/wörk/データ", options: SessionOptions(flags: .noDefer))
        let (id, path) = (try s.info().id, try s.info().path)
        try s.close()
        #expect(try store.resolve(id) == path)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    /// close() after a failed write: the session is poisoned, close() throws XS_EPOISONED and
    /// still releases the handle. A file size limit (RLIMIT_FSIZE) makes the write fail; it
    /// holds for the whole process, so the scenario runs in a child process: this test binary,
    /// told by XS_SWIFT_CLOSE_CHILD to run only closeChild below.
    @Test func closeThrowsTheFinalFlushError() throws {
        let dir = try ScratchDirectory()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "DefectTests/closeChild"]
        var env = ProcessInfo.processInfo.environment
        env["XS_SWIFT_CLOSE_CHILD"] = dir.path
        child.environment = env
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("close-child: ") }
        #expect(lines == ["close-child: append XS_ENOSPC", "close-child: close XS_EPOISONED",
                          "close-child: closed true", "close-child: again nothing"], "\(text)")
    }

    /// The child's half of closeThrowsTheFinalFlushError (a no-op when run as a test of its own).
    @Test func closeChild() throws {
        guard let root = ProcessInfo.processInfo.environment["XS_SWIFT_CLOSE_CHILD"] else { return }
        signal(SIGXFSZ, SIG_IGN)
        let store = try Store(root: root)
        let s = try store.createSession(cwd: "/p", options: SessionOptions(flags: .noDefer))
        var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
        #if os(Linux)
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit)
        #else
        setrlimit(RLIMIT_FSIZE, &limit)
        #endif
        let big = JSONText(#"{"role":"user","content":""# + String(repeating: "x", count: 10_000) + #""}"#)
        do {
            _ = try s.appendMessage(big)
            print("close-child: append succeeded")
        } catch let e as XSessionError {
            print("close-child: append \(e.code.name)")
        }
        do {
            try s.close()
            print("close-child: close succeeded")
        } catch let e as XSessionError {
            print("close-child: close \(e.code.name)")
        }
        print("close-child: closed \(s.isClosed)")
        do {
            try s.close()
            print("close-child: again nothing")
        } catch {
            print("close-child: again \(error)")
        }
    }

    @Test func errorsDescribeThemselvesToApps() throws {
        let (scratch, store) = try scratchStore()
        defer { withExtendedLifetime(scratch) {} }
        let error = #expect(throws: XSessionError.self) { try store.openSession("/nonexistent/x.jsonl") }
        let e = try #require(error)
        #expect(e.errorDescription == "\(e.message) (XS_ENOTFOUND)")
        // What Foundation shows (an alert's text) is the same.
        #expect((e as NSError).localizedDescription == e.errorDescription)
        #expect((e as Error).localizedDescription == e.errorDescription)
        // A message that is the static text is not repeated.
        let plain = XSessionError(code: .notFound, message: XSessionLibrary.statusString(XS_ENOTFOUND))
        #expect(plain.errorDescription == XSessionLibrary.statusString(XS_ENOTFOUND))
    }
}
