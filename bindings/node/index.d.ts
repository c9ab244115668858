// Type declarations for xsession, the Node binding of libxsession (hand-written; the README's API
// reference is derived from this file). Every method maps to one function of xsession.h.
//
// Conventions:
// - Methods with a Promise form run off the main thread: `name()` returns a Promise and
//   `nameSync()` blocks. The appends are the exception: `appendX()` is synchronous and
//   `appendXAsync()` its Promise form. Methods without one are quick and synchronous.
// - Failures throw (the Promise forms reject) an XsError whose `code` names the status. The
//   Promise forms also reject for bad arguments; only a foreign `this` throws at once.
// - Outputs are plain parsed JSON with the interfaces below (no class instances); caller-owned
//   JSON inside them (message content, `data`, `details`) is JsonValue, never re-typed.
// - JSON arguments (`Json`): a JS value is JSON.stringify'd; a string is taken as the JSON text
//   itself (its bytes are stored token for token); a Buffer/Uint8Array/ArrayBuffer is UTF-8 JSON
//   text. To store a JSON string value, pass JSON.stringify(value).
// - Readers return parsed values; with `{ raw: true }` the library's exact JSON text instead.
// - Ids are strings. Timestamps are ISO-8601 strings.

// No `/// <reference types="node" />`: these declarations compile without @types/node (bytes are
// Uint8Array, which a Buffer is). The two symbols of explicit resource management are declared
// below as @types/node and TypeScript 5.2's lib declare them, for older compilers.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

// The session library's types (library.d.ts), used by the methods below.
import type {
  ArchiveOptions, ArchiveReport, CompactionPlan, CompactionPlanOptions, CompactionSettings, FixStatsReport,
  ForeignListing, ForeignListOptions, ImportKind, ImportOptions, ImportReport, KeySession, PruneReport, ResetPolicy, ResumeCheck, RetentionOptions, SessionForKeyOptions, SessionStats,
} from './library';
export * from './library';
export * from './entries';
// The readers' outputs (outputs.d.ts), used by the methods below.
import type {
  BlobListing, Context, Diagnostic, GcReport, Header, Label, RepairReport, SessionInfo, SessionListing, TreeNode, Usage,
  VerifyReport,
} from './outputs';
import type { Entry } from './entries';
export * from './outputs';
// Portable bundles and the HTML view (bundles.d.ts): Store.export, importBundle and exportHtml.
import type { BundleExportReport, BundleImportReport, ExportOptions, HtmlReport, ImportBundleOptions } from './bundles';
export * from './bundles';
// The prompt history (history.d.ts): Store.openHistory gives a History.
import type { History, HistoryOptions } from './history';
export * from './history';
// The session index and search (search.d.ts): Store.openIndex gives an Index.
import type { Index, IndexOptions } from './search';
export * from './search';

/** A JSON value as JSON.parse gives it: caller-owned JSON the library keeps verbatim. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** JSON input: a JS value, JSON text, or UTF-8 JSON bytes. */
export type Json = unknown;
export type JsonInput = Json | string | Uint8Array | ArrayBuffer;
export type Int64 = number | bigint;

/** Status codes of xsession.h (never renumbered). */
export declare const status: Readonly<{
  XS_OK: 0; XS_ERROR: -1; XS_ENOMEM: -2; XS_EINVAL: -3; XS_EMISUSE: -4; XS_ENOTFOUND: -5;
  XS_EEXISTS: -6; XS_EBUFS: -7; XS_ECORRUPT: -8; XS_EIO: -9; XS_ELOCKED: -10; XS_EVERSION: -11;
  XS_ENOSPC: -12; XS_EREADONLY: -13; XS_ECONFLICT: -14; XS_ELIMIT: -15; XS_ENOHEADER: -16;
  XS_EPOISONED: -17; XS_EAMBIGUOUS: -18; XS_EDIALECT: -19; XS_EINTERNAL: -99;
}>;

export type StatusName = keyof typeof status;

/** What every library failure throws (`err instanceof XsError`). `XS_ECLOSED` (status
 *  XS_EMISUSE) is the binding's own: the Store or Session was closed. Codes newer than the
 *  binding arrive as 'XS_ERROR' with the real number in `status`. Wrong argument types are
 *  TypeError/RangeError (code ERR_INVALID_ARG_TYPE / ERR_OUT_OF_RANGE), not XsError. */
