/*
 * search.c -- the session index and its search (docs/search.md): Store.openIndex and the Index
 * class.
 *
 * An Index wraps one xs_index handle, serialised by its gate like a History's. Every call may
 * read the session files or wait for SQLite (a rebuild reads the whole store, a busy lock is
 * waited for, flush waits for the index's own thread), so each has a Promise form on a worker and
 * a Sync twin; only lastStatus is plain.
 * Roles are passed through as strings: the library, not the binding, refuses one that is none
 * of the five, as for every other caller.
 */
#include "xsn.h"

#define A(i) (a->argv[i])
#define X XSN_INDEX_PTR(c)

/* ---- parsers ---------------------------------------------------------------------------- */

/* IndexOptions {path, busyTimeoutMs, followWrites}: what is left out keeps xs_index_options_init's
 * default. */
static int p_open(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"path", "busyTimeoutMs", "followWrites", NULL};
  napi_value o;
  int follow = 0;
  xs_index_options_init(&c->xopts, XS_INDEX_OPTIONS_VERSION);
  if (!xsn_get_options(a, A(0), "options", keys, &o) ||
      !xsn_get_name(a, xsn_prop(a, o, "path"), "path", XSN_OPTIONAL, &c->s[0]) ||
      !xsn_get_u32_option(a, o, "busyTimeoutMs", &c->xopts.busy_timeout_ms) ||
      !xsn_get_bool(a, xsn_prop(a, o, "followWrites"), "followWrites", &follow))
    return 0;
  c->xopts.path = c->s[0].p; /* copied by xs_index_open */
  if (follow) c->xopts.flags |= XS_INDEX_FOLLOW_WRITES;
  return 1;
}

/* {raw} of rebuild, refresh, verify and info. */
static int p_raw(xsn_args *a, xsn_call *c) { return xsn_get_read_options(a, A(0), c, 0); }

/* {cwd, limit, raw}: cwd into s[1], limit into c->u32 (0: the library's 20). */
static int p_list(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"cwd", "limit", "raw", NULL};
  napi_value o;
  return xsn_get_options(a, A(0), "options", keys, &o) &&
         xsn_get_name(a, xsn_prop(a, o, "cwd"), "cwd", XSN_OPTIONAL, &c->s[1]) &&
         xsn_get_u32_option(a, o, "limit", &c->u32) && xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw);
}

/* (query, {cwd, role, sinceMs, sessionId, limit, literal, raw}) into c->qopts, its strings in
 * s[1..3]. A negative sinceMs goes to the library, which refuses it. */
static int p_search(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"cwd", "role", "sinceMs", "sessionId", "limit", "literal", "raw", NULL};
  static const char *const names[] = {"cwd", "role", "sessionId"};
  xs_search_options *q = &c->qopts;
  napi_value o, since;
  int literal = 0;
  xs_search_options_init(q, XS_SEARCH_OPTIONS_VERSION);
  if (!xsn_get_name(a, A(0), "query", XSN_REQUIRED, &c->s[0]) || !xsn_get_options(a, A(1), "options", keys, &o))
    return 0;
  for (int i = 0; i < 3; i++) {
    if (!xsn_get_name(a, xsn_prop(a, o, names[i]), names[i], XSN_OPTIONAL, &c->s[1 + i])) return 0;
  }
  if (!xsn_get_u32_option(a, o, "limit", &q->limit) ||
      !xsn_get_bool(a, xsn_prop(a, o, "literal"), "literal", &literal) ||
      !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw))
    return 0;
  if (xsn_is_set(a, since = xsn_prop(a, o, "sinceMs")) &&
      !xsn_get_int(a, since, "sinceMs", INT64_MIN, INT64_MAX, &q->since_ms))
    return 0;
  q->cwd = c->s[1].p;
  q->role = c->s[2].p;
  q->session_id = c->s[3].p;
  if (literal) q->flags |= XS_SEARCH_LITERAL;
  return 1;
}

/* ---- C calls (any thread) --------------------------------------------------------------- */

static xs_status x_open(xsn_call *c) { return xs_index_open(XSN_STORE_PTR(c), &c->xopts, &c->index); }
static xs_status r_rebuild(xsn_call *c, char *b, size_t cap, size_t *n) { return xs_index_rebuild(X, b, cap, n); }
static xs_status r_refresh(xsn_call *c, char *b, size_t cap, size_t *n) { return xs_index_refresh(X, b, cap, n); }
static xs_status r_verify(xsn_call *c, char *b, size_t cap, size_t *n) { return xs_index_verify(X, b, cap, n); }
static xs_status r_list(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_index_list(X, c->s[1].p, c->u32, b, cap, n);
}
static xs_status r_info(xsn_call *c, char *b, size_t cap, size_t *n) { return xs_index_info(X, b, cap, n); }
/* Waits for the index's thread (followWrites) and returns the first failed update since the last
 * flush: on a worker in its Promise form, as it may wait for SQLite. */
static xs_status x_flush(xsn_call *c) { return xs_index_flush(X); }
static xs_status r_search(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_search(X, c->s[0].p, &c->qopts, b, cap, n);
}
/* The status of the handle's last call, which is not a failure of this one. */
static xs_status x_last_status(xsn_call *c) {
  c->number = xs_index_errcode(X);
  return XS_OK;
}

/* ---- the class -------------------------------------------------------------------------- */

#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_index_store_rows[] = {
    {"openIndex", XSN_STORE, p_open, x_open, NULL, XSN_OUT_INDEX, BOTH},
};
const size_t xsn_index_store_row_count = sizeof xsn_index_store_rows / sizeof xsn_index_store_rows[0];

static const xsn_method rows[] = {
    {"rebuild", XSN_INDEX, p_raw, NULL, r_rebuild, XSN_OUT_JSON, BOTH},
    {"refresh", XSN_INDEX, p_raw, NULL, r_refresh, XSN_OUT_JSON, BOTH},
    {"verify", XSN_INDEX, p_raw, NULL, r_verify, XSN_OUT_JSON, BOTH},
    {"list", XSN_INDEX, p_list, NULL, r_list, XSN_OUT_JSON, BOTH},
    {"info", XSN_INDEX, p_raw, NULL, r_info, XSN_OUT_JSON, BOTH},
    {"flush", XSN_INDEX, NULL, x_flush, NULL, XSN_OUT_VOID, BOTH},
    {"search", XSN_INDEX, p_search, NULL, r_search, XSN_OUT_JSON, BOTH},
    {"lastStatus", XSN_INDEX, NULL, x_last_status, NULL, XSN_OUT_NUMBER, XSN_SYNC},
};

napi_value xsn_index_class(napi_env env) {
  return xsn_opened_class(env, XSN_INDEX, rows, sizeof rows / sizeof rows[0]);
}
