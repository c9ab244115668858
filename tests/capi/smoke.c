/* The whole C API end to end from plain C99, in the style of leveldb's db/c_test.c: every call
 * is checked, and a failure prints the handle's error text and exits non-zero.
 *
 * Usage: xs_capi_smoke <scratch-dir>   (created if missing; each run works in a fresh
 * subdirectory of it, removed again on success). */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "xsession.h"

static const char *phase = "";
static int checks = 0;

#define StartPhase(name)                \
  do {                                  \
    phase = (name);                     \
    fprintf(stderr, "=== %s\n", phase); \
  } while (0)

#define CheckCondition(cond)                                                               \
  do {                                                                                     \
    ++checks;                                                                              \
    if (!(cond)) {                                                                         \
      fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, phase, #cond); \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

/* A call on session s that must succeed (and leave "" as the error text). */
#define CheckNoError(s, call)                                                                          \
  do {                                                                                                 \
    xs_status rc_ = (call);                                                                            \
    ++checks;                                                                                          \
    if (rc_ != XS_OK) {                                                                                \
      fprintf(stderr, "%s:%d: %s: %s -> %s: %s\n", __FILE__, __LINE__, phase, #call, xs_status_str(rc_), \
              xs_session_errmsg(s));                                                                   \
      exit(1);                                                                                         \
    }                                                                                                  \
    CheckCondition(xs_session_errcode(s) == XS_OK);                                                    \
    CheckCondition(strcmp(xs_session_errmsg(s), "") == 0);                                             \
  } while (0)

/* A call on store st (or a session constructor, which reports on its store) that must succeed. */
#define CheckStoreNoError(st, call)                                                                    \
  do {                                                                                                 \
    xs_status rc_ = (call);                                                                            \
    ++checks;                                                                                          \
    if (rc_ != XS_OK) {                                                                                \
      fprintf(stderr, "%s:%d: %s: %s -> %s: %s\n", __FILE__, __LINE__, phase, #call, xs_status_str(rc_), \
              xs_store_errmsg(st));                                                                    \
      exit(1);                                                                                         \
    }                                                                                                  \
    CheckCondition(strcmp(xs_store_errmsg(st), "") == 0);                                              \
  } while (0)

/* A call on session s that must fail with `want` and say why. */
#define CheckStatus(s, want, call)                                                                   \
  do {                                                                                               \
    xs_status rc_ = (call);                                                                          \
    ++checks;                                                                                        \
    if (rc_ != (want)) {                                                                             \
      fprintf(stderr, "%s:%d: %s: %s -> %s, wanted %s: %s\n", __FILE__, __LINE__, phase, #call,      \
              xs_status_str(rc_), xs_status_str(want), xs_session_errmsg(s));                        \
      exit(1);                                                                                       \
    }                                                                                                \
    CheckCondition(xs_session_errcode(s) == (want));                                                 \
    CheckCondition(strcmp(xs_session_errmsg(s), "") != 0);                                           \
  } while (0)

#define CheckEqual(expected, actual)                                                                       \
  do {                                                                                                     \
    ++checks;                                                                                              \
    if (strcmp((expected), (actual)) != 0) {                                                               \
      fprintf(stderr, "%s:%d: %s: expected\n  %s\ngot\n  %s\n", __FILE__, __LINE__, phase, (expected),      \
              (actual));                                                                                   \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)

/* --- memory: everything allocated here is released at the end (clean under LeakSanitizer) --- */

static void *allocations[4096];
static size_t n_allocations = 0;

static void *track(void *p) {
  if (!p || n_allocations == sizeof allocations / sizeof allocations[0]) {
    fprintf(stderr, "out of memory or too many allocations\n");
    exit(1);
  }
  allocations[n_allocations++] = p;
  return p;
}

static void release_all(void) {
  while (n_allocations) free(allocations[--n_allocations]);
}

/* Reads through the size-query-then-fill protocol. CALL uses b_, c_ and &n_; `errmsg` is the
 * handle's error text. The result is NUL-terminated for convenience (the library writes no NUL). */
#define Fetch(out, errmsg, CALL)                                                                         \
  do {                                                                                                   \
    char *b_ = NULL;                                                                                     \
    size_t c_ = 0, n_ = (size_t)-1;                                                                      \
    xs_status rc_ = (CALL);                                                                              \
    ++checks;                                                                                            \
    if (rc_ == XS_EBUFS) {                                                                               \
      size_t need_ = n_;                                                                                 \
      b_ = (char *)track(malloc(need_ + 1));                                                             \
      c_ = need_;                                                                                        \
      rc_ = (CALL);                                                                                      \
      CheckCondition(n_ == need_);                                                                       \
    } else {                                                                                             \
      CheckCondition(rc_ != XS_OK || n_ == 0);                                                           \
      b_ = (char *)track(malloc(1));                                                                     \
    }                                                                                                    \
    if (rc_ != XS_OK) {                                                                                  \
      fprintf(stderr, "%s:%d: %s: %s -> %s: %s\n", __FILE__, __LINE__, phase, #CALL, xs_status_str(rc_), \
              (errmsg));                                                                                 \
      exit(1);                                                                                           \
    }                                                                                                    \
    b_[n_] = '\0';                                                                                       \
    CheckCondition(strlen(b_) == n_);                                                                    \
    (out) = b_;                                                                                          \
  } while (0)

/* --- helpers ------------------------------------------------------------------------------ */

static char *concat(const char *first, ...) {
  va_list ap;
  size_t n = 0;
  const char *p;
  char *out;
  va_start(ap, first);
  for (p = first; p; p = va_arg(ap, const char *)) n += strlen(p);
  va_end(ap);
  out = (char *)track(malloc(n + 1));
  out[0] = '\0';
  va_start(ap, first);
  for (p = first; p; p = va_arg(ap, const char *)) strcat(out, p);
  va_end(ap);
  return out;
}
#define CAT(...) concat(__VA_ARGS__, (const char *)NULL)

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  long size;
  char *buf;
  if (!f) return NULL;
  CheckCondition(fseek(f, 0, SEEK_END) == 0);
  size = ftell(f);
  CheckCondition(size >= 0);
  rewind(f);
  buf = (char *)track(malloc((size_t)size + 1));
  CheckCondition(fread(buf, 1, (size_t)size, f) == (size_t)size);
  buf[size] = '\0';
  fclose(f);
  return buf;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static void mkdir_p(const char *path) {
  char *p = CAT(path);
  char *q;
  for (q = p + 1; *q; ++q) {
    if (*q != '/') continue;
    *q = '\0';
    if (mkdir(p, 0700) != 0 && errno != EEXIST) {
      fprintf(stderr, "mkdir %s: %s\n", p, strerror(errno));
      exit(1);
    }
    *q = '/';
  }
  if (mkdir(p, 0700) != 0 && errno != EEXIST) {
    fprintf(stderr, "mkdir %s: %s\n", p, strerror(errno));
    exit(1);
  }
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* The value of the first string member "key":"..." of a compact JSON text (no escapes inside). */
static char *json_str(const char *json, const char *key) {
  char *pat = CAT("\"", key, "\":\"");
  const char *start = strstr(json, pat);
  const char *end;
  char *out;
  CheckCondition(start != NULL);
  start += strlen(pat);
  end = strchr(start, '"');
  CheckCondition(end != NULL);
  out = (char *)track(malloc((size_t)(end - start) + 1));
  memcpy(out, start, (size_t)(end - start));
  out[end - start] = '\0';
  return out;
}

static int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static size_t count(const char *haystack, const char *needle) {
  size_t n = 0;
  const char *p = haystack;
  while ((p = strstr(p, needle)) != NULL) {
    ++n;
    p += strlen(needle);
  }
  return n;
}

/* The n-th timestamp of the fixed clock (n = 0 is the header's). */
#define T0_MS 1771237230000LL /* 2026-02-16T10:20:30.000Z */
#define STEP_MS 1000LL
static const char *ts(int n) {
  long long ms = T0_MS + n * STEP_MS;
  time_t secs = (time_t)(ms / 1000);
  struct tm tm;
  char *b = (char *)track(malloc(96));
  gmtime_r(&secs, &tm);
  snprintf(b, 96, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
           tm.tm_min, tm.tm_sec, (int)(ms % 1000));
  return b;
}
static const char *ms(int n) {
  char *b = (char *)track(malloc(32));
  snprintf(b, 32, "%lld", T0_MS + n * STEP_MS);
  return b;
}

/* The stored line of a message entry: type, id, parentId, timestamp, message. */
static const char *msg_line(const char *id, const char *parent, int tick, const char *msg) {
  return CAT("{\"type\":\"message\",\"id\":\"", id, "\",\"parentId\":", parent ? "\"" : "", parent ? parent : "null",
             parent ? "\"" : "", ",\"timestamp\":\"", ts(tick), "\",\"message\":", msg, "}");
}

static const char kUser1[] = "{\"role\":\"user\",\"content\":\"hello\",\"timestamp\":1}";
static const char kAssistant1[] =
    "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],\"provider\":\"anthropic\","
    "\"model\":\"claude-x\",\"usage\":{\"input\":10,\"output\":5,\"cacheRead\":0,\"cacheWrite\":0,"
    "\"cost\":{\"total\":0.5}},\"timestamp\":2}";
static const char kUser2[] = "{\"role\":\"user\",\"content\":\"more\",\"timestamp\":3}";
static const char kUser3[] = "{\"role\":\"user\",\"content\":\"other way\",\"timestamp\":4}";

int main(int argc, char **argv) {
  char *run_dir, *root;
  const char *expected, *got, *path, *file, *header;
  xs_store *store, *mem;
  xs_session *s, *r, *w;
  xs_session_options so, ro;
  xs_store_options sto;
  xs_compaction comp;
  xs_custom_message cm;
  xs_session_init_entry si;
  char u1[XS_ID_BUFSIZE], a1[XS_ID_BUFSIZE], u2[XS_ID_BUFSIZE], u3[XS_ID_BUFSIZE], lbl[XS_ID_BUFSIZE];
  char bs[XS_ID_BUFSIZE], id[XS_ID_BUFSIZE];
  char small[16];
  int major = -1, minor = -1, patch = -1;
  size_t n, i;

  if (argc != 2) {
    fprintf(stderr, "usage: %s <scratch-dir>\n", argv[0]);
    return 2;
  }
  mkdir_p(argv[1]);
  run_dir = CAT(argv[1], "/run-XXXXXX");
  CheckCondition(mkdtemp(run_dir) != NULL);
  root = CAT(run_dir, "/store");

  StartPhase("library");
  xs_version(&major, &minor, &patch);
  CheckCondition(major == XS_VERSION_MAJOR && minor == XS_VERSION_MINOR && patch == XS_VERSION_PATCH);
  xs_version(NULL, NULL, NULL);
  CheckEqual("XS_ENOTFOUND: not found", xs_status_str(XS_ENOTFOUND));
  CheckEqual("unknown status", xs_status_str(12345));
  CheckCondition(strncmp(xs_status_str(XS_EBUFS), "XS_EBUFS: ", 10) == 0);

  StartPhase("options");
  CheckCondition(xs_store_options_init(&sto, XS_STORE_OPTIONS_VERSION) == XS_OK);
  CheckCondition(sto.version == XS_STORE_OPTIONS_VERSION && sto.flags == 0 && sto.keys_path == NULL);
  CheckCondition(xs_store_options_init(&sto, XS_STORE_OPTIONS_VERSION + 1) == XS_EVERSION);
  CheckCondition(xs_store_options_init(NULL, XS_STORE_OPTIONS_VERSION) == XS_EINVAL);
  CheckCondition(xs_store_options_init(&sto, XS_STORE_OPTIONS_VERSION) == XS_OK);
  CheckCondition(xs_session_options_init(&so, XS_SESSION_OPTIONS_VERSION) == XS_OK);
  CheckCondition(so.flags == 0 && so.max_line_bytes == 0 && so.max_depth == 0 && so.session_id == NULL);
  CheckCondition(xs_session_options_init(&so, 0) == XS_EVERSION);
  CheckCondition(xs_session_options_init(NULL, XS_SESSION_OPTIONS_VERSION) == XS_EINVAL);
  CheckCondition(xs_compaction_init(&comp, XS_COMPACTION_VERSION) == XS_OK && comp.from_extension == XS_UNSET);
  CheckCondition(xs_custom_message_init(&cm, XS_CUSTOM_MESSAGE_VERSION) == XS_OK && cm.display == 1);
  CheckCondition(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION) == XS_OK && si.reserved == 0);
  CheckCondition(xs_compaction_init(NULL, XS_COMPACTION_VERSION) == XS_EINVAL);
  CheckCondition(xs_custom_message_init(&cm, 9) == XS_EVERSION);
  CheckCondition(xs_session_init_entry_init(&si, 9) == XS_EVERSION);
  CheckCondition(sizeof(xs_store_options) == 32 && sizeof(xs_session_options) == 88 && sizeof(xs_compaction) == 88 &&
                 sizeof(xs_custom_message) == 56 && sizeof(xs_session_init_entry) == 72);

  StartPhase("store");
  store = xs_store_new();
  CheckCondition(store != NULL);
  CheckCondition(xs_store_errcode(store) == XS_OK);
  CheckEqual("", xs_store_errmsg(store));
  CheckCondition(xs_store_session_dir(store, "/w", NULL, 0, &n) == XS_EMISUSE); /* not open yet */
  CheckCondition(xs_store_errcode(store) == XS_EMISUSE && strcmp(xs_store_errmsg(store), "") != 0);
  CheckStoreNoError(store, xs_store_open(store, root, &sto));
  CheckCondition(!exists(root)); /* opening writes nothing */
  CheckCondition(xs_store_open(store, root, NULL) == XS_EMISUSE);
  Fetch(got, xs_store_errmsg(store), xs_store_session_dir(store, "/home/me/proj", b_, c_, &n_));
  CheckEqual(CAT(root, "/sessions/--home-me-proj--"), got);

  StartPhase("create (deferred)");
  CheckCondition(xs_session_options_init(&so, XS_SESSION_OPTIONS_VERSION) == XS_OK);
  so.flags = XS_SESSION_FIXED_CLOCK;
  so.clock_start_ms = T0_MS;
  so.clock_step_ms = STEP_MS;
  so.id_seed = 1;
  so.session_id = "smoke-1";
  so.title = "Smoke";
  s = NULL;
  CheckStoreNoError(store, xs_session_create(store, "/home/me/proj", &so, &s));
  CheckCondition(s != NULL);
  CheckEqual("", xs_session_errmsg(s));
  Fetch(got, xs_session_errmsg(s), xs_session_info(s, b_, c_, &n_));
  path = json_str(got, "path");
  CheckEqual(CAT(root, "/sessions/--home-me-proj--/2026-02-16T10-20-30-000Z_smoke-1.jsonl"), path);
  CheckCondition(strstr(got, "\"persisted\":false") != NULL);
  CheckCondition(!exists(path));
  header = CAT("{\"type\":\"session\",\"version\":3,\"id\":\"smoke-1\",\"timestamp\":\"", ts(0),
               "\",\"cwd\":\"/home/me/proj\",\"title\":\"Smoke\"}");
  Fetch(got, xs_session_errmsg(s), xs_session_header(s, b_, c_, &n_));
  CheckEqual(header, got);

  StartPhase("messages and the deferred write");
  memset(u1, 'x', sizeof u1);
  CheckNoError(s, xs_append_message(s, kUser1, strlen(kUser1), u1)); /* 1 */
  CheckCondition(strlen(u1) == 8 && strspn(u1, "0123456789abcdef") == 8);
  CheckCondition(!exists(path));
  CheckNoError(s, xs_append_message(s, kAssistant1, strlen(kAssistant1), a1)); /* 2 */
  CheckCondition(exists(path));
  file = read_file(path);
  CheckEqual(CAT(header, "\n", msg_line(u1, NULL, 1, kUser1), "\n", msg_line(a1, u1, 2, kAssistant1), "\n"), file);

  StartPhase("typed appends");
  CheckNoError(s, xs_append_thinking_level(s, "high", id));                 /* 3 */
  CheckNoError(s, xs_append_model_change(s, "openai/gpt-5", "smol", id));  /* 4 */
  comp.summary = "Summary";
  comp.summary_len = 7;
  comp.first_kept_entry_id = a1;
  comp.tokens_before = 100;
  CheckNoError(s, xs_append_compaction(s, &comp, id)); /* 5 */
  Fetch(got, xs_session_errmsg(s), xs_session_entry(s, id, 0, b_, c_, &n_));
  CheckCondition(strstr(got, "\"summary\":\"Summary\",\"firstKeptEntryId\":\"") != NULL);
  CheckCondition(strstr(got, "\"tokensBefore\":100}") != NULL);
  CheckNoError(s, xs_append_custom(s, "ext", "{ \"k\" : 1 }", 11, id)); /* 6 */
  Fetch(got, xs_session_errmsg(s), xs_session_entry(s, id, 0, b_, c_, &n_));
  CheckCondition(starts_with(got, "{\"type\":\"custom\",\"customType\":\"ext\",\"data\":{\"k\":1},\"id\":\""));
  CheckCondition(xs_custom_message_init(&cm, XS_CUSTOM_MESSAGE_VERSION) == XS_OK);
  cm.custom_type = "note";
  cm.content_json = "\"fyi\"";
  cm.content_len = 5;
  CheckNoError(s, xs_append_custom_message(s, &cm, id));                   /* 7 */
  CheckNoError(s, xs_append_ttsr_injection(s, "[\"r1\"]", 6, id));       /* 8 */
  si.system_prompt = "sys";
  si.system_prompt_len = 3;
  si.task = "task";
  si.task_len = 4;
  si.tools_json = "[\"read\"]";
  si.tools_len = 8;
  CheckNoError(s, xs_append_session_init(s, &si, id));                         /* 9 */
  CheckNoError(s, xs_append_mode_change(s, "plan", NULL, 0, id));             /* 10 */
  CheckNoError(s, xs_append(s, "{\"type\":\"x-ext\",\"v\":1}", 22, id));     /* 11 */
  Fetch(got, xs_session_errmsg(s), xs_session_entry(s, id, 0, b_, c_, &n_));
  CheckCondition(strstr(got, CAT("\"timestamp\":\"", ts(11), "\",\"v\":1}")) != NULL);
  CheckNoError(s, xs_append_message(s, kUser2, strlen(kUser2), u2)); /* 12 */

  StartPhase("context with compaction");
  expected = CAT("{\"leafId\":\"", u2, "\",\"messages\":[",
                 "{\"role\":\"compactionSummary\",\"summary\":\"Summary\",\"tokensBefore\":100,\"timestamp\":", ms(5),
                 "},", kAssistant1, ",",
                 "{\"role\":\"custom\",\"customType\":\"note\",\"content\":\"fyi\",\"display\":true,"
                 "\"attribution\":\"agent\",\"timestamp\":",
                 ms(7), "},", kUser2,
                 "],\"thinkingLevel\":\"high\",\"models\":{\"default\":\"anthropic/claude-x\",\"smol\":\"openai/gpt-5\"},"
                 "\"injectedTtsrRules\":[\"r1\"],\"mode\":\"plan\"}");
  Fetch(got, xs_session_errmsg(s), xs_build_context(s, NULL, b_, c_, &n_));
  CheckEqual(expected, got);

  StartPhase("branch and label");
  CheckNoError(s, xs_session_set_leaf(s, a1));
  CheckNoError(s, xs_append_message(s, kUser3, strlen(kUser3), u3)); /* 13 */
  CheckNoError(s, xs_append_label(s, u1, "start", lbl));             /* 14 */
  Fetch(got, xs_session_errmsg(s), xs_session_leaf(s, b_, c_, &n_));
  CheckEqual(lbl, got);
  expected = CAT("{\"leafId\":\"", lbl, "\",\"messages\":[", kUser1, ",", kAssistant1, ",", kUser3,
                 "],\"thinkingLevel\":\"off\",\"models\":{\"default\":\"anthropic/claude-x\"},"
                 "\"injectedTtsrRules\":[],\"mode\":\"none\"}");
  Fetch(got, xs_session_errmsg(s), xs_build_context(s, NULL, b_, c_, &n_));
  CheckEqual(expected, got);
  Fetch(got, xs_session_errmsg(s), xs_build_context(s, u2, b_, c_, &n_)); /* the other branch */
  CheckCondition(starts_with(got, CAT("{\"leafId\":\"", u2, "\"")));
  Fetch(got, xs_session_errmsg(s), xs_session_labels(s, b_, c_, &n_));
  CheckEqual(CAT("[{\"targetId\":\"", u1, "\",\"label\":\"start\",\"timestamp\":\"", ts(14), "\"}]"), got);
  Fetch(got, xs_session_errmsg(s), xs_session_children(s, a1, 0, b_, c_, &n_));
  CheckCondition(count(got, "\"type\":") == 2 && strstr(got, u3) != NULL);
  Fetch(got, xs_session_errmsg(s), xs_session_path(s, NULL, 0, b_, c_, &n_));
  CheckEqual(CAT("[", msg_line(u1, NULL, 1, kUser1), ",", msg_line(a1, u1, 2, kAssistant1), ",",
                 msg_line(u3, a1, 13, kUser3), ",{\"type\":\"label\",\"id\":\"", lbl, "\",\"parentId\":\"", u3,
                 "\",\"timestamp\":\"", ts(14), "\",\"targetId\":\"", u1, "\",\"label\":\"start\"}]"),
             got);
  Fetch(got, xs_session_errmsg(s), xs_session_tree(s, 0, b_, c_, &n_));
  CheckCondition(starts_with(got, CAT("[{\"id\":\"", u1, "\",\"parentId\":null,\"depth\":0,")));
  CheckCondition(count(got, "\"depth\":") == 14);
  CheckNoError(s, xs_session_branch_with_summary(s, u1, "gave up", 7, NULL, 0, XS_UNSET, bs)); /* 15 */
  Fetch(got, xs_session_errmsg(s), xs_session_entry(s, bs, 0, b_, c_, &n_));
  CheckEqual(CAT("{\"type\":\"branch_summary\",\"id\":\"", bs, "\",\"parentId\":\"", u1, "\",\"timestamp\":\"", ts(15),
                 "\",\"fromId\":\"", u1, "\",\"summary\":\"gave up\"}"),
             got);
  CheckNoError(s, xs_session_set_leaf(s, NULL));
  Fetch(got, xs_session_errmsg(s), xs_session_leaf(s, b_, c_, &n_));
  CheckEqual("", got);
  CheckNoError(s, xs_session_set_title(s, "Renamed", 7));
  file = read_file(path);
  CheckCondition(starts_with(file, CAT("{\"type\":\"session\",\"version\":3,\"id\":\"smoke-1\",\"timestamp\":\"",
                                      ts(0), "\",\"cwd\":\"/home/me/proj\",\"title\":\"Renamed\"}\n",
                                      msg_line(u1, NULL, 1, kUser1), "\n")));

  StartPhase("other reads");
  Fetch(got, xs_session_errmsg(s), xs_session_entries(s, 0, b_, c_, &n_));
  CheckCondition(count(got, ",\"parentId\":") == 15);
  Fetch(got, xs_session_errmsg(s), xs_session_diagnostics(s, b_, c_, &n_));
  CheckEqual("[]", got);
  Fetch(got, xs_session_errmsg(s), xs_session_usage(s, b_, c_, &n_));
  CheckEqual("{\"input\":10,\"output\":5,\"cacheRead\":0,\"cacheWrite\":0,\"premiumRequests\":0,\"cost\":0.5,"
             "\"assistantMessages\":1}",
             got);
  Fetch(got, xs_session_errmsg(s), xs_session_info(s, b_, c_, &n_));
  CheckCondition(strstr(got, "\"entryCount\":15,\"leafId\":null,\"persisted\":true,\"readOnly\":false") != NULL);

  StartPhase("output protocol");
  expected = msg_line(u1, NULL, 1, kUser1);
  n = 0;
  CheckStatus(s, XS_EBUFS, xs_session_entry(s, u1, 0, NULL, 0, &n));
  CheckCondition(n == strlen(expected));
  memset(small, '#', sizeof small);
  CheckStatus(s, XS_EBUFS, xs_session_entry(s, u1, 0, small, sizeof small, &n));
  CheckCondition(n == strlen(expected));
  for (i = 0; i < sizeof small; ++i) CheckCondition(small[i] == '#');
  CheckStatus(s, XS_EINVAL, xs_session_entry(s, u1, 0, NULL, 5, &n));
  CheckStatus(s, XS_EINVAL, xs_session_entry(s, u1, 0, small, sizeof small, NULL));
  {
    char *exact = (char *)track(malloc(strlen(expected) + 1));
    exact[strlen(expected)] = '#';
    CheckNoError(s, xs_session_entry(s, u1, 0, exact, strlen(expected), &n));
    CheckCondition(n == strlen(expected) && memcmp(exact, expected, n) == 0 && exact[n] == '#');
  }

  StartPhase("errors");
  CheckStatus(s, XS_ENOTFOUND, xs_session_set_leaf(s, "nope"));
  CheckStatus(s, XS_ENOTFOUND, xs_append_label(s, "nope", "x", id));
  CheckStatus(s, XS_ENOTFOUND, xs_build_context(s, "nope", NULL, 0, &n));
  CheckStatus(s, XS_EINVAL, xs_append_message(s, "{\"role\":", 8, id));
  CheckStatus(s, XS_EINVAL, xs_append_message(s, "[1]", 3, id));
  CheckStatus(s, XS_EINVAL, xs_append_message(s, NULL, 0, id));
  CheckStatus(s, XS_EINVAL, xs_append(s, "{\"type\":\"x\",\"id\":\"a/b\"}", 23, id));
  expected = CAT("{\"type\":\"x\",\"id\":\"", u1, "\"}");
  CheckStatus(s, XS_EEXISTS, xs_append(s, expected, strlen(expected), id));
  CheckCondition(xs_append_message(NULL, kUser1, strlen(kUser1), id) == XS_EMISUSE);
  CheckCondition(xs_session_errcode(NULL) == XS_EMISUSE && xs_session_errmsg(NULL) != NULL);
  CheckCondition(xs_store_errcode(NULL) == XS_EMISUSE && xs_store_errmsg(NULL) != NULL);
  CheckCondition(xs_build_context(NULL, NULL, NULL, 0, &n) == XS_EMISUSE);
  /* Nothing of that reached the file; the session still works. */
  CheckEqual(file, read_file(path));
  CheckNoError(s, xs_session_flush(s));
  CheckNoError(s, xs_session_persist(s));

  StartPhase("one writer, many readers");
  CheckCondition(xs_session_options_init(&ro, XS_SESSION_OPTIONS_VERSION) == XS_OK);
  w = (xs_session *)&n;
  CheckCondition(xs_session_open(store, path, NULL, &w) == XS_ELOCKED);
  CheckCondition(w == NULL && xs_store_errcode(store) == XS_ELOCKED && strcmp(xs_store_errmsg(store), "") != 0);
  ro.flags = XS_SESSION_READ_ONLY;
  r = NULL;
  CheckStoreNoError(store, xs_session_open(store, path, &ro, &r));
  {
    const char *mine, *theirs;
    Fetch(mine, xs_session_errmsg(s), xs_session_entries(s, 0, b_, c_, &n_));
    Fetch(theirs, xs_session_errmsg(r), xs_session_entries(r, 0, b_, c_, &n_));
    CheckEqual(mine, theirs);
  }
  Fetch(got, xs_session_errmsg(r), xs_session_leaf(r, b_, c_, &n_));
  CheckEqual(bs, got); /* reopening puts the leaf at the last entry in file order */
  CheckStatus(r, XS_EREADONLY, xs_append_message(r, kUser1, strlen(kUser1), id));
  CheckStatus(r, XS_EREADONLY, xs_session_set_title(r, "x", 1));
  xs_session_close(r);
  xs_session_close(s);
  w = NULL;
  CheckStoreNoError(store, xs_session_open(store, path, NULL, &w)); /* the lock went with close */
  CheckNoError(w, xs_append_message(w, kUser2, strlen(kUser2), id));
  Fetch(got, xs_session_errmsg(w), xs_session_entry(w, id, 0, b_, c_, &n_));
  CheckCondition(strstr(got, CAT("\"parentId\":\"", bs, "\"")) != NULL);
  CheckStatus(w, XS_EINVAL, xs_append_message(w, "\"just a string\"", 15, id));

  StartPhase("missing and header-less files");
  r = (xs_session *)&n;
  CheckCondition(xs_session_open(store, CAT(run_dir, "/missing.jsonl"), &ro, &r) == XS_ENOTFOUND && r == NULL);
  {
    const char *junk = CAT(run_dir, "/junk.jsonl");
    FILE *f = fopen(junk, "wb");
    CheckCondition(f != NULL);
    CheckCondition(fputs("no header here\n", f) >= 0);
    CheckCondition(fclose(f) == 0);
    r = (xs_session *)&n;
    CheckCondition(xs_session_open(store, junk, &ro, &r) == XS_ENOHEADER && r == NULL);
    CheckEqual("no header here\n", read_file(junk));
  }

  StartPhase("blobs");
  {
    char hash[XS_HASH_BUFSIZE];
    CheckStoreNoError(store, xs_blob_put(store, "abc", 3, hash));
    CheckEqual("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", hash);
    Fetch(got, xs_store_errmsg(store), xs_blob_get(store, hash, b_, c_, &n_));
    CheckEqual("abc", got);
    CheckEqual("abc", read_file(CAT(root, "/blobs/", hash)));
  }

  StartPhase("discovery");
  {
    xs_list_options lo;
    CheckCondition(xs_list_options_init(&lo, XS_LIST_OPTIONS_VERSION) == XS_OK);
    CheckCondition(sizeof lo == 24);
    lo.cwd = "/home/me/proj";
    Fetch(got, xs_store_errmsg(store), xs_store_list(store, &lo, b_, c_, &n_));
    CheckCondition(count(got, "\"path\":") == 1);
    CheckCondition(strstr(got, CAT("[{\"path\":\"", path, "\",\"id\":\"smoke-1\",\"cwd\":\"/home/me/proj\"")) == got);
    Fetch(got, xs_store_errmsg(store), xs_store_resolve(store, "SMOKE", NULL, b_, c_, &n_));
    CheckEqual(path, got);
    CheckStoreNoError(store, xs_store_write_breadcrumb(store, "smoke-tty", "/home/me/proj", path));
    CheckEqual(CAT("/home/me/proj\n", path, "\n"), read_file(CAT(root, "/terminal-sessions/smoke-tty")));
  }

  StartPhase("forks");
  {
    xs_session *f = NULL;
    so.flags = XS_SESSION_FIXED_CLOCK;
    so.title = NULL;
    so.session_id = "smoke-fork";
    CheckNoError(w, xs_session_fork(w, &so, &f));
    CheckCondition(f != NULL);
    Fetch(got, xs_session_errmsg(f), xs_session_header(f, b_, c_, &n_));
    CheckEqual(CAT("{\"type\":\"session\",\"version\":3,\"id\":\"smoke-fork\",\"timestamp\":\"", ts(0),
                   "\",\"cwd\":\"/home/me/proj\",\"title\":\"Renamed\",\"parentSession\":\"smoke-1\"}"),
               got);
    {
      const char *mine, *theirs;
      Fetch(mine, xs_session_errmsg(w), xs_session_entries(w, 0, b_, c_, &n_));
      Fetch(theirs, xs_session_errmsg(f), xs_session_entries(f, 0, b_, c_, &n_));
      CheckEqual(mine, theirs);
    }
    xs_session_close(f);
    f = NULL;
    so.session_id = "smoke-copy";
    CheckStoreNoError(store, xs_session_fork_from(store, path, "/elsewhere", &so, &f));
    Fetch(got, xs_session_errmsg(f), xs_session_info(f, b_, c_, &n_));
    CheckEqual(CAT(root, "/sessions/--elsewhere--/2026-02-16T10-20-30-000Z_smoke-copy.jsonl"), json_str(got, "path"));
    xs_session_close(f);
    f = NULL;
    so.session_id = "smoke-branch";
    CheckNoError(w, xs_session_create_branched(w, u1, &so, &f));
    Fetch(got, xs_session_errmsg(f), xs_session_entries(f, 0, b_, c_, &n_));
    /* the path (u1 alone) and a fresh label entry for u1's label */
    CheckCondition(count(got, ",\"parentId\":") == 2);
    CheckCondition(starts_with(got, CAT("[", msg_line(u1, NULL, 1, kUser1), ",{\"type\":\"label\",")));
    xs_session_close(f);
  }

  StartPhase("reload");
  r = NULL;
  CheckStoreNoError(store, xs_session_open(store, path, &ro, &r));
  CheckNoError(w, xs_append_message(w, kUser1, strlen(kUser1), id));
  {
    int64_t added = -1;
    CheckNoError(r, xs_session_reload(r, &added));
    CheckCondition(added == 1);
    Fetch(got, xs_session_errmsg(r), xs_session_leaf(r, b_, c_, &n_));
    CheckEqual(id, got);
    CheckStatus(w, XS_EMISUSE, xs_session_reload(w, &added));
  }
  xs_session_close(r);

  StartPhase("move");
  CheckNoError(w, xs_session_move_to(w, "/home/me/moved"));
  CheckCondition(!exists(path));
  path = CAT(root, "/sessions/--home-me-moved--/2026-02-16T10-20-30-000Z_smoke-1.jsonl");
  CheckCondition(exists(path));
  Fetch(got, xs_session_errmsg(w), xs_session_header(w, b_, c_, &n_));
  CheckCondition(strstr(got, "\"cwd\":\"/home/me/moved\"") != NULL);

  StartPhase("continue recent");
  {
    xs_session *c = NULL;
    so.session_id = NULL;
    CheckStoreNoError(store, xs_session_continue_recent(store, "/home/me/elsewhere", NULL, NULL, &c));
    Fetch(got, xs_session_errmsg(c), xs_session_entries(c, 0, b_, c_, &n_));
    CheckEqual("[]", got); /* nothing there yet: a new session */
    xs_session_close(c);
    c = NULL;
    CheckStoreNoError(store, xs_session_continue_recent(store, "/elsewhere", "smoke-tty", NULL, &c));
    Fetch(got, xs_session_errmsg(c), xs_session_info(c, b_, c_, &n_));
    CheckEqual(CAT(root, "/sessions/--elsewhere--/2026-02-16T10-20-30-000Z_smoke-copy.jsonl"), json_str(got, "path"));
    CheckEqual(CAT("/elsewhere\n", json_str(got, "path"), "\n"), read_file(CAT(root, "/terminal-sessions/smoke-tty")));
    xs_session_close(c);
  }

  StartPhase("sessions outlive the store");
  xs_store_free(store);
  CheckNoError(w, xs_append_message(w, kUser3, strlen(kUser3), id));
  Fetch(got, xs_session_errmsg(w), xs_session_leaf(w, b_, c_, &n_));
  CheckEqual(id, got);
  xs_session_close(w);
  xs_session_close(NULL);
  xs_store_free(NULL);

  StartPhase("in-memory store");
  mem = xs_store_new();
  CheckCondition(mem != NULL);
  sto.flags = XS_STORE_IN_MEMORY;
  CheckStoreNoError(mem, xs_store_open(mem, NULL, &sto));
  so.flags = XS_SESSION_NO_DEFER;
  so.session_id = NULL;
  s = NULL;
  CheckStoreNoError(mem, xs_session_create(mem, "/tmp/mem", &so, &s));
  CheckNoError(s, xs_append_message(s, kUser1, strlen(kUser1), u1));
  Fetch(got, xs_session_errmsg(s), xs_session_info(s, b_, c_, &n_));
  CheckCondition(!exists(json_str(got, "path")));
  Fetch(got, xs_session_errmsg(s), xs_build_context(s, NULL, b_, c_, &n_));
  CheckEqual(CAT("{\"leafId\":\"", u1, "\",\"messages\":[", kUser1,
                 "],\"thinkingLevel\":\"off\",\"models\":{},\"injectedTtsrRules\":[],\"mode\":\"none\"}"),
             got);
  StartPhase("keyed store");
  static const char kRecord[] = "{\"sessionId\":\"s1\"}";
  static const char kPatch[] = "{\"title\":\"T\"}";
  CheckStoreNoError(mem, xs_keys_put(mem, "agent:main:main", kRecord, strlen(kRecord)));
  CheckStoreNoError(mem, xs_keys_patch(mem, "agent:main:main", kPatch, strlen(kPatch)));
  Fetch(got, xs_store_errmsg(mem), xs_keys_get(mem, "agent:main:main", b_, c_, &n_));
  CheckEqual("{\"sessionId\":\"s1\",\"title\":\"T\"}", got);
  Fetch(got, xs_store_errmsg(mem), xs_keys_list(mem, "agent:", b_, c_, &n_));
  CheckEqual("[{\"key\":\"agent:main:main\",\"record\":{\"sessionId\":\"s1\",\"title\":\"T\"}}]", got);
  CheckCondition(xs_keys_put(mem, "a/b", kRecord, strlen(kRecord)) == XS_EINVAL);
  CheckStoreNoError(mem, xs_keys_delete(mem, "agent:main:main"));
  CheckCondition(xs_keys_delete(mem, "agent:main:main") == XS_ENOTFOUND);

  StartPhase("reset policies");
  xs_reset_policy rp;
  xs_session* ks = NULL;
  uint32_t reason = 99;
  CheckCondition(xs_reset_policy_init(&rp, XS_RESET_POLICY_VERSION) == XS_OK && rp.daily_hour == -1);
  rp.daily_hour = 4;
  rp.time_zone = "Asia/Shanghai";
  so.flags = 0;
  CheckStoreNoError(mem, xs_store_session_for_key(mem, "agent:main:main", 1767225600000, &rp, 0, &so, &ks, &reason));
  CheckCondition(reason == XS_RESET_NEW && strcmp(xs_reset_reason_str(reason), "new") == 0);
  xs_session_close(ks);
  ks = NULL;
  /* 03:59:59.999 the next morning in Shanghai: the same session; at 04:00, a new one. */
  CheckStoreNoError(mem, xs_store_session_for_key(mem, "agent:main:main", 1767297599999, &rp, 0, &so, &ks, &reason));
  CheckCondition(reason == XS_RESET_CONTINUED);
  xs_session_close(ks);
  ks = NULL;
  so.id_seed = 71; /* a new session's ids of its own */
  CheckStoreNoError(mem, xs_store_session_for_key(mem, "agent:main:main", 1767297600000, &rp, 0, &so, &ks, &reason));
  CheckCondition(reason == XS_RESET_DAILY);
  xs_session_close(ks);
  ks = NULL;
  so.id_seed = 72; /* a new session's ids of its own */
  CheckStoreNoError(mem, xs_store_session_for_key(mem, "agent:main:main", 0, NULL, XS_RESET_FORCE, &so, &ks, &reason));
  CheckCondition(reason == XS_RESET_FORCED);
  xs_session_close(ks);
  ks = NULL;
  rp.daily_hour = 24;
  /* Refused: *out is set to NULL (so the handle above had to be closed first). */
  CheckCondition(xs_store_session_for_key(mem, "agent:main:main", 0, &rp, 0, &so, &ks, &reason) == XS_EINVAL);
  CheckCondition(ks == NULL);
  xs_session_close(s);
  xs_store_free(mem);

  StartPhase("cleanup");
  CheckCondition(nftw(run_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
  release_all();
  fprintf(stderr, "PASS (%d checks)\n", checks);
  return 0;
}