export declare class XsError extends Error {
  constructor(message: string, code: XsErrorCode, status: number);
  /** 'XsError'. */
  readonly name: string;
  code: XsErrorCode;
  /** The xs_status number (status.XS_ENOTFOUND, ...). */
  status: number;
}
export type XsErrorCode = StatusName | 'XS_ECLOSED';

export interface Version { major: number; minor: number; patch: number }
/** Version of the loaded libxsession. */
export declare function version(): Version;
/** Version of the xsession.h the addon was built with. */
export declare const bindingVersion: Readonly<Version>;
/** The library's English name of a status code ("XS_ENOTFOUND: not found"). */
export declare function statusString(code: number | bigint): string;

/**
 * Whose forms a session's lines take (docs/dialects.md): 'omp' (oh-my-pi) or 'pi'. Both are
 * always read; a session writes in one, so the agent that wrote its file can read it back.
 */
export type Dialect = 'omp' | 'pi';

export interface StoreOptions {
  /** Sessions live in memory only; `root` may then be null. */
  inMemory?: boolean;
  /** The dialect of new sessions that do not force one (XS_STORE_DIALECT_PI for 'pi'); default 'omp'. */
  dialect?: Dialect;
  /** The keyed store's document (xs_store_options.keys_path); absent or null: <root>/sessions.json. */
  keysPath?: string | null;
  /** The policy of sessionForKey calls that pass none (xs_store_options.reset_policy); absent or
   *  null: sessions never expire. A bad one (unknown time zone, hour outside 0-23) is XS_EINVAL. */
  resetPolicy?: ResetPolicy | null;
}

export interface SessionOptions {
  /** No writer lock; writes fail with XS_EREADONLY; nothing is ever written (not even a migration). */
  readOnly?: boolean;
  /** open(): a missing file becomes a new session at that path. */
  create?: boolean;
  /** Write the file at once instead of at the first assistant message. */
  noDefer?: boolean;
  /** fdatasync every append before returning. */
  sync?: boolean;
  /** Longest line accepted on load or append (0 = 64 MiB). */
  maxLineBytes?: Int64;
  /** Deepest JSON value accepted (0 = 256). */
  maxDepth?: number;
  /** Forces the dialect the session writes, for a new session and an existing file alike.
   *  Absent or null (auto): an existing file's own dialect (as its lines show), else the store's
   *  default; forks and branched sessions take their source's. */
  dialect?: Dialect | null;
  /** Fixed clock for reproducible files: the first timestamp, ms since the epoch. */
  clockStartMs?: Int64;
  /** With clockStartMs: added after each timestamp. */
  clockStepMs?: Int64;
  /** Non-zero: ids come from a reproducible sequence. */
  idSeed?: Int64;
  /** For new sessions: header cwd (open only; create takes it as an argument). */
  cwd?: string | null;
  /** For new sessions: the session id ([A-Za-z0-9_-], 1-64); generated when absent (16 hex
   *  characters; a UUIDv7 in the pi dialect). */
  sessionId?: string | null;
  /** For new sessions: the title (the header's; in the pi dialect a first session_info entry). */
  title?: string | null;
  parentSession?: string | null;
  /** Binds the session to this key of the store's keyed document: its stats (see
   *  Session.stats) are written into the key's record after each assistant message, on flush and
   *  on close (docs/session-stats.md). Not with readOnly (XS_EINVAL). */
  key?: string | null;
}

export interface RawOption { raw?: boolean }
export interface ReadOptions extends RawOption {
  /** Replace blob refs by the blobs' content (as contexts show them). */
  resolveBlobs?: boolean;
}
export interface ListOptions extends RawOption {
  /** Only sessions whose header names this cwd. */
  cwd?: string | null;
  /** Read whole files: adds messageCount, entryCount, diagnostics. */
  full?: boolean;
  /** At most this many (the newest); 0 = all. */
  limit?: Int64;
}

export interface RepairOptions extends RawOption {
  /**
   * Also move the lines that are not JSON (garbage, invalid UTF-8, NUL bytes, a torn last line)
   * to `<file>.quarantine-<time>.jsonl` beside the session, then rewrite the session without them
   * (XS_REPAIR_QUARANTINE). Lines that are JSON stay; verify reports them.
   */
  quarantine?: boolean;
}
export interface BlobListOptions extends RawOption { verify?: boolean }
export interface BlobGcOptions extends RawOption {
  /** Report only; delete nothing. */
  dryRun?: boolean;
  /** Never delete anything younger than this (default 3600000: 1 hour). */
  graceMs?: Int64;
  /** "Now" for the age test (default: the system clock). */
  nowMs?: Int64;
}

