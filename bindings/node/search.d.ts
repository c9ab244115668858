// Type declarations of the session index and its search (docs/search.md): Store.openIndex's
// options, the Index class and what its readers return. Hand-written, as index.d.ts. Unlike the
// transcripts' ISO-8601 strings, the index's times are numbers: ms since the epoch.

import type { Dialect, Int64, RawOption } from './index';
import type { HistoryDamaged } from './history';

/** xs_index_options; what is left out keeps xs_index_options_init's default. */
export interface IndexOptions {
  /** The database file; absent or null: <root>/index.db (an inMemory store needs one). Its
   *  directory is created. */
  path?: string | null;
  /** How long a call waits for another writer's lock (absent or 0: 5000). */
  busyTimeoutMs?: number;
  /** While the Index is open, index what the sessions of this Store write, on a thread of the
   *  index shortly after each write (an append never waits for it); flush() waits for it
   *  (XS_INDEX_FOLLOW_WRITES). Default false: refresh() finds what changed. Other processes'
   *  writes are found by refresh() either way. */
  followWrites?: boolean;
}

/** rebuild() and refresh() (capi/schema/index-report.schema.json): the session files counted by
 *  what became of them. */
export interface IndexReport {
  /** Session files found (live, and archives whose live original is gone). */
  files: number;
  /** Files whose size, mtime, device and inode were as indexed: not read. */
  unchanged: number;
  /** Files grown in place: only the lines after the last indexed byte read. */
  appended: number;
  /** Files changed otherwise (rewritten, shrunk, replaced): read whole again. */
  reindexed: number;
  /** Files that had no row before. */
  added: number;
  /** Rows whose file is gone, removed. */
  removed: number;
  /** Files that could not be read as a session: not indexed. */
  unreadable: number;
  /** Files another refresh changed meanwhile: left for the next one. */
  raced: number;
  /** Entry rows written. */
  entries: number;
}

/** verify() (capi/schema/index-verify.schema.json): every difference between index and files. */
export interface IndexVerifyReport {
  /** True when the index and the files agree (the three lists are empty). */
  ok: boolean;
  /** Session files found. */
  files: number;
  /** Rows in the index's sessions table. */
  indexed: number;
  /** Files without a row (unreadable ones included). */
  missing: string[];
  /** Rows without a file. */
  extra: string[];
  /** Rows whose file's size, mtime, device or inode changed since it was indexed. */
  stale: string[];
}

/** One session as list() gives it, from the index alone (capi/schema/index-sessions.schema.json). */
export interface IndexedSession {
  /** The session file. */
  path: string;
  /** The session's id (its header's). */
  id: string;
  /** The working directory in its header. */
  cwd: string;
  /** The header's title, else pi's last session_info name; null for none. */
  title: string | null;
  /** The first user text not injected by an agent, cut for a listing; null for none. */
  firstPrompt: string | null;
  /** The header's timestamp, ms since the epoch; null when not a date. */
  created: number | null;
  /** The newest entry's timestamp, ms since the epoch; null when none is a date. */
  updated: number | null;
  /** The file's modification time when it was indexed, ms since the epoch. */
  modified: number;
  /** The file's size in bytes when it was indexed. */
  size: number;
  /** Entries in the file. */
  entries: number;
  /** Message entries. */
  messages: number;
  /** Input tokens of every assistant message's usage (all branches). */
  inputTokens: number;
  /** Output tokens, likewise. */
  outputTokens: number;
  /** Cost of every assistant message's usage (all branches). */
  cost: number;
  dialect: Dialect | null;
  /** The agent an imported session came from; null for a native one. */
  sourceAgent: 'claude' | 'myagents' | 'codex' | null;
  /** The header's parentSession; null for none. */
  parentSession: string | null;
  /** The file is an archive (its live original is gone). */
  archived: boolean;
  /** The last entry's id (the current leaf); null for a session without entries. */
  leafId: string | null;
}

/** The damaged file an open kept aside before it started a fresh one (the history's note). */
export type IndexDamaged = HistoryDamaged;
/** info() (capi/schema/index-info.schema.json). */
export interface IndexInfo {
  path: string;
  /** The file's schema version (PRAGMA user_version). */
  schemaVersion: number;
  /** Session rows. */
  sessions: number;
  /** Entry rows. */
  entries: number;
  damaged: IndexDamaged | null;
}

/** What kind of text an entry holds: "summary" is compaction and branch summaries. */
export type SearchRole = 'user' | 'assistant' | 'tool' | 'summary' | 'label';

export interface IndexListOptions extends RawOption {
  /** Only the sessions of this working directory (absent or null: every session). */
  cwd?: string | null;
  /** At most this many (absent or 0: 20; over 10000 is XS_EINVAL). */
  limit?: number;
}

