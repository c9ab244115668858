// The pi dialect through the Swift API (docs/dialects.md): which dialect a session writes (forced,
// the store's default, an existing file's, a fork's source's), pi's title entries, pi's "model" in
// contexts, and the `.dialect` refusals. The exact bytes of pi's lines are the conformance cases'.
import CXSession
import Foundation
import Testing
import XSession

@Suite struct Dialects {
    let dir: ScratchDirectory
    let store: Store
    let piStore: Store

    init() throws {
        (dir, store) = try scratchStore()
        piStore = try Store(root: dir.path, options: StoreOptions(dialect: .pi))
    }

    func options(_ dialect: Dialect?, _ flags: SessionOptions.Flags = []) -> SessionOptions {
        var o = fixedOptions
        o.dialect = dialect
        o.flags = flags
        return o
    }

    func isUUIDv7(_ id: String) -> Bool {
        id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
                 options: .regularExpression) != nil
    }

    @Test(arguments: [(false, Dialect?.none, Dialect.omp), (false, .pi, .pi), (false, .omp, .omp),
                      (true, nil, .pi), (true, .omp, .omp), (true, .pi, .pi)])
    func aNewSessionTakesTheStoreDefaultUnlessForced(_ piDefault: Bool, _ forced: Dialect?, _ want: Dialect) throws {
        let s = try (piDefault ? piStore : store).createSession(cwd: "/w", options: options(forced))
        #expect(try s.dialect() == want)
        let info = try s.info()
        #expect(info.dialect == want)
        // Generated session ids follow the dialect: pi's are UUIDv7, ours 16 hex characters.
        #expect(want == .pi ? isUUIDv7(info.id) : info.id.count == 16, "\(info.id)")
    }

    @Test func anInMemoryStoreHasADefaultToo() throws {
        #expect(try Store.inMemory(dialect: .pi).createSession(cwd: "/w").dialect() == .pi)
        #expect(try Store.inMemory().createSession(cwd: "/w").dialect() == .omp)
    }

    @Test func anExistingFileKeepsItsDialectUnlessTheOpenForcesOne() throws {
        let first = try piStore.createSession(cwd: "/w", options: options(nil, .noDefer))
        try first.appendMessage(#"{"role":"user","content":"q"}"#)
        let path = try first.info().path
        try first.close()
        // Opened from a store whose default is omp: the file decides.
        let reopened = try store.openSession(path)
        #expect(try reopened.dialect() == .pi)
        // Forks and branched sessions hold pi's lines, so they write pi's; forcing wins.
        #expect(try reopened.fork().dialect() == .pi)
        #expect(try reopened.createBranched(options: SessionOptions(dialect: .omp)).dialect() == .omp)
        #expect(try store.forkFrom(path, targetCwd: "/elsewhere").dialect() == .pi)
        try reopened.close()
        #expect(try store.openSession(path, options: SessionOptions(dialect: .omp)).dialect() == .omp)
        #expect(try store.openSession(path, options: SessionOptions(flags: .readOnly)).dialect() == .pi)
    }

    @Test func appendSessionInfoReturnsTheIDAndSetsTheTitle() throws {
        let s = try piStore.createSession(cwd: "/w", options: fixedOptions)
        let q = try s.appendMessage(#"{"role":"user","content":"q"}"#)
        let id = try s.appendSessionInfo("  Fix the build \n")
        #expect(try s.leaf() == id)
        // pi's key order; the name trimmed as JavaScript's trim() does.
        #expect(try s.entryJSON(id).string == #"{"type":"session_info","id":"\#(id)","parentId":"\#(q)","timestamp":"2026-02-16T10:20:32.000Z","name":"Fix the build"}"#)
        #expect(try s.info().title == "Fix the build")
        #expect(try !s.headerJSON().string.contains("title"))  // pi's header never has one
        // setTitle appends the same entry in the pi dialect; nil (an empty name) clears the title.
        try s.setTitle("Second")
        #expect(try s.info().title == "Second")
        try s.setTitle(nil)
        #expect(try s.info().title == nil)
        let entries = try s.entriesJSON().array().map { $0 as? [String: Any] ?? [:] }
        #expect(entries.map { $0["type"] as? String } == ["message", "session_info", "session_info", "session_info"])
        #expect(entries.map { $0["name"] as? String } == [nil, "Fix the build", "Second", ""])
        // A title in the options of a new pi session is its first entry.
        var titled = fixedOptions
        titled.title = "Start"
        let t = try piStore.createSession(cwd: "/w", options: titled)
        #expect(try t.info().title == "Start")
        #expect(try t.entriesJSON().string.contains(#""type":"session_info""#))
    }

    @Test func ompOnlyEntriesAreRefusedInPiAndSessionInfoInOmp() throws {
        let s = try piStore.createSession(cwd: "/w", options: fixedOptions)
        try s.appendMessage(#"{"role":"user","content":"q"}"#)
        let before = try s.entriesJSON()
        let refusals: [() throws -> String] = [
            { try s.appendTTSRInjection(#"["rule"]"#) },
            { try s.appendModeChange("plan") },
            { try s.appendSessionInit(SessionInitEntry(systemPrompt: "s", task: "t", tools: "[]")) },
            { try s.appendModelChange("anthropic/claude", role: "smol") },
            { try s.appendCustomMessage(CustomMessage(customType: "c", content: #""x""#, attribution: "user")) },
            { try s.append(#"{"type":"ttsr_injection","injectedRules":["rule"]}"#) },
        ]
        for refused in refusals {
            let error = #expect(throws: XSessionError.self) { try refused() }
            #expect(error?.code == .dialect && error?.status == XS_EDIALECT && error?.code.name == "XS_EDIALECT")
            #expect(error?.message.isEmpty == false)
        }
        #expect(try s.entriesJSON() == before)  // a refused call changes nothing
        #expect(throws: XSessionError(code: .dialect, message: "a ttsr_injection entry (oh-my-pi only) has no form in the pi dialect of this session (docs/dialects.md)")) {
            try s.appendTTSRInjection(#"["rule"]"#)
        }

        let o = try store.createSession(cwd: "/w", options: fixedOptions)
        let error = #expect(throws: XSessionError.self) { try o.appendSessionInfo("title") }
        #expect(error?.code == .dialect)
        #expect(try o.info().entryCount == 0)
    }

    @Test func aPiContextNamesTheModelAsPiDoes() throws {
        let s = try piStore.createSession(cwd: "/w", options: fixedOptions)
        try s.appendMessage(#"{"role":"user","content":"q"}"#)
        try s.appendModelChange("anthropic/claude-x")
        let model = try s.buildContextJSON().dictionary()["model"] as? [String: String]
        #expect(model == ["provider": "anthropic", "modelId": "claude-x"])
        try s.setLeaf(nil)
        #expect(try s.buildContextJSON().string == #"{"leafId":null,"messages":[],"thinkingLevel":"off","model":null,"models":{},"injectedTtsrRules":[],"mode":"none"}"#)
        let o = try store.createSession(cwd: "/w", options: fixedOptions)
        try o.appendModelChange("anthropic/claude-x")
        #expect(try o.buildContextJSON().dictionary()["model"] == nil)
    }
}
