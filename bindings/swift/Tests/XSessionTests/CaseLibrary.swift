// The session library's steps of a conformance case (tests/conformance/README.md, "Compaction
// planning", "Resume analysis", "Session stats", "Retention", "Reset policies"; the C++ reference
// is tests/conformance/{library,stats,archive,reset}_steps.cc).
//
// @testable: case 82 sends a compaction settings struct of another version, which the public API
// never does (it always sends the header's), to see the library refuse it.
import Foundation
@testable import XSession

extension CaseRunner {
    func runLibraryStep(_ op: String, _ s: CaseJSON) throws -> Bool {
        switch op {
        case "compaction_plan":
            let leaf = optionalText(s, "leaf"), settings = try compactionSettings(s)
            try checkExact(s, "plan", CompactionPlan.self) { try current().compactionPlanJSON(leaf: leaf, settings: settings) }
        case "check_should_compact":
            let settings = try compactionSettings(s), tokens = try int(s, "context_tokens")
            try checkDecision(s) { try settings.shouldCompact(contextTokens: tokens) }
        case "check_should_flush_memory":
            let settings = try compactionSettings(s), tokens = try int(s, "context_tokens")
            let count = try int(s, "compaction_count"), last = try int(s, "last_flush_compaction_count")
            try checkDecision(s) {
                // -1 is C's "never", which is nil in Swift.
                try settings.shouldFlushMemory(contextTokens: tokens, compactionCount: count,
                                               lastFlushCompactionCount: last == -1 ? nil : last)
            }
        case "keys_claim_memory_flush":
            let key = try text(s, "key"), settings = try compactionSettings(s)
            let tokens = try int(s, "context_tokens"), now = try int(s, "now_ms")
            try checkDecision(s) {
                try store.keys.claimMemoryFlush(key, settings: settings, contextTokens: tokens, nowMs: now)
            }
        case "check_resume":
            let leaf = optionalText(s, "leaf")
            try checkExact(s, "json", ResumeCheck.self) { try current().resumeCheckJSON(leaf: leaf) }
        case "check_stats": try checkExact(s, "json", SessionStats.self) { try current().statsJSON() }
        case "keys_fix_stats":
            let prefix = optionalText(s, "prefix")
            let got = try expecting(s, { try store.keys.fixStatsJSON(prefix: prefix) })
            if let got { try roundTrip(got, as: FixStatsReport.self) }
            if let got, s["json"] != nil {
                let want = rooted(try text(s, "json"))
                try require(sameBytes(got.string, want), "fix stats gave\n\(got)\nexpected\n\(want)")
            }
        case "check_stats_document", "check_keys_file_rooted":
            let bytes = Files.read(root + "/sessions.json")
            let want = rooted(try text(s, "raw"))
            try require(bytes == Array(want.utf8),
                        "sessions.json is\n\(String(decoding: bytes ?? [], as: UTF8.self))\nexpected\n\(want)")
        case "check_store_files":
            let found = Files.list(root).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            let want = (s["files"]?.array ?? []).map { $0.string ?? "" }
            try require(found == want, "the store root holds \(found), expected \(want)")
        case "archive", "prune": try archiveOrPrune(op, s)
        case "check_path_exists":
            let p = try text(s, "path")
            let exists = FileManager.default.fileExists(atPath: root + "/" + p)
            try require(exists == (s["exists"]?.bool ?? false), "\(p) exists: \(exists)")
        case "session_for_key": try sessionForKey(s)
        default:
            return false
        }
        return true
    }

    /// "{root}" in an expected text stands for the store root (paths the library records).
    func rooted(_ text: String) -> String { text.replacingOccurrences(of: "{root}", with: root) }

    func int(_ s: CaseJSON, _ key: String) throws -> Int64 {
        guard let n = s[key]?.int64 else { throw fail("missing integer \(key)") }
        return n
    }