export interface Compaction {
  summary: string;
  shortSummary?: string | null;
  firstKeptEntryId: string;
  tokensBefore: Int64;
  details?: JsonInput | null;
  fromExtension?: boolean;
  preserveData?: JsonInput | null;
}
export interface CustomMessage {
  customType: string;
  /** A JSON string or an array of content blocks. */
  content: JsonInput;
  /** Default true. */
  display?: boolean;
  details?: JsonInput | null;
  /** Default "agent". */
  attribution?: string | null;
}
/** The fields of a session_init entry (xs_session_init_entry). */
export interface SessionInitEntry {
  systemPrompt: string;
  task: string;
  /** Array of tool names. */
  tools: JsonInput;
  outputSchema?: JsonInput | null;
}
export interface BranchSummaryOptions {
  details?: JsonInput | null;
  fromExtension?: boolean;
}

/**
 * A record of the keyed store (docs/keyed-store.md): an object with a string `sessionId`. The
 * fields below, when present, have these types (or are null); every other field is the host's,
 * kept verbatim and in order.
 */
export interface KeyRecord {
  sessionId: string;
  sessionFile?: string | null; title?: string | null; cwd?: string | null; chatType?: string | null;
  /** Epoch ms. */
  createdAt?: number | null; updatedAt?: number | null;
  inputTokens?: number | null; outputTokens?: number | null; cacheRead?: number | null; cacheWrite?: number | null;
  totalTokens?: number | null; contextTokens?: number | null; cost?: number | null; compactionCount?: number | null;
  memoryFlushAt?: number | null; memoryFlushCompactionCount?: number | null;
  [field: string]: unknown;
}
export interface KeyEntry { key: string; record: KeyRecord }
/**
 * What an update's callback returns: the new record (a value, JSON text or UTF-8 bytes, as every
 * JSON argument), null to remove it, or undefined to keep it as it is (nothing is written). To
 * cancel, throw: nothing is written and the update throws (rejects with) that very error.
 */
export type KeyUpdateResult = KeyRecord | JsonInput | null | undefined;

/**
 * The keyed session store of a Store (`store.keys`; xs_keys_*): one JSON document, shared by
 * processes, mapping a host's session key ("agent:<id>:main", "cron:<job>") to its current
 * session's record. Keys are 1-256 bytes of printable UTF-8 without '/' or '\' (else XS_EINVAL
 * for every write). Every change is a read-modify-write under the document's lock, published
 * atomically; reads take no lock. Absence is not an error: get gives null, delete false.
 */
