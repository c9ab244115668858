/*
 * planning.c -- compaction planning (docs/compaction-planning.md): the CompactionSettings object,
 * the module's handle-less decisions (shouldCompact, shouldFlushMemory, defaultCompactionSettings),
 * Session.compactionPlan and Keys.claimMemoryFlush.
 *
 * Token counts and settings go to the library as given (any int64): a negative one is its
 * XS_EINVAL, as for every other caller. The decisions have no handle, so their errors carry the
 * status's own text.
 */
#include <stdio.h>
#include <string.h>

#include "xsn.h"

#define A(i) (a->argv[i])

static const struct {
  const char *name;
  size_t offset;
} kFields[] = {
    {"contextWindow", offsetof(xs_compaction_settings, context_window)},
    {"reserveTokens", offsetof(xs_compaction_settings, reserve_tokens)},
    {"reserveFloor", offsetof(xs_compaction_settings, reserve_floor)},
    {"keepRecentTokens", offsetof(xs_compaction_settings, keep_recent_tokens)},
    {"softThresholdTokens", offsetof(xs_compaction_settings, soft_threshold_tokens)},
};
#define NFIELDS (sizeof kFields / sizeof kFields[0])

int xsn_get_compaction_settings(xsn_args *a, napi_value v, const char *const *extra, xs_compaction_settings *out,
                                napi_value *obj) {
  const char *keys[NFIELDS + 8] = {"version"};
  size_t k = 1;
  for (size_t i = 0; i < NFIELDS; i++) keys[k++] = kFields[i].name;
  for (size_t i = 0; extra && extra[i] && k + 1 < sizeof keys / sizeof keys[0]; i++) keys[k++] = extra[i];
  keys[k] = NULL;
  napi_value o, x;
  int64_t n = 0;
  xs_compaction_settings_init(out, XS_COMPACTION_SETTINGS_VERSION);
  if (!xsn_get_options(a, v, "settings", keys, &o)) return 0;
  *obj = o;
  /* version: the struct's, as a caller of an older or newer header would send it (tests). */
  if (xsn_is_set(a, x = xsn_prop(a, o, "version"))) {
    if (!xsn_get_int(a, x, "version", 0, UINT32_MAX, &n)) return 0;
    out->version = (uint32_t)n;
  }
  for (size_t i = 0; i < NFIELDS; i++) {
    if (xsn_is_set(a, x = xsn_prop(a, o, kFields[i].name)) &&
        !xsn_get_int(a, x, kFields[i].name, INT64_MIN, INT64_MAX, (int64_t *)((char *)out + kFields[i].offset)))
      return 0;
  }
  return 1;
}

/* ---- module functions ------------------------------------------------------------------- */

/* The arguments of a module function; 0 with an exception pending. */
static int module_args(napi_env env, napi_callback_info info, const char *fn, xsn_args *a) {
  *a = (xsn_args){.env = env, .cls = "xsession", .fn = fn, .argc = 6};
  XSN_CHECK(env, napi_get_cb_info(env, info, &a->argc, a->argv, NULL, NULL), 0);
  for (size_t i = a->argc; i < 6; i++) a->argv[i] = NULL;
  return 1;
}

static napi_value decision(napi_env env, xs_status rc, int out, const char *fn) {
  napi_value v = NULL;
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) != napi_ok || pending) return NULL; /* a throwing getter */
  if (rc != XS_OK) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s: %s", fn, xs_status_str(rc)); /* no handle: no error text */
    xsn_throw_status(env, rc, msg);
    return NULL;
  }
  XSN_CHECK(env, napi_get_boolean(env, out != 0, &v), NULL);
  return v;
}

/* shouldCompact(settings, contextTokens) -> boolean */
static napi_value should_compact(napi_env env, napi_callback_info info) {
  xsn_args a;
  xs_compaction_settings s;
  napi_value o;
  int64_t tokens = 0;
  int out = 0;
  if (!module_args(env, info, "shouldCompact", &a) || !xsn_get_compaction_settings(&a, a.argv[0], NULL, &s, &o) ||
      !xsn_get_int(&a, a.argv[1], "contextTokens", INT64_MIN, INT64_MAX, &tokens))
    return NULL;
  xs_status rc = xs_should_compact(&s, tokens, &out); /* before reading `out` */
  return decision(env, rc, out, "shouldCompact");
}

/* shouldFlushMemory(settings, contextTokens, compactionCount, lastFlushCompactionCount) ->
 * boolean; lastFlushCompactionCount null (or left out) = never, the C API's -1. */
