// Errors: every status maps to its code and back, unknown codes survive, each failure carries
// the library's message for that call, and C-string arguments with NUL bytes are refused.
import CXSession
import Foundation
import Testing
import XSession

@Suite struct Errors {
    let dir: ScratchDirectory
    let store: Store

    init() throws { (dir, store) = try scratchStore() }

    @Test(arguments: statusNames.filter { $0.key != "XS_OK" }.sorted { $0.key < $1.key })
    func everyStatusMapsBothWays(_ name: String, _ status: Int32) {
        let code = XSessionError.Code(status: status)
        #expect(code.status == status)
        #expect(code.name == name)
        #expect(code != .unknown(status))
        #expect(XSessionLibrary.statusString(status).hasPrefix(name + ": "))
    }

    @Test func unknownAndClosedCodes() {
        #expect(XSessionError.Code(status: -1234) == .unknown(-1234))
        #expect(XSessionError.Code(status: -1234).status == -1234)
        #expect(XSessionError.Code(status: -1234).name == "XS_ERROR")
        #expect(XSessionError.Code(status: XS_EMISUSE) == .misuse)  // only the binding says closed
        #expect(XSessionError.Code.closed.status == XS_EMISUSE)
        #expect(XSessionLibrary.statusString(-1234) == "unknown status")
        #expect(XSessionLibrary.statusString(XS_ENOTFOUND) == "XS_ENOTFOUND: not found")
    }

    @Test func libraryAndHeaderVersionsAgree() {
        #expect(XSessionLibrary.version == XSessionLibrary.headerVersion)
        #expect(XSessionLibrary.version.description == "\(XS_VERSION_MAJOR).\(XS_VERSION_MINOR).\(XS_VERSION_PATCH)")
    }

    @Test func constructorErrorsComeFromTheStore() throws {
        let missing = dir.file("nope.jsonl")
        let error = #expect(throws: XSessionError.self) { try store.openSession(missing) }
        #expect(error?.code == .notFound)
        #expect(error?.message.contains(missing) == true, "\(String(describing: error))")
        #expect(throws: XSessionError(code: .invalidArgument, message: "\(missing) is not a directory")) {
            try Files.write(missing, [0x7B])
            _ = try Store(root: missing)
        }
    }

    @Test func eachFailureCarriesItsOwnMessage() throws {
        let s = try store.createSession(cwd: "/w", options: fixedOptions)
        let bad = #expect(throws: XSessionError.self) { try s.append("[1]") }
        #expect(bad?.code == .invalidArgument)
        #expect(bad?.message == "an entry must be a JSON object")
        try s.appendMessage(#"{"role":"user","content":"ok"}"#)  // a success in between
        let missing = #expect(throws: XSessionError.self) { try s.appendLabel("x", for: "nosuchid") }
        #expect(missing?.code == .notFound)
        #expect(missing?.message.contains("nosuchid") == true, "\(String(describing: missing))")
        // The failed calls changed nothing.
        #expect(try s.info().entryCount == 1)
    }

    @Test func readOnlySessionsRefuseWrites() throws {
        let w = try store.createSession(cwd: "/w", options: SessionOptions(flags: .noDefer))
        let path = try w.info().path
        try w.close()
        let r = try store.openSession(path, options: SessionOptions(flags: .readOnly))
        let error = #expect(throws: XSessionError.self) { try r.appendMessage(#"{"role":"user","content":"x"}"#) }
        #expect(error?.code == .readOnly && error?.status == XS_EREADONLY)
        #expect(throws: XSessionError.self) { try r.setTitle("t") }
        #expect(throws: XSessionError.self) { try r.repairJSON() }
    }

    @Test func nulBytesInCStringArgumentsAreRefusedBeforeTheCall() throws {
        let s = try store.createSession(cwd: "/w", options: fixedOptions)
        let id = try s.appendMessage(#"{"role":"user","content":"hi"}"#)
        let nul = XSessionError(code: .invalidArgument, message: "text passed as a C string contains a NUL byte")
        #expect(throws: nul) { try s.appendLabel("a\0b", for: id) }
        #expect(throws: nul) { try s.entryJSON(id + "\0tail") }
        #expect(throws: nul) { try store.createSession(cwd: "/w\0x") }
        #expect(throws: nul) { try s.appendModelChange("p/m", role: "\0") }
        #expect(try s.info().entryCount == 1)
        // In (pointer, length) text a NUL is data: the title keeps it, JSON refuses it.
        try s.setTitle("a\0b")
        #expect(try s.info().title == "a\0b")
        #expect(throws: XSessionError.self) { try s.appendMessage(JSONText("{\"role\":\"user\",\0\"content\":\"x\"}")) }
    }

    @Test func jsonDataIsPassedUnchangedEvenWhenInvalid() throws {
        let s = try store.createSession(cwd: "/w", options: fixedOptions)
        // Invalid UTF-8 must reach the library (and be refused), not be "repaired" on the way.
        let invalid = Data(#"{"role":"user","content":"\#u{0}"}"#.utf8).map { $0 == 0 ? 0xFF : $0 }
        let error = #expect(throws: XSessionError.self) { try s.appendMessage(JSONText(Data(invalid))) }
        #expect(error?.code == .invalidArgument)
        let valid = try s.appendMessage(JSONText(Data(#"{"role":"user","content":"é"}"#.utf8)))
        #expect(try s.entryJSON(valid).string.contains(#""message":{"role":"user","content":"é"}"#))
    }
}
