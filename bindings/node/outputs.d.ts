// Type declarations of what the readers of Store and Session return (the library's JSON, parsed):
// one interface per output, field for field. Hand-written, as index.d.ts; the conformance replay
// compiles every output it sees against these (test/typed_outputs.js).

import type { Dialect, JsonValue } from './index';
import type { AgentMessage, Entry } from './entries';

export interface Header {
  type: 'session'; version: number; id: string; timestamp: string; cwd: string;
  title?: string; parentSession?: string;
  /** The cwd the session had before a bundle import's cwd map moved it (docs/bundles.md). */
  originalCwd?: string;
}
export interface Context {
  leafId: string | null;
  messages: AgentMessage[];
  thinkingLevel: string;
  /** pi dialect only: pi's model of the path's last model setter, or null. */
  model?: { provider: string; modelId: string } | null;
  models: Record<string, string>;
  injectedTtsrRules: string[];
  mode: string;
  modeData?: JsonValue;
  serviceTier?: JsonValue;
  selectedMCPToolNames?: string[];
  hasPersistedMCPToolSelection?: boolean;
}
export interface TreeNode {
  id: string; parentId: string | null; depth: number; children: string[];
  label?: string; labelTimestamp?: string; entry: Entry;
}
export interface Label { targetId: string; label: string; timestamp: string }
export interface Diagnostic { line: number; offset: number; length: number; code: string; reason: string }
export interface SessionInfo {
  id: string; path: string; cwd: string; timestamp: string; title: string | null;
  parentSession: string | null; version: number; dialect: Dialect; entryCount: number; leafId: string | null;
  persisted: boolean; readOnly: boolean;
  /** Opened from an archive (`.jsonl.gz`, docs/retention.md): read-only, every write XS_EREADONLY. */
  archived: boolean;
  diagnostics: number;
  /** How many entries of each type the session has, in the order types first occur. */
  entryTypes: Record<string, number>;
}
export interface Usage {
  input: number; output: number; cacheRead: number; cacheWrite: number;
  premiumRequests: number; cost: number; assistantMessages: number;
}
export interface Problem extends Diagnostic {
  /** xs_session_repair can fix it (a torn last line). */
  fixable: boolean;
}
/** xs_session_verify: everything wrong with the file as loaded. */
export interface VerifyReport {
  path: string; id: string; fileVersion: number; needsMigration: boolean;
  lines: number; entries: number; blobRefs: number; problems: Problem[];
}
/** One line of the quarantine file: a moved line, where it was, and its exact bytes. */
export interface QuarantineRecord {
  line: number; offset: number; length: number; code: string; reason: string;
  /** A '\n' followed it in the session file (false for a torn last line). */
  newline: boolean;
  /** The bytes, when they are valid UTF-8 (else `base64`). */
  text?: string;
  /** The bytes, standard base64, when they are not valid UTF-8. */
  base64?: string;
}
/** xs_session_repair: what was done (this handle's open included). */
export interface RepairReport {
  path: string;
  /** Codes: "migrated", "corrupt_file_preserved", "quarantined" (one per moved line), "newline_written". */
  done: Diagnostic[];
  /** With {quarantine: true}: null when nothing moved, else the file the moved lines went to. */
  quarantine?: { path: string; lines: number; bytes: number } | null;
}
export interface BlobFile { size: number; mtimeMs: number }
export interface BlobListing {
  count: number; bytes: number;
  /** `problem` only with {verify: true}: null, or why the content does not match its hash. */
  blobs: Array<BlobFile & { hash: string; problem?: string | null }>;
  others: Array<BlobFile & { name: string }>;
}
export interface GcReport {
  dryRun: boolean; filesScanned: number; referenced: number; bytesFreed: number;
  deleted: Array<BlobFile & { name: string }>; young: Array<BlobFile & { name: string }>; missing: string[];
}
export interface SessionListing {
  path: string; id: string; cwd: string; timestamp: string; modified: number; size: number;
  title: string | null; parentSession: string | null; version: number; needsMigration: boolean;
  corruptCopies: number;
  /** An archive (`<file>.jsonl.gz`; modified and size are the archive's). */
  archived: boolean;
  firstMessage: string | null;
  /** What a person typed first: the first user text that is not an agent's injection, at most
   *  200 characters (docs/format.md#finding-sessions). */
  firstPrompt: string | null;
  messageCount?: number; entryCount?: number; diagnostics?: number;
}
