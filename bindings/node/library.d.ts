// Type declarations of the session library calls (compaction planning, resume analysis, stats,
// reset policies, retention, import): the types their methods in index.d.ts take and give, and the
// module's handle-less planning functions. Hand-written, as index.d.ts.

import type { Int64, RawOption, SessionOptions, Session } from './index';

/** xs_compaction_settings (docs/compaction-planning.md); a field left out keeps its default
 *  (defaultCompactionSettings). Numbers go to the library as given: a negative one is XS_EINVAL. */
export interface CompactionSettings {
  /** The model's context window in tokens; must be > 0 for the decisions (default 0). */
  contextWindow?: Int64;
  /** Room kept for the prompt and the next reply (default 16384). */
  reserveTokens?: Int64;
  /** The floor under reserveTokens (default 20000; 0 = none). */
  reserveFloor?: Int64;
  /** What a compaction keeps of the newest entries (default 20000). */
  keepRecentTokens?: Int64;
  /** How far below the compaction threshold the memory flush runs (default 4000). */
  softThresholdTokens?: Int64;
  /** The struct version sent (default: the header's); another one is XS_EVERSION. For tests. */
  version?: number;
}
/** What xs_compaction_settings_init fills in. */
export declare const defaultCompactionSettings: Readonly<Required<Omit<CompactionSettings, 'version'>>>;
/** contextTokens > contextWindow - max(reserveTokens, reserveFloor). Throws XS_EINVAL
 *  (contextWindow <= 0, a negative number) or XS_EVERSION. */
export declare function shouldCompact(settings: CompactionSettings, contextTokens: Int64): boolean;
/** Past the compaction threshold minus softThresholdTokens, and not yet in this compaction cycle
 *  (lastFlushCompactionCount, the compaction count when the flush last ran; null or left out:
 *  never). Hosts that keep the counts in the keyed store use Keys.claimMemoryFlush instead. */
export declare function shouldFlushMemory(settings: CompactionSettings, contextTokens: Int64, compactionCount: Int64,
                                          lastFlushCompactionCount?: Int64 | null): boolean;