export declare class Keys {
  private constructor();
  /** The store whose document this is (its handle runs these calls). */
  readonly store: Store;
  /** The record of `key`, or null if there is none. */
  get(key: string, options: RawOption & { raw: true }): Promise<string | null>;
  get(key: string, options?: RawOption): Promise<KeyRecord | null>;
  getSync(key: string, options: RawOption & { raw: true }): string | null;
  getSync(key: string, options?: RawOption): KeyRecord | null;
  /** The records whose key starts with `prefix` (absent, null or '': all), in document order. */
  list(prefix: string | null | undefined, options: RawOption & { raw: true }): Promise<string>;
  list(options: RawOption & { raw: true }): Promise<string>;
  list(prefix?: string | null, options?: RawOption): Promise<KeyEntry[]>;
  list(options: RawOption): Promise<KeyEntry[]>;
  listSync(prefix: string | null | undefined, options: RawOption & { raw: true }): string;
  listSync(options: RawOption & { raw: true }): string;
  listSync(prefix?: string | null, options?: RawOption): KeyEntry[];
  listSync(options: RawOption): KeyEntry[];
  /** Replaces the record of `key`; a new key goes last. */
  put(key: string, record: KeyRecord | JsonInput): Promise<void>;
  putSync(key: string, record: KeyRecord | JsonInput): void;
  /** A JSON merge patch (RFC 7386): null removes a field, objects merge, new fields go last; a
   *  missing record starts as {} (the result still needs its sessionId). */
  patch(key: string, patch: Partial<KeyRecord> | JsonInput): Promise<void>;
  patchSync(key: string, patch: Partial<KeyRecord> | JsonInput): void;
  /** Removes the record of `key`: true, or false if there was none. */
  delete(key: string): Promise<boolean>;
  deleteSync(key: string): boolean;
  /**
   * Runs `fn` once, under the document's lock, with the record of `key` (parsed; its exact text
   * with {raw: true}) or null, and applies what it returns (see KeyUpdateResult). `fn` must be
   * synchronous (a returned Promise is a TypeError that cancels), and calls on this store from
   * inside it throw XS_EMISUSE. The Promise form locks and writes on a worker thread; `fn` runs
   * on the JS thread while that worker waits for it.
   */
  update(key: string, fn: (current: string | null) => KeyUpdateResult, options: RawOption & { raw: true }): Promise<void>;
  update(key: string, fn: (current: KeyRecord | null) => KeyUpdateResult, options?: RawOption): Promise<void>;
  updateSync(key: string, fn: (current: string | null) => KeyUpdateResult, options: RawOption & { raw: true }): void;
  updateSync(key: string, fn: (current: KeyRecord | null) => KeyUpdateResult, options?: RawOption): void;
  /**
   * The memory-flush decision for the record of `key`, made and marked under the document's lock:
   * true when shouldFlushMemory holds for the record's compactionCount and
   * memoryFlushCompactionCount; the record then gets memoryFlushAt = nowMs (absent or 0: now), so
   * no other process runs the flush again in this cycle. XS_ENOTFOUND without a record.
   */
  claimMemoryFlush(key: string, settings: CompactionSettings, contextTokens: Int64, nowMs?: Int64): Promise<boolean>;
  claimMemoryFlushSync(key: string, settings: CompactionSettings, contextTokens: Int64, nowMs?: Int64): boolean;
  /** Recounts the sessions of the records whose key starts with `prefix` (absent, null or '':
   *  all) and rewrites the stat fields that differ. */
  fixStats(prefix: string | null | undefined, options: RawOption & { raw: true }): Promise<string>;
  fixStats(options: RawOption & { raw: true }): Promise<string>;
  fixStats(prefix?: string | null, options?: RawOption): Promise<FixStatsReport>;
  fixStats(options: RawOption): Promise<FixStatsReport>;
  fixStatsSync(prefix: string | null | undefined, options: RawOption & { raw: true }): string;
  fixStatsSync(options: RawOption & { raw: true }): string;
  fixStatsSync(prefix?: string | null, options?: RawOption): FixStatsReport;
  fixStatsSync(options: RawOption): FixStatsReport;
}

/** A root directory of sessions and blobs (xs_store). */
export declare class Store {
  /** Opens the store at `root` (created on the first write; opening writes nothing). */
  constructor(root: string | null, options?: StoreOptions);
  /** Frees the store; sessions opened from it stay usable. Idempotent. */
  close(): void;
  readonly closed: boolean;
  /** `using store = new Store(...)`: close(). */
  [Symbol.dispose](): void;
  /** `await using`: close(). */
  [Symbol.asyncDispose](): Promise<void>;
  /** The status of the store's last call (xs_store_errcode): 0 after a success. With Promise
   *  forms in flight it belongs to whichever call ran last; errors carry their own `status`. */
  lastStatus(): number;
  /** The keyed session store (made on first use; the same object every time). */
  readonly keys: Keys;

  /** <root>/sessions/--<cwd encoded>--. */
  sessionDir(cwd: string): string;
  /** Path of the session an id, file name or prefix names (the cwd's directory first). */
  resolve(query: string, cwd?: string | null): string;
  /** Records that terminal `terminalId` uses `sessionPath` in `cwd`. */
  writeBreadcrumb(terminalId: string, cwd: string, sessionPath: string): void;

  /** Stores bytes (a string as UTF-8) atomically; resolves to their SHA-256 hex. */
  blobPut(data: Uint8Array | ArrayBuffer | string): Promise<string>;
  blobPutSync(data: Uint8Array | ArrayBuffer | string): string;
  /** A blob's bytes, verified against its hash (a Buffer). */
  blobGet(hash: string): Promise<Uint8Array>;
  blobGetSync(hash: string): Uint8Array;

  /** The store's sessions, newest first. */
  list(options: ListOptions & { raw: true }): Promise<string>;
  list(options?: ListOptions): Promise<SessionListing[]>;
  listSync(options: ListOptions & { raw: true }): string;
  listSync(options?: ListOptions): SessionListing[];

