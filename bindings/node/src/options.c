/*
 * options.c -- the JS options objects shared by several methods, into their C structs.
 * Option structs are initialised with their *_init function first, so fields a newer header
 * adds keep the library's defaults.
 */
#include <string.h>

#include "xsn.h"

static const char *const kSessionKeys[] = {
    "readOnly", "create", "noDefer", "sync", "maxLineBytes", "maxDepth", "dialect", "clockStartMs",
    "clockStepMs", "idSeed", "cwd", "sessionId", "title", "parentSession", "key", NULL};

/* The JS names of the dialects a session can write (docs/dialects.md); AUTO has none: it is
 * what an absent option means. */
static const struct {
  uint32_t value;
  const char *name;
} kDialects[] = {{XS_DIALECT_OMP, "omp"}, {XS_DIALECT_PI, "pi"}};

const char *xsn_dialect_name(uint32_t dialect) {
  for (size_t i = 0; i < sizeof kDialects / sizeof kDialects[0]; i++) {
    if (kDialects[i].value == dialect) return kDialects[i].name;
  }
  return NULL;
}

int xsn_get_dialect(xsn_args *a, napi_value v, const char *what, uint32_t *out) {
  xsn_str name = {0};
  if (!xsn_get_name(a, v, what, XSN_OPTIONAL, &name)) return 0;
  if (!name.p) return 1; /* undefined or null: *out kept (AUTO) */
  for (size_t i = 0; i < sizeof kDialects / sizeof kDialects[0]; i++) {
    if (strcmp(name.p, kDialects[i].name) == 0) {
      *out = kDialects[i].value;
      xsn_str_free(&name);
      return 1;
    }
  }
  xsn_throw_type(a->env, "%s.%s: %s must be 'omp' or 'pi' (got '%.32s')", a->cls, a->fn, what, name.p);
  xsn_str_free(&name);
  return 0;
}

static int flag(xsn_args *a, napi_value o, const char *key, uint32_t bit, uint32_t *flags) {
  int on = 0;
  if (!xsn_get_bool(a, xsn_prop(a, o, key), key, &on)) return 0;
  if (on) *flags |= bit;
  return 1;
}

int xsn_get_session_options(xsn_args *a, napi_value v, xsn_call *c) {
  napi_value o;
  xs_session_options *so = &c->sopts;
  xs_session_options_init(so, XS_SESSION_OPTIONS_VERSION);
  if (!xsn_get_options(a, v, "options", kSessionKeys, &o)) return 0;
  if (!o) return 1;
  if (!flag(a, o, "readOnly", XS_SESSION_READ_ONLY, &so->flags) || !flag(a, o, "create", XS_SESSION_CREATE, &so->flags) ||
      !flag(a, o, "noDefer", XS_SESSION_NO_DEFER, &so->flags) || !flag(a, o, "sync", XS_SESSION_SYNC, &so->flags))
    return 0;
  napi_value x;
  int64_t n = 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "maxLineBytes")) && !xsn_get_uint64(a, x, "maxLineBytes", &so->max_line_bytes))
    return 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "maxDepth"))) {
    if (!xsn_get_int(a, x, "maxDepth", 0, UINT32_MAX, &n)) return 0;
    so->max_depth = (uint32_t)n;
  }
  if (!xsn_get_dialect(a, xsn_prop(a, o, "dialect"), "dialect", &so->dialect)) return 0;
  /* A start time is what makes the clock fixed (tests that compare exact bytes). */
  if (xsn_is_set(a, x = xsn_prop(a, o, "clockStartMs"))) {
    if (!xsn_get_int(a, x, "clockStartMs", INT64_MIN, INT64_MAX, &so->clock_start_ms)) return 0;
    so->flags |= XS_SESSION_FIXED_CLOCK;
  }
  if (xsn_is_set(a, x = xsn_prop(a, o, "clockStepMs")) &&
      !xsn_get_int(a, x, "clockStepMs", INT64_MIN, INT64_MAX, &so->clock_step_ms))
    return 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "idSeed")) && !xsn_get_uint64(a, x, "idSeed", &so->id_seed)) return 0;
  static const char *const names[XSN_SESSION_STRS] = {"cwd", "sessionId", "title", "parentSession", "key"};
  for (int i = 0; i < XSN_SESSION_STRS; i++) {
    if (!xsn_get_name(a, xsn_prop(a, o, names[i]), names[i], XSN_OPTIONAL, &c->opt_s[i])) return 0;
  }
  so->cwd = c->opt_s[0].p;
  so->session_id = c->opt_s[1].p;
  so->title = c->opt_s[2].p;
  so->parent_session = c->opt_s[3].p;
  so->key = c->opt_s[4].p; /* binds the session to that key's record (docs/session-stats.md) */
  return 1;
}

int xsn_get_flag_options(xsn_args *a, napi_value v, const char *name, uint32_t flag, xsn_call *c) {
  const char *const keys[] = {name, "raw", NULL};
  napi_value o;
  int on = 0;
  if (!xsn_get_options(a, v, "options", keys, &o) || !xsn_get_bool(a, xsn_prop(a, o, name), name, &on) ||
      !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw))
    return 0;
  c->u32 = on ? flag : 0;
  return 1;
}

int xsn_get_read_options(xsn_args *a, napi_value v, xsn_call *c, int blobs) {
  static const char *const with_blobs[] = {"raw", "resolveBlobs", NULL};
  static const char *const plain[] = {"raw", NULL};
  napi_value o;
  int resolve = 0;
  if (!xsn_get_options(a, v, "options", blobs ? with_blobs : plain, &o)) return 0;
  if (!o) return 1;
  if (!xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw)) return 0;
  if (blobs && !xsn_get_bool(a, xsn_prop(a, o, "resolveBlobs"), "resolveBlobs", &resolve)) return 0;
  c->u32 = resolve ? XS_READ_RESOLVE_BLOBS : 0;
  return 1;
}
