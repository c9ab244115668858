/*
 * store.c -- the Store class: a root directory of sessions and blobs. Its constructor opens the
 * store (which writes nothing, so it is synchronous); its `keys` getter gives its Keys (keys.c); the
 * constructors of sessions live here because the C API reports their errors on the store.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* ---- constructor ------------------------------------------------------------------------ */

static napi_value store_ctor(napi_env env, napi_callback_info info) {
  static const char *const keys[] = {"inMemory", "dialect", "keysPath", "resetPolicy", NULL};
  xsn_args args = {.env = env, .cls = "Store", .fn = "constructor", .argc = 6}, *a = &args;
  napi_value self, target, opts;
  XSN_CHECK(env, napi_get_new_target(env, info, &target), NULL);
  if (!target) {
    xsn_throw_type(env, "Class constructor Store cannot be invoked without 'new'");
    return NULL;
  }
  XSN_CHECK(env, napi_get_cb_info(env, info, &a->argc, a->argv, &self, NULL), NULL);
  xs_store_options o;
  xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
  int in_memory = 0;
  uint32_t dialect = XS_DIALECT_OMP; /* the default of new sessions: omp unless {dialect: 'pi'} */
  if (!xsn_get_options(a, A(1), "options", keys, &opts) ||
      !xsn_get_bool(a, xsn_prop(a, opts, "inMemory"), "inMemory", &in_memory) ||
      !xsn_get_dialect(a, xsn_prop(a, opts, "dialect"), "dialect", &dialect))
    return NULL;
  if (in_memory) o.flags |= XS_STORE_IN_MEMORY;
  if (dialect == XS_DIALECT_PI) o.flags |= XS_STORE_DIALECT_PI;
  xsn_str root = {0}, keys_path = {0}, time_zone = {0};
  bool pending = false;
  xs_reset_policy policy;
  napi_value policy_value = xsn_prop(a, opts, "resetPolicy");
  napi_valuetype t = napi_undefined;
  if (policy_value) napi_typeof(env, policy_value, &t);
  int has_policy = t != napi_undefined && t != napi_null; /* absent: sessions never expire */
  if (!xsn_get_name(a, xsn_prop(a, opts, "keysPath"), "keysPath", XSN_OPTIONAL, &keys_path) ||
      (has_policy && !xsn_get_reset_policy(a, policy_value, "resetPolicy", &policy, &time_zone)) ||
      !xsn_get_name(a, A(0), "root", in_memory ? XSN_OPTIONAL : XSN_REQUIRED, &root) ||
      napi_is_exception_pending(env, &pending) != napi_ok || pending) { /* a throwing getter */
    xsn_str_free(&keys_path);
    xsn_str_free(&time_zone);
    xsn_str_free(&root);
    return NULL;
  }
  o.keys_path = keys_path.p;                    /* copied by xs_store_open */
  o.reset_policy = has_policy ? &policy : NULL; /* copied, its time zone read, by xs_store_open */
  xs_store *st = xs_store_new();
  xs_status rc = st ? xs_store_open(st, root.p, &o) : XS_ENOMEM;
  xsn_str_free(&root);
  xsn_str_free(&keys_path);
  xsn_str_free(&time_zone);
  if (rc != XS_OK) {
    xsn_throw_status(env, rc, st ? xs_store_errmsg(st) : "out of memory");
    xs_store_free(st);
    return NULL;
  }
  xsn_handle *h = xsn_handle_new(XSN_STORE, st);
  if (!h) {
    xs_store_free(st);
    xsn_throw_status(env, XS_ENOMEM, "out of memory");
    return NULL;
  }
  return xsn_handle_wrap(env, self, h) == napi_ok ? self : NULL;
}

/* `keys`: made on first use and kept as the store's own read-only property, which from then on
 * answers in place of this getter (so store.keys === store.keys). */
static napi_value keys_getter(napi_env env, napi_callback_info info) {
  size_t argc = 0;
  napi_value self, keys;
  XSN_CHECK(env, napi_get_cb_info(env, info, &argc, NULL, &self, NULL), NULL);
  if (!xsn_handle_get(env, self, XSN_STORE, 1) || !(keys = xsn_new_keys(env, self))) return NULL;
  const napi_property_descriptor own = {"keys", NULL, NULL, NULL, NULL, keys, napi_default, NULL};
  XSN_CHECK(env, napi_define_properties(env, self, 1, &own), NULL);
  return keys;
}

/* ---- parsers ---------------------------------------------------------------------------- */

static int p_cwd(xsn_args *a, xsn_call *c) { return xsn_get_name(a, A(0), "cwd", XSN_REQUIRED, &c->s[0]); }
static int p_hash(xsn_args *a, xsn_call *c) { return xsn_get_name(a, A(0), "hash", XSN_REQUIRED, &c->s[0]); }
static int p_data(xsn_args *a, xsn_call *c) { return xsn_get_bytes(a, A(0), "data", &c->s[0]); }