  /** The blob directory (with {verify: true} every blob is read and hashed). */
  blobList(options: BlobListOptions & { raw: true }): Promise<string>;
  blobList(options?: BlobListOptions): Promise<BlobListing>;
  blobListSync(options: BlobListOptions & { raw: true }): string;
  blobListSync(options?: BlobListOptions): BlobListing;
  /** Garbage-collects blobs no file under the root mentions, older than the grace period. */
  blobGc(options: BlobGcOptions & { raw: true }): Promise<string>;
  blobGc(options?: BlobGcOptions): Promise<GcReport>;
  blobGcSync(options: BlobGcOptions & { raw: true }): string;
  blobGcSync(options?: BlobGcOptions): GcReport;

  /** A new session for `cwd` (nothing written until the first assistant message unless noDefer). */
  create(cwd: string, options?: SessionOptions): Session;
  /** Opens a session file, or a session id / unambiguous id prefix; v1/v2 files are migrated. */
  open(pathOrId: string, options?: SessionOptions): Promise<Session>;
  openSync(pathOrId: string, options?: SessionOptions): Session;
  /** This terminal's last session for cwd, else the newest for cwd, else a new one. */
  continueRecent(cwd: string, terminalId?: string | null, options?: SessionOptions): Promise<Session>;
  continueRecentSync(cwd: string, terminalId?: string | null, options?: SessionOptions): Session;
  /** A copy of another session file as a new session for targetCwd. */
  forkFrom(sourcePath: string, targetCwd: string, options?: SessionOptions): Promise<Session>;
  forkFromSync(sourcePath: string, targetCwd: string, options?: SessionOptions): Session;

