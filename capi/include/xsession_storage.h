/* xsession_storage.h: storage a host supplies, for those who implement it (docs/storage.md).
 *
 * Every read, write, rename and lock the engine performs for a store goes through one table of
 * functions, the same one the built-in backends fill (xs_storage_posix, xs_storage_memory). A host
 * that keeps sessions somewhere else (a database, an object store, a test double) fills an
 * xs_storage and passes it in xs_store_options.storage (version 4); a host that only wants to
 * watch or decorate the disk fills one with xs_storage_posix and wraps its functions.
 *
 * Kept apart from xsession.h, as libgit2 keeps its backend interface in git2/sys/: an application
 * that only uses sessions never needs it.
 *
 * Paths. The engine names everything by '/'-separated path strings under the store's root (the
 * `root` given to xs_store_open): "<root>/sessions/<dir>/<file>.jsonl", "<root>/sessions.json",
 * "<root>/blobs/<ab>/<hash>", lock files ("….lock"), temp files (".<name>.xs-tmp-<random>"). They
 * are NUL-terminated UTF-8 with no "." or ".." components of the engine's making; a host may
 * store them however it likes, as long as each function below behaves as stated for the path.
 *
 * Statuses. Every function returns XS_OK or an xs_status: XS_ENOTFOUND (no such path, or its
 * parent directory is missing), XS_EEXISTS, XS_ELOCKED, XS_ENOSPC, XS_ENOMEM, XS_EINVAL (a path
 * of the wrong kind: a directory where a file is wanted), XS_EIO for anything else. The engine
 * acts on those codes (a missing file is a new session, a held lock is XS_ELOCKED for the
 * caller), so they must be exact. Before returning an error a function may call
 * xs_storage_error() with a message; the caller's xs_*_errmsg then shows it.
 *
 * Threads. The engine calls the functions from any thread, and from several at once (two
 * sessions of one store in two threads): they must be safe for that. Calls on one open file or
 * one lock never overlap.
 *
 * What the host must make atomic or durable, per guarantee (docs/guarantees.md):
 *  - An acknowledged append survives a crash: write() puts all the bytes at the end of the file
 *    or fails; sync() makes every byte written before it durable. The engine syncs before it
 *    acknowledges an append that asked for it (XS_SESSION_SYNC) and before every rename.
 *  - Rewrites are atomic: the engine writes a temp file (open CREATE, write, sync, close), then
 *    rename()s it over the target and sync_dir()s the directory. rename() must replace the target
 *    atomically: a reader sees the old file or the new one, never a mix or nothing; after a crash
 *    the path holds one of them. With XS_STORAGE_NOREPLACE it must fail with XS_EEXISTS instead of
 *    replacing. A host whose store has no directories may make sync_dir() and make_dirs() succeed
 *    without doing anything, provided rename() and files made by open(CREATE) are durable once
 *    sync()ed and renamed.
 *  - One writer per session: lock() is exclusive across every process and host that can reach
 *    the store, and dies with its holder (a crashed process leaves no stale lock).
 *  - Readers need no lock: read() may run while another process appends to the same file and
 *    may see part of a write (the engine leaves a torn last line for the next reload), but never
 *    bytes out of order or a file that is neither the old nor the new one of a rename.
 *  - `ino`/`dev` of xs_storage_info identify the file a path names: a rename over the path gives
 *    it a new identity, appends do not. The engine compares them to notice that another process
 *    replaced a file under it (and then reloads, or refuses to overwrite with XS_ECONFLICT).
 */
#ifndef XSESSION_STORAGE_H
#define XSESSION_STORAGE_H

#include "xsession.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version 2 added write_if; a table of version 1 (without it) is still accepted. */
#define XS_STORAGE_VERSION 2

/* xs_storage_info.kind */
#define XS_STORAGE_FILE 1
#define XS_STORAGE_DIR 2
#define XS_STORAGE_OTHER 3

/* What a path names, as stat(2) says it (fields the host cannot know are 0). */
typedef struct xs_storage_info {
  uint64_t size;     /* bytes in the file */
  int64_t mtime_ms;  /* last modification, ms since the epoch (retention and blob GC read it) */
  uint64_t dev, ino; /* identity of the file (see the header comment); not both 0 for a file */
  uint64_t links;    /* names the file has; 1 unless the host has hard links */
  uint32_t kind;     /* XS_STORAGE_FILE, XS_STORAGE_DIR or XS_STORAGE_OTHER */
} xs_storage_info;

/* Where read() puts the bytes: the engine's own memory, so nothing is copied twice. */
typedef struct xs_storage_buffer xs_storage_buffer;
struct xs_storage_buffer {
  /* Memory for `size` bytes, owned by the engine, valid until read() returns; NULL when the
   * engine cannot take that many (out of memory, or over the caller's limit): read() then
   * returns XS_ENOMEM. Call it at most once per read(), also for 0 bytes. */
  void *(*alloc)(xs_storage_buffer *self, uint64_t size);
  void *opaque; /* the engine's */
};

