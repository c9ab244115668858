// Type declarations of the entries readers give (docs/format.md#entries), one interface per
// entry type, in both dialects' forms (docs/format.md#pi-and-oh-my-pi). Hand-written, as
// index.d.ts. An entry keeps every field its line has: files written by other agents carry
// fields this list does not know, hence the index signature of each; caller JSON (a message,
// `data`, `details`) is JsonValue, never re-typed.

import type { JsonValue } from './index';

/** The fields every entry has. */
export interface EntryBase {
  type: string;
  id: string;
  /** null for a root. */
  parentId: string | null;
  /** ISO-8601. */
  timestamp: string;
  [field: string]: unknown;
}
/** A message as the caller appended it: `role` is all the library relies on. */
export interface AgentMessage {
  role: string;
  [field: string]: JsonValue | undefined;
}
/** `message` is what was appended (an AgentMessage); a line another program wrote may hold a value
 *  that is not an object (the context leaves such a message out). */
export interface MessageEntry extends EntryBase {
  type: 'message';
  message: AgentMessage | string | number | boolean | null | JsonValue[];
}
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: 'thinking_level_change';
  thinkingLevel: string | null;
}
/** omp: `model` ("provider/id") and `role`; pi: `provider` and `modelId`. */
export interface ModelChangeEntry extends EntryBase {
  type: 'model_change';
  model?: string;
  role?: string;
  provider?: string;
  modelId?: string;
}
/** pi writes `fromHook` where omp writes `fromExtension`. */
export interface CompactionEntry extends EntryBase {
  type: 'compaction';
  summary: string;
  shortSummary?: string;
  /** Absent in a migrated v1 compaction whose firstKeptEntryIndex named no entry (kept as it was). */
  firstKeptEntryId?: string;
  /** v1 files: the index the id was migrated from, when it named no entry. */
  firstKeptEntryIndex?: JsonValue;
  tokensBefore: number;
  details?: JsonValue;
  fromExtension?: boolean;
  fromHook?: boolean;
  preserveData?: JsonValue;
}
export interface BranchSummaryEntry extends EntryBase {
  type: 'branch_summary';
  /** The entry branched from; "root" for a branch from no entry. */
  fromId: string;
  summary: string;
  details?: JsonValue;
  fromExtension?: boolean;
  fromHook?: boolean;
}
export interface CustomEntry extends EntryBase {
  type: 'custom';
  customType: string;
  data?: JsonValue;
}
export interface CustomMessageEntry extends EntryBase {
  type: 'custom_message';
  customType: string;
  content: JsonValue;
  display: boolean;
  details?: JsonValue;
  attribution?: string;
}
/** Without `label`: the target's label is cleared. */
export interface LabelEntry extends EntryBase {
  type: 'label';
  targetId: string;
  label?: string;
}
export interface TtsrInjectionEntry extends EntryBase {
  type: 'ttsr_injection';
  injectedRules: string[];
}
/** A session_init entry as read (SessionInitEntry is what appendSessionInit takes). */
export interface SessionInitRecordEntry extends EntryBase {
  type: 'session_init';
  systemPrompt: string;
  task: string;
  tools: JsonValue;
  outputSchema?: JsonValue;
}
export interface ModeChangeEntry extends EntryBase {
  type: 'mode_change';
  mode: string;
  data?: JsonValue;
}
/** pi's title entry. */
export interface SessionInfoEntry extends EntryBase {
  type: 'session_info';
  name: string;
}
/** The entry types this binding knows. */
export type KnownEntry =
  | MessageEntry | ThinkingLevelChangeEntry | ModelChangeEntry | CompactionEntry | BranchSummaryEntry | CustomEntry
  | CustomMessageEntry | LabelEntry | TtsrInjectionEntry | SessionInitRecordEntry | ModeChangeEntry | SessionInfoEntry;
export type EntryType = KnownEntry['type'];
/**
 * Any entry: a known one, or one of a type written by another agent (EntryBase, every field
 * kept). Narrow with isEntry(entry, 'message'), which TypeScript follows (a plain
 * `entry.type === 'message'` cannot exclude the unknown types, whose `type` is any string).
 */
export type Entry = KnownEntry | EntryBase;
/** Whether `entry` has type `type`: a type guard to the matching interface. */
export declare function isEntry<T extends EntryType>(entry: Entry, type: T): entry is Extract<KnownEntry, { type: T }>;
