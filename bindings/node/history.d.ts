// Type declarations of the prompt history (docs/history.md): Store.openHistory's options, the
// History class and what its readers return. Hand-written, as index.d.ts.

import type { Int64, RawOption } from './index';

/** xs_history_options; what is left out keeps xs_history_options_init's default. */
export interface HistoryOptions {
  /** The database file; absent or null: <root>/history.db (an inMemory store needs one). Its
   *  directory is created. */
  path?: string | null;
  /** synchronous=FULL (XS_HISTORY_SYNC): a flushed prompt survives power loss too. By default
   *  (NORMAL) it survives the process's crash or kill -9. */
  sync?: boolean;
  /** How long a call waits for another writer's lock (absent or 0: 5000). */
  busyTimeoutMs?: number;
  /** The longest prompt add() takes, in UTF-8 bytes (absent or 0: 1 MiB). */
  maxPromptBytes?: number;
}

export interface HistoryRecentOptions extends RawOption {
  /** Only the prompts added with this cwd (absent or null: every prompt). */
  cwd?: string | null;
  /** At most this many (absent or 0: 20; over 10000 is XS_EINVAL). */
  limit?: number;
}
export interface HistorySearchOptions extends HistoryRecentOptions {
  /** The query is plain words, not FTS5 syntax (XS_HISTORY_LITERAL): each must occur, the last
   *  as a prefix; quotes and operators are ordinary characters. */
  literal?: boolean;
}

/** One prompt as recent() gives it (capi/schema/history-recent.schema.json). */
export interface HistoryItem {
  /** The row id: increasing in the order prompts were written. */
  id: number;
  /** The prompt as added, exactly. */
  prompt: string;
  /** When it was typed, ms since the epoch. */
  createdAt: number;
  /** The working directory it was typed in; null for none. */
  cwd: string | null;
}
/** One match of search() (capi/schema/history-search.schema.json). */
export interface HistoryHit extends HistoryItem {
  /** bm25 of the match: lower (more negative) is better. */
  score: number;
  /** Part of the prompt around the matches, each between '\u0002' and '\u0003'; cut parts as '…'. */
  snippet: string;
}
/** The damaged file an open kept aside before it started a fresh one. */
export interface HistoryDamaged { path: string; reason: string }
/** info() (capi/schema/history-info.schema.json). */
export interface HistoryInfo {
  path: string;
  /** The file's schema version (PRAGMA user_version). */
  schemaVersion: number;
  /** Committed prompts in the file. */
  count: number;
  /** This handle's prompts queued and not yet written. */
  pending: number;
  synchronous: 'normal' | 'full';
  damaged: HistoryDamaged | null;
}

/**
 * The prompts a user typed, for recall and search (xs_history): one SQLite database per store
 * with a full-text index, apart from the transcripts. Made by Store.openHistory, never by `new`.
 * Calls on one History run one at a time; several handles and processes may share the file.
 */
export declare class History {
  private constructor();
  /** Flushes, stops the writer thread and frees the handle, then throws the flush's error (the
   *  prompts it names were not written) if it failed; closed either way. Idempotent. A History
   *  garbage collected unclosed is closed by its finalizer, whose errors nobody sees. */
  close(): void;
  readonly closed: boolean;
  /** `using h = store.openHistorySync()`: close(). */
  [Symbol.dispose](): void;
  /** `await using`: flush() on a worker, then close(); rejects with the flush's error. */
  [Symbol.asyncDispose](): Promise<void>;
  /** The status of the handle's last call (xs_history_errcode): 0 after a success. */
  lastStatus(): number;
  /**
   * Queues one prompt (a string, or its UTF-8 bytes) and returns without waiting for the disk;
   * flush() waits for it. A prompt equal to the last one added with the same cwd is skipped.
   * XS_EINVAL: empty, a NUL byte, invalid UTF-8, timeMs < 0; XS_ELIMIT: over maxPromptBytes. A
   * failure of the background writer (message "history writer: ...") is returned by this and
   * every later add and flush: reopen the history to write again.
   * @param cwd     where it was typed; absent, null or '': none.
   * @param timeMs  when it was typed, ms since the epoch; absent or 0: now.
   */
  add(prompt: string | Uint8Array, cwd?: string | null, timeMs?: Int64): void;
  /** add() on a worker, for the rare wait when the writer has fallen 64 MiB behind. */
  addAsync(prompt: string | Uint8Array, cwd?: string | null, timeMs?: Int64): Promise<void>;
  /** Waits until every prompt queued before the call is committed (then other handles see it). */
  flush(): Promise<void>;
  flushSync(): void;
  /**
   * Committed prompts matching `query`, best first (bm25; ties newest first). The query is FTS5's
   * syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(...)) unless {literal: true}; one FTS5
   * refuses is XS_EINVAL with the message "bad history query: " and SQLite's words.
   */
  search(query: string, options: HistorySearchOptions & { raw: true }): Promise<string>;
  search(query: string, options?: HistorySearchOptions): Promise<HistoryHit[]>;
  searchSync(query: string, options: HistorySearchOptions & { raw: true }): string;
  searchSync(query: string, options?: HistorySearchOptions): HistoryHit[];
  /** The newest committed prompts, newest first. */
  recent(options: HistoryRecentOptions & { raw: true }): Promise<string>;
  recent(options?: HistoryRecentOptions): Promise<HistoryItem[]>;
  recentSync(options: HistoryRecentOptions & { raw: true }): string;
  recentSync(options?: HistoryRecentOptions): HistoryItem[];
  /** Facts about the file, and the damaged file the open kept aside, if any. */
  info(options: RawOption & { raw: true }): Promise<string>;
  info(options?: RawOption): Promise<HistoryInfo>;
  infoSync(options: RawOption & { raw: true }): string;
  infoSync(options?: RawOption): HistoryInfo;
}
