// The steps of a conformance case: sessions and appends (this file), checks (CaseChecks.swift).
import Foundation
import XSession

extension CaseRunner {
    func run(_ s: CaseJSON) throws {
        let op = s["op"]?.string ?? ""
        if try runLifecycle(op, s) || runAppend(op, s) || runCheck(op, s) || runStoreStep(op, s) || runKeysStep(op, s)
            || runLibraryStep(op, s) || runImportStep(op, s) || runSearchStep(op, s)
            || runBundleStep(op, s) {
            return
        }
        throw fail("unknown op \(op)")
    }

    private func runLifecycle(_ op: String, _ s: CaseJSON) throws -> Bool {
        if op == "create" || op == "open" {
            try? session?.close()  // one session at a time: a new one replaces the last
            session = nil
        }
        switch op {
        case "create":
            var o = try options(s)
            o.sessionID = optionalText(s, "session_id")
            o.title = optionalText(s, "title")
            o.parentSession = optionalText(s, "parent_session")
            let cwd = try text(s, "cwd")
            if let fresh = try expecting(s, { try store.createSession(cwd: cwd, options: o) }) { try adopt(fresh) }
        case "open":
            try open(root + "/" + (s["path"]?.string ?? "input.jsonl"), step: s)
        case "close":
            try? session?.close()
            session = nil
        case "reopen":
            try? session?.close()
            session = nil
            try open(path, step: s)
        case "set_leaf":
            let id = optionalText(s, "id")  // "id": null moves the leaf to none
            _ = try expecting(s) { try current().setLeaf(id) }
        case "set_title":
            let title = optionalText(s, "title")
            _ = try expecting(s) { try current().setTitle(title) }
        case "flush": _ = try expecting(s) { try current().flush() }
        case "persist": _ = try expecting(s) { try current().persist() }
        case "reload":
            if let added = try expecting(s, { try current().reload() }), let want = s["expect_added"]?.int64 {
                try require(added == want, "reload added \(added), expected \(want)")
            }
        case "fork", "create_branched":
            var o = try options(s)
            o.sessionID = optionalText(s, "session_id")
            let leaf = optionalText(s, "leaf")
            let fresh = try expecting(s) {
                op == "fork" ? try current().fork(options: o) : try current().createBranched(leaf: leaf, options: o)
            }
            if let fresh { try adopt(fresh) }
        case "fork_from":
            let o = try options(s), source = root + "/" + (try text(s, "source")), cwd = try text(s, "cwd")
            if let fresh = try expecting(s, { try store.forkFrom(source, targetCwd: cwd, options: o) }) {
                try adopt(fresh)
            }
        case "continue_recent":
            let o = try options(s), cwd = try text(s, "cwd"), terminal = optionalText(s, "terminal_id")
            if let fresh = try expecting(s, { try store.continueRecent(cwd: cwd, terminalID: terminal, options: o) }) {
                try adopt(fresh)
            }
        case "move_to":
            let cwd = try text(s, "cwd")
            if try expecting(s, { try current().move(toCwd: cwd) }) != nil { path = try current().info().path }
        default:
            return false
        }
        return true
    }

    private func runAppend(_ op: String, _ s: CaseJSON) throws -> Bool {
        let append: (Session) throws -> String
        switch op {
        case "append":
            let entry = JSONText(try text(s, "entry"))
            append = { try $0.append(entry) }
        case "append_message":
            let message = JSONText(try text(s, "message"))
            append = { try $0.appendMessage(message) }
        case "append_thinking_level":
            let level = optionalText(s, "level")
            append = { try $0.appendThinkingLevel(level) }
        case "append_model_change":
            let model = try text(s, "model"), role = optionalText(s, "role")
            append = { try $0.appendModelChange(model, role: role) }
        case "append_compaction":
            let c = Compaction(
                summary: try text(s, "summary"), shortSummary: optionalText(s, "short_summary"),
                firstKeptEntryID: try text(s, "first_kept_entry_id"), tokensBefore: s["tokens_before"]?.int64 ?? 0,
                details: json(s, "details"), fromExtension: s["from_extension"]?.bool,
                preserveData: json(s, "preserve_data"))
            append = { try $0.appendCompaction(c) }
        case "append_custom":
            let type = try text(s, "custom_type"), data = json(s, "data")
            append = { try $0.appendCustom(type, data: data) }
        case "append_custom_message":
            let m = CustomMessage(
                customType: try text(s, "custom_type"), content: JSONText(try text(s, "content")),
                display: s["display"]?.bool ?? true, details: json(s, "details"),
                attribution: optionalText(s, "attribution"))
            append = { try $0.appendCustomMessage(m) }
        case "append_label":
            let target = try text(s, "target_id"), label = optionalText(s, "label")
            append = { try $0.appendLabel(label, for: target) }
        case "append_ttsr_injection":
            let rules = JSONText(try text(s, "rules"))
            append = { try $0.appendTTSRInjection(rules) }
        case "append_session_init":
            let si = SessionInitEntry(systemPrompt: try text(s, "system_prompt"), task: try text(s, "task"),
                                 tools: JSONText(try text(s, "tools")), outputSchema: json(s, "output_schema"))
            append = { try $0.appendSessionInit(si) }
        case "append_mode_change":
            let mode = try text(s, "mode"), data = json(s, "data")
            append = { try $0.appendModeChange(mode, data: data) }
        case "append_session_info":
            let name = try text(s, "name")
            append = { try $0.appendSessionInfo(name) }
        case "branch_with_summary":
            let from = optionalText(s, "from_id"), summary = try text(s, "summary"), details = json(s, "details")
            let fromExtension = s["from_extension"]?.bool
            append = { try $0.branchWithSummary(from: from, summary: summary, details: details,
                                                fromExtension: fromExtension) }
        default:
            return false
        }
        if let id = try expecting(s, { try append(try current()) }), let want = s["expect_id"]?.string {
            try require(sameBytes(id, want), "new id \(id), expected \(want)")
        }
        return true
    }

    private func runStoreStep(_ op: String, _ s: CaseJSON) throws -> Bool {
        switch op {
        case "write_file":
            let bytes: [UInt8] = s["raw"].map { Array(text(of: $0).utf8) } ?? lineBytes(s["lines"]?.array ?? [])
            try Files.write(root + "/" + (try text(s, "path")), bytes)
        case "append_to_file":
            try Files.append(path, Array(try text(s, "raw").utf8))
        case "write_breadcrumb":
            let terminal = try text(s, "terminal_id"), cwd = try text(s, "cwd")
            let target = root + "/" + (try text(s, "path"))
            _ = try expecting(s) { try store.writeBreadcrumb(terminalID: terminal, cwd: cwd, sessionPath: target) }
        case "blob_put":
            let hash = try store.putBlob(Data(try text(s, "data").utf8))
            if let want = s["expect_hash"]?.string { try require(hash == want, "blob hash \(hash), expected \(want)") }
        default:
            return false
        }
        return true
    }
}