/* open() flags: exactly one of APPEND and CREATE. */
#define XS_STORAGE_APPEND 0x1u /* an existing file, every write at its end; XS_ENOTFOUND if none */
#define XS_STORAGE_CREATE 0x2u /* a new file (mode 0600) that must not exist: XS_EEXISTS if it does;
                                  XS_ENOTFOUND if its directory does not */
/* rename() flags */
#define XS_STORAGE_NOREPLACE 0x1u /* fail with XS_EEXISTS instead of replacing `to` */

typedef struct xs_storage {
  uint32_t version; /* XS_STORAGE_VERSION */
  void *user;       /* passed to every function */

  /* Reads up to `max` bytes at `offset` of the file `path` (fewer at its end; none past it):
   * calls out->alloc once with the count it will write, writes them there, and sets *got to the
   * count written (less than allocated only if the file shrank meanwhile). *info describes the
   * same file, read at the same time (so its size and identity match the bytes). */
  xs_status (*read)(void *user, const char *path, uint64_t offset, uint64_t max, xs_storage_buffer *out,
                    uint64_t *got, xs_storage_info *info);
  /* Describes `path` (a file or directory). */
  xs_status (*stat)(void *user, const char *path, xs_storage_info *info);
  /* Opens `path` for writing (flags above); *file is the host's handle for write/sync/fstat/close. */
  xs_status (*open)(void *user, const char *path, uint32_t flags, void **file);
  /* Appends all `len` bytes at the end of the file, or fails (some may be written then). */
  xs_status (*write)(void *user, void *file, const void *data, size_t len);
  /* Makes every byte written to the file so far durable. */
  xs_status (*sync)(void *user, void *file);
  /* Describes the open file. */
  xs_status (*fstat)(void *user, void *file, xs_storage_info *info);
  /* Closes the file; the handle is gone whatever it returns (an error reports a deferred write
   * failure). */
  xs_status (*close)(void *user, void *file);
  /* Renames `from` to `to` atomically (see the header comment), replacing `to` unless
   * XS_STORAGE_NOREPLACE. */
  xs_status (*rename)(void *user, const char *from, const char *to, uint32_t flags);
  /* Removes the file `path` (not a directory). */
  xs_status (*remove)(void *user, const char *path);
  /* Creates the directory `path` and its missing parents, durably; XS_OK if it exists;
   * XS_EINVAL if `path` or a parent is a file. */
  xs_status (*make_dirs)(void *user, const char *path);
  /* Makes the names in directory `path` (creates and renames inside it) durable. */
  xs_status (*sync_dir)(void *user, const char *path);
  /* Sets the file's modification time to now. */
  xs_status (*touch)(void *user, const char *path);
  /* Calls name(ctx, name, len) for each entry of directory `path` (not "." or ".."), in any
   * order; stops and returns what name() returned if that is not XS_OK. */
  xs_status (*list)(void *user, const char *path, xs_status (*name)(void *ctx, const char *name, size_t len),
                    void *ctx);
  /* Takes the exclusive lock named `path`, waiting up to `timeout_ms` for another holder (0: one
   * attempt): XS_ELOCKED when it is still held then. The lock may be a file at `path` (created
   * if missing, never removed by the engine). *lock is the host's handle for unlock(). */
  xs_status (*lock)(void *user, const char *path, uint32_t timeout_ms, void **lock);
  /* Lets go of a lock lock() gave. */
  void (*unlock)(void *user, void *lock);
  /* Called once when the engine no longer uses this storage (the last store and session opened
   * with it are gone); may be NULL. */
  void (*release)(void *user);

  /* Version 2. May be NULL: the engine then calls stat() on `path` before each write() to a
   * session, to notice another process that replaced or grew the file. A storage where every call
   * is a round trip (a database) fills it, and an append is one call: it appends all `len` bytes
   * at the end of `file` only while `path` still names that file and the file is `expected_size`
   * bytes long, checked and written as one atomic step. Otherwise it writes nothing and returns
   * XS_ECONFLICT (the engine then finds out what changed with stat() and read(), and may call
   * write()). Any other error is a failed write(). */
  xs_status (*write_if)(void *user, void *file, const char *path, uint64_t expected_size, const void *data,
                        size_t len);
} xs_storage;

/** Fills *out with the built-in POSIX backend (the one a store uses without options.storage): its
 *  `user` is a new instance, freed by out->release. For a host that wraps it (to count or log
 *  calls) or delegates some paths to it.
 *  @return XS_OK; XS_EINVAL if out is NULL; XS_ENOMEM.  @thread any thread. */
XS_API xs_status xs_storage_posix(xs_storage *out);

/** Fills *out with the built-in in-memory backend (XS_STORE_IN_MEMORY's): a new, empty file
 *  system that lives until out->release. Directories exist once make_dirs makes them.
 *  @return XS_OK; XS_EINVAL if out is NULL; XS_ENOMEM.  @thread any thread. */
XS_API xs_status xs_storage_memory(xs_storage *out);

/** For a storage function about to fail: sets the message the engine reports with its status
 *  (copied; per thread, consumed by the engine when the function returns). A NULL message
 *  clears it.  @return code, so that a function can `return xs_storage_error(XS_EIO, "…");`.
 *  @thread the thread running the storage function. */
XS_API xs_status xs_storage_error(xs_status code, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* XSESSION_STORAGE_H */
