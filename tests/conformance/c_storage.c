/* A host's storage written in plain C against xsession_storage.h alone: POSIX files, as a host
 * that keeps its sessions on its own disk layer would write it. The conformance runner replays
 * every case through it (conformance.host_storage_c), so the whole suite holds for a table that
 * is not ours. Deliberately simple: no parallel reads, no macOS paths. */
#define _GNU_SOURCE /* renameat2 */
#include "c_storage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static xs_status fail(const char *op, const char *path, int err) {
  char msg[512];
  xs_status code;
  switch (err) {
    case ENOENT:
    case ENOTDIR: code = XS_ENOTFOUND; break;
    case EEXIST: code = XS_EEXISTS; break;
    case ENOSPC:
    case EDQUOT:
    case EFBIG: code = XS_ENOSPC; break;
    case EWOULDBLOCK: code = XS_ELOCKED; break;
    case ENOMEM: code = XS_ENOMEM; break;
    case EISDIR: code = XS_EINVAL; break;
    default: code = XS_EIO; break;
  }
  snprintf(msg, sizeof msg, "c storage: %s %s: %s", op, path, strerror(err));
  return xs_storage_error(code, msg);
}

static void info_of(const struct stat *st, xs_storage_info *out) {
  out->size = (uint64_t)st->st_size;
  out->mtime_ms = (int64_t)st->st_mtim.tv_sec * 1000 + st->st_mtim.tv_nsec / 1000000;
  out->dev = (uint64_t)st->st_dev;
  out->ino = (uint64_t)st->st_ino;
  out->links = (uint64_t)st->st_nlink;
  out->kind = S_ISREG(st->st_mode) ? XS_STORAGE_FILE : S_ISDIR(st->st_mode) ? XS_STORAGE_DIR : XS_STORAGE_OTHER;
}

static void count(void *user) {
  __atomic_fetch_add(&((c_storage_counts *)user)->calls, 1, __ATOMIC_RELAXED);
}

static xs_status c_read(void *user, const char *path, uint64_t offset, uint64_t max, xs_storage_buffer *out,
                        uint64_t *got, xs_storage_info *info) {
  struct stat st;
  uint64_t want, done = 0;
  char *to;
  int fd;
  count(user);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail("open", path, errno);
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
    close(fd);
    return fail("read", path, e);
  }
  want = offset >= (uint64_t)st.st_size ? 0 : (uint64_t)st.st_size - offset;
  if (want > max) want = max;
  to = out->alloc(out, want);
  if (!to) {
    close(fd);
    return xs_storage_error(XS_ENOMEM, "c storage: the engine took no buffer");
  }
  while (done < want) {
    ssize_t n = pread(fd, to + done, want - done, (off_t)(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      close(fd);
      return fail("read", path, e);
    }
    if (n == 0) break; /* shrank meanwhile */
    done += (uint64_t)n;
  }
  close(fd);
  *got = done;
  info_of(&st, info);
  return XS_OK;
}

static xs_status c_stat(void *user, const char *path, xs_storage_info *info) {
  struct stat st;
  count(user);
  if (stat(path, &st) != 0) return fail("stat", path, errno);
  info_of(&st, info);
  return XS_OK;
}

static xs_status c_open(void *user, const char *path, uint32_t flags, void **file) {
  int fd, *handle;
  count(user);
  if (flags == XS_STORAGE_APPEND) {
    fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  } else if (flags == XS_STORAGE_CREATE) {
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  } else {
    return xs_storage_error(XS_EINVAL, "c storage: unknown open flags");
  }
  if (fd < 0) return fail("open", path, errno);
  handle = malloc(sizeof *handle);
  if (!handle) {
    close(fd);
    return XS_ENOMEM;
  }
  *handle = fd;
  *file = handle;
  return XS_OK;
}

