/* An agent that loads libxsession.so.0 at run time with dlopen/dlsym and no link-time dependency
 * on it (xsession.h is included only for its types and constants; every function is reached
 * through a pointer from dlsym). It drives one session: store in a temporary directory, user and
 * assistant messages, a branch, a label, the context read with the size-query-then-fill protocol,
 * exact results, close.
 *
 * Usage: xs_dlopen_test <path to libxsession.so.0> */
#define _XOPEN_SOURCE 700

#include <dlfcn.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "xsession.h"

static void *lib;

#define FAIL(...)                                  \
  do {                                             \
    fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                  \
    fputc('\n', stderr);                           \
    exit(1);                                       \
  } while (0)

/* Pointers typed from the header's declarations (no reference to the symbols themselves). */
#define FN(name) static __typeof__(&name) p_##name
#define LOAD(name)                                           \
  do {                                                       \
    void *sym_ = dlsym(lib, #name);                          \
    if (!sym_) FAIL("dlsym(%s): %s", #name, dlerror());      \
    memcpy(&p_##name, &sym_, sizeof sym_);                   \
  } while (0)

FN(xs_version);
FN(xs_status_str);
FN(xs_store_new);
FN(xs_store_open);
FN(xs_store_free);
FN(xs_store_errmsg);
FN(xs_session_options_init);
FN(xs_session_create);
FN(xs_session_close);
FN(xs_session_errmsg);
FN(xs_session_errcode);
FN(xs_append_message);
FN(xs_session_set_leaf);
FN(xs_append_label);
FN(xs_build_context);
FN(xs_session_leaf);
FN(xs_session_labels);
FN(xs_session_info);

#define CHECK_OK(s, call)                                                                         \
  do {                                                                                            \
    xs_status rc_ = (call);                                                                       \
    if (rc_ != XS_OK) FAIL("%s -> %s: %s", #call, p_xs_status_str(rc_), p_xs_session_errmsg(s)); \
  } while (0)

#define CHECK(cond)                                  \
  do {                                               \
    if (!(cond)) FAIL("check failed: %s", #cond);    \
  } while (0)

#define CHECK_STR(expected, actual)                                                  \
  do {                                                                               \
    if (strcmp((expected), (actual)) != 0) FAIL("expected\n  %s\ngot\n  %s", (expected), (actual)); \
  } while (0)

/* Size query, then fill; loops while the result grows (the documented retry). */
typedef xs_status (*reader_fn)(xs_session *, char *, size_t, size_t *);
static char *fetch(xs_session *s, reader_fn read) {
  size_t need = (size_t)-1;
  char *buf = NULL;
  xs_status rc = read(s, NULL, 0, &need);
  int attempts;
  for (attempts = 0; rc == XS_EBUFS && attempts < 5; ++attempts) {
    size_t cap = need;
    free(buf);
    buf = (char *)malloc(cap + 1);
    CHECK(buf != NULL);
    rc = read(s, buf, cap, &need);
    if (rc == XS_OK) CHECK(need <= cap);
  }
  if (rc != XS_OK) FAIL("read -> %s: %s", p_xs_status_str(rc), p_xs_session_errmsg(s));
  if (!buf) {
    CHECK(need == 0);
    buf = (char *)malloc(1);
    CHECK(buf != NULL);
  }
  buf[need] = '\0';
  return buf;
}

static xs_status read_context(xs_session *s, char *b, size_t c, size_t *n) { return p_xs_build_context(s, NULL, b, c, n); }
static xs_status read_leaf(xs_session *s, char *b, size_t c, size_t *n) { return p_xs_session_leaf(s, b, c, n); }
static xs_status read_labels(xs_session *s, char *b, size_t c, size_t *n) { return p_xs_session_labels(s, b, c, n); }
static xs_status read_info(xs_session *s, char *b, size_t c, size_t *n) { return p_xs_session_info(s, b, c, n); }

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static const char kUser1[] = "{\"role\":\"user\",\"content\":\"list the files\",\"timestamp\":1}";
static const char kAssistant1[] =
    "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"a.c b.c\"}],\"provider\":\"anthropic\","
    "\"model\":\"claude-x\",\"timestamp\":2}";
static const char kUser2[] = "{\"role\":\"user\",\"content\":\"delete them\",\"timestamp\":3}";
static const char kUser3[] = "{\"role\":\"user\",\"content\":\"count them instead\",\"timestamp\":4}";

int main(int argc, char **argv) {
  char dir[] = "/tmp/xs-dlopen-XXXXXX";
  xs_store *st;
  xs_session *s = NULL;
  xs_session_options o;
  char u1[XS_ID_BUFSIZE], a1[XS_ID_BUFSIZE], u2[XS_ID_BUFSIZE], u3[XS_ID_BUFSIZE], l1[XS_ID_BUFSIZE];
  char expected[2048];
  char *got, *path, *p;
  int major = -1, minor = -1, patch = -1;
  size_t n;

  if (argc != 2) {
    fprintf(stderr, "usage: %s <path to libxsession.so.0>\n", argv[0]);
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) FAIL("dlopen(%s): %s", argv[1], dlerror());
  LOAD(xs_version);
  LOAD(xs_status_str);
  LOAD(xs_store_new);
  LOAD(xs_store_open);
  LOAD(xs_store_free);
  LOAD(xs_store_errmsg);
  LOAD(xs_session_options_init);
  LOAD(xs_session_create);
  LOAD(xs_session_close);
  LOAD(xs_session_errmsg);
  LOAD(xs_session_errcode);
  LOAD(xs_append_message);
  LOAD(xs_session_set_leaf);
  LOAD(xs_append_label);
  LOAD(xs_build_context);
  LOAD(xs_session_leaf);
  LOAD(xs_session_labels);
  LOAD(xs_session_info);
  /* Only xs_ symbols are exported: an engine symbol is not reachable. */
  CHECK(dlsym(lib, "_ZN2xs7session7Session6createE") == NULL);

  p_xs_version(&major, &minor, &patch);
  CHECK(major == XS_VERSION_MAJOR && minor == XS_VERSION_MINOR && patch == XS_VERSION_PATCH);
  CHECK_STR("XS_ENOTFOUND: not found", p_xs_status_str(XS_ENOTFOUND));

  if (!mkdtemp(dir)) FAIL("mkdtemp failed");
  st = p_xs_store_new();
  CHECK(st != NULL);
  if (p_xs_store_open(st, dir, NULL) != XS_OK) FAIL("xs_store_open: %s", p_xs_store_errmsg(st));

  CHECK(p_xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION) == XS_OK);
  o.flags = XS_SESSION_FIXED_CLOCK;
  o.clock_start_ms = 1771237230000LL; /* 2026-02-16T10:20:30.000Z */
  o.clock_step_ms = 1000;
  o.id_seed = 99;
  o.session_id = "dlopen-1";
  if (p_xs_session_create(st, "/work/agent", &o, &s) != XS_OK) FAIL("create: %s", p_xs_store_errmsg(st));
  CHECK(s != NULL);

  CHECK_OK(s, p_xs_append_message(s, kUser1, strlen(kUser1), u1));
  CHECK_OK(s, p_xs_append_message(s, kAssistant1, strlen(kAssistant1), a1));
  CHECK_OK(s, p_xs_append_message(s, kUser2, strlen(kUser2), u2));
  CHECK(strlen(u1) == 8 && strlen(a1) == 8 && strlen(u2) == 8);
  CHECK(strcmp(u1, a1) != 0 && strcmp(a1, u2) != 0);

  /* Branch back to the assistant's reply and go another way. */
  CHECK_OK(s, p_xs_session_set_leaf(s, a1));
  CHECK_OK(s, p_xs_append_message(s, kUser3, strlen(kUser3), u3));
  CHECK_OK(s, p_xs_append_label(s, u1, "start", l1));

  /* The context, by hand: size query, then the exact fill. */
  n = (size_t)-1;
  CHECK(p_xs_build_context(s, NULL, NULL, 0, &n) == XS_EBUFS);
  CHECK(p_xs_session_errcode(s) == XS_EBUFS);
  snprintf(expected, sizeof expected,
           "{\"leafId\":\"%s\",\"messages\":[%s,%s,%s],\"thinkingLevel\":\"off\","
           "\"models\":{\"default\":\"anthropic/claude-x\"},\"injectedTtsrRules\":[],\"mode\":\"none\"}",
           l1, kUser1, kAssistant1, kUser3);
  CHECK(n == strlen(expected));
  got = (char *)malloc(n + 1);
  CHECK(got != NULL);
  memset(got, '#', n + 1);
  CHECK(p_xs_build_context(s, NULL, got, n - 1, &n) == XS_EBUFS); /* one byte short: untouched */
  {
    size_t i;
    for (i = 0; i <= n; ++i) CHECK(got[i] == '#');
  }
  CHECK_OK(s, p_xs_build_context(s, NULL, got, n, &n));
  CHECK(got[n] == '#'); /* no NUL, nothing past the length */
  got[n] = '\0';
  CHECK_STR(expected, got);
  free(got);

  /* The other branch, through the helper loop. */
  got = fetch(s, read_leaf);
  CHECK_STR(l1, got);
  free(got);
  got = fetch(s, read_labels);
  snprintf(expected, sizeof expected,
           "[{\"targetId\":\"%s\",\"label\":\"start\",\"timestamp\":\"2026-02-16T10:20:35.000Z\"}]", u1);
  CHECK_STR(expected, got);
  free(got);
  CHECK_OK(s, p_xs_session_set_leaf(s, u2));
  got = fetch(s, read_context);
  snprintf(expected, sizeof expected,
           "{\"leafId\":\"%s\",\"messages\":[%s,%s,%s],\"thinkingLevel\":\"off\","
           "\"models\":{\"default\":\"anthropic/claude-x\"},\"injectedTtsrRules\":[],\"mode\":\"none\"}",
           u2, kUser1, kAssistant1, kUser2);
  CHECK_STR(expected, got);
  free(got);

  /* Errors are per handle and exact. */
  CHECK(p_xs_session_set_leaf(s, "no-such-entry") == XS_ENOTFOUND);
  CHECK(p_xs_session_errcode(s) == XS_ENOTFOUND && strcmp(p_xs_session_errmsg(s), "") != 0);
  CHECK(p_xs_append_message(s, "{\"role\":", 8, NULL) == XS_EINVAL);
  CHECK(p_xs_append_message(NULL, kUser1, strlen(kUser1), NULL) == XS_EMISUSE);

  /* The file is where info says, named <timestamp>_<id>.jsonl, with 6 lines. */
  got = fetch(s, read_info);
  p = strstr(got, "\"path\":\"");
  CHECK(p != NULL);
  path = p + 8;
  *strchr(path, '"') = '\0';
  snprintf(expected, sizeof expected, "%s/sessions/--work-agent--/2026-02-16T10-20-30-000Z_dlopen-1.jsonl", dir);
  CHECK_STR(expected, path);
  {
    FILE *f = fopen(path, "rb");
    int c, lines = 0;
    CHECK(f != NULL);
    while ((c = fgetc(f)) != EOF) lines += c == '\n';
    fclose(f);
    CHECK(lines == 6); /* header + u1 a1 u2 u3 label */
  }
  free(got);

  p_xs_session_close(s);
  p_xs_store_free(st);
  CHECK(nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
  CHECK(dlclose(lib) == 0);
  fprintf(stderr, "PASS\n");
  return 0;
}