  /**
   * The current session of `key`, open for writing: the record's, or a new one when the key has
   * none, when the policy says it expired, or with {force: true}; decided and recorded under the
   * keyed document's lock (docs/reset-policies.md).
   */
  sessionForKey(key: string, options?: SessionForKeyOptions): Promise<KeySession>;
  sessionForKeySync(key: string, options?: SessionForKeyOptions): KeySession;
  /** Compresses sessions idle for longer than olderThanMs to verified `<file>.jsonl.gz`
   *  (docs/retention.md); archives still list, and open read-only. */
  archive(options: ArchiveOptions & { raw: true }): Promise<string>;
  archive(options: ArchiveOptions): Promise<ArchiveReport>;
  archiveSync(options: ArchiveOptions & { raw: true }): string;
  archiveSync(options: ArchiveOptions): ArchiveReport;
  /** Deletes the archives archived more than olderThanMs ago; never a live session. */
  prune(options: RetentionOptions & { raw: true }): Promise<string>;
  prune(options: RetentionOptions): Promise<PruneReport>;
  pruneSync(options: RetentionOptions & { raw: true }): string;
  pruneSync(options: RetentionOptions): PruneReport;
  /** Imports the store of `kind` at sourcePath (only ever read) into native sessions and keys of
   *  this one (docs/import.md); a re-import adds only what is new. Bad rows are in the report,
   *  never a failure; a missing sourcePath is XS_ENOTFOUND, a file XS_EINVAL. */
  import(kind: ImportKind, sourcePath: string, options: ImportOptions & { raw: true }): Promise<string>;
  import(kind: ImportKind, sourcePath: string, options?: ImportOptions): Promise<ImportReport>;
  importSync(kind: ImportKind, sourcePath: string, options: ImportOptions & { raw: true }): string;
  importSync(kind: ImportKind, sourcePath: string, options?: ImportOptions): ImportReport;
  /** What the store of `kind` at sourcePath holds; writes nothing anywhere. */
  foreignList(kind: ImportKind, sourcePath: string, options: ForeignListOptions & { raw: true }): Promise<string>;
  foreignList(kind: ImportKind, sourcePath: string, options?: ForeignListOptions): Promise<ForeignListing>;
  foreignListSync(kind: ImportKind, sourcePath: string, options: ForeignListOptions & { raw: true }): string;
  foreignListSync(kind: ImportKind, sourcePath: string, options?: ForeignListOptions): ForeignListing;
  /** Writes a bundle of the sessions `ids` names (ids, unambiguous id prefixes or session files
   *  of this store) to outPath, replacing a file there whole: the sessions byte for byte, the ones
   *  they descend from (unless lineage: false), their blobs and key records (docs/bundles.md).
   *  XS_ENOTFOUND: a session the store does not have; XS_EINVAL: no ids, an empty id or path. */
  export(ids: string | readonly string[], outPath: string, options: ExportOptions & { raw: true }): Promise<string>;
  export(ids: string | readonly string[], outPath: string, options?: ExportOptions): Promise<BundleExportReport>;
  exportSync(ids: string | readonly string[], outPath: string, options: ExportOptions & { raw: true }): string;
  exportSync(ids: string | readonly string[], outPath: string, options?: ExportOptions): BundleExportReport;
  /** Imports the bundle at bundlePath, every member checked against its manifest before anything
   *  is placed; importing it again changes nothing ("present"). XS_ECORRUPT: a damaged or hostile
   *  bundle; XS_EEXISTS: a session id the store holds with other content, without rename; either
   *  way nothing was written. XS_ENOTFOUND: no such file. */
  importBundle(bundlePath: string, options: ImportBundleOptions & { raw: true }): Promise<string>;
  importBundle(bundlePath: string, options?: ImportBundleOptions): Promise<BundleImportReport>;
  importBundleSync(bundlePath: string, options: ImportBundleOptions & { raw: true }): string;
  importBundleSync(bundlePath: string, options?: ImportBundleOptions): BundleImportReport;
  /** Writes the sessions `ids` names as self-contained HTML pages (docs/html-view.md): one
   *  session, outPath is the page; several, outPath is a directory (made when missing) with a page
   *  per session and an index.html. The sessions are only read. */
  exportHtml(ids: string | readonly string[], outPath: string, options: RawOption & { raw: true }): Promise<string>;
  exportHtml(ids: string | readonly string[], outPath: string, options?: RawOption): Promise<HtmlReport>;
  exportHtmlSync(ids: string | readonly string[], outPath: string, options: RawOption & { raw: true }): string;
  exportHtmlSync(ids: string | readonly string[], outPath: string, options?: RawOption): HtmlReport;
  /** The store's prompt history (docs/history.md): <root>/history.db unless options.path names
   *  another file; an older file is migrated, a damaged one kept aside and a fresh one started
   *  (History.info's `damaged`). The handle is independent of the store afterwards. XS_EINVAL: an
   *  inMemory store without a path; XS_EVERSION: a file a newer xsession wrote; XS_ELOCKED: another
   *  process kept it locked past busyTimeoutMs. */
  openHistory(options?: HistoryOptions): Promise<History>;
  openHistorySync(options?: HistoryOptions): History;
  /** The store's session index (docs/search.md): <root>/index.db unless options.path names
   *  another file. Not read or brought up to date here: a new index is empty until rebuild() or
   *  refresh(). An older file is migrated, a damaged one kept aside and a fresh one started
   *  (Index.info's `damaged`). The Index keeps the store's files alive: it stays usable after
   *  the store is closed. XS_EINVAL: an inMemory store without a path; XS_EVERSION: a file a
   *  newer xsession wrote; XS_ELOCKED: another process kept it locked past busyTimeoutMs. */
  openIndex(options?: IndexOptions): Promise<Index>;
  openIndexSync(options?: IndexOptions): Index;
}

/** One open transcript (xs_session). Made by Store and by fork/createBranched, never by `new`. */
export declare class Session {
  private constructor();
  /** Flushes, releases the writer lock and frees the handle, then throws the flush's error (an
   *  XsError: XS_EIO, XS_EPOISONED...) if it failed; the session is closed either way. With
   *  async work in flight the flush waits for the call running now and the free for the last
   *  one. Idempotent. A session garbage collected unclosed is closed by its finalizer, whose
   *  flush errors nobody sees. */
  close(): void;
  readonly closed: boolean;
  /** `using s = store.create(...)`: close(), which throws the final flush's error. */
  [Symbol.dispose](): void;
  /** `await using`: flush() on a worker (so a durable session's fdatasync does not block the
   *  event loop), then close(); rejects with the flush's error, the session closed either way. */
  [Symbol.asyncDispose](): Promise<void>;
  /** The status of the session's last call (xs_session_errcode): 0 after a success. With
   *  Promise forms in flight it belongs to whichever call ran last; errors carry their own. */
  lastStatus(): number;