static xs_status c_write(void *user, void *file, const void *data, size_t len) {
  const char *p = data;
  count(user);
  while (len > 0) {
    ssize_t n = write(*(int *)file, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("write", "(open file)", errno);
    p += n;
    len -= (size_t)n;
  }
  return XS_OK;
}

/* Version 2's write_if. On a disk the check and the write cannot be one step: this is the
 * engine's own stat + write, here so that every case also runs through the write_if path. */
static xs_status c_write_if(void *user, void *file, const char *path, uint64_t expected_size, const void *data,
                            size_t len) {
  struct stat named, mine;
  int gone;
  count(user);
  if (fstat(*(int *)file, &mine) != 0) return fail("fstat", "(open file)", errno);
  gone = stat(path, &named) != 0;
  if (gone && errno != ENOENT) return fail("stat", path, errno);
  if (gone || named.st_dev != mine.st_dev || named.st_ino != mine.st_ino || (uint64_t)mine.st_size != expected_size) {
    return xs_storage_error(XS_ECONFLICT, "c storage: the file moved or grew");
  }
  return c_write(user, file, data, len);
}

static xs_status c_sync(void *user, void *file) {
  count(user);
  return fdatasync(*(int *)file) == 0 ? XS_OK : fail("fdatasync", "(open file)", errno);
}

static xs_status c_fstat(void *user, void *file, xs_storage_info *info) {
  struct stat st;
  count(user);
  if (fstat(*(int *)file, &st) != 0) return fail("fstat", "(open file)", errno);
  info_of(&st, info);
  return XS_OK;
}

static xs_status c_close(void *user, void *file) {
  int rc = close(*(int *)file), e = errno;
  count(user);
  free(file);
  return rc == 0 ? XS_OK : fail("close", "(open file)", e);
}

static xs_status c_rename(void *user, const char *from, const char *to, uint32_t flags) {
  count(user);
  if (flags & XS_STORAGE_NOREPLACE) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) != 0) return fail("rename", to, errno);
  } else if (rename(from, to) != 0) {
    return fail("rename", to, errno);
  }
  return XS_OK;
}

static xs_status c_remove(void *user, const char *path) {
  count(user);
  return unlink(path) == 0 ? XS_OK : fail("unlink", path, errno);
}

static xs_status c_sync_dir(void *user, const char *path) {
  int fd, rc, e;
  count(user);
  fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return fail("open", path, errno);
  rc = fsync(fd);
  e = errno;
  close(fd);
  return rc == 0 || e == EINVAL ? XS_OK : fail("fsync", path, e);
}

static xs_status c_make_dirs(void *user, const char *path) {
  char parent[4096];
  struct stat st;
  const char *slash;
  size_t n;
  count(user);
  if (stat(path, &st) == 0) return S_ISDIR(st.st_mode) ? XS_OK : fail("mkdir", path, ENOTDIR);
  slash = strrchr(path, '/');
  n = slash ? (size_t)(slash - path) : 0;
  if (n >= sizeof parent) return fail("mkdir", path, ENAMETOOLONG);
  memcpy(parent, path, n);
  parent[n] = '\0';
  if (n > 0) {
    xs_status rc = c_make_dirs(user, parent);
    if (rc != XS_OK) return rc;
  }
  if (mkdir(path, 0700) != 0) return errno == EEXIST ? XS_OK : fail("mkdir", path, errno);
  return c_sync_dir(user, n > 0 ? parent : "/");
}

static xs_status c_touch(void *user, const char *path) {
  count(user);
  return utimensat(AT_FDCWD, path, NULL, 0) == 0 ? XS_OK : fail("utimensat", path, errno);
}

static xs_status c_list(void *user, const char *path, xs_status (*name)(void *, const char *, size_t), void *ctx) {
  DIR *d;
  struct dirent *e;
  xs_status rc = XS_OK;
  count(user);
  d = opendir(path);
  if (!d) return fail("opendir", path, errno);
  while (rc == XS_OK && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    rc = name(ctx, e->d_name, strlen(e->d_name));
  }
  closedir(d);
  return rc;
}

static xs_status c_lock(void *user, const char *path, uint32_t timeout_ms, void **lock) {
  struct timespec pause = {0, 1000000}; /* 1 ms between attempts */
  uint32_t waited = 0;
  int fd, *handle;
  count(user);
  fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return fail("open", path, errno);
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    if (e == EINTR) continue;
    if (e != EWOULDBLOCK || waited >= timeout_ms) {
      close(fd);
      return fail("flock", path, e);
    }
    nanosleep(&pause, NULL);
    ++waited;
  }
  handle = malloc(sizeof *handle);
  if (!handle) {
    close(fd);
    return XS_ENOMEM;
  }
  *handle = fd;
  *lock = handle;
  return XS_OK;
}

static void c_unlock(void *user, void *lock) {
  count(user);
  close(*(int *)lock);
  free(lock);
}

static void c_release(void *user) { ((c_storage_counts *)user)->released += 1; }

void c_storage_fill(xs_storage *table, c_storage_counts *counts) {
  memset(table, 0, sizeof *table);
  table->version = XS_STORAGE_VERSION;
  table->user = counts;
  table->read = c_read;
  table->stat = c_stat;
  table->open = c_open;
  table->write = c_write;
  table->sync = c_sync;
  table->fstat = c_fstat;
  table->close = c_close;
  table->rename = c_rename;
  table->remove = c_remove;
  table->make_dirs = c_make_dirs;
  table->sync_dir = c_sync_dir;
  table->touch = c_touch;
  table->list = c_list;
  table->lock = c_lock;
  table->unlock = c_unlock;
  table->release = c_release;
  table->write_if = c_write_if;
}