static int p_list(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"cwd", "full", "limit", "raw", NULL};
  napi_value o, limit;
  int full = 0;
  xs_list_options_init(&c->lopts, XS_LIST_OPTIONS_VERSION);
  if (!xsn_get_options(a, A(0), "options", keys, &o)) return 0;
  if (!xsn_get_name(a, xsn_prop(a, o, "cwd"), "cwd", XSN_OPTIONAL, &c->s[0]) ||
      !xsn_get_bool(a, xsn_prop(a, o, "full"), "full", &full) || !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw))
    return 0;
  napi_valuetype t = napi_undefined;
  if ((limit = xsn_prop(a, o, "limit"))) napi_typeof(a->env, limit, &t);
  if (t != napi_undefined && !xsn_get_uint64(a, limit, "limit", &c->lopts.limit)) return 0;
  c->lopts.cwd = c->s[0].p;
  if (full) c->lopts.flags |= XS_LIST_FULL;
  return 1;
}

static int p_blob_list(xsn_args *a, xsn_call *c) {
  return xsn_get_flag_options(a, A(0), "verify", XS_BLOB_LIST_VERIFY, c);
}

/* {dryRun, graceMs, nowMs, raw}: the C defaults (1 hour, the system clock) unless given. */
static int p_blob_gc(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"dryRun", "graceMs", "nowMs", "raw", NULL};
  napi_value o, x;
  int dry = 0;
  napi_valuetype t = napi_undefined;
  xs_gc_options_init(&c->gopts, XS_GC_OPTIONS_VERSION);
  if (!xsn_get_options(a, A(0), "options", keys, &o) || !xsn_get_bool(a, xsn_prop(a, o, "dryRun"), "dryRun", &dry) ||
      !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw))
    return 0;
  if (dry) c->gopts.flags |= XS_GC_DRY_RUN;
  if ((x = xsn_prop(a, o, "graceMs")) && napi_typeof(a->env, x, &t) == napi_ok && t != napi_undefined &&
      !xsn_get_int(a, x, "graceMs", 0, INT64_MAX, &c->gopts.grace_ms))
    return 0;
  t = napi_undefined;
  if ((x = xsn_prop(a, o, "nowMs")) && napi_typeof(a->env, x, &t) == napi_ok && t != napi_undefined &&
      !xsn_get_int(a, x, "nowMs", 0, INT64_MAX, &c->gopts.now_ms))
    return 0;
  return 1;
}

static int p_resolve(xsn_args *a, xsn_call *c) {
  return xsn_get_name(a, A(0), "query", XSN_REQUIRED, &c->s[0]) && xsn_get_name(a, A(1), "cwd", XSN_OPTIONAL, &c->s[1]);
}

static int p_breadcrumb(xsn_args *a, xsn_call *c) {
  return xsn_get_name(a, A(0), "terminalId", XSN_REQUIRED, &c->s[0]) &&
         xsn_get_name(a, A(1), "cwd", XSN_REQUIRED, &c->s[1]) &&
         xsn_get_name(a, A(2), "sessionPath", XSN_REQUIRED, &c->s[2]);
}

/* (first, options) and (first, second?, options) shapes of the session constructors. */
static int p_name_opts(xsn_args *a, xsn_call *c, const char *what) {
  return xsn_get_name(a, A(0), what, XSN_REQUIRED, &c->s[0]) && xsn_get_session_options(a, A(1), c);
}
static int p_create(xsn_args *a, xsn_call *c) { return p_name_opts(a, c, "cwd"); }
static int p_open(xsn_args *a, xsn_call *c) { return p_name_opts(a, c, "pathOrId"); }

static int p_continue(xsn_args *a, xsn_call *c) {
  return xsn_get_name(a, A(0), "cwd", XSN_REQUIRED, &c->s[0]) &&
         xsn_get_name(a, A(1), "terminalId", XSN_OPTIONAL, &c->s[1]) && xsn_get_session_options(a, A(2), c);
}

static int p_fork_from(xsn_args *a, xsn_call *c) {
  return xsn_get_name(a, A(0), "sourcePath", XSN_REQUIRED, &c->s[0]) &&
         xsn_get_name(a, A(1), "targetCwd", XSN_REQUIRED, &c->s[1]) && xsn_get_session_options(a, A(2), c);
}

/* ---- C calls (any thread) --------------------------------------------------------------- */

