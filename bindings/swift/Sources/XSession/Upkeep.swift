// Upkeep: verify and repair a session (the CLI's `xs verify` and `xs repair`). The store's
// side (listing and collecting blobs) is in Blobs.swift.
internal import CXSession

extension Session {
    /// Everything wrong with the session's file as loaded: {"path","id","fileVersion",
    /// "needsMigration","lines","entries","blobRefs","problems":[{"line","offset","length",
    /// "code","reason","fixable"}]}. Writes nothing, whatever the mode.
    public func verifyJSON() throws -> JSONText {
        try read { xs_session_verify($0, $1, $2, $3) }
    }

    /// Fixes what can be fixed without losing a byte and reports what was done, including what
    /// this handle's open did (migration, a preserved corrupt file):
    /// {"path","done":[{"line","offset","length","code","reason"}]}. Every line stays; a torn
    /// last line gets its '\n'.
    ///
    /// With `quarantine: true` (`XS_REPAIR_QUARANTINE`) the lines that are not JSON (garbage,
    /// invalid UTF-8, NUL bytes, a torn last line) first go, durably, to
    /// "<file>.quarantine-<time>.jsonl" beside the session, one record per line ({"line",
    /// "offset","length","code","reason","newline"} and the bytes as "text" or "base64"); then
    /// the session is rewritten atomically without them. Lines that are JSON stay and `verify()`
    /// reports them. The report gains "quarantine": null or {"path","lines","bytes"}.
    /// `.readOnly` on a read-only session.
    public func repairJSON(quarantine: Bool = false) throws -> JSONText {
        let flags = quarantine ? UInt32(XS_REPAIR_QUARANTINE) : 0
        return try read { xs_session_repair($0, flags, $1, $2, $3) }
    }

    /// Session.verifyJSON, typed.
    public func verify() throws -> VerifyReport { try verifyJSON().decode() }

    /// Session.repairJSON, typed.
    public func repair(quarantine: Bool = false) throws -> RepairReport {
        try repairJSON(quarantine: quarantine).decode()
    }
}