/** xs_compaction_plan: where a compaction at the leaf should cut. */
export interface CompactionPlan {
  needed: boolean; firstKeptEntryId: string | null; toSummarise: string[]; tokensBefore: number; keptTokens: number;
}
export type CompactionPlanOptions = CompactionSettings & RawOption;
/** xs_session_resume_check (docs/context.md#resume-analysis). */
export interface ResumeCheck {
  leafId: string | null;
  /** Entries whose parentId names no entry (they read as roots); file order, 1-based lines. */
  orphans: Array<{ id: string; parentId: string; line: number }>;
  /** toolCall blocks on the path that no toolResult on the path answers, in path order. */
  pendingToolCalls: Array<{ entryId: string; toolCallId: string; name: string }>;
}
/** xs_session_stats (docs/session-stats.md): kept current by every append. */
export interface SessionStats {
  inputTokens: number; outputTokens: number; cacheRead: number; cacheWrite: number; totalTokens: number;
  /** The last reply's context on the current path (0 after a compaction). */
  contextTokens: number;
  cost: number; compactionCount: number;
  /** Message entries by role ("custom" for custom messages), in the order roles first occur. */
  messageCounts: Record<string, number>;
  toolCalls: number;
}
/** A stat field of a keyed record: a count, or counts by role (messageCounts). */
export type StatValue = number | Record<string, number>;
/** xs_keys_fix_stats: what was repaired (only the fields that differed). */
export interface FixStatsReport {
  checked: number;
  /** The record's stat fields that differed, before and after (messageCounts: counts by role). */
  fixed: Array<{ key: string; sessionId: string; before: Record<string, StatValue | null>; after: Record<string, StatValue> }>;
  skipped: Array<{ key: string; reason: string }>;
}
/** xs_reset_policy (docs/reset-policies.md); {} never expires. */
export interface ResetPolicy {
  /** 0-23: the daily reset's hour in timeZone; absent or null: no daily reset. */
  dailyHour?: number | null;
  /** > 0: idle expiry after that many minutes; absent or 0: none. */
  idleMinutes?: Int64 | null;
  /** Of dailyHour: an IANA name, "UTC" or a fixed offset ("+08:00"); absent: the host's. */
  timeZone?: string | null;
}
export interface SessionForKeyOptions {
  /** The message's time, ms since the epoch; absent or 0: the system clock. */
  nowMs?: Int64;
  /** Absent or null: the store's (StoreOptions.resetPolicy). */
  policy?: ResetPolicy | null;
  /** Start a new session whatever the policy says (XS_RESET_FORCE: a manual /new). */
  force?: boolean;
  /** For the session: sessionId, title, parentSession apply to a new one. readOnly: XS_EINVAL. */
  session?: SessionOptions;
}
export type ResetReason = 'continued' | 'new' | 'daily' | 'idle' | 'forced';
export interface KeySession {
  /** The key's current session, open for writing and bound to the key. */
  session: Session;
  reason: ResetReason;
}
export interface RetentionOptions extends RawOption {
  /** Required, >= 0 (else XS_EINVAL): the age limit in ms. */
  olderThanMs: Int64;
  /** "Now" for the age test; absent or 0: the system clock. */
  nowMs?: Int64;
  /** Report what would be done; change nothing (XS_ARCHIVE_DRY_RUN). */
  dryRun?: boolean;
}
export interface ArchiveOptions extends RetentionOptions {
  /**
   * Called with (0, total) before the first candidate and after each, on the JS thread, every
   * call before the result. Calls on this store from inside it throw XS_EMISUSE. It cannot stop
   * the archive: if it throws it is not called again, and archive() throws (rejects with) that
   * error once the archive is done.
   */
  progress?: ((done: number, total: number) => void) | null;
}
export interface ArchiveReport {
  dryRun: boolean;
  /** gzBytes is 0 on a dry run. */
  archived: Array<{ path: string; bytes: number; gzBytes: number }>;
  /** reason: "writer", "too-large", "archive-exists", "changed" or "error" (see detail). */
  skipped: Array<{ path: string; reason: string; detail: string }>;
}
export interface PruneReport {
  dryRun: boolean;
  pruned: Array<{ path: string; gzBytes: number; archivedMs: number }>;
}


/** The kinds of store xs_import reads (docs/import.md). Another string is the library's XS_EINVAL. */
export type ImportKind = 'claude' | 'myagents' | 'gateway' | 'codex';
/** xs_import_options; a field left out keeps its default (defaultImportOptions). */
export interface ForeignListOptions extends RawOption {
  /** How long to wait for a host's index lock before reading the index anyway, with a note
   *  (default 2000; a negative one is XS_EINVAL); a lock older than 30 s is not waited for. */
  lockWaitMs?: Int64;
  /** "Now" for a lock's age; absent or 0: the system clock. */
  nowMs?: Int64;
  /** The struct version sent (default: the header's); another one is XS_EVERSION. For tests. */
  version?: number;
}
export interface ImportOptions extends ForeignListOptions {
  /** Report what would be imported; write nothing, not even the store's directory (XS_IMPORT_DRY_RUN). */
  dryRun?: boolean;
  /** 'claude' only: the cwd of every imported session (absolute, no '.' or '..'); absent or
   *  null: each conversation's own. Another kind with it is XS_EINVAL. */
  targetCwd?: string | null;
  /** 'gateway', 'myagents' and 'codex' only: the cwd of a session its source names none for;
   *  absent or null: the source directory. */
  fallbackCwd?: string | null;
  /**
   * Called with (0, total) first, then about once per thousandth, then (total, total): bytes of
   * the source's transcripts (docs/import.md#progress), on the JS thread, every call before the
   * result. Calls on this store from inside it throw XS_EMISUSE. It cannot stop the import: if it
   * throws it is not called again, and import() throws (rejects with) that error once done.
   */
  progress?: ((done: number, total: number) => void) | null;
}
/** What xs_import_options_init fills in. */
export declare const defaultImportOptions: Readonly<Required<Omit<ImportOptions, 'version' | 'raw' | 'progress'>>>;
/** XS_IMPORT_OPTIONS_VERSION of the header the addon was built with. */
export declare const IMPORT_OPTIONS_VERSION: number;

