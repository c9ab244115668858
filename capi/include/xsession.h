/*
 * xsession.h -- the C ABI of xsession, session storage for coding agents.
 *
 * A session is an append-only JSONL transcript: a header line, then typed entries linked by
 * id/parentId into a tree with a movable leaf. This header is C99, includes only <stddef.h> and
 * <stdint.h>, and is the library's whole public surface.
 *
 * Conventions (every function below follows them; its comment says only what differs):
 *  - Status: every fallible function returns xs_status: XS_OK (0) or a negative XS_E* code.
 *    No function returns a positive value. xs_status_str() names any code.
 *  - Error text: the detail of the last call lives on the handle the call was made on, read with
 *    xs_session_errmsg() / xs_store_errmsg(). Constructors report on their parent store. The text
 *    is UTF-8, never NULL ("" after a success) and BORROWED: valid until the next call on that
 *    handle.
 *  - Ownership: XS_OWN marks a result the caller must release (with the function named beside
 *    it). Everything else the library returns is borrowed. The library never keeps a pointer the
 *    caller passed in after the call returns.
 *  - Text in: paths, ids, roles and other short names are NUL-terminated UTF-8. JSON and long
 *    text are (pointer, length) pairs, UTF-8, not NUL-terminated; a NUL byte inside JSON text is
 *    refused. Entries and messages cross the boundary as UTF-8 JSON text.
 *  - Text out (JSON, ids): into a caller buffer (buf, cap); *out_len always receives the full
 *    length in bytes (no NUL terminator is written or counted). If cap < *out_len the call
 *    returns XS_EBUFS and writes nothing; (NULL, 0) is a pure size query. The result is kept on
 *    the handle, so the retry with a larger buffer copies it without recomputing, as long as
 *    nothing changed the handle in between (if something did, it is recomputed, and may need
 *    XS_EBUFS again: loop). Every JSON output has a JSON Schema (draft 2020-12) in capi/schema/,
 *    named beside its function (capi/schema/README.md maps each function to its file).
 *  - New entry ids: functions that append take `char *id_out`: NULL, or a buffer of
 *    XS_ID_BUFSIZE bytes that receives the new entry's id, NUL-terminated. Ids the library
 *    generates are 8 (rarely 16) lowercase hex chars; ids callers choose are 1-64 chars of
 *    [A-Za-z0-9_-]. Ids *loaded* from files may be longer: read those through buffers.
 *  - Option structs: versioned. Initialise with the matching *_init(opts, XS_*_VERSION) before
 *    setting fields; the library reads only the fields the given version has. NULL options mean
 *    defaults. Fields are fixed-width integers and pointers only.
 *  - NULL: a NULL handle gives XS_EMISUSE; a NULL required argument gives XS_EINVAL. Freeing
 *    functions accept NULL.
 *
 * Threads: the library has no global mutable state. Distinct handles are independent, including
 * two handles on the same file (file locks coordinate them, across processes too). Calls on one
 * handle are serialised internally, so a handle may be shared between threads; but its error text
 * belongs to whichever call ran last on it, so a caller that shares a handle must read
 * xs_*_errmsg() under its own lock around the failing call. xs_status_str() and xs_version() may
 * be called from anywhere, any time.
 *
 * Storage guarantees (see README.md): an acknowledged append survives a crash of the process; with
 * XS_SESSION_SYNC it also survives power loss; rewrites are atomic; unreadable lines are skipped,
 * reported (xs_session_diagnostics) and kept byte for byte; a write failure is sticky
 * (XS_EPOISONED) until the session is reopened; one writer per session file (XS_ELOCKED).
 */
#ifndef XSESSION_H
#define XSESSION_H

#include <stddef.h>
#include <stdint.h>

#define XS_VERSION_MAJOR 0
#define XS_VERSION_MINOR 2
#define XS_VERSION_PATCH 0

/* Documentation markers: XS_OWN = the caller releases it; XS_BORROWED = owned by the library. */
#define XS_OWN
#define XS_BORROWED

#if defined(_WIN32) && defined(XS_BUILDING)
#define XS_API __declspec(dllexport)
#elif defined(_WIN32)
#define XS_API __declspec(dllimport)
#else
#define XS_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Status codes. Never renumbered; new codes get new numbers. Bindings map unknown codes to a   */
/* generic error instead of failing.                                                           */

typedef int32_t xs_status;

#define XS_OK 0
#define XS_ERROR (-1)      /* unspecified failure */
#define XS_ENOMEM (-2)     /* out of memory */
#define XS_EINVAL (-3)     /* bad argument: malformed JSON, wrong shape, bad id, invalid UTF-8 */
#define XS_EMISUSE (-4)    /* NULL handle, or an API used against its contract */
#define XS_ENOTFOUND (-5)  /* no such entry, session or file */
#define XS_EEXISTS (-6)    /* the id or file already exists */
#define XS_EBUFS (-7)      /* output buffer too small; *out_len says how much is needed */
#define XS_ECORRUPT (-8)   /* stored data is damaged beyond what the loader can skip */
#define XS_EIO (-9)        /* an I/O error from the operating system */
#define XS_ELOCKED (-10)   /* another handle or process holds the session open for writing */
#define XS_EVERSION (-11)  /* an option struct version this library does not know */
#define XS_ENOSPC (-12)    /* no space left on the device, or a quota or file size limit */
#define XS_EREADONLY (-13) /* a write on a session opened read-only */
#define XS_ECONFLICT (-14) /* another process changed the file; our write was not made */
#define XS_ELIMIT (-15)    /* input over a configured limit (line size, nesting depth) */
#define XS_ENOHEADER (-16) /* the file has no session header (read-only open) */
#define XS_EPOISONED (-17) /* an earlier write failed; reopen the session to write again */
#define XS_EAMBIGUOUS (-18) /* an id prefix matches more than one session */
#define XS_EDIALECT (-19)  /* the entry or field has no form in the session's dialect (pi or omp):
                              writing it would make a line that agent drops or misreads */
#define XS_EINTERNAL (-99) /* a bug in the library; the message says where */

/* Buffer size for an id written through `char *id_out` (64 chars + NUL). */
#define XS_ID_BUFSIZE 65

/* ------------------------------------------------------------------------------------------ */
/* Library                                                                                     */

/** Runtime version of the library (compare with XS_VERSION_* of the header you built with).
 *  @param[out] major, minor, patch  each may be NULL.
 *  @thread any thread.  @return nothing; cannot fail. */
XS_API void xs_version(int *major, int *minor, int *patch);

/** Static English name of a status code ("XS_ENOTFOUND: not found"); unknown codes give
 *  "unknown status".  @return borrowed, static, never NULL.  @thread any thread. */
XS_API XS_BORROWED const char *xs_status_str(xs_status code);

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                     */

#define XS_STORE_OPTIONS_VERSION 4 /* 2 added keys_path, 3 reset_policy, 4 storage; versions 1
                                      to 3 are still accepted */
/* Store flags */
#define XS_STORE_IN_MEMORY 0x1u  /* sessions live in memory only (nothing touches the disk) */
#define XS_STORE_DIALECT_PI 0x2u /* new sessions are written in pi's dialect (default: omp's) */

/* Dialects: whose forms a session's lines take (docs/dialects.md). Both are always read; a
 * session keeps writing in the dialect of the agent that wrote its file, so that agent reads
 * it back. */
#define XS_DIALECT_AUTO 0 /* an existing file: the dialect its lines show (else the store's
                             default); a new session: the store's default */
#define XS_DIALECT_OMP 1  /* oh-my-pi 13: model "provider/id" + role, header title, attribution,
                             blobs and truncation of huge strings */
#define XS_DIALECT_PI 2   /* pi 0.73.1: model {provider, modelId}, titles as session_info
                             entries, everything inline (no blobs, no truncation), UUIDv7
                             session ids, omp-only entry types refused with XS_EDIALECT */

typedef struct xs_store_options {
  uint32_t version;      /* XS_STORE_OPTIONS_VERSION */
  uint32_t flags;        /* XS_STORE_* */
  const char *keys_path; /* version 2: the keyed store's document; NULL = <root>/sessions.json.
                            Copied by xs_store_open. */
  const struct xs_reset_policy *reset_policy; /* version 3: the policy of xs_store_session_for_key
                            when a call passes none; NULL = sessions never expire. Copied (and
                            its time zone read) by xs_store_open: a bad one gives XS_EINVAL. */
  const struct xs_storage *storage; /* version 4: where the store keeps everything, a table of
                            functions the host filled (xsession_storage.h); NULL = the disk
                            (or memory with XS_STORE_IN_MEMORY, which excludes it). The table is
                            copied; when xs_store_open succeeds, its `user` belongs to the store
                            until the table's release() runs (after the store and every session
                            opened from it are gone); when it fails, it stays the caller's. */
} xs_store_options;

/** Fills *opts with defaults for `version` (1 to 4; only the fields of that version are written).
 *  @return XS_OK; XS_EINVAL if opts is NULL; XS_EVERSION for an unknown version.
 *  @thread any thread. */
XS_API xs_status xs_store_options_init(xs_store_options *opts, uint32_t version);

#define XS_SESSION_OPTIONS_VERSION 2 /* 2 added key; a version 1 struct is still accepted */
/* Session flags */
#define XS_SESSION_READ_ONLY 0x1u    /* open without the writer lock; writes give XS_EREADONLY;
                                        never writes anything (not even a migration) */
#define XS_SESSION_CREATE 0x2u       /* open(): a missing file becomes a new session at that path */
#define XS_SESSION_NO_DEFER 0x4u     /* write the file at once instead of at the first assistant
                                        message (the default, so that a session that never got
                                        a reply leaves no file) */
#define XS_SESSION_SYNC 0x8u         /* fdatasync every append before returning (power-loss safe) */
#define XS_SESSION_FIXED_CLOCK 0x10u /* timestamps are clock_start_ms, +clock_step_ms per use
                                        (tests that compare exact bytes) */

typedef struct xs_session_options {
  uint32_t version;        /* XS_SESSION_OPTIONS_VERSION */
  uint32_t flags;          /* XS_SESSION_* */
  uint64_t max_line_bytes; /* longest line accepted on load or append; 0 = 64 MiB; max 1 GiB */
  uint32_t max_depth;      /* deepest JSON value accepted (the root is depth 1); 0 = 256; max 4096 */
  uint32_t dialect;        /* XS_DIALECT_*: AUTO (0, the default) or one to force, for a new
                              session and for an existing file alike */
  int64_t clock_start_ms;  /* with XS_SESSION_FIXED_CLOCK: first timestamp, ms since the epoch */
  int64_t clock_step_ms;   /* with XS_SESSION_FIXED_CLOCK: added after each timestamp */
  uint64_t id_seed;        /* non-zero: ids come from a reproducible sequence (tests) */
  /* For new sessions (create, XS_SESSION_CREATE, or the fresh header that replaces a file that
   * had none); NUL-terminated UTF-8, NULL = absent: */
  const char *cwd;            /* header cwd (open only; create takes it as an argument) */
  const char *session_id;     /* the new session's id; NULL = generated (16 hex chars; in the
                                 pi dialect a UUIDv7, as pi makes them) */
  const char *title;          /* header title (pi dialect: a first session_info entry) */
  const char *parent_session; /* header parentSession (lineage: an id or a path) */
  const char *key;            /* version 2: a key of the store's keyed document (xs_keys_*) this
                                 session reports its stats to (see xs_session_stats); NULL = none.
                                 Not with XS_SESSION_READ_ONLY. Copied by the call. */
} xs_session_options;

/** Fills *opts with defaults for `version` (1 or 2; only the fields of that version are written).
 *  @return XS_OK; XS_EINVAL if opts is NULL; XS_EVERSION for an unknown version.
 *  @thread any thread. */
XS_API xs_status xs_session_options_init(xs_session_options *opts, uint32_t version);

/* ------------------------------------------------------------------------------------------ */
/* Store: a root directory holding sessions/, blobs/ and terminal-sessions/.                   */

typedef struct xs_store xs_store;

/** Allocates a store handle (not yet open).
 *  @return an owned handle, release with xs_store_free(); NULL only when out of memory.
 *  @thread any thread. */
XS_API XS_OWN xs_store *xs_store_new(void);