/** xs_search_options; each filter left out (or null) does not filter. */
export interface SearchOptions extends RawOption {
  /** Only sessions of this working directory (the header's, exact). */
  cwd?: string | null;
  /** Only entries of this role; a string that is none of the five is XS_EINVAL. */
  role?: SearchRole | null;
  /** Only entries stamped at or after this time, ms since the epoch (absent or 0: any; < 0 is
   *  XS_EINVAL). */
  sinceMs?: Int64;
  /** Only this session (its id). */
  sessionId?: string | null;
  /** At most this many hits (absent or 0: 20; over 10000 is XS_EINVAL). */
  limit?: number;
  /** The query is plain words, not FTS5 syntax (XS_SEARCH_LITERAL): each must occur, the last
   *  as a prefix; quotes and operators are ordinary characters. */
  literal?: boolean;
}

/** One match of search() (capi/schema/search-hits.schema.json). */
export interface SearchHit {
  sessionId: string;
  /** The session's title; null for none. */
  sessionTitle: string | null;
  /** The session file. */
  sessionPath: string;
  /** The working directory in the session's header. */
  cwd: string;
  /** The matching entry's id. */
  entryId: string;
  role: SearchRole | null;
  /** Whether the entry is on the session's current branch. */
  onPath: boolean;
  /** The entry's timestamp, ms since the epoch; null when not a date. */
  timestamp: number | null;
  /** bm25 of the match: lower (more negative) is better. */
  score: number;
  /** Up to 16 tokens around the best match, each match between '\u0002' and '\u0003'; cut parts
   *  as '…'. */
  snippet: string;
}

/**
 * A store's session index (xs_index): one SQLite database with a row per session and per entry
 * and a full-text index over what the entries say, so that listing and searching sessions read
 * one file instead of every transcript. Derived data only: rebuild() makes it again from the
 * session files. Appends do not update it: refresh() before searching to see them. Made by
 * Store.openIndex, never by `new`. Calls on one Index run one at a time; several handles and
 * processes may share the file.
 */
export declare class Index {
  private constructor();
  /** Frees the handle. Idempotent; a Promise still pending settles first. An Index garbage
   *  collected unclosed is closed by its finalizer. */
  close(): void;
  readonly closed: boolean;
  /** `using ix = store.openIndexSync()`: close(). */
  [Symbol.dispose](): void;
  /** `await using`: close(). */
  [Symbol.asyncDispose](): Promise<void>;
  /** The status of the handle's last call (xs_index_errcode): 0 after a success. */
  lastStatus(): number;
  /** Makes the index again from nothing: every session of the store, live and archived, read
   *  whole. */
  rebuild(options: RawOption & { raw: true }): Promise<string>;
  rebuild(options?: RawOption): Promise<IndexReport>;
  rebuildSync(options: RawOption & { raw: true }): string;
  rebuildSync(options?: RawOption): IndexReport;
  /** Brings the index up to date with the files: unchanged files are not read, files grown in
   *  place only from their last indexed byte, others whole; rows of files gone are removed. */
  refresh(options: RawOption & { raw: true }): Promise<string>;
  refresh(options?: RawOption): Promise<IndexReport>;
  refreshSync(options: RawOption & { raw: true }): string;
  refreshSync(options?: RawOption): IndexReport;
  /** Every difference between the index and the files, changing nothing (`ok` false when any). */
  verify(options: RawOption & { raw: true }): Promise<string>;
  verify(options?: RawOption): Promise<IndexVerifyReport>;
  verifySync(options: RawOption & { raw: true }): string;
  verifySync(options?: RawOption): IndexVerifyReport;
  /** Sessions newest first (file mtime, then creation), from the index alone. */
  list(options: IndexListOptions & { raw: true }): Promise<string>;
  list(options?: IndexListOptions): Promise<IndexedSession[]>;
  listSync(options: IndexListOptions & { raw: true }): string;
  listSync(options?: IndexListOptions): IndexedSession[];
  /**
   * Waits until what the Store's sessions wrote before the call is indexed (with followWrites;
   * without it there is nothing to wait for): call it before a search that must find your own
   * last append. A write whose indexing failed is left for the next refresh(), and the first
   * such failure since the last flush rejects this (then is cleared): its status (XS_ELOCKED,
   * XS_EIO, ...) and a message starting "indexing what sessions wrote: ".
   */
  flush(): Promise<void>;
  flushSync(): void;
  /** Facts about the file, and the damaged file the open kept aside, if any. */
  info(options: RawOption & { raw: true }): Promise<string>;
  info(options?: RawOption): Promise<IndexInfo>;
  infoSync(options: RawOption & { raw: true }): string;
  infoSync(options?: RawOption): IndexInfo;
  /**
   * Entries matching `query`, best first (bm25; ties newest first; only the newest 1,000 matches
   * that pass the filters are ranked). The query is FTS5's syntax (words, "phrases", prefix*,
   * AND/OR/NOT, NEAR(...)) unless {literal: true}; one FTS5 refuses is XS_EINVAL with the message
   * "bad search query: " and SQLite's words.
   */
  search(query: string, options: SearchOptions & { raw: true }): Promise<string>;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
  searchSync(query: string, options: SearchOptions & { raw: true }): string;
  searchSync(query: string, options?: SearchOptions): SearchHit[];
}
