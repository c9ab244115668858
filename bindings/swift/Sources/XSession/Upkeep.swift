// Upkeep: verify and repair a session (the CLI's `xs verify` and `xs repair`). The store's
// side (listing and collecting blobs) is in Blobs.swift.
internal import CXSession

extension Session {
    /// Everything wrong with the session's file as loaded: {"path","id","fileVersion",
    /// "needsMigration","lines","entries","blobRefs","problems":[{"line","offset","length",
    /// "code","reason","fixable"}]}. Writes nothing, whatever the mode.
    public func verify() throws -> JSONText {
        try read { xs_session_verify($0, $1, $2, $3) }
    }

    /// Fixes what can be fixed without losing a byte (a torn last line gets its '\n') and
    /// reports what was done, including what this handle's open did (migration, a preserved
    /// corrupt file): {"path","done":[{"line","offset","length","code","reason"}]}.
    /// `.readOnly` on a read-only session.
    public func repair() throws -> JSONText {
        try read { xs_session_repair($0, $1, $2, $3) }
    }
}