/** Opens the store rooted at `root` (created on the first write if missing; opening writes
 *  nothing). Reopening an open store is XS_EMISUSE.
 *  @param root  directory path; ignored (may be NULL) with XS_STORE_IN_MEMORY.
 *  @param opts  NULL for defaults.
 *  @return XS_OK; XS_EINVAL (root NULL, or names a file; a storage table with a NULL function,
 *          or with XS_STORE_IN_MEMORY); XS_EVERSION (of opts or of the storage table); XS_EMISUSE;
 *          with opts->storage, what its stat of root returned.
 *  @thread serialised per store. */
XS_API xs_status xs_store_open(xs_store *st, const char *root, const xs_store_options *opts);

/** Releases the handle. Sessions opened from it stay valid (they keep the store's internals
 *  alive) and must still be closed.  @thread not concurrently with other calls on st. */
XS_API void xs_store_free(xs_store *st);

/** Code of the last call on st (XS_OK after a success). XS_EMISUSE for NULL.  @thread see top. */
XS_API xs_status xs_store_errcode(const xs_store *st);
/** Message of the last call on st: borrowed, valid until the next call on st; "" after a
 *  success; never NULL.  @thread see top. */
XS_API XS_BORROWED const char *xs_store_errmsg(const xs_store *st);

/** The directory that holds the sessions of working directory `cwd`
 *  (<root>/sessions/--<cwd encoded>--), as text through (buf, cap, out_len).
 *  @return XS_OK; XS_EBUFS; XS_EINVAL; XS_EMISUSE if the store is not open.
 *  @thread serialised per store. */
