// Type declarations of portable bundles (docs/bundles.md) and the HTML view (docs/html-view.md):
// the options Store.export, Store.importBundle and Store.exportHtml take and the reports they give
// (capi/schema/bundle-export-report, bundle-import-report and html-report .schema.json).
// Hand-written, as index.d.ts.

import type { RawOption } from './index';

/** xs_export_options; what is left out keeps its default. */
export interface ExportOptions extends RawOption {
  /** Carry the sessions the named ones descend from (their parentSession chains) too; false:
   *  only the named ones (XS_EXPORT_NO_LINEAGE). Default true. */
  lineage?: boolean;
  /** gzip instead of zstd (XS_EXPORT_GZIP). */
  gzip?: boolean;
}

/** A session the bundle carries, in the order they travel: the named ones, then their ancestors. */
export interface BundleSession {
  id: string;
  /** The session file in the source store. */
  path: string;
  cwd: string;
  /** Carried as its .jsonl.gz (archived by retention). */
  archived: boolean;
  /** Carried only as an ancestor of a named session. */
  lineage: boolean;
  bytes: number;
  parentSession: string | null;
  /** The parent travels in this bundle (false: none, or one the store does not have). */
  parentInBundle: boolean;
}

/** What Store.export wrote (capi/schema/bundle-export-report.schema.json). */
export interface BundleExportReport {
  /** The bundle file. */
  path: string;
  /** The bundle's size. */
  bytes: number;
  compression: 'zstd' | 'gzip';
  sessions: BundleSession[];
  blobs: Array<{ hash: string; bytes: number }>;
  /** Hashes referenced but not in the blob store: not carried. */
  missingBlobs: string[];
  /** The keyed-store records carried. */
  keys: string[];
}

/**
 * [from, to] cwd pairs: a session whose cwd is `from` or lies below it gets `to` instead (the
 * first pair that applies); its header keeps the old cwd as "originalCwd". Absolute paths without
 * '.' or '..' components (else XS_EINVAL). A Map, an array of pairs or an object {from: to}, in
 * order.
 */
export type CwdMap =
  | ReadonlyMap<string, string>
  // The array apart from the iterables: TypeScript 4.8 would hold an array literal to the object.
  | ReadonlyArray<readonly [string, string]>
  | Iterable<readonly [string, string]>
  | Readonly<Record<string, string>>;

/** xs_import_bundle_options; what is left out keeps its default. */
export interface ImportBundleOptions extends RawOption {
  cwdMap?: CwdMap | null;
  /** A session id the store holds with other content: import the bundle's copy under a new id
   *  (XS_IMPORT_BUNDLE_RENAME) instead of failing with XS_EEXISTS. */
  rename?: boolean;
  /** Verify everything and report what would be done; write nothing (XS_IMPORT_BUNDLE_DRY_RUN). */
  dryRun?: boolean;
}

/** What Store.importBundle did, or would do (capi/schema/bundle-import-report.schema.json). */
export interface BundleImportReport {
  dryRun: boolean;
  /** The bundle file. */
  bundle: string;
  /** The store the bundle was exported from. */
  sourceRoot: string;
  /** In the manifest's order. present: already in the store byte for byte (path is the existing
   *  file); renamed: imported under newId. */
  sessions: Array<{
    id: string;
    newId: string | null;
    path: string;
    cwd: string;
    /** The cwd the bundle carried, when the cwd map changed it. */
    oldCwd: string | null;
    archived: boolean;
    action: 'imported' | 'renamed' | 'present';
  }>;
  blobs: Array<{ hash: string; action: 'imported' | 'present' }>;
  /** kept: a key the store has with another record, left as it was. */
  keys: Array<{ key: string; action: 'imported' | 'present' | 'kept' }>;
}

/** One page Store.exportHtml wrote. */
export interface HtmlPage {
  /** outPath for one session, else <outPath>/<session id>.html. */
  path: string;
  /** The id in the session's header. */
  sessionId: string;
  /** Entries on the page: every entry of the session, once. */
  entries: number;
  /** Message entries on the page. */
  messages: number;
  /** Places where the tree forks. */
  branchPoints: number;
  /** The branches other than the one the page goes on with, each collapsed where it leaves. */
  branches: number;
  /** Size of the page written. */
  bytes: number;
}

/** What Store.exportHtml wrote (capi/schema/html-report.schema.json): the pages in the order the
 *  sessions were named, and the index page of several (null for one). */
export interface HtmlReport {
  pages: HtmlPage[];
  index: { path: string; bytes: number } | null;
}