static xs_status r_session_dir(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_store_session_dir(XSN_STORE_PTR(c), c->s[0].p, b, cap, n);
}
static xs_status r_blob_get(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_blob_get(XSN_STORE_PTR(c), c->s[0].p, b, cap, n);
}
static xs_status r_list(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_store_list(XSN_STORE_PTR(c), &c->lopts, b, cap, n);
}
static xs_status r_blob_list(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_blob_list(XSN_STORE_PTR(c), c->u32, b, cap, n);
}
/* Collects once: the retry after XS_EBUFS copies the report the library kept (buffers.c). */
static xs_status r_blob_gc(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_blob_gc(XSN_STORE_PTR(c), &c->gopts, b, cap, n);
}
static xs_status r_resolve(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_store_resolve(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, b, cap, n);
}
/* The hash comes back through the id buffer of the call. */
_Static_assert(XS_HASH_BUFSIZE <= XS_ID_BUFSIZE, "a blob hash must fit the call's id buffer");
static xs_status x_blob_put(xsn_call *c) { return xs_blob_put(XSN_STORE_PTR(c), c->s[0].p, c->s[0].n, c->id); }
static xs_status x_breadcrumb(xsn_call *c) {
  return xs_store_write_breadcrumb(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, c->s[2].p);
}
static xs_status x_create(xsn_call *c) { return xs_session_create(XSN_STORE_PTR(c), c->s[0].p, &c->sopts, &c->fresh); }
static xs_status x_open(xsn_call *c) { return xs_session_open(XSN_STORE_PTR(c), c->s[0].p, &c->sopts, &c->fresh); }
static xs_status x_continue(xsn_call *c) {
  return xs_session_continue_recent(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, &c->sopts, &c->fresh);
}
static xs_status x_fork_from(xsn_call *c) {
  return xs_session_fork_from(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, &c->sopts, &c->fresh);
}

/* ---- the class -------------------------------------------------------------------------- */

#define BOTH (XSN_SYNC | XSN_ASYNC)
/* The status of the store's last call, which is not a failure of this one. */
static xs_status x_last_status(xsn_call *c) {
  c->number = xs_store_errcode(XSN_STORE_PTR(c));
  return XS_OK;
}

const xsn_method xsn_store_rows[] = {
    {"sessionDir", XSN_STORE, p_cwd, NULL, r_session_dir, XSN_OUT_STRING, XSN_SYNC},
    {"blobPut", XSN_STORE, p_data, x_blob_put, NULL, XSN_OUT_ID, BOTH},
    {"blobGet", XSN_STORE, p_hash, NULL, r_blob_get, XSN_OUT_BUFFER, BOTH},
    {"list", XSN_STORE, p_list, NULL, r_list, XSN_OUT_JSON, BOTH},
    {"blobList", XSN_STORE, p_blob_list, NULL, r_blob_list, XSN_OUT_JSON, BOTH},
    {"blobGc", XSN_STORE, p_blob_gc, NULL, r_blob_gc, XSN_OUT_JSON, BOTH},
    {"resolve", XSN_STORE, p_resolve, NULL, r_resolve, XSN_OUT_STRING, XSN_SYNC},
    {"writeBreadcrumb", XSN_STORE, p_breadcrumb, x_breadcrumb, NULL, XSN_OUT_VOID, XSN_SYNC},
    {"create", XSN_STORE, p_create, x_create, NULL, XSN_OUT_SESSION, XSN_SYNC},
    {"open", XSN_STORE, p_open, x_open, NULL, XSN_OUT_SESSION, BOTH},
    {"continueRecent", XSN_STORE, p_continue, x_continue, NULL, XSN_OUT_SESSION, BOTH},
    {"forkFrom", XSN_STORE, p_fork_from, x_fork_from, NULL, XSN_OUT_SESSION, BOTH},
    {"lastStatus", XSN_STORE, NULL, x_last_status, NULL, XSN_OUT_NUMBER, XSN_SYNC},
};
const size_t xsn_store_row_count = sizeof xsn_store_rows / sizeof xsn_store_rows[0];

napi_value xsn_store_class(napi_env env) {
  const xsn_method *tables[] = {xsn_store_rows,         xsn_retention_rows,   xsn_import_rows, xsn_bundle_rows,
                                xsn_reset_rows,         xsn_history_store_rows, xsn_index_store_rows};
  const size_t counts[] = {xsn_store_row_count,         xsn_retention_row_count,   xsn_import_row_count,
                           xsn_bundle_row_count,        xsn_reset_row_count,       xsn_history_store_row_count,
                           xsn_index_store_row_count};
  napi_value cls = xsn_define_class(env, XSN_STORE, store_ctor, tables, counts, sizeof counts / sizeof counts[0]), proto;
  if (!cls) return NULL;
  const napi_property_descriptor keys = {"keys", NULL, NULL, keys_getter, NULL, NULL, napi_configurable, NULL};
  XSN_CHECK(env, napi_get_named_property(env, cls, "prototype", &proto), NULL);
  XSN_CHECK(env, napi_define_properties(env, proto, 1, &keys), NULL);
  return cls;
}