XS_API xs_status xs_store_session_dir(xs_store *st, const char *cwd, char *buf, size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Blobs: <root>/blobs/<sha256 hex>, where appends move large images (see xs_append_message).   */

#define XS_HASH_BUFSIZE 65 /* SHA-256 as lowercase hex + NUL */

/** Stores `len` bytes (atomically). Storing content that is already there refreshes its age for
 *  the garbage collector's grace period; a damaged copy under that name is replaced.
 *  @param[out] hash_out  XS_HASH_BUFSIZE bytes: the lowercase hex SHA-256, NUL-terminated.
 *  @return XS_OK; XS_EINVAL; XS_EIO; XS_ENOSPC; XS_EMISUSE (store not open).
 *  @thread serialised per store; safe against concurrent puts from other handles and processes. */
XS_API xs_status xs_blob_put(xs_store *st, const void *data, size_t len, char *hash_out);

/** A blob's bytes, verified against its hash, through (buf, cap, out_len).
 *  @return XS_OK; XS_EBUFS; XS_ENOTFOUND (missing); XS_ECORRUPT (content does not match its
 *          name); XS_EINVAL (not a 64-hex hash).  @thread serialised per store. */
XS_API xs_status xs_blob_get(xs_store *st, const char *hash, void *buf, size_t cap, size_t *out_len);

#define XS_BLOB_LIST_VERIFY 0x1u /* read and hash every blob (xs_blob_list) */

/** The blob directory as JSON (capi/schema/blob-list.schema.json): blobs sorted by hash, "others"
 *  the files there that are not named by a hash (temp files of interrupted puts, strays). With
 *  XS_BLOB_LIST_VERIFY each blob is read and hashed and carries "problem": null, or why its content
 *  does not match its name.
 *  A store without a blob directory gives count 0. Nothing is changed.
 *  @param flags  0 or XS_BLOB_LIST_VERIFY.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the same result); XS_EINVAL (unknown
 *          flags); XS_EIO; XS_EMISUSE (store not open).  @thread serialised per store. */
XS_API xs_status xs_blob_list(xs_store *st, uint32_t flags, char *buf, size_t cap, size_t *out_len);

#define XS_GC_OPTIONS_VERSION 1
#define XS_GC_DRY_RUN 0x1u /* report what would be deleted; delete nothing */

typedef struct xs_gc_options {
  uint32_t version; /* XS_GC_OPTIONS_VERSION */
  uint32_t flags;   /* XS_GC_* */
  int64_t grace_ms; /* never delete a file younger than this; default 3600000 (1 hour), >= 0 */
  int64_t now_ms;   /* "now" for the age test; 0 = the system clock (tests pin it) */
} xs_gc_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_gc_options_init(xs_gc_options *o, uint32_t version);

/** Garbage-collects the blob store. Mark: every regular file under the store root (sessions,
 *  their .corrupt-* copies and backups; the blob directory excepted) is read and every
 *  "blob:sha256:<hex>" it mentions is kept. Sweep: unreferenced blobs, and temp files of
 *  interrupted puts, older than the grace period are deleted. If any file cannot be read during
 *  the mark, nothing is deleted and the error names the file. Report, as JSON
 *  (capi/schema/gc-report.schema.json): "deleted" the files removed (on a dry run: that would be),
 *  "young" those unreferenced but kept for the grace period, "missing" the hashes referenced but
 *  not stored.
 *  @param opts  NULL for the defaults.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the report; the collection is not run
 *          twice); XS_EINVAL (negative grace, unknown flags); XS_EVERSION; XS_EIO; XS_ELIMIT
 *          (directories nested deeper than 64: a link loop); XS_EMISUSE (store not open).
 *  @thread serialised per store; safe against concurrent xs_blob_put + append in other processes
 *          for puts younger than the grace period. */
XS_API xs_status xs_blob_gc(xs_store *st, const xs_gc_options *opts, char *buf, size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Discovery                                                                                   */

#define XS_LIST_OPTIONS_VERSION 1
#define XS_LIST_FULL 0x1u /* read whole files: adds messageCount, entryCount, diagnostics */

typedef struct xs_list_options {
  uint32_t version; /* XS_LIST_OPTIONS_VERSION */
  uint32_t flags;   /* XS_LIST_* */
  uint64_t limit;   /* at most this many (the newest); 0 = all */
  const char *cwd;  /* NULL = every working directory */
} xs_list_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_list_options_init(xs_list_options *o, uint32_t version);

/** The store's sessions, newest (file mtime) first, as a JSON array
 *  (capi/schema/listing.schema.json; messageCount, entryCount and diagnostics only with
 *  XS_LIST_FULL); firstMessage is pi's (the first user text), firstPrompt what a listing should
 *  show: the first user text an agent did not inject (command wrappers, hook output, system
 *  reminders), cut to 200 characters + "…" (docs/format.md#finding-sessions).
 *  corruptCopies counts the "<file>.corrupt-*" copies a writable open kept beside the file;
 *  archived is true for an archive ("<file>.jsonl.gz": modified and size are the archive's).
 *  Output is always UTF-8: a byte of a file name that is not UTF-8 shows as U+FFFD in "path"
 *  (and in xs_session_info / xs_session_verify; xs_store_resolve returns the raw path).
 *  Without XS_LIST_FULL only a bounded prefix of each file is read (the header and the first
 *  prompt), however long the header line is. With a cwd, only sessions whose header names that
 *  cwd are listed. Files without a session header are not listed. When the store is on the disk
 *  and its root holds the session index (index.db, xs_index_open), a listing without
 *  XS_LIST_FULL takes the summary of each file whose size, mtime, device and inode are as
 *  indexed from the index instead of reading it, with the same output (docs/search.md#listing);
 *  the store handle then keeps the index open.
 *  @return XS_OK; XS_EBUFS; XS_EINVAL; XS_EVERSION; XS_EMISUSE (store not open).
 *  @thread serialised per store. */
XS_API xs_status xs_store_list(xs_store *st, const xs_list_options *opts, char *buf, size_t cap, size_t *out_len);

/** The path of the session whose id, file name, or file-name suffix after the last '_' starts
 *  with `query` (case-insensitive); the directory of `cwd` (may be NULL) is searched first, then
 *  the whole store.  @return XS_OK; XS_EBUFS; XS_ENOTFOUND; XS_EAMBIGUOUS (the message names the
 *  candidates); XS_EINVAL.  @thread serialised per store. */
XS_API xs_status xs_store_resolve(xs_store *st, const char *query, const char *cwd, char *buf, size_t cap,
                                  size_t *out_len);

/** Records that terminal `terminal_id` ([A-Za-z0-9_-], 1-64) uses `session_path` in `cwd`
 *  (<root>/terminal-sessions/<terminal_id>, replaced atomically).
 *  @return XS_OK; XS_EINVAL; XS_EIO; XS_ENOSPC.  @thread serialised per store. */
XS_API xs_status xs_store_write_breadcrumb(xs_store *st, const char *terminal_id, const char *cwd,
                                           const char *session_path);

/* ------------------------------------------------------------------------------------------ */
/* Retention (docs/retention.md): nothing is deleted by age alone. Archiving compresses idle     */
/* sessions to "<file>.jsonl.gz" (gzip, written atomically, read back and inflated to the exact  */
/* original bytes before the original is removed); pruning deletes only such archives. An       */
/* archive stays in xs_store_list ("archived": true) and resolves by id; xs_session_open of it   */
/* (path, id or id prefix; with or without XS_SESSION_READ_ONLY) gives a read-only handle with    */
/* the same entries and context ("archived": true in xs_session_info) on which every write is    */
/* XS_EREADONLY. xs_session_continue_recent never picks one. An archive that is not gzip, is cut */
/* short or damaged, or inflates past 1 GiB opens with XS_ECORRUPT (and is not listed).          */

#define XS_ARCHIVE_OPTIONS_VERSION 1
#define XS_ARCHIVE_DRY_RUN 0x1u /* report what would be archived (pruned); change nothing */

/* Progress of xs_store_archive: `done` of `total` candidates, called once before the first (0) and
 * after each, on the calling thread, while the store is busy with the call: a call on the same
 * store from it returns XS_EMISUSE. */
typedef void (*xs_archive_progress_fn)(uint64_t done, uint64_t total, void *user);

typedef struct xs_archive_options {
  uint32_t version;                /* XS_ARCHIVE_OPTIONS_VERSION */
  uint32_t flags;                  /* XS_ARCHIVE_* */
  int64_t older_than_ms;           /* required, >= 0 (init sets -1: unset, XS_EINVAL) */
  int64_t now_ms;                  /* "now" for the age test; 0 = the system clock (tests pin it) */
  xs_archive_progress_fn progress; /* NULL: none; xs_store_prune does not call it */
  void *progress_user;             /* passed to progress */
} xs_archive_options;

/** Fills *o with defaults for `version` (older_than_ms -1, which a call refuses: a limit is always
 *  the caller's choice).  @return XS_OK; XS_EINVAL; XS_EVERSION.  @thread any thread. */
XS_API xs_status xs_archive_options_init(xs_archive_options *o, uint32_t version);

/** Archives every live session whose last activity (the "timestamp" of the last line in its final
 *  64 KiB that has one, else the file's mtime) is more than opts->older_than_ms before now. Each
 *  is archived under its writer lock; one another process holds open for writing is skipped. A
 *  failure with one session skips it and goes on. A crash at any point leaves the original, or
 *  the original and a whole archive beside it (hidden from listings; the next run replaces it).
 *  Report, as JSON (capi/schema/archive-report.schema.json): "archived" and "skipped", both in path
 *  order; gzBytes is 0 on a dry run; a skipped session's reason: "writer" (open for writing
 *  elsewhere), "too-large" (over 1 GiB), "archive-exists" (a "<file>.jsonl.gz" with other content
 *  is there, left as it is), "changed" (written to while archived), "error" (detail says what
 *  failed). A dry run reports exactly what a real run at that moment would.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the report; nothing is archived twice);
 *          XS_EINVAL (opts NULL, older_than_ms negative, unknown flags); XS_EVERSION;
 *          XS_EMISUSE (store not open).  @thread serialised per store. */
XS_API xs_status xs_store_archive(xs_store *st, const xs_archive_options *opts, char *buf, size_t cap,
                                  size_t *out_len);

/** Deletes the archives ("*.jsonl.gz" the listing shows) whose file was last modified (when it was
 *  archived) more than opts->older_than_ms before now; never a live session. Report, as JSON
 *  (capi/schema/prune-report.schema.json): "pruned" in path order; with XS_ARCHIVE_DRY_RUN,
 *  exactly the list a real run at that moment deletes, and nothing is deleted.
 *  @return XS_OK; XS_EBUFS (as above); XS_EINVAL; XS_EVERSION; XS_EIO (a removal failed: the
 *          message says how many went before it); XS_EMISUSE.  @thread serialised per store. */
XS_API xs_status xs_store_prune(xs_store *st, const xs_archive_options *opts, char *buf, size_t cap,
                                size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Import (docs/import.md): another agent's store read into native sessions of this one. Kinds:  */
/* "claude" (Claude Code, ~/.claude/projects: docs/import-claude.md), "myagents" (~/.myagents),  */
/* "gateway" (a gateway state directory such as ~/.openclaw: docs/import-hosts.md) and "codex"   */
/* (Codex CLI rollouts, $CODEX_HOME/sessions or ~/.codex/sessions: docs/import-codex.md). The    */
/* source is only ever read: its files are opened read-only and a foreign lock is looked at,     */
/* never taken or removed. For "claude", `source_path` is either one project directory (it holds */
/* a *.jsonl file or sessions-index.json directly) or the projects root holding such directories */
/* (anything else, an empty directory included); for "gateway", a state directory holding        */
/* agents/, the agents/ directory itself or one agents/<id>/sessions/ directory; for "myagents", */
/* the directory holding sessions.json and sessions/; for "codex", a directory whose             */
/* rollout-*.jsonl files, at any depth, are read (any other directory is an empty source). A     */
/* relative path is relative to the process's working directory ("../x" is fine: the path is    */
/* only read).                                                                                   */

#define XS_IMPORT_OPTIONS_VERSION 2 /* 2 added progress; a version 1 struct is still accepted */
#define XS_IMPORT_DRY_RUN 0x1u /* report what would be imported; write nothing (not even the
                                  store's directory) */

/* Progress of xs_import: `done` of `total` bytes of the source's transcripts handled. Called once
 * with done 0 when the source has been found, then about once per thousandth of the total, and
 * once with done == total at the end; on the calling thread, while the store is busy with the call
 * (a call on the same store from it returns XS_EMISUSE). The total is the files' sizes when the
 * import starts. */
typedef void (*xs_import_progress_fn)(uint64_t done, uint64_t total, void *user);

typedef struct xs_import_options {
  uint32_t version;         /* XS_IMPORT_OPTIONS_VERSION */
  uint32_t flags;           /* XS_IMPORT_* */
  const char *target_cwd;   /* "claude" only: the cwd of every imported session; NULL = each
                               conversation's own (else the index's originalPath). An absolute
                               path without "." or ".." components. Copied by the call. */
  const char *fallback_cwd; /* "gateway", "myagents" and "codex" only: the cwd of a session its
                               source names none for (their transcripts keep their own); NULL = the
                               source directory. Absolute, as target_cwd. Copied by the call. */
  int64_t lock_wait_ms;     /* how long to wait for a host's index lock (held while it writes the
                               index) before reading the index anyway, with a note; default 2000,
                               >= 0; a lock older than 30 s is stale and not waited for */
  int64_t now_ms;           /* "now" for a lock's age; 0 = the system clock (tests pin it) */
  /* version 2: */
  xs_import_progress_fn progress; /* NULL: none; xs_foreign_list does not call it */
  void *progress_user;            /* passed to progress */
} xs_import_options;

/** Fills *o with defaults for `version` (1 or 2; a version 1 struct ends before progress, and only
 *  its fields are written).  @return XS_OK; XS_EINVAL; XS_EVERSION.  @thread any thread. */
XS_API xs_status xs_import_options_init(xs_import_options *o, uint32_t version);

/** Imports the store of `kind` at `source_path` into st: every conversation becomes a native
 *  session (created, or continued by a re-import, which adds only what is new: importing twice
 *  imports nothing the second time), every host index key a key of the keyed store. Report, as JSON
 *  (capi/schema/import-report.schema.json, docs/import.md#the-report); for each session rowsRead =
 *  imported + keptAsCustom + alreadyImported + skipped. Bad rows and files inside the source (not
 *  JSON, binary, an index of the wrong shape) are in the report, never a failure. A failed write to
 *  the store is returned; the sessions written before it stay whole.
 *  @param kind         "claude", "myagents", "gateway" or "codex".
 *  @param source_path  a directory (see the section's comment).
 *  @param opts         NULL for the defaults.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the report; nothing is imported twice);
 *          XS_EINVAL (kind, source_path or out_len NULL, an unknown kind, an empty source_path,
 *          one that is a file, unknown flags, a cwd of the wrong kind, relative or with ".."
 *          components, a negative lock_wait_ms); XS_ENOTFOUND (source_path does not exist; for
 *          "myagents", a directory with neither sessions.json nor sessions/; "gateway" takes any
 *          other directory for one sessions/ directory); XS_EVERSION; the store's write errors (XS_EIO, XS_ENOSPC,
 *          XS_ELOCKED, ...); XS_EMISUSE (store not open).  @thread serialised per store. */
XS_API xs_status xs_import(xs_store *st, const char *kind, const char *source_path, const xs_import_options *opts,
                           char *buf, size_t cap, size_t *out_len);

/** What the store of `kind` at `source_path` holds, read only, as JSON
 *  (capi/schema/foreign-list.schema.json, one shape per kind, told by "source"): "claude": its
 *  projects and their transcripts (docs/import-claude.md#the-listing; a project directory gives one
 *  project); "gateway" and "myagents": the listings of docs/import-hosts.md#listing-json; "codex":
 *  its rollouts (docs/import-codex.md#the-listing). Nothing is written anywhere, st's store
 *  included.
 *  @param st    any store handle, open or not: it holds the error text and the retry's result.
 *  @param opts  NULL for the defaults; only lock_wait_ms and now_ms are read.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the same listing); XS_EINVAL and
 *          XS_ENOTFOUND as xs_import; XS_EVERSION; XS_EIO.  @thread serialised per store. */
XS_API xs_status xs_foreign_list(xs_store *st, const char *kind, const char *source_path,
                                 const xs_import_options *opts, char *buf, size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Keyed session store (docs/keyed-store.md): one JSON document, <root>/sessions.json unless      */
/* xs_store_options.keys_path names another, mapping a caller's session key ("agent:<id>:main",  */
/* "cron:<job>") to a record: a JSON object with a string "sessionId", optional typed fields      */
/* (sessionFile, title, cwd, chatType: strings; createdAt, updatedAt, inputTokens, outputTokens,  */
/* cacheRead, cacheWrite, totalTokens, contextTokens, cost, compactionCount, memoryFlushAt,       */
/* memoryFlushCompactionCount: numbers; null allowed) and any other fields, kept verbatim and in  */
/* order. Keys: 1-256 bytes of printable UTF-8 without '/' or a backslash.                      */
/* Every change is a read-modify-write under an exclusive lock on "<document>.lock" held across   */
/* processes (released by the kernel if the holder dies), published atomically (temp file, fsync, */
/* rename, directory fsync). Readers take no lock and never see a partial document. A damaged     */
/* document is never written over: the first change that meets it moves it aside as              */
/* "<document>.corrupt-<time>" and returns XS_ECORRUPT naming the copy (the next change starts an  */
/* empty document); reads of it return XS_ECORRUPT and change nothing.                            */
/* Common errors: XS_EINVAL (bad key or JSON, a record whose fields have the wrong types),        */
/* XS_ELIMIT (JSON too deep or large), XS_ECORRUPT, XS_ELOCKED (another writer held the lock for  */
/* 10 s), XS_EIO, XS_ENOSPC, XS_EMISUSE (store not open). A refused change leaves the document    */
/* byte for byte as it was.                                                                       */

/** The record of `key` as minified JSON (tokens as stored; capi/schema/key-record.schema.json).
 *  @return also XS_ENOTFOUND (no record), XS_EBUFS.  @thread serialised per store. */
XS_API xs_status xs_keys_get(xs_store *st, const char *key, char *buf, size_t cap, size_t *out_len);

/** The records of every key starting with `prefix` (NULL or "": all), in the document's order
 *  (capi/schema/keys-listing.schema.json).  @return also XS_EBUFS.
 *  @thread serialised per store. */
XS_API xs_status xs_keys_list(xs_store *st, const char *prefix, char *buf, size_t cap, size_t *out_len);

/** Replaces the record of `key` (a new key goes last).  @thread serialised per store. */
XS_API xs_status xs_keys_put(xs_store *st, const char *key, const char *record_json, size_t len);

/** Merges `patch_json` into the record of `key` as a JSON merge patch (RFC 7386: null removes a
 *  field, objects merge, anything else replaces); fields keep their places, new ones go last; a
 *  missing record starts empty (the result still needs its "sessionId").
 *  @thread serialised per store. */
XS_API xs_status xs_keys_patch(xs_store *st, const char *key, const char *patch_json, size_t len);

/** Removes the record of `key`.  @return also XS_ENOTFOUND.  @thread serialised per store. */
XS_API xs_status xs_keys_delete(xs_store *st, const char *key);

/** Decides, under the lock, what the record becomes. current_json is the record (minified, not
 *  NUL-terminated) or NULL when there is none. On entry *new_json == current_json and
 *  *new_len == current_len; set them to another JSON text (borrowed: it must stay valid until the
 *  callback returns), or *new_json to NULL to remove the record. Return XS_OK to apply, anything
 *  else to cancel: nothing is written and xs_keys_update returns that status. A call from the
 *  callback on this store handle, or on any store whose update callback runs further up the same
 *  thread, fails with XS_EMISUSE (its lock is held). */
typedef xs_status (*xs_keys_update_fn)(void *user, const char *current_json, size_t current_len,
                                       const char **new_json, size_t *new_len);

/** Runs `fn` once under the document's lock and applies what it decides (see xs_keys_update_fn):
 *  a read-modify-write no other process or handle can interleave with.
 *  @return also what fn returned when it cancelled; XS_EINVAL (fn NULL, or a result that is not a
 *  valid record).  @thread serialised per store (the callback runs on the calling thread). */
XS_API xs_status xs_keys_update(xs_store *st, const char *key, xs_keys_update_fn fn, void *user);

/* Reset policies (docs/reset-policies.md): when a key's current session has expired. A daily    */
/* reset at hour H of a time zone's local time (the session expires once the wall clock passed   */
/* H:00 since its last activity) and/or an idle expiry after N minutes without activity; with   */
/* both, whichever comes first. A policy with neither never expires.                             */

#define XS_RESET_POLICY_VERSION 1

typedef struct xs_reset_policy {
  uint32_t version;       /* XS_RESET_POLICY_VERSION */
  int32_t daily_hour;     /* 0-23: the daily reset's hour; -1 (the default) = no daily reset */
  int64_t idle_minutes;   /* > 0: idle expiry; 0 (the default) = none */
  const char *time_zone;  /* of daily_hour: an IANA name ("Asia/Shanghai", "America/New_York",
                             read from $TZDIR or /usr/share/zoneinfo), "UTC", or a fixed offset
                             ("+08:00", "-0530", "+08"); NULL or "" = the host's ($TZ, else
                             /etc/localtime, else UTC). Only with a daily hour. */
} xs_reset_policy;

/** Fills *p with defaults for `version`: no daily reset (-1), no idle expiry (0), time_zone NULL.
 *  @return XS_OK; XS_EINVAL if p is NULL; XS_EVERSION for an unknown version.
 *  @thread any thread. */
XS_API xs_status xs_reset_policy_init(xs_reset_policy *p, uint32_t version);

/* Flags of xs_store_session_for_key */
#define XS_RESET_FORCE 0x1u /* start a new session whatever the policy says (a manual /new) */

/* Why xs_store_session_for_key returned the session it did (*reason_out) */
#define XS_RESET_CONTINUED 0 /* the record's session, not expired */
#define XS_RESET_NEW 1       /* the key had no record: a new session */
#define XS_RESET_DAILY 2     /* expired by the daily reset: a new session */
#define XS_RESET_IDLE 3      /* expired by the idle expiry: a new session */
#define XS_RESET_FORCED 4    /* XS_RESET_FORCE: a new session */

struct xs_session; /* the session handle (typedef'd as xs_session below) */

/** The current session of `key`, opened for writing, at the time of a message (now_ms): the one
 *  the key's record names, or a new one when the key has no record, when the policy says the
 *  record's session expired (its last activity, the record's updatedAt, else createdAt, else
 *  unknown = expired, before the latest daily boundary at or before now_ms, or before
 *  now_ms - idle), or with XS_RESET_FORCE. Decided and recorded under the document's lock, so
 *  two processes asking at once get the same session.
 *  A continued session: the record's updatedAt becomes now_ms (never earlier than it was); the
 *  file is the record's sessionFile (relative: to the document's directory), else
 *  <document dir>/<sessionId>.jsonl when that exists; a missing file starts again under the
 *  record's id (at sessionFile, or in the cwd's directory, then recorded as sessionFile).
 *  A new session: created in the directory of opts->cwd (else the record's "cwd", else the
 *  process's), deferred as usual but its writer lock taken at once; its header's parentSession
 *  names the old session (omp dialect: its id; pi: its file path, else its id). The record gets
 *  sessionId, sessionFile, createdAt = updatedAt = now_ms, the old id appended to
 *  "previousSessionIds" (newest last, the last 20 kept), and 0 in those of inputTokens,
 *  outputTokens, cacheRead, cacheWrite, totalTokens, contextTokens, cost it holds; every other
 *  field stays as it was. The old transcript is never touched.
 *  @param now_ms  the message's time, ms since the epoch; 0 = the system clock.
 *  @param policy  NULL = the store's (xs_store_options.reset_policy; none: never expires).
 *  @param flags   0 or XS_RESET_FORCE.
 *  @param opts    for the session (NULL: defaults); session_id, title, parent_session (a key
 *                 without a record only) apply to a new session. XS_SESSION_READ_ONLY: XS_EINVAL.
 *  @param[out] out         an owned handle, release with xs_session_close(); NULL on error.
 *  @param[out] reason_out  NULL, or receives XS_RESET_*.
 *  @return XS_OK; XS_EINVAL (bad key, now_ms < 0, an hour outside 0-23, idle_minutes < 0, an
 *          unknown time zone, unknown flags, a record's id that cannot name a new file);
 *          XS_EEXISTS (the new session would get the key's current id: opts->session_id or
 *          id_seed); XS_ENOTFOUND (no time zone database); XS_ELOCKED (another writer holds the record's
 *          session, or the document's lock for 10 s: the record is left as it was); XS_EVERSION;
 *          XS_ECORRUPT (a damaged document, moved aside as by any change), XS_EIO, XS_ENOSPC;
 *          XS_EMISUSE (store not open). On any other error the document is unchanged.
 *  @thread serialised per store; safe against other handles and processes on the same document. */
XS_API xs_status xs_store_session_for_key(xs_store *st, const char *key, int64_t now_ms,
                                          const xs_reset_policy *policy, uint32_t flags,
                                          const xs_session_options *opts, XS_OWN struct xs_session **out,
                                          uint32_t *reason_out);

/** Static name of an XS_RESET_* reason: "continued", "new", "daily", "idle", "forced"; "unknown"
 *  for any other value.  @return borrowed, static, never NULL.  @thread any thread. */
XS_API XS_BORROWED const char *xs_reset_reason_str(uint32_t reason);

/* ------------------------------------------------------------------------------------------ */
/* Session lifecycle. Errors of the constructors are reported on the store.                    */

typedef struct xs_session xs_session;

/** Starts a new session for working directory `cwd`, in the store's session directory for it.
 *  Nothing is written until the first assistant message (unless XS_SESSION_NO_DEFER).
 *  @param[out] out  receives an owned handle, release with xs_session_close(); NULL on error.
 *  @return XS_OK; XS_EINVAL (bad cwd/session_id/title); XS_EVERSION; XS_ELOCKED, XS_EIO,
 *          XS_ENOSPC (NO_DEFER write); XS_EMISUSE (store not open).
 *  @thread serialised per store; the new session is independent of the store's lock. */
XS_API xs_status xs_session_create(xs_store *st, const char *cwd, const xs_session_options *opts,
                                   XS_OWN xs_session **out);

/** Opens the session file at `path` (absolute, or relative to the process's directory). A `path`
 *  with no '/' that names no file is taken as a session id or id prefix (see xs_store_resolve).
 *  v1/v2 files are migrated in memory; a writable open rewrites them atomically at once (a
 *  read-only open never writes). Unreadable lines are skipped and reported. A writable open of a
 *  file without a session header keeps its bytes as "<path>.corrupt-<time>" and starts a fresh
 *  session in its place (reported in the diagnostics); a read-only open gives XS_ENOHEADER.
 *  A writable open refuses a file with more than one name (hard links, or a move to another
 *  directory that stopped half-way where the file system has no atomic no-replace rename):
 *  each name has its own lock, so two writers could append at once.
 *  @param[out] out  receives an owned handle, release with xs_session_close(); NULL on error.
 *  @return XS_OK; XS_ENOTFOUND (no such file and no XS_SESSION_CREATE); XS_EAMBIGUOUS (an id
 *          prefix matching several sessions); XS_ELOCKED (another writer); XS_ENOHEADER; XS_EIO;
 *          XS_ENOSPC; XS_ECONFLICT (also: the file has more than one name); XS_EINVAL;
 *          XS_EVERSION.
 *  @thread serialised per store. */
XS_API xs_status xs_session_open(xs_store *st, const char *path_or_id, const xs_session_options *opts,
                                 XS_OWN xs_session **out);

/** Continues the most recent session of `cwd`: the one this terminal last used (its breadcrumb,
 *  when terminal_id is not NULL and the breadcrumb names cwd and an existing file), else the newest
 *  file for cwd (found as xs_store_list finds it), else a new session. Opened for writing; the
 *  breadcrumb is updated.
 *  @param[out] out  receives an owned handle, release with xs_session_close().
 *  @return as xs_session_open / xs_session_create.  @thread serialised per store. */
XS_API xs_status xs_session_continue_recent(xs_store *st, const char *cwd, const char *terminal_id,
                                            const xs_session_options *opts, XS_OWN xs_session **out);

/** Copies another session file (any version; migrated in memory) into a new session for
 *  `target_cwd`: a new id, parentSession = the source's id, its title kept, written at once.
 *  The source is only read.
 *  @param[out] out  receives an owned handle on the new session.
 *  @return XS_OK; XS_ENOTFOUND; XS_ENOHEADER (the source has no header); XS_EIO; XS_ENOSPC; XS_EINVAL.
 *  @thread serialised per store. */
XS_API xs_status xs_session_fork_from(xs_store *st, const char *source_path, const char *target_cwd,
                                      const xs_session_options *opts, XS_OWN xs_session **out);

/** A copy of this session under a new id beside it: every entry (skipped lines are not copied),
 *  parentSession = this session's id, the title kept, written at once. s stays open on the
 *  original file.
 *  @param[out] out  receives an owned handle on the new session. Errors are reported on s.
 *  @return XS_OK; XS_EIO; XS_ENOSPC; XS_ELOCKED; XS_EINVAL (opts).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_fork(xs_session *s, const xs_session_options *opts, XS_OWN xs_session **out);

/** A new session holding the path from the root to leaf_id (NULL: the current leaf), without label
 *  entries (an entry whose parent was a dropped label hangs under the entry before it), plus fresh
 *  label entries, stamped now, for the labels of entries on that path; parentSession = this
 *  session's file path; the title is not carried; written at once.
 *  @param[out] out  receives an owned handle on the new session. Errors are reported on s.
 *  @return XS_OK; XS_ENOTFOUND; XS_EIO; XS_ENOSPC; XS_EINVAL.  @thread serialised per handle. */
XS_API xs_status xs_session_create_branched(xs_session *s, const char *leaf_id, const xs_session_options *opts,
                                            XS_OWN xs_session **out);

/** Moves the session to working directory new_cwd: its file (and its artifacts directory
 *  "<file without .jsonl>/", if any) goes to that cwd's session directory and the header's cwd is
 *  rewritten; every step is undone if one fails.
 *  A failed rename or directory sync poisons the handle like a failed append.
 *  @return XS_OK; XS_EREADONLY; XS_EEXISTS (a file of that name is there); XS_ELOCKED; XS_EIO;
 *          XS_ENOSPC; XS_ECONFLICT; XS_EINVAL; XS_EPOISONED (an earlier write failed; nothing
 *          moves).  @thread serialised per handle. */
XS_API xs_status xs_session_move_to(xs_session *s, const char *new_cwd);

/** Read-only handles: picks up entries another process appended since the last load, reading only
 *  the new bytes (a file that was replaced or shrank is read again whole). A last line still being
 *  written is reported as an incomplete tail and read again next time; nothing is ever repaired.
 *  An old (v1/v2) file is migrated in memory again with the same ids, so ids already handed out
 *  stay valid; an unchanged file is not read at all. The leaf moves to the last entry.
 *  @param[out] added  may be NULL; receives the change in the number of entries.
 *  @return XS_OK; XS_EMISUSE (a writable handle: it is the only writer); XS_ENOTFOUND (the file
 *          is gone); XS_EIO.  @thread serialised per handle. */
XS_API xs_status xs_session_reload(xs_session *s, int64_t *added);

/** Flushes (as xs_session_flush, errors ignored: call it first to see them), releases the writer
 *  lock and frees the handle. NULL is a no-op. Using s afterwards is undefined.
 *  @thread not concurrently with any other call on s. */
XS_API void xs_session_close(xs_session *s);

/** Code of the last call on s (XS_OK after a success). XS_EMISUSE for NULL.  @thread see top. */
XS_API xs_status xs_session_errcode(const xs_session *s);
/** Message of the last call on s: borrowed, valid until the next call on s; "" after a success;
 *  never NULL.  @thread see top. */
XS_API XS_BORROWED const char *xs_session_errmsg(const xs_session *s);

/** Makes everything appended so far durable (fdatasync). A deferred session that is not on disk
 *  yet has nothing to flush.
 *  @return XS_OK; XS_EIO; XS_EPOISONED (an earlier write failed).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_flush(xs_session *s);

/** Writes a deferred session to disk now (the whole session, atomically), ending the deferral.
 *  @return XS_OK (also when already on disk); XS_EREADONLY; XS_ELOCKED; XS_EIO; XS_ENOSPC;
 *          XS_ECONFLICT; XS_EPOISONED.  @thread serialised per handle. */
XS_API xs_status xs_session_persist(xs_session *s);

/* ------------------------------------------------------------------------------------------ */
/* Writing. Every append adds one entry whose parent is the current leaf, then moves the leaf to */
/* it. Common errors of all appends: XS_EREADONLY; XS_EINVAL (malformed JSON, wrong shape,      */
/* invalid UTF-8); XS_ELIMIT (the line or the nesting would exceed the session's limits);       */
/* XS_EIO / XS_ENOSPC (the write failed: the session is now poisoned); XS_EPOISONED;           */
/* XS_ECONFLICT (another process replaced the file; nothing written); XS_ELOCKED. A failed     */
/* append leaves the session as it was.                                                        */
/* Before an entry is written it goes through the size rules, which keep a transcript line from */
/* growing without bound: strings over 500,000 UTF-16 units are cut with a notice ("" for       */
/* *Signature keys), partialJson and jsonlEvents members are dropped, base64 images of 1024+    */
/* chars in `content` arrays and image data URLs under `image_url` move to the store's blobs    */
/* (refs "blob:sha256:<hex>"; contexts always show them resolved). Only the values these rules  */
/* change are rewritten, and only at append time: lines already in a file are never changed by  */
/* them, so a live session and the same session reopened hold the same bytes. The pi dialect    */
/* applies none of these rules (docs/dialects.md): pi has no blob store and no truncation.      */

/** Appends a whole entry given as a JSON object with a string "type" (any type: unknown types
 *  are stored as given). The session adds "id" (unless the entry has one: 1-64 chars of
 *  [A-Za-z0-9_-], XS_EEXISTS if taken), "parentId" (the leaf; an entry may not carry one) and
 *  "timestamp" (unless given, as a string). The line is "type", then id, parentId and
 *  timestamp, then the caller's other members in their order and bytes, minified; "custom" and
 *  "custom_message" put id, parentId and timestamp after the caller's members. Known types are
 *  checked for their required fields ("message" must be an object, a label's target must exist:
 *  XS_ENOTFOUND). A form only the other dialect reads is XS_EDIALECT (docs/dialects.md): in pi's,
 *  omp's entry types, a model_change with "model", "attribution", "fromExtension",
 *  "shortSummary", "preserveData"; in omp's, "session_info", a model_change without "model",
 *  "fromHook".
 *  @thread serialised per handle. */
XS_API xs_status xs_append(xs_session *s, const char *entry_json, size_t len, char *id_out);

/** Appends a "message" entry; message_json is the AgentMessage object (with a string "role").
 *  The first assistant message ends the deferral and writes the session.
 *  @thread serialised per handle. */
XS_API xs_status xs_append_message(xs_session *s, const char *message_json, size_t len, char *id_out);

/** Appends a "thinking_level_change"; level NULL stores null.  @thread serialised per handle. */
XS_API xs_status xs_append_thinking_level(xs_session *s, const char *level, char *id_out);

/** Appends a "model_change" {model: "provider/id", role?}; role NULL = absent ("default").
 *  In the pi dialect the entry is pi's {provider, modelId}, split at the first '/' of model.
 *  @return also XS_EINVAL in the pi dialect for a model without a '/' (or with nothing before
 *  or after it); XS_EDIALECT in the pi dialect for a role (pi has none).
 *  @thread serialised per handle. */
XS_API xs_status xs_append_model_change(xs_session *s, const char *model, const char *role, char *id_out);

#define XS_COMPACTION_VERSION 1
#define XS_UNSET (-1) /* for tri-state int32 fields: absent */
typedef struct xs_compaction {
  uint32_t version;               /* XS_COMPACTION_VERSION */
  int32_t from_extension;         /* XS_UNSET (default), 0 or 1 */
  const char *summary;            /* required text */
  size_t summary_len;
  const char *short_summary;      /* NULL = absent */
  size_t short_summary_len;
  const char *first_kept_entry_id; /* NUL-terminated, required (not checked against the tree) */
  int64_t tokens_before;
  const char *details_json;       /* NULL = absent; any JSON value */
  size_t details_len;
  const char *preserve_data_json; /* NULL = absent; any JSON value */
  size_t preserve_data_len;
} xs_compaction;

/** Fills *c with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_compaction_init(xs_compaction *c, uint32_t version);
/** Appends a "compaction" entry. In the pi dialect from_extension is written as pi's
 *  "fromHook".  @return also XS_EDIALECT in the pi dialect for short_summary or
 *  preserve_data_json (omp only).  @thread serialised per handle. */
XS_API xs_status xs_append_compaction(xs_session *s, const xs_compaction *c, char *id_out);

/* Compaction planning (docs/compaction-planning.md): when to compact, when to run the memory
 * flush that comes before a compaction, and where to cut; xs_append_compaction then writes the
 * entry. Token counts are int64; a negative count or setting is XS_EINVAL. */
#define XS_COMPACTION_SETTINGS_VERSION 1
typedef struct xs_compaction_settings {
  uint32_t version;              /* XS_COMPACTION_SETTINGS_VERSION */
  int64_t context_window;        /* the model's context window in tokens; > 0 for the decisions
                                    (the plan does not read it); default 0 */
  int64_t reserve_tokens;        /* room kept for the prompt and the next reply; default 16384 */
  int64_t reserve_floor;         /* the floor under reserve_tokens; default 20000; 0 = none */
  int64_t keep_recent_tokens;    /* what a compaction keeps of the newest entries; default 20000 */
  int64_t soft_threshold_tokens; /* how far below the compaction threshold the memory flush runs;
                                    default 4000 */
} xs_compaction_settings;

/** Fills *s with the defaults above for `version`.  @return XS_OK; XS_EINVAL (s NULL);
 *  XS_EVERSION.  @thread any thread. */
XS_API xs_status xs_compaction_settings_init(xs_compaction_settings *s, uint32_t version);

/** *out = 1 when a context of `context_tokens` should be compacted now:
 *  context_tokens > context_window - max(reserve_tokens, reserve_floor); else 0.
 *  @return XS_OK; XS_EINVAL (NULL, context_window <= 0, a negative value); XS_EVERSION.
 *  @thread any thread (no handle, so no error text). */
XS_API xs_status xs_should_compact(const xs_compaction_settings *s, int64_t context_tokens, int *out);

/** *out = 1 when the memory flush should run now: past the compaction threshold minus
 *  soft_threshold_tokens, and not yet in this compaction cycle (last_flush_compaction_count, the
 *  compaction count when it last ran, or -1 for never, differs from compaction_count). Hosts that
 *  keep the counts in the keyed store use xs_keys_claim_memory_flush instead.
 *  @return XS_OK; XS_EINVAL (NULL, context_window <= 0, a negative value other than
 *  last_flush_compaction_count -1); XS_EVERSION.  @thread any thread (no error text). */
XS_API xs_status xs_should_flush_memory(const xs_compaction_settings *s, int64_t context_tokens,
                                        int64_t compaction_count, int64_t last_flush_compaction_count, int *out);

/** Where a compaction at `leaf_id` (NULL = the session's leaf) should cut, keeping at least
 *  keep_recent_tokens of the newest path entries and never a tool result without its call
 *  (capi/schema/compaction-plan.schema.json). Token estimates: an assistant message's usage.output
 *  when reported, else the line's bytes / 4 rounded up
 *  (docs/compaction-planning.md#token-estimates).
 *  @return XS_OK; XS_EBUFS; XS_ENOTFOUND (no such entry); XS_EINVAL (settings NULL, a negative
 *  keep_recent_tokens); XS_EVERSION.  @thread serialised per handle. */
XS_API xs_status xs_compaction_plan(xs_session *s, const char *leaf_id, const xs_compaction_settings *settings,
                                    char *buf, size_t cap, size_t *out_len);

/** The memory flush decision for the keyed store's record of `key`, made and marked under the
 *  document's lock: *run = 1 when xs_should_flush_memory holds for the record's compactionCount
 *  (absent = 0) and memoryFlushCompactionCount (absent or null = never); the record then gets
 *  memoryFlushAt = now_ms (0 = now) and memoryFlushCompactionCount = compactionCount, so no other
 *  process or call runs the flush again in this cycle. *run = 0 leaves the document untouched.
 *  @return XS_OK; XS_ENOTFOUND (no record); XS_EINVAL (NULL, bad key or settings, counts in the
 *  record that are not whole numbers); XS_EVERSION; and the keyed store's errors (XS_ECORRUPT,
 *  XS_ELOCKED, XS_EIO, XS_ENOSPC, XS_EMISUSE).  @thread serialised per store. */
XS_API xs_status xs_keys_claim_memory_flush(xs_store *st, const char *key, const xs_compaction_settings *settings,
                                            int64_t context_tokens, int64_t now_ms, int *run);

/** Appends a "custom" entry (extension state; never part of the context); data_json NULL =
 *  absent.  @thread serialised per handle. */
XS_API xs_status xs_append_custom(xs_session *s, const char *custom_type, const char *data_json,
                                  size_t data_len, char *id_out);

#define XS_CUSTOM_MESSAGE_VERSION 1
typedef struct xs_custom_message {
  uint32_t version;         /* XS_CUSTOM_MESSAGE_VERSION */
  int32_t display;          /* 0 or 1 (default 1) */
  const char *custom_type;  /* required, NUL-terminated */
  const char *content_json; /* required: a JSON string or an array of content blocks */
  size_t content_len;
  const char *details_json; /* NULL = absent */
  size_t details_len;
  const char *attribution;  /* NULL = "agent" */
} xs_custom_message;

/** Fills *m with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_custom_message_init(xs_custom_message *m, uint32_t version);
/** Appends a "custom_message" entry (extension-provided; part of the context). The pi dialect
 *  writes no "attribution".  @return also XS_EDIALECT in the pi dialect for an attribution.
 *  @thread serialised per handle. */
XS_API xs_status xs_append_custom_message(xs_session *s, const xs_custom_message *m, char *id_out);

/** Appends a "label" entry for target_id (a child of the leaf that moves the leaf, like every
 *  other entry). label NULL clears the target's label. Labels are global: the last one wins.
 *  @return also XS_ENOTFOUND for an unknown target.  @thread serialised per handle. */
XS_API xs_status xs_append_label(xs_session *s, const char *target_id, const char *label, char *id_out);

/** Appends a "ttsr_injection"; rules_json is a JSON array of rule names.
 *  @return also XS_EDIALECT in the pi dialect (omp only, like session_init and mode_change).
 *  @thread serialised per handle. */
XS_API xs_status xs_append_ttsr_injection(xs_session *s, const char *rules_json, size_t len, char *id_out);

#define XS_SESSION_INIT_ENTRY_VERSION 1
typedef struct xs_session_init_entry {
  uint32_t version;   /* XS_SESSION_INIT_ENTRY_VERSION */
  uint32_t reserved;  /* must be 0 */
  const char *system_prompt;
  size_t system_prompt_len;
  const char *task;
  size_t task_len;
  const char *tools_json; /* JSON array of tool names */
  size_t tools_len;
  const char *output_schema_json; /* NULL = absent */
  size_t output_schema_len;
} xs_session_init_entry;

/** Fills *si with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_session_init_entry_init(xs_session_init_entry *si, uint32_t version);
/** Appends a "session_init" entry.  @return also XS_EDIALECT in the pi dialect.
 *  @thread serialised per handle. */
XS_API xs_status xs_append_session_init(xs_session *s, const xs_session_init_entry *si, char *id_out);

/** Appends a "mode_change" {mode, data?}; data_json NULL = absent.
 *  @return also XS_EDIALECT in the pi dialect.  @thread serialised per handle. */
XS_API xs_status xs_append_mode_change(xs_session *s, const char *mode, const char *data_json,
                                       size_t data_len, char *id_out);

/** Moves the leaf to from_id (NULL: a new root) and appends a "branch_summary" there, with
 *  fromId = from_id or "root": the durable way to branch (the leaf itself is not persisted).
 *  @param from_extension  XS_UNSET, 0 or 1 (written as "fromHook" in the pi dialect).
 *  @return also XS_ENOTFOUND for an unknown from_id.  @thread serialised per handle. */
XS_API xs_status xs_session_branch_with_summary(xs_session *s, const char *from_id, const char *summary,
                                                size_t summary_len, const char *details_json,
                                                size_t details_len, int32_t from_extension, char *id_out);

/** Moves the leaf to entry `id`, or to none when id is NULL (the next append then starts a new
 *  root). Only the handle changes: nothing is written, and a reopened session's leaf is its last
 *  entry again. id is borrowed for the call. Allowed on read-only handles.
 *  @return XS_OK; XS_ENOTFOUND (no entry has that id; the leaf stays where it was).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_set_leaf(xs_session *s, const char *id);

/** Sets the session's title (title NULL removes it). omp dialect: the header's "title", the
 *  file rewritten atomically when on disk. pi dialect: appends a "session_info" entry as
 *  xs_append_session_info does (NULL: an empty name, which clears the title).
 *  @return XS_OK; XS_EREADONLY; XS_EINVAL; XS_ECONFLICT; XS_EIO; XS_ENOSPC; XS_EPOISONED.
 *  @thread serialised per handle. */
XS_API xs_status xs_session_set_title(xs_session *s, const char *title, size_t title_len);

/** pi dialect: appends pi's title entry {"type":"session_info",...,"name"} with name trimmed of
 *  leading and trailing white space as JavaScript's trim() does (an empty name clears the title).
 *  The title is the name of the last session_info entry in the file.
 *  @return also XS_EDIALECT in the omp dialect (omp keeps the title in the header:
 *  xs_session_set_title).  @thread serialised per handle. */
XS_API xs_status xs_append_session_info(xs_session *s, const char *name, size_t name_len, char *id_out);

/** The dialect the session writes: XS_DIALECT_OMP or XS_DIALECT_PI (never AUTO), into *dialect.
 *  Allowed on read-only handles.  @return XS_OK; XS_EMISUSE (s NULL); XS_EINVAL (dialect NULL).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_dialect(xs_session *s, uint32_t *dialect);

/* ------------------------------------------------------------------------------------------ */
/* Reading. All return JSON (or an id) through (buf, cap, out_len); see "Text out" above.       */
/* Common errors: XS_EBUFS; XS_EINVAL (out_len NULL, or buf NULL with cap > 0).                  */

/** The context the model sees for the path ending at leaf_id (NULL: the current leaf), as JSON
 *  (capi/schema/context.schema.json, docs/context.md#output); the pi dialect adds pi's "model"
 *  after "thinkingLevel". Stored messages are copied byte for byte. pi's
 *   buildSessionContext(entries, null), the empty context: set the leaf to none first
 *   (xs_session_set_leaf(s, NULL)).
 *  @return also XS_ENOTFOUND for an unknown leaf_id.  @thread serialised per handle. */
XS_API xs_status xs_build_context(xs_session *s, const char *leaf_id, char *buf, size_t cap, size_t *out_len);

/* Read flags for the entry readers below. */
#define XS_READ_RESOLVE_BLOBS 0x1u /* blob refs replaced by the blobs' content (as contexts show them);
                                      by default entries come as stored, refs in place */

/** The header line, as stored (capi/schema/header.schema.json).  @thread serialised per handle. */
XS_API xs_status xs_session_header(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** All entries in file order, as a JSON array of the stored lines
 *  (capi/schema/entries.schema.json).
 *  @param flags  XS_READ_* (0: as stored).  @thread serialised per handle. */
XS_API xs_status xs_session_entries(xs_session *s, uint32_t flags, char *buf, size_t cap, size_t *out_len);

/** One entry, as stored (capi/schema/entry.schema.json).  @param flags XS_READ_*.
 *  @return also XS_ENOTFOUND.  @thread serialised per handle. */
XS_API xs_status xs_session_entry(xs_session *s, const char *id, uint32_t flags, char *buf, size_t cap,
                                  size_t *out_len);

/** The entries from the root down to `id` (NULL: the leaf; an empty array when the leaf is none;
 *  capi/schema/entries.schema.json).
 *  @param flags XS_READ_*.  @return also XS_ENOTFOUND.  @thread serialised per handle. */
XS_API xs_status xs_session_path(xs_session *s, const char *id, uint32_t flags, char *buf, size_t cap,
                                 size_t *out_len);

/** The direct children of `id` in file order, as a JSON array of entries
 *  (capi/schema/entries.schema.json).
 *  @param flags XS_READ_*.  @return also XS_ENOTFOUND.  @thread serialised per handle. */
XS_API xs_status xs_session_children(xs_session *s, const char *id, uint32_t flags, char *buf, size_t cap,
                                     size_t *out_len);

/** The whole tree, flat, in depth-first pre-order (children oldest first), one node per entry
 *  (capi/schema/tree.schema.json): parentId is null for roots and orphans; label and labelTimestamp
 *  only for a labelled entry.  @param flags XS_READ_*.  @thread serialised per handle. */
XS_API xs_status xs_session_tree(xs_session *s, uint32_t flags, char *buf, size_t cap, size_t *out_len);

/** Live labels in the order they were first set (capi/schema/labels.schema.json).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_labels(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** The leaf's id (out_len 0 when the leaf is none).  @thread serialised per handle. */
XS_API xs_status xs_session_leaf(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** What the loader skipped or noticed (capi/schema/diagnostics.schema.json; the codes:
 *  docs/format.md#diagnostic-codes).  @thread serialised per handle. */
XS_API xs_status xs_session_diagnostics(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** Facts about the session (capi/schema/info.schema.json): archived: opened from an archive
 *  (docs/retention.md, read-only); title is the header's or pi's last session_info name;
 *  entryTypes counts the types present in the engine's type order, "unknown" (types it does not
 *  know) last.
 *  @thread serialised per handle. */
XS_API xs_status xs_session_info(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** Token and cost totals over every assistant message in the file, every branch included
 *  (capi/schema/usage.schema.json): the sums of each message's usage.input, .output,
 *  .cacheRead, .cacheWrite, .premiumRequests and .cost.total (a member that is missing or not a
 *  number counts 0).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_usage(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** The session's counters, kept current by every append (never by reading the file again;
 *  capi/schema/stats.schema.json). Over the whole file (every branch):
 *  token and cost sums as xs_session_usage counts them, totalTokens their four-way sum, message
 *  entries by role ("custom" for custom messages; roles in the order they first occur),
 *  "toolCall" blocks of assistant messages, compaction entries. contextTokens: the last reply on
 *  the current path, as docs/session-stats.md#context-tokens says (0 after a compaction).
 *  A session opened or created with xs_session_options.key writes the same numbers, plus
 *  sessionId, sessionFile and updatedAt (its last entry's time), into that key's record after
 *  each assistant message, on xs_session_flush and on close, and once at an open that finds the
 *  record without this session's stats. A failed record write never fails the append: the
 *  next flush retries it and returns its status (the transcript is flushed first).
 *  @thread serialised per handle. */
XS_API xs_status xs_session_stats(xs_session *s, char *buf, size_t cap, size_t *out_len);

/** Repairs the stats of the keyed records whose key starts with key_prefix (NULL or "": all):
 *  recounts each record's session (its sessionFile, else its sessionId resolved in the store;
 *  opened read-only) and rewrites, under the document's lock, only the stat fields of the records
 *  that differ from the recount. A report of what changed
 *  (capi/schema/fix-stats-report.schema.json): each fixed record lists only the fields that differ,
 *  before (old value or null) and after; a record whose session cannot be found or read is skipped,
 *  not an error.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the same report; nothing is redone);
 *          XS_ECORRUPT (a damaged document); XS_ELOCKED; XS_EIO; XS_EMISUSE (store not open).
 *  @thread serialised per store. */
XS_API xs_status xs_keys_fix_stats(xs_store *st, const char *key_prefix, char *buf, size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Upkeep: verify and repair (the CLI's `xs verify` and `xs repair`).                          */

/** Everything wrong with the session's file as loaded, as JSON
 *  (capi/schema/verify-report.schema.json), problems sorted by line
 *  (0 for the file as a whole). Codes: those of xs_session_diagnostics, plus "missing_newline"
 *  (a valid last line without its '\n'), "orphan" (a parentId naming no entry), "missing_blob",
 *  "corrupt_blob" and "unreadable_blob" (each referenced blob is read and hashed once),
 *  "multiple_names" (line 0: the file has hard links; no writable open takes it).
 *  "fixable" says xs_session_repair can fix it. fileVersion is the version on disk (before the
 *  in-memory migration); needsMigration says a writable open would rewrite the file.
 *  Nothing is written, whatever the handle's mode.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the same report); XS_EMISUSE.
 *  @thread serialised per handle. */
XS_API xs_status xs_session_verify(xs_session *s, char *buf, size_t cap, size_t *out_len);

#define XS_REPAIR_QUARANTINE 0x1u /* move the lines that are not JSON out (xs_session_repair) */

/** Fixes what can be fixed without losing a byte, on a writable handle, and reports what was done.
 *
 *  flags 0: writes (and syncs) the '\n' a torn or unterminated last line lacks, so a fragment
 *  stays as a skipped line and no append is glued onto it. Every other line stays.
 *
 *  XS_REPAIR_QUARANTINE: moves every line whose bytes are not JSON out of the session file: the
 *  lines verify reports as "invalid_json", "invalid_utf8" or "nul_byte", and the "incomplete_tail"
 *  (a torn last line) or "before_header" lines whose bytes fail to parse for the same reasons.
 *  Every other byte stays exactly as it is, in the same order: lines that are JSON but not usable
 *  entries ("not_object", "no_type", "no_id", "extra_header", duplicate ids, "orphan": reported by
 *  xs_session_verify, never moved) and lines over the limits ("too_long", "too_deep": they may be
 *  valid JSON a reader with other limits takes). A kept last line without its '\n' gets one.
 *  First the moved lines are written, durably (file and directory synced), to a new file beside
 *  the session, "<file>.quarantine-<UTC time>.jsonl" (never replacing a file: "-1", "-2"... is
 *  added before ".jsonl" when the name is taken), one JSON object per moved line, in file order:
 *    {"line","offset","length","code","reason","newline","text"} or the same with "base64"
 *  where line (1-based) and offset are the line's place in the session file, length its bytes
 *  without the '\n', code and reason as xs_session_verify reported them, newline whether a '\n'
 *  followed it (false for a torn last line), and the bytes themselves: "text", a JSON string that
 *  decodes to them exactly, when they are valid UTF-8 (NUL bytes included, as \u0000), else
 *  "base64" (standard alphabet, padded). The bytes removed from the session file are, in order,
 *  each record's bytes plus its '\n' when newline is true. Then the session file is replaced
 *  atomically by the lines that stay (as migrations are: temp file, sync, freshness check,
 *  rename, directory sync), and the handle shows the new file: line numbers, offsets and
 *  diagnostics are the new file's; entries and the leaf are unchanged. A crash at any point
 *  leaves every byte on disk (between the two steps, the moved lines are in both files). With
 *  nothing to move it does what flags 0 does.
 *
 *  The report (capi/schema/repair-report.schema.json): "path" and "done", and with
 *  XS_REPAIR_QUARANTINE also "quarantine": null (nothing moved) or {"path","lines","bytes"} (the
 *  quarantine file, how many lines moved to it, and how many bytes, newlines included, left the
 *  session file). "done" lists what this handle's open already did: "migrated" (a v1/v2 file
 *  rewritten as v3), "corrupt_file_preserved" (a file without a header kept as
 *  <file>.corrupt-<time> before a fresh session replaced it); then what this call did:
 *  "quarantined" (one item per moved line, at its old line and offset; reason: "<code>: <reason>"
 *  as verify gave them) and "newline_written". Skipped lines that stay, duplicate ids, orphans
 *  and missing blobs are left for a person (xs_session_verify lists them). The engine never
 *  deletes bytes: back the file up first if a copy of it as it was is wanted.
 *
 *  @param flags  0 or XS_REPAIR_QUARANTINE.
 *  @return XS_OK; XS_EBUFS (the retry right after, with the same flags, copies the report; nothing
 *          is done twice); XS_EINVAL (unknown flags); XS_EREADONLY; XS_ECONFLICT (another process
 *          changed or replaced the file since it was read; reopen it); XS_EIO / XS_ENOSPC (a
 *          write, sync or rename failed, of either file: the session is now poisoned; the message
 *          names the file); XS_EPOISONED; XS_ENOMEM; XS_EMISUSE.
 *          Whatever fails, the session file is unchanged or fully repaired (the latter only when
 *          the directory sync after its rename failed: the message then says it "was repaired"),
 *          and the handle shows it as it is on disk. A quarantine file already written when the
 *          failure came stays: a copy of bytes that are still in the session file.
 *  @thread serialised per handle. */
XS_API xs_status xs_session_repair(xs_session *s, uint32_t flags, char *buf, size_t cap, size_t *out_len);

/** What an agent must know before it continues from `leaf_id` (NULL = the session's leaf;
 *  docs/context.md#resume-analysis; capi/schema/resume-report.schema.json): "leafId", "orphans"
 *  (every entry whose parentId names no entry: it reads as a root; file order, 1-based line
 *  numbers), "pendingToolCalls" (toolCall blocks of assistant messages on the path that no
 *  toolResult on the path answers, in path order). Reads only what is loaded.
 *  @return XS_OK; XS_EBUFS; XS_ENOTFOUND (no such entry).  @thread serialised per handle. */
XS_API xs_status xs_session_resume_check(xs_session *s, const char *leaf_id, char *buf, size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Prompt history (docs/history.md): the prompts a user typed, kept apart from transcripts in   */
/* one SQLite database per store (<root>/history.db) with a full-text index (FTS5), for recall  */
/* and search. Adds return at once: a background thread of the handle writes them, a batch per  */
/* transaction; xs_history_flush waits for them. Several handles and processes may add and      */
/* search one file at once (WAL mode; a busy lock is waited for and retried, never returned at   */
/* once). Transcripts never depend on it: a damaged history.db is kept aside and a fresh one     */
/* started, and no session is touched.                                                         */

typedef struct xs_history xs_history;

#define XS_HISTORY_OPTIONS_VERSION 1
#define XS_HISTORY_SYNC 0x1u /* synchronous=FULL: a flushed prompt survives power loss too (by
                                default, NORMAL: it survives the process's crash or kill -9) */

typedef struct xs_history_options {
  uint32_t version;          /* XS_HISTORY_OPTIONS_VERSION */
  uint32_t flags;            /* XS_HISTORY_* */
  const char *path;          /* the database file; NULL = <root>/history.db (required with an
                                XS_STORE_IN_MEMORY store). Its directory is created. Copied. */
  uint32_t busy_timeout_ms;  /* how long a call waits for another writer; 0 = 5000 */
  uint32_t max_prompt_bytes; /* longest prompt xs_history_add takes; 0 = 1 MiB (1048576) */
} xs_history_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_history_options_init(xs_history_options *o, uint32_t version);

/** Opens (creating) the store's prompt history. A file of an older schema is migrated (by its
 *  PRAGMA user_version); one SQLite cannot read as a database, or whose quick_check fails, is
 *  renamed to "<path>.damaged-<UTC time>" (with its -wal and -shm) and a fresh one started:
 *  xs_history_info reports it in "damaged".
 *  @param opts  NULL for defaults.
 *  @param[out] out  receives an owned handle; release with xs_history_close().
 *  @return XS_OK; XS_EINVAL (out NULL; an in-memory store without opts->path); XS_EVERSION (an
 *          unknown options version, or a file a newer xsession wrote); XS_ELOCKED (another
 *          process kept the file locked past the busy timeout); XS_EIO; XS_ENOSPC;
 *          XS_EMISUSE (store not open). Details via xs_store_errmsg(st).
 *  @thread serialised per store; the history handle is independent of the store afterwards. */
XS_API xs_status xs_history_open(xs_store *st, const xs_history_options *opts, XS_OWN xs_history **out);

/** Flushes (as xs_history_flush), stops the handle's writer thread and releases the handle, whatever
 *  the flush returned. NULL gives XS_OK.
 *  @return the flush's status: XS_OK, or the writer's error (then the prompts it names were not
 *          written; the text is lost with the handle: call xs_history_flush first to read it).
 *  @thread not concurrently with other calls on h. */
XS_API xs_status xs_history_close(xs_history *h);

/** Code of the last call on h (XS_OK after a success). XS_EMISUSE for NULL.  @thread see top. */
XS_API xs_status xs_history_errcode(const xs_history *h);
/** Message of the last call on h: borrowed, valid until the next call on h; "" after a success;
 *  never NULL.  @thread see top. */
XS_API XS_BORROWED const char *xs_history_errmsg(const xs_history *h);

/** Queues one prompt and returns without waiting for the disk (only when the writer has fallen
 *  64 MiB behind does it wait for room). The prompt is checked at once; a prompt equal to the last
 *  one this handle added with the same cwd (or, for the handle's first add, to the file's last
 *  row) is skipped with XS_OK. A failure of the background writer is sticky: this and every
 *  later add and flush return it; reopen the history to write again.
 *  @param prompt, prompt_len  UTF-8 text, 1 to max_prompt_bytes bytes, without NUL bytes.
 *  @param cwd      the working directory it was typed in (NUL-terminated UTF-8); NULL or "": none.
 *  @param time_ms  when it was typed, ms since the epoch; 0 = now.
 *  @return XS_OK; XS_EINVAL (prompt NULL or empty, a NUL byte, invalid UTF-8 in prompt or cwd,
 *          time_ms < 0); XS_ELIMIT (prompt over max_prompt_bytes, cwd over 64 KiB); the writer's
 *          error (XS_ELOCKED, XS_EIO, XS_ENOSPC, ...; the message starts "history writer: ").
 *  @thread serialised per handle. */
XS_API xs_status xs_history_add(xs_history *h, const char *prompt, size_t prompt_len, const char *cwd,
                                int64_t time_ms);

/** Waits until every prompt this handle queued before the call is committed. From then on they
 *  survive a crash or kill -9 of the process (with XS_HISTORY_SYNC, power loss too) and other
 *  handles' searches see them.
 *  @return XS_OK; the writer's sticky error.  @thread serialised per handle. */
XS_API xs_status xs_history_flush(xs_history *h);

/* Search flags */
#define XS_HISTORY_LITERAL 0x1u /* the query is plain words, not FTS5 syntax: each word must occur
                                   (quotes and operators are ordinary characters), the last one
                                   as a prefix */

/** Prompts matching `query`, best first (bm25; ties newest first), as a JSON array
 *  (capi/schema/history-search.schema.json): {"id","prompt","createdAt","cwd","score","snippet"};
 *  score is bm25's (lower is better), snippet a part of the prompt around the matches, each
 *  match between the characters U+0002 and U+0003, cut parts shown as "…". The query is FTS5's
 *  syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(...)), or plain words with
 *  XS_HISTORY_LITERAL. Only committed prompts are found (xs_history_flush first for this handle's).
 *  From its second search on, a handle keeps every prompt's size (a byte per prompt, read once:
 *  about 130 ms at a million prompts) so that ranking need not look sizes up
 *  (docs/history.md#ranking).
 *  @param cwd    NULL: every prompt; else only those added with this cwd. From the second
 *                search of a cwd on a handle, the handle keeps that cwd's row ids in memory (a
 *                bit per prompt, at most 16 cwds: docs/history.md#search-in-a-cwd).
 *  @param flags  0 or XS_HISTORY_LITERAL.
 *  @param limit  at most this many; 0 = 20; at most 10000.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the same result); XS_EINVAL (query NULL
 *          or empty, not UTF-8, a query FTS5 refuses: the message is "bad history query: " and
 *          SQLite's; unknown flags; limit over 10000); XS_ELOCKED; XS_EIO.
 *  @thread serialised per handle. */
XS_API xs_status xs_history_search(xs_history *h, const char *query, const char *cwd, uint32_t flags,
                                   uint32_t limit, char *buf, size_t cap, size_t *out_len);

/** The newest prompts, newest first, as a JSON array (capi/schema/history-recent.schema.json):
 *  {"id","prompt","createdAt","cwd"}; cwd null for none.
 *  @param cwd    NULL: every prompt; else only those added with this cwd.
 *  @param limit  at most this many; 0 = 20; at most 10000.
 *  @return XS_OK; XS_EBUFS (as above); XS_EINVAL (limit over 10000); XS_ELOCKED; XS_EIO.
 *  @thread serialised per handle. */
XS_API xs_status xs_history_recent(xs_history *h, const char *cwd, uint32_t limit, char *buf, size_t cap,
                                   size_t *out_len);

/** Facts about the history (capi/schema/history-info.schema.json): "path", "schemaVersion",
 *  "count" (committed prompts in the file), "pending" (this handle's prompts not yet written),
 *  "synchronous" ("normal" or "full"), "damaged": null, or {"path","reason"} when the open kept a
 *  damaged file aside.
 *  @return XS_OK; XS_EBUFS (as above); XS_ELOCKED; XS_EIO.  @thread serialised per handle. */
XS_API xs_status xs_history_info(xs_history *h, char *buf, size_t cap, size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* The session index and search (docs/search.md): one SQLite database per store                */
/* (<root>/index.db) with a row per session and per entry and a full-text index (FTS5) over     */
/* what each entry says. Derived data only: the session files are the truth, and the index is   */
/* made again from them (xs_index_rebuild) or brought up to date by what changed on the disk    */
/* (xs_index_refresh: a file grown in place is read from its last indexed byte). A damaged      */
/* index.db is kept aside and a fresh one started; no session is touched. Several handles and   */
/* processes may use one file at once (WAL mode; a busy lock is waited for and retried).       */
/* With XS_INDEX_FOLLOW_WRITES, what sessions of the same store handle write is indexed by a    */
/* thread of the index shortly after; otherwise, and for other processes' writes, a refresh    */
/* (xs_index_refresh) finds what changed.                                                      */

typedef struct xs_index xs_index;

#define XS_INDEX_OPTIONS_VERSION 1
/* xs_index_options.flags */
#define XS_INDEX_FOLLOW_WRITES 0x1u /* while the handle is open, index what sessions of this store
                                       handle write, on a thread of the index shortly after each
                                       write (an append never waits for it) */

typedef struct xs_index_options {
  uint32_t version;         /* XS_INDEX_OPTIONS_VERSION */
  uint32_t flags;           /* XS_INDEX_* */
  const char *path;         /* the database file; NULL = <root>/index.db (required with an
                               XS_STORE_IN_MEMORY store or a host's storage). Its directory is
                               created. Copied. */
  uint32_t busy_timeout_ms; /* how long a call waits for another writer; 0 = 5000 */
} xs_index_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_index_options_init(xs_index_options *o, uint32_t version);

/** Opens (creating) the store's session index. It is not read or brought up to date here: a new
 *  index is empty until xs_index_rebuild or xs_index_refresh. A file of an older schema is
 *  migrated; one SQLite cannot read as a database, or whose quick_check fails, is renamed to
 *  "<path>.damaged-<UTC time>" (with its -wal and -shm) and a fresh one started: xs_index_info
 *  reports it in "damaged".
 *  @param opts  NULL for defaults.
 *  @param[out] out  receives an owned handle; release with xs_index_close(). It keeps the store's
 *          files alive (the sessions are read through the store) after xs_store_free.
 *  @return XS_OK; XS_EINVAL (out NULL; unknown flags; an in-memory store or one on a host's
 *          storage without opts->path); XS_EVERSION (an unknown options version, or a file a
 *          newer xsession wrote); XS_ELOCKED; XS_EIO; XS_ENOSPC; XS_EMISUSE (store not open).
 *          Details via xs_store_errmsg(st).
 *  @thread serialised per store; the index handle is independent of the store handle afterwards. */
XS_API xs_status xs_index_open(xs_store *st, const xs_index_options *opts, XS_OWN xs_index **out);

/** Releases the handle. NULL is a no-op.  @thread not concurrently with other calls on ix. */
XS_API void xs_index_close(xs_index *ix);

/** Code of the last call on ix (XS_OK after a success). XS_EMISUSE for NULL.  @thread see top. */
XS_API xs_status xs_index_errcode(const xs_index *ix);
/** Message of the last call on ix: borrowed, valid until the next call on ix; "" after a
 *  success; never NULL.  @thread see top. */
XS_API XS_BORROWED const char *xs_index_errmsg(const xs_index *ix);

/** Makes the index again from nothing: every session of the store, live and archived, read
 *  whole. Writes what it did as a JSON object (capi/schema/index-report.schema.json): "files",
 *  "unchanged", "appended", "reindexed", "added", "removed", "unreadable", "raced", "entries".
 *  @return XS_OK; XS_EBUFS (the index was rebuilt; the retry right after copies the report
 *          without rebuilding again); XS_ELOCKED; XS_EIO; XS_ENOSPC.
 *  @thread serialised per handle. */
XS_API xs_status xs_index_rebuild(xs_index *ix, char *buf, size_t cap, size_t *out_len);

/** Brings the index up to date with the files: unchanged files (size, mtime, device, inode) are
 *  not read, files grown in place only from their last indexed byte, others whole; rows of
 *  files gone are removed. The report is xs_index_rebuild's.
 *  @return as xs_index_rebuild.  @thread serialised per handle. */
XS_API xs_status xs_index_refresh(xs_index *ix, char *buf, size_t cap, size_t *out_len);

/** Waits until what the sessions of the index's store handle wrote before this call is in the
 *  index (with XS_INDEX_FOLLOW_WRITES; without it there is nothing to wait for): a host that
 *  needs its own last append found by xs_search calls this first. A write whose indexing failed
 *  is left for the next xs_index_refresh, and the first such failure since the last flush is
 *  returned here (then cleared).
 *  @return XS_OK; the failed update's status (XS_EIO, XS_ELOCKED, XS_ENOSPC, ...) with its
 *          message in xs_index_errmsg(ix).
 *  @thread serialised per handle; the store's sessions keep appending meanwhile. */
XS_API xs_status xs_index_flush(xs_index *ix);

/** Every difference between the index and the files, changing nothing, as a JSON object
 *  (capi/schema/index-verify.schema.json): "ok", "files", "indexed", and the paths "missing"
 *  (files without a row), "extra" (rows without a file), "stale" (files changed since indexed).
 *  @return XS_OK (also when differences are found: read "ok"); XS_EBUFS (as above); XS_ELOCKED;
 *          XS_EIO.  @thread serialised per handle. */
XS_API xs_status xs_index_verify(xs_index *ix, char *buf, size_t cap, size_t *out_len);

/** Sessions newest first (file mtime, then creation), from the index alone, as a JSON array
 *  (capi/schema/index-sessions.schema.json): "path", "id", "cwd", "title", "firstPrompt",
 *  "created", "updated", "modified", "size", "entries", "messages", "inputTokens",
 *  "outputTokens", "cost", "dialect", "sourceAgent", "parentSession", "archived", "leafId".
 *  @param cwd    NULL: every session; else only those of this working directory.
 *  @param limit  at most this many; 0 = 20; at most 10000.
 *  @return XS_OK; XS_EBUFS (as above); XS_EINVAL (limit over 10000); XS_ELOCKED; XS_EIO.
 *  @thread serialised per handle. */
XS_API xs_status xs_index_list(xs_index *ix, const char *cwd, uint32_t limit, char *buf, size_t cap,
                               size_t *out_len);

/** Facts about the index (capi/schema/index-info.schema.json): "path", "schemaVersion",
 *  "sessions" and "entries" (rows), "damaged": null, or {"path","reason"} when the open kept a
 *  damaged file aside.
 *  @return XS_OK; XS_EBUFS (as above); XS_ELOCKED; XS_EIO.  @thread serialised per handle. */
XS_API xs_status xs_index_info(xs_index *ix, char *buf, size_t cap, size_t *out_len);

#define XS_SEARCH_OPTIONS_VERSION 1
/* xs_search_options.flags */
#define XS_SEARCH_LITERAL 0x1u /* the query is plain words, not FTS5 syntax: each word must occur
                                  (quotes and operators are ordinary characters), the last one as a
                                  prefix */

typedef struct xs_search_options {
  uint32_t version;       /* XS_SEARCH_OPTIONS_VERSION */
  uint32_t flags;         /* XS_SEARCH_* */
  const char *cwd;        /* NULL, or only sessions of this working directory (the header's) */
  const char *role;       /* NULL, or only entries of this role: "user", "assistant", "tool",
                             "summary" (compaction and branch summaries), "label" */
  int64_t since_ms;       /* 0, or only entries stamped at or after this time (ms since the epoch) */
  const char *session_id; /* NULL, or only this session (its id) */
  uint32_t limit;         /* at most this many hits; 0 = 20; at most 10000 */
} xs_search_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_search_options_init(xs_search_options *o, uint32_t version);

/** Entries matching `query`, best first (bm25; ties newest first), as a JSON array
 *  (capi/schema/search-hits.schema.json): "sessionId", "sessionTitle", "sessionPath", "cwd",
 *  "entryId", "role", "onPath" (whether the entry is on the session's current branch),
 *  "timestamp", "score" (bm25: lower is better), "snippet" (up to 16 tokens around the best
 *  match, each match between the characters U+0002 and U+0003, cut parts shown as "…"). The
 *  query is FTS5's syntax (words, "phrases", prefix*, AND/OR/NOT, NEAR(...)), or plain words with
 *  XS_SEARCH_LITERAL; it is bound as a parameter, never spliced into SQL. Only the newest 1,000
 *  matches that pass the filters are ranked (docs/search.md#ranking).
 *  @param opts  NULL for defaults.
 *  @return XS_OK; XS_EBUFS (the retry right after copies the same result); XS_EINVAL (query NULL
 *          or empty, not UTF-8, a query FTS5 refuses: the message is "bad search query: " and
 *          SQLite's; unknown flags; a role that is none of the five; limit over 10000);
 *          XS_EVERSION (options); XS_ELOCKED; XS_EIO.
 *  @thread serialised per handle. */
XS_API xs_status xs_search(xs_index *ix, const char *query, const xs_search_options *opts, char *buf, size_t cap,
                           size_t *out_len);

/* ------------------------------------------------------------------------------------------ */
/* Portable bundles (docs/bundles.md): sessions carried to another store in one file, a tar    */
/* archive (zstd, or gzip on request) whose first member, manifest.json, lists every other one  */
/* with its SHA-256 and size. A bundle holds the named sessions byte for byte (archived ones as  */
/* their .jsonl.gz), the sessions they descend from (the parentSession chain of forks and        */
/* branched sessions), every blob they reference and the keyed-store records that point at them.*/
/* An import checks every member against the manifest before it places anything: a damaged or   */
/* hostile bundle (cut short, a wrong hash, an absolute or ".." name, a link or device, a member */
/* larger than declared, more bytes than declared in all, a member the manifest does not list,   */
/* a missing or late manifest, a member twice) is refused with XS_ECORRUPT and the store is left  */
/* as it was. The bundle file itself is a local path on the disk whatever the store's storage;   */
/* the store's side goes through the store's own storage (the disk, memory, a host's table).     */

#define XS_EXPORT_OPTIONS_VERSION 1
/* xs_export_options.flags */
#define XS_EXPORT_NO_LINEAGE 0x1u /* only the named sessions, not those they descend from */
#define XS_EXPORT_GZIP 0x2u       /* gzip instead of zstd */

typedef struct xs_export_options {
  uint32_t version; /* XS_EXPORT_OPTIONS_VERSION */
  uint32_t flags;   /* XS_EXPORT_* */
} xs_export_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_export_options_init(xs_export_options *o, uint32_t version);

/** Writes a bundle of the sessions `session_ids` names (ids, unambiguous id prefixes, or session
 *  file paths of this store) to `out_path`, replacing a file there whole (it is written beside it
 *  and renamed). Writes what it carried as a JSON object
 *  (capi/schema/bundle-export-report.schema.json): "path", "bytes" (the bundle's size),
 *  "compression", "sessions" [{"id","path","cwd","archived","lineage" (carried as an ancestor),
 *  "bytes","parentSession","parentInBundle"}], "blobs" [{"hash","bytes"}], "missingBlobs" (hashes
 *  referenced but not in the blob store: not carried), "keys" (the key records carried).
 *  @param session_ids  n_ids strings, borrowed for the call; a session named twice travels once.
 *  @param opts  NULL for defaults (lineage, zstd).
 *  @return XS_OK; XS_EBUFS (the bundle was written; the retry right after copies the report
 *          without exporting again); XS_ENOTFOUND (a session the store does not have);
 *          XS_EAMBIGUOUS; XS_EINVAL (session_ids or out_path NULL or empty, n_ids 0, a NULL id,
 *          unknown flags, a session whose id cannot travel); XS_EVERSION; XS_ECORRUPT (a damaged
 *          blob or archived session); XS_ECONFLICT (a file changed during the export);
 *          XS_EIO; XS_ENOSPC; XS_EMISUSE (store not open). Details via xs_store_errmsg(st).
 *  @thread serialised per store. */
XS_API xs_status xs_export(xs_store *st, const char *const *session_ids, size_t n_ids, const char *out_path,
                           const xs_export_options *opts, char *buf, size_t cap, size_t *out_len);

#define XS_IMPORT_BUNDLE_OPTIONS_VERSION 1
/* xs_import_bundle_options.flags */
#define XS_IMPORT_BUNDLE_RENAME 0x1u  /* a session id the store holds with other content: import the
                                         bundle's copy under a new id (derived from the old id and
                                         its bytes, so a repeated import finds it) and update the
                                         parentSession links of the bundle's other sessions */
#define XS_IMPORT_BUNDLE_DRY_RUN 0x2u /* verify everything and report what would be done; write
                                         nothing */

typedef struct xs_import_bundle_options {
  uint32_t version;           /* XS_IMPORT_BUNDLE_OPTIONS_VERSION */
  uint32_t flags;             /* XS_IMPORT_BUNDLE_* */
  const char *const *cwd_map; /* NULL, or pairs old0, new0, old1, new1...: a session whose cwd is
                                 an old path or lies below one gets the new path instead (the
                                 first pair that applies); its header keeps the old one as
                                 "originalCwd". Absolute paths without "." or ".." components.
                                 Borrowed for the call. */
  size_t cwd_map_len;         /* strings in cwd_map: twice the number of pairs */
} xs_import_bundle_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_import_bundle_options_init(xs_import_bundle_options *o, uint32_t version);

/** Imports the bundle at `bundle_path` into the store. Sessions go to the directory of their cwd
 *  (after the cwd map) under their own file names; blobs into the blob store (an identical blob is
 *  kept); key records into the keyed store (a key the store already has with another record keeps
 *  it: "kept"). Importing the same bundle again changes nothing ("present"). Writes what it did as
 *  a JSON object (capi/schema/bundle-import-report.schema.json): "dryRun", "bundle", "sourceRoot",
 *  "sessions" [{"id","newId","path","cwd","oldCwd","archived","action": "imported", "renamed" or
 *  "present"}], "blobs" [{"hash","action"}], "keys" [{"key","action"}].
 *  @param opts  NULL for defaults.
 *  @return XS_OK; XS_EBUFS (the import was done; the retry right after copies the report without
 *          importing again); XS_ENOTFOUND (no such bundle file); XS_EINVAL (bundle_path NULL or
 *          empty, unknown flags, an odd cwd_map_len, a cwd_map path that is NULL or not absolute);
 *          XS_EVERSION (options, or a bundle of a newer format); XS_ECORRUPT (a damaged or
 *          hostile bundle: the message names the member and what is wrong; nothing was written);
 *          XS_EEXISTS (a session id the store holds with other content, without
 *          XS_IMPORT_BUNDLE_RENAME; nothing was written); XS_EIO; XS_ENOSPC (what was placed is
 *          removed again); XS_ELOCKED (the keyed store); XS_EMISUSE (store not open).
 *  @thread serialised per store. */
XS_API xs_status xs_import_bundle(xs_store *st, const char *bundle_path, const xs_import_bundle_options *opts,
                                  char *buf, size_t cap, size_t *out_len);
/* The HTML view (docs/html-view.md): sessions as self-contained pages that open offline in any  */
/* browser and fetch nothing (no script; a Content-Security-Policy allowing only the page's      */
/* inline style and data: images). A page shows the session's facts and stats, the current path */
/* root to leaf with every other branch collapsed where it leaves, messages rendered from        */
/* Markdown (cmark, raw HTML dropped, only http/https/mailto links kept), tool calls, results    */
/* and thinking collapsed, images inline from the blob store, compactions, branch summaries and */
/* labels marked. Pages are written on the local disk, wherever the store keeps its sessions.   */

#define XS_HTML_OPTIONS_VERSION 1

typedef struct xs_html_options {
  uint32_t version; /* XS_HTML_OPTIONS_VERSION */
  uint32_t flags;   /* none yet: 0 */
} xs_html_options;

/** Fills *o with defaults for `version`.  @return XS_OK; XS_EINVAL; XS_EVERSION.
 *  @thread any thread. */
XS_API xs_status xs_html_options_init(xs_html_options *o, uint32_t version);

/** Writes the pages of the sessions `session_ids` names (each a file path, a session id or an
 *  unambiguous id prefix, as xs_session_open takes them). One session: `out_path` is the page
 *  (its directory must exist). Several: `out_path` is a directory (made when missing) that gets
 *  "<session id>.html" for each and an "index.html" linking them. Every name is resolved (and,
 *  with several, checked) before anything is written; each page replaces its file whole or not
 *  at all; on an error, pages written before it stay and no index is written. The sessions are
 *  only read. Report, as JSON (capi/schema/html-report.schema.json): "pages" in the order named,
 *  each {"path","sessionId","entries","messages","branchPoints","branches","bytes"}, and "index":
 *  {"path","bytes"}, or null for one session.
 *  @param session_ids  n_ids strings (not NULL, not empty), not copied beyond the call.
 *  @param opts         NULL for the defaults.
 *  @return XS_OK; XS_EBUFS (the retry right after, with the same arguments, copies the report;
 *          nothing is rendered again); XS_EINVAL (session_ids, out_path or out_len NULL, n_ids 0,
 *          a NULL or empty name or out_path, unknown flags, one session and out_path a
 *          directory, several and out_path a file, a session id with other characters than
 *          letters, digits, '-', '_', '.' (or a leading '.') when it must name a page, a session
 *          named twice); XS_EVERSION (options); XS_ENOTFOUND (a name that matches no session, the
 *          page's directory missing); XS_EAMBIGUOUS (a prefix of several); XS_ENOHEADER,
 *          XS_ECORRUPT (a file that is no session); XS_EIO, XS_ENOSPC (writing a page);
 *          XS_EMISUSE (store not open).  @thread serialised per store. */
XS_API xs_status xs_export_html(xs_store *st, const char *const *session_ids, size_t n_ids, const char *out_path,
                                const xs_html_options *opts, char *buf, size_t cap, size_t *out_len);

#ifdef __cplusplus
}
#endif

#endif /* XSESSION_H */