static napi_value should_flush_memory(napi_env env, napi_callback_info info) {
  xsn_args a;
  xs_compaction_settings s;
  napi_value o;
  int64_t tokens = 0, count = 0, last = -1;
  int out = 0;
  napi_valuetype t = napi_undefined;
  if (!module_args(env, info, "shouldFlushMemory", &a) || !xsn_get_compaction_settings(&a, a.argv[0], NULL, &s, &o) ||
      !xsn_get_int(&a, a.argv[1], "contextTokens", INT64_MIN, INT64_MAX, &tokens) ||
      !xsn_get_int(&a, a.argv[2], "compactionCount", INT64_MIN, INT64_MAX, &count))
    return NULL;
  if (a.argv[3]) napi_typeof(env, a.argv[3], &t);
  if (t != napi_undefined && t != napi_null &&
      !xsn_get_int(&a, a.argv[3], "lastFlushCompactionCount", INT64_MIN, INT64_MAX, &last))
    return NULL;
  xs_status rc = xs_should_flush_memory(&s, tokens, count, last, &out);
  return decision(env, rc, out, "shouldFlushMemory");
}

/* defaultCompactionSettings: what xs_compaction_settings_init fills in, frozen. */
static napi_value defaults_object(napi_env env) {
  xs_compaction_settings s;
  napi_value o, v;
  xs_compaction_settings_init(&s, XS_COMPACTION_SETTINGS_VERSION);
  XSN_CHECK(env, napi_create_object(env, &o), NULL);
  for (size_t i = 0; i < NFIELDS; i++) {
    XSN_CHECK(env, napi_create_int64(env, *(const int64_t *)((const char *)&s + kFields[i].offset), &v), NULL);
    XSN_CHECK(env, napi_set_named_property(env, o, kFields[i].name, v), NULL);
  }
  XSN_CHECK(env, napi_object_freeze(env, o), NULL);
  return o;
}

int xsn_define_planning(napi_env env, napi_value exports) {
  napi_value compact, flush, defaults = defaults_object(env);
  if (!defaults) return 0;
  XSN_CHECK(env, napi_create_function(env, "shouldCompact", NAPI_AUTO_LENGTH, should_compact, NULL, &compact), 0);
  XSN_CHECK(env, napi_create_function(env, "shouldFlushMemory", NAPI_AUTO_LENGTH, should_flush_memory, NULL, &flush),
            0);
  const napi_property_descriptor props[] = {
      {"shouldCompact", NULL, NULL, NULL, NULL, compact, napi_enumerable, NULL},
      {"shouldFlushMemory", NULL, NULL, NULL, NULL, flush, napi_enumerable, NULL},
      {"defaultCompactionSettings", NULL, NULL, NULL, NULL, defaults, napi_enumerable, NULL},
  };
  XSN_CHECK(env, napi_define_properties(env, exports, sizeof props / sizeof props[0], props), 0);
  return 1;
}

/* ---- Session.compactionPlan(leafId?, settings & {raw}?) --------------------------------- */

static int p_plan(xsn_args *a, xsn_call *c) {
  static const char *const extra[] = {"raw", NULL};
  napi_value o;
  xsn_optional_first(a);
  return xsn_get_name(a, A(0), "leafId", XSN_OPTIONAL, &c->s[0]) &&
         xsn_get_compaction_settings(a, A(1), extra, &c->csettings, &o) &&
         xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw);
}

static xs_status r_plan(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_compaction_plan(XSN_SESSION_PTR(c), c->s[0].p, &c->csettings, b, cap, n);
}

const xsn_method xsn_planning_session_rows[] = {
    {"compactionPlan", XSN_SESSION, p_plan, NULL, r_plan, XSN_OUT_JSON, XSN_SYNC | XSN_ASYNC},
};
const size_t xsn_planning_session_row_count = sizeof xsn_planning_session_rows / sizeof xsn_planning_session_rows[0];

/* ---- Keys.claimMemoryFlush(key, settings, contextTokens, nowMs?) -> boolean ----------------- */

static int p_claim(xsn_args *a, xsn_call *c) {
  napi_value o;
  if (!xsn_get_name(a, A(0), "key", XSN_REQUIRED, &c->s[0]) ||
      !xsn_get_compaction_settings(a, A(1), NULL, &c->csettings, &o) ||
      !xsn_get_int(a, A(2), "contextTokens", INT64_MIN, INT64_MAX, &c->n[0]))
    return 0;
  return !xsn_is_set(a, A(3)) || xsn_get_int(a, A(3), "nowMs", INT64_MIN, INT64_MAX, &c->n[1]); /* 0 = now */
}

static xs_status x_claim(xsn_call *c) {
  return xs_keys_claim_memory_flush(XSN_STORE_PTR(c), c->s[0].p, &c->csettings, c->n[0], c->n[1], &c->yes);
}

/* A keys write: under the document's lock, so it passes the documents gate. */
const xsn_method xsn_planning_keys_rows[] = {
    {"claimMemoryFlush", XSN_KEYS, p_claim, x_claim, NULL, XSN_OUT_BOOL, XSN_SYNC | XSN_ASYNC | XSN_DOC_LOCK},
};
const size_t xsn_planning_keys_row_count = sizeof xsn_planning_keys_rows / sizeof xsn_planning_keys_rows[0];