  // --- writing: each returns the new entry's id; its `...Async` form resolves to it, the write
  // done on a worker (for {sync: true} sessions, whose appends wait for fdatasync). Await each
  // before the next: a synchronous call made meanwhile may run before it. In the pi dialect the
  // omp-only entries (ttsr injection, session init, mode change, a model role, a compaction's
  // shortSummary or preserveData, a custom message's attribution) throw XS_EDIALECT and change
  // nothing. ---
  append(entry: JsonInput): string;
  appendAsync(entry: JsonInput): Promise<string>;
  appendMessage(message: JsonInput): string;
  appendMessageAsync(message: JsonInput): Promise<string>;
  appendThinkingLevel(level: string | null): string;
  appendThinkingLevelAsync(level: string | null): Promise<string>;
  appendModelChange(model: string, role?: string | null): string;
  appendModelChangeAsync(model: string, role?: string | null): Promise<string>;
  appendCompaction(compaction: Compaction): string;
  appendCompactionAsync(compaction: Compaction): Promise<string>;
  appendCustom(customType: string, data?: JsonInput | null): string;
  appendCustomAsync(customType: string, data?: JsonInput | null): Promise<string>;
  appendCustomMessage(message: CustomMessage): string;
  appendCustomMessageAsync(message: CustomMessage): Promise<string>;
  /** label null clears the target's label. */
  appendLabel(targetId: string, label?: string | null): string;
  appendLabelAsync(targetId: string, label?: string | null): Promise<string>;
  appendTtsrInjection(rules: JsonInput): string;
  appendTtsrInjectionAsync(rules: JsonInput): Promise<string>;
  appendSessionInit(init: SessionInitEntry): string;
  appendSessionInitAsync(init: SessionInitEntry): Promise<string>;
  appendModeChange(mode: string, data?: JsonInput | null): string;
  appendModeChangeAsync(mode: string, data?: JsonInput | null): Promise<string>;
  /** pi dialect: pi's title entry, a session_info {name} (trimmed as String.prototype.trim does;
   *  '' clears the title). The title is the name of the last one. XS_EDIALECT in the omp
   *  dialect, which keeps the title in the header (setTitle). */
  appendSessionInfo(name: string): string;
  appendSessionInfoAsync(name: string): Promise<string>;
  /** Moves the leaf to fromId (null: a new root) and appends a branch_summary there. */
  branchWithSummary(fromId: string | null, summary: string, options?: BranchSummaryOptions): string;
  branchWithSummaryAsync(fromId: string | null, summary: string, options?: BranchSummaryOptions): Promise<string>;
  /** Moves the leaf to entry `id`, or to none for null (the next append starts a new root).
   *  Nothing is written; an unknown id throws XS_ENOTFOUND and leaves the leaf where it was. */
  setLeaf(id: string | null): void;

  // --- the session as a whole ---
  flush(): Promise<void>;
  flushSync(): void;
  persist(): Promise<void>;
  persistSync(): void;
  /** null removes the title. omp dialect: the header's title (the file is rewritten atomically);
   *  pi dialect: appends a session_info entry as appendSessionInfo does (null: an empty name). */
  setTitle(title: string | null): Promise<void>;
  setTitleSync(title: string | null): void;
  moveTo(cwd: string): Promise<void>;
  moveToSync(cwd: string): void;
  /** Read-only handles: picks up appended entries; resolves to the change in the entry count. */
  reload(): Promise<number>;
  reloadSync(): number;
  fork(options?: SessionOptions): Promise<Session>;
  forkSync(options?: SessionOptions): Session;
  createBranched(leafId?: string | null, options?: SessionOptions): Promise<Session>;
  createBranched(options: SessionOptions): Promise<Session>;
  createBranchedSync(leafId?: string | null, options?: SessionOptions): Session;
  createBranchedSync(options: SessionOptions): Session;