export interface ImportCounts {
  rowsRead: number;
  imported: number;
  keptAsCustom: number;
  alreadyImported: number;
  skipped: number;
}
export interface SkippedRow {
  file: string;
  /** From 1; 0 for the file as a whole. */
  line: number;
  reason: string;
}
/** docs/import.md#the-report; rowsRead = imported + keptAsCustom + alreadyImported + skipped. */
export interface ImportReport extends ImportCounts {
  source: ImportKind;
  root: string;
  dryRun: boolean;
  /** created: a new session (false: a re-import continued it). */
  sessions: Array<ImportCounts & { sourceFile: string; sessionId: string; sessionFile: string; created: boolean }>;
  skippedRows: SkippedRow[];
  notes: string[];
}
/** One Claude Code transcript (docs/import-claude.md#the-listing); a text it lacks is ''. */
export interface ClaudeTranscript {
  file: string;
  kind: 'session' | 'agent' | 'subagent';
  sessionId: string;
  parentSessionId: string;
  agentId: string;
  cwd: string;
  firstPrompt: string;
  summary: string;
  title: string;
  rows: number;
  badRows: number;
  size: number;
  mtime: number;
  leafUuid: string;
  inIndex: boolean;
}
export interface ClaudeListing {
  source: 'claude';
  root: string;
  projects: Array<{ dir: string; hasIndex: boolean; originalPath: string; transcripts: ClaudeTranscript[];
                    skippedRows: SkippedRow[]; notes: string[] }>;
}
/** A host's index file or one of its elements that could not be used (docs/import-hosts.md). */
export interface ListingProblem {
  file: string;
  /** From 1; 0 for the file as a whole. */
  line: number;
  reason: string;
}
/** docs/import-hosts.md#listing-json: one OpenClaw gateway agent. Texts that are not UTF-8 carry U+FFFD. */
export interface GatewayAgent {
  id: string;
  dir: string;
  /** The agent's sessions.json; null without one. */
  index: string | null;
  indexRows: number;
  keys: Array<{ key: string; sessionId: string | null; line: number; transcript: string | null }>;
  transcripts: Array<{
    file: string; path: string; sessionId: string | null; threadId: string | null;
    generation: 'live' | 'reset' | 'deleted' | 'bak' | 'checkpoint';
    stamp: string | null; size: number; mtimeMs: number; writeLock: boolean; keys: string[];
  }>;
  problems: ListingProblem[];
  notes: string[];
}
export interface GatewayListing {
  source: 'gateway';
  root: string;
  agents: GatewayAgent[];
}
/** MyAgents' counters as its index wrote them (only those it has). */
export interface MyAgentsStats {
  messageCount?: number; totalInputTokens?: number; totalOutputTokens?: number;
  totalCacheReadTokens?: number; totalCacheCreationTokens?: number;
}
export interface MyAgentsSession {
  id: string;
  messagesFile: string | null;
  legacyFile: string | null;
  legacyBeside: boolean;
  inIndex: boolean;
  /** The index element's line; 0 when not in the index. */
  line: number;
  title: string | null; agentDir: string | null; createdAt: string | null; lastActiveAt: string | null;
  stats: MyAgentsStats | null;
}
export interface MyAgentsListing {
  source: 'myagents';
  root: string;
  index: string | null;
  indexLock: 'free' | 'released' | 'stale' | 'held';
  indexRows: number;
  sessions: MyAgentsSession[];
  problems: ListingProblem[];
  notes: string[];
}
/** @deprecated the union of the two host listings (GatewayListing, MyAgentsListing). */
export type HostListing = GatewayListing | MyAgentsListing;
/** A rollout of a Codex sessions directory (docs/import-codex.md#the-listing); "" where it does not say. */
export interface CodexSession {
  file: string; sessionId: string; cwd: string; started: string; cliVersion: string; originator: string;
  model: string; firstPrompt: string; rows: number; badRows: number; size: number; mtime: number;
}
export interface CodexListing {
  source: 'codex';
  root: string;
  sessions: CodexSession[];
  problems: ListingProblem[];
  notes: string[];
}
export type ForeignListing = ClaudeListing | HostListing | CodexListing;
