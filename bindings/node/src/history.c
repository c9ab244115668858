/*
 * history.c -- the prompt history (docs/history.md): Store.openHistory and the History class.
 *
 * A History wraps one xs_history handle, serialised by its gate like a session's. add() only
 * queues (the handle's own thread writes), so it is synchronous first, with addAsync for the rare
 * wait for room; flush, search, recent, info and the open itself may wait for SQLite (the disk, a
 * busy lock): their plain names return Promises and run on a worker.
 */
#include "xsn.h"

#define A(i) (a->argv[i])
#define H XSN_HISTORY_PTR(c)

/* ---- parsers ---------------------------------------------------------------------------- */

/* HistoryOptions {path, sync, busyTimeoutMs, maxPromptBytes}: what is left out keeps the default
 * xs_history_options_init gives (0 there means the library's own default). */
static int p_open(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"path", "sync", "busyTimeoutMs", "maxPromptBytes", NULL};
  napi_value o;
  int sync = 0;
  xs_history_options_init(&c->hopts, XS_HISTORY_OPTIONS_VERSION);
  if (!xsn_get_options(a, A(0), "options", keys, &o) ||
      !xsn_get_name(a, xsn_prop(a, o, "path"), "path", XSN_OPTIONAL, &c->s[0]) ||
      !xsn_get_bool(a, xsn_prop(a, o, "sync"), "sync", &sync) ||
      !xsn_get_u32_option(a, o, "busyTimeoutMs", &c->hopts.busy_timeout_ms) ||
      !xsn_get_u32_option(a, o, "maxPromptBytes", &c->hopts.max_prompt_bytes))
    return 0;
  c->hopts.path = c->s[0].p; /* copied by xs_history_open */
  if (sync) c->hopts.flags |= XS_HISTORY_SYNC;
  return 1;
}

/* (prompt, cwd?, timeMs?). The prompt goes as bytes (a Buffer too), so that the library, not the
 * binding, refuses a NUL byte, invalid UTF-8 or an empty prompt, as for every other caller. */
static int p_add(xsn_args *a, xsn_call *c) {
  c->i64 = 0; /* now */
  return xsn_get_bytes(a, A(0), "prompt", &c->s[0]) && xsn_get_name(a, A(1), "cwd", XSN_OPTIONAL, &c->s[1]) &&
         (!xsn_is_set(a, A(2)) || xsn_get_int(a, A(2), "timeMs", INT64_MIN, INT64_MAX, &c->i64));
}

/* {cwd, limit, raw} and, for search, {literal}: cwd into s[1], limit into c->u32. */
static int p_filter(xsn_args *a, xsn_call *c, napi_value v, const char *const *keys, napi_value *o) {
  return xsn_get_options(a, v, "options", keys, o) &&
         xsn_get_name(a, xsn_prop(a, *o, "cwd"), "cwd", XSN_OPTIONAL, &c->s[1]) &&
         xsn_get_u32_option(a, *o, "limit", &c->u32) && xsn_get_bool(a, xsn_prop(a, *o, "raw"), "raw", &c->raw);
}

static int p_search(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"cwd", "literal", "limit", "raw", NULL};
  napi_value o;
  int literal = 0;
  if (!xsn_get_name(a, A(0), "query", XSN_REQUIRED, &c->s[0]) || !p_filter(a, c, A(1), keys, &o) ||
      !xsn_get_bool(a, xsn_prop(a, o, "literal"), "literal", &literal))
    return 0;
  c->i32 = literal ? (int32_t)XS_HISTORY_LITERAL : 0;
  return 1;
}

static int p_recent(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"cwd", "limit", "raw", NULL};
  napi_value o;
  return p_filter(a, c, A(0), keys, &o);
}

static int p_info(xsn_args *a, xsn_call *c) { return xsn_get_read_options(a, A(0), c, 0); }

/* ---- C calls (any thread) --------------------------------------------------------------- */

static xs_status x_open(xsn_call *c) { return xs_history_open(XSN_STORE_PTR(c), &c->hopts, &c->history); }
static xs_status x_add(xsn_call *c) { return xs_history_add(H, c->s[0].p, c->s[0].n, c->s[1].p, c->i64); }
static xs_status x_flush(xsn_call *c) { return xs_history_flush(H); }
static xs_status r_search(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_history_search(H, c->s[0].p, c->s[1].p, (uint32_t)c->i32, c->u32, b, cap, n);
}
static xs_status r_recent(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_history_recent(H, c->s[1].p, c->u32, b, cap, n);
}
static xs_status r_info(xsn_call *c, char *b, size_t cap, size_t *n) { return xs_history_info(H, b, cap, n); }
/* The status of the handle's last call, which is not a failure of this one. */
static xs_status x_last_status(xsn_call *c) {
  c->number = xs_history_errcode(H);
  return XS_OK;
}

/* ---- the class -------------------------------------------------------------------------- */

#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_history_store_rows[] = {
    {"openHistory", XSN_STORE, p_open, x_open, NULL, XSN_OUT_HISTORY, BOTH},
};
const size_t xsn_history_store_row_count = sizeof xsn_history_store_rows / sizeof xsn_history_store_rows[0];

static const xsn_method rows[] = {
    {"add", XSN_HISTORY, p_add, x_add, NULL, XSN_OUT_VOID, BOTH | XSN_SYNC_FIRST},
    {"flush", XSN_HISTORY, NULL, x_flush, NULL, XSN_OUT_VOID, BOTH},
    {"search", XSN_HISTORY, p_search, NULL, r_search, XSN_OUT_JSON, BOTH},
    {"recent", XSN_HISTORY, p_recent, NULL, r_recent, XSN_OUT_JSON, BOTH},
    {"info", XSN_HISTORY, p_info, NULL, r_info, XSN_OUT_JSON, BOTH},
    {"lastStatus", XSN_HISTORY, NULL, x_last_status, NULL, XSN_OUT_NUMBER, XSN_SYNC},
};
/* close()'s flush, whose error close() throws; xs_history_close then finds nothing to write. */
const xsn_method xsn_history_close_flush = {"close", XSN_HISTORY, NULL, x_flush, NULL, XSN_OUT_VOID, XSN_SYNC};

napi_value xsn_history_class(napi_env env) {
  return xsn_opened_class(env, XSN_HISTORY, rows, sizeof rows / sizeof rows[0]);
}