    /// The step's "settings": the library's defaults, then the fields it names.
    private func compactionSettings(_ s: CaseJSON) throws -> CompactionSettings {
        var c = CompactionSettings()
        guard let given = s["settings"] else { return c }
        for (field, value) in given.members ?? [] {
            guard let n = value.int64 else { throw fail("settings.\(field) is not an integer") }
            switch field {
            case "version": c.structVersion = UInt32(n)
            case "context_window": c.contextWindow = n
            case "reserve_tokens": c.reserveTokens = n
            case "reserve_floor": c.reserveFloor = n
            case "keep_recent_tokens": c.keepRecentTokens = n
            case "soft_threshold_tokens": c.softThresholdTokens = n
            default: throw fail("unknown setting \(field)")
            }
        }
        return c
    }

    private func checkExact<T: Codable>(_ s: CaseJSON, _ key: String, _ type: T.Type,
                                        _ read: () throws -> JSONText) throws {
        guard let got = try expecting(s, read) else { return }
        try roundTrip(got, as: type)
        let want = try text(s, key)
        try require(sameBytes(got.string, want), "got\n\(got)\nexpected\n\(want)")
    }

    /// A decision: the status, and "result" when it succeeded.
    private func checkDecision(_ s: CaseJSON, _ decide: () throws -> Bool) throws {
        guard let got = try expecting(s, decide) else { return }
        guard let want = s["result"]?.bool else { throw fail("missing result") }
        try require(got == want, "decided \(got), expected \(want)")
    }

    private func archiveOrPrune(_ op: String, _ s: CaseJSON) throws {
        let dryRun = s["dry_run"]?.bool ?? false
        // Absent: -1, as xs_archive_options_init leaves it (the library refuses it).
        let options = ArchiveOptions(olderThanMs: s["older_than_ms"]?.int64 ?? -1, nowMs: s["now_ms"]?.int64,
                                     dryRun: dryRun)
        let call = { op == "archive" ? try self.store.archiveJSON(options) : try self.store.pruneJSON(options) }
        guard let got = try expecting(s, call) else { return }
        if op == "archive" { try roundTrip(got, as: ArchiveReport.self) } else { try roundTrip(got, as: PruneReport.self) }
        let report = try CaseJSON.parse(got.string)
        try require(report["dryRun"] == .bool(dryRun), "dryRun of \(got)")
        for list in op == "archive" ? ["archived", "skipped"] : ["pruned"] {
            let items = report[list]?.array ?? [], want = s[list]?.array ?? []
            try require(items.count == want.count, "\(list) of \(got)")
            for (item, w) in zip(items, want) {
                for (member, value) in w.members ?? [] {
                    if member == "path" {
                        try require(relative(item["path"]?.string ?? "") == value.string, "\(list) path of \(got)")
                    } else {
                        try require(item[member] == value, "\(list) member \(member) of \(got)")
                    }
                }
            }
        }
    }

    private func sessionForKey(_ s: CaseJSON) throws {
        try? session?.close()  // the key's session may be the one held: let go of it first
        session = nil
        var o = try options(s)
        o.sessionID = optionalText(s, "session_id")
        if let seed = s["id_seed"]?.uint64 { o.idSeed = seed }
        let policy = s["policy"].map(resetPolicy)
        let key = try text(s, "key"), now = try int(s, "now_ms"), force = s["force"]?.bool ?? false
        let got = try expecting(s) {
            try store.sessionForKey(key, nowMs: now, policy: policy, force: force, options: o)
        }
        guard let got else { return }
        try adopt(got.session)
        if let want = s["expect_reason"]?.string {
            try require(got.reason.name == want, "reason \(got.reason), expected \(want)")
        }
    }
}

/// A case's policy object: {"daily_hour"?, "idle_minutes"?, "time_zone"?}.
func resetPolicy(_ v: CaseJSON) -> ResetPolicy {
    ResetPolicy(dailyHour: v["daily_hour"]?.int64.map { Int($0) }, idleMinutes: v["idle_minutes"]?.int64,
                timeZone: v["time_zone"]?.string)
}