  // --- reading (leafId / id left out or null: the current leaf) ---
  buildContext(leafId: string | null | undefined, options: RawOption & { raw: true }): Promise<string>;
  buildContext(options: RawOption & { raw: true }): Promise<string>;
  buildContext(leafId?: string | null, options?: RawOption): Promise<Context>;
  buildContext(options: RawOption): Promise<Context>;
  buildContextSync(leafId: string | null | undefined, options: RawOption & { raw: true }): string;
  buildContextSync(options: RawOption & { raw: true }): string;
  buildContextSync(leafId?: string | null, options?: RawOption): Context;
  buildContextSync(options: RawOption): Context;
  entries(options: ReadOptions & { raw: true }): Promise<string>;
  entries(options?: ReadOptions): Promise<Entry[]>;
  entriesSync(options: ReadOptions & { raw: true }): string;
  entriesSync(options?: ReadOptions): Entry[];
  path(id: string | null | undefined, options: ReadOptions & { raw: true }): Promise<string>;
  path(options: ReadOptions & { raw: true }): Promise<string>;
  path(id?: string | null, options?: ReadOptions): Promise<Entry[]>;
  path(options: ReadOptions): Promise<Entry[]>;
  pathSync(id: string | null | undefined, options: ReadOptions & { raw: true }): string;
  pathSync(options: ReadOptions & { raw: true }): string;
  pathSync(id?: string | null, options?: ReadOptions): Entry[];
  pathSync(options: ReadOptions): Entry[];
  tree(options: ReadOptions & { raw: true }): Promise<string>;
  tree(options?: ReadOptions): Promise<TreeNode[]>;
  treeSync(options: ReadOptions & { raw: true }): string;
  treeSync(options?: ReadOptions): TreeNode[];
  header(options: RawOption & { raw: true }): string;
  header(options?: RawOption): Header;
  entry(id: string, options: ReadOptions & { raw: true }): string;
  entry(id: string, options?: ReadOptions): Entry;
  children(id: string, options: ReadOptions & { raw: true }): string;
  children(id: string, options?: ReadOptions): Entry[];
  labels(options: RawOption & { raw: true }): string;
  labels(options?: RawOption): Label[];
  diagnostics(options: RawOption & { raw: true }): string;
  diagnostics(options?: RawOption): Diagnostic[];
  info(options: RawOption & { raw: true }): string;
  info(options?: RawOption): SessionInfo;
  usage(options: RawOption & { raw: true }): string;
  usage(options?: RawOption): Usage;
  /** The session's counters, kept by every append (docs/session-stats.md). */
  stats(options: RawOption & { raw: true }): string;
  stats(options?: RawOption): SessionStats;
  /** What an agent must know before it continues from `leafId` (absent or null: the leaf). */
  resumeCheck(leafId: string | null | undefined, options: RawOption & { raw: true }): Promise<string>;
  resumeCheck(options: RawOption & { raw: true }): Promise<string>;
  resumeCheck(leafId?: string | null, options?: RawOption): Promise<ResumeCheck>;
  resumeCheck(options: RawOption): Promise<ResumeCheck>;
  resumeCheckSync(leafId: string | null | undefined, options: RawOption & { raw: true }): string;
  resumeCheckSync(options: RawOption & { raw: true }): string;
  resumeCheckSync(leafId?: string | null, options?: RawOption): ResumeCheck;
  resumeCheckSync(options: RawOption): ResumeCheck;
  /** Where a compaction at `leafId` (absent or null: the leaf) should cut, keeping at least
   *  keepRecentTokens of the newest entries and never a tool result without its call. */
  compactionPlan(leafId: string | null | undefined, options: CompactionPlanOptions & { raw: true }): Promise<string>;
  compactionPlan(options: CompactionPlanOptions & { raw: true }): Promise<string>;
  compactionPlan(leafId?: string | null, options?: CompactionPlanOptions): Promise<CompactionPlan>;
  compactionPlan(options: CompactionPlanOptions): Promise<CompactionPlan>;
  compactionPlanSync(leafId: string | null | undefined, options: CompactionPlanOptions & { raw: true }): string;
  compactionPlanSync(options: CompactionPlanOptions & { raw: true }): string;
  compactionPlanSync(leafId?: string | null, options?: CompactionPlanOptions): CompactionPlan;
  compactionPlanSync(options: CompactionPlanOptions): CompactionPlan;
  /** The leaf's id; null when the leaf is none. */
  leaf(): string | null;
  /** The dialect the session writes (never auto: forced, detected, or the store's default). */
  dialect(): Dialect;
  /** Everything wrong with the file as loaded (never writes). */
  verify(options: RawOption & { raw: true }): Promise<string>;
  verify(options?: RawOption): Promise<VerifyReport>;
  verifySync(options: RawOption & { raw: true }): string;
  verifySync(options?: RawOption): VerifyReport;
  /** Fixes what can be fixed without losing a byte (writable sessions); see RepairOptions. */
  repair(options: RepairOptions & { raw: true }): Promise<string>;
  repair(options?: RepairOptions): Promise<RepairReport>;
  repairSync(options: RepairOptions & { raw: true }): string;
  repairSync(options?: RepairOptions): RepairReport;
}
