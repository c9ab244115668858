/*
 * session.c -- the Session class: how Session objects are made (only by the addon, around a
 * handle the C API returned) and the calls that change the session as a whole (durability,
 * title, reload, move, fork). Appends are in session_write.c, readers in session_read.c.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* `new Session()` from JS has no handle to wrap: sessions come from a Store (or a fork). */
static napi_value session_ctor(napi_env env, napi_callback_info info) {
  return xsn_adopted(env, info, XSN_SESSION,
                     "Session objects are made by Store.create/open/continueRecent/forkFrom and "
                     "Session.fork/createBranched, not by new Session()");
}

napi_value xsn_new_session(napi_env env, xs_session *s, int keyed) {
  xsn_handle *h = xsn_handle_new(XSN_SESSION, s);
  if (!h) {
    xs_session_close(s);
    xsn_throw_status(env, XS_ENOMEM, "out of memory");
    return NULL;
  }
  h->keyed = keyed;
  h->env = env;
  return xsn_adopt(env, h, xsn_env_get(env)->session_ctor);
}

/* ---- parsers ---------------------------------------------------------------------------- */

static int p_title(xsn_args *a, xsn_call *c) { return xsn_get_text(a, A(0), "title", XSN_OPTIONAL, &c->s[0]); }
static int p_cwd(xsn_args *a, xsn_call *c) { return xsn_get_name(a, A(0), "cwd", XSN_REQUIRED, &c->s[0]); }
static int p_opts(xsn_args *a, xsn_call *c) { return xsn_get_session_options(a, A(0), c); }
static int p_leaf_opts(xsn_args *a, xsn_call *c) {
  xsn_optional_first(a);
  return xsn_get_name(a, A(0), "leafId", XSN_OPTIONAL, &c->s[0]) && xsn_get_session_options(a, A(1), c);
}

/* ---- C calls (any thread) --------------------------------------------------------------- */

static xs_status x_flush(xsn_call *c) { return xs_session_flush(XSN_SESSION_PTR(c)); }
static xs_status x_persist(xsn_call *c) { return xs_session_persist(XSN_SESSION_PTR(c)); }
static xs_status x_title(xsn_call *c) { return xs_session_set_title(XSN_SESSION_PTR(c), c->s[0].p, c->s[0].n); }
static xs_status x_move(xsn_call *c) { return xs_session_move_to(XSN_SESSION_PTR(c), c->s[0].p); }
static xs_status x_fork(xsn_call *c) { return xs_session_fork(XSN_SESSION_PTR(c), &c->sopts, &c->fresh); }
static xs_status x_branched(xsn_call *c) {
  return xs_session_create_branched(XSN_SESSION_PTR(c), c->s[0].p, &c->sopts, &c->fresh);
}
static xs_status x_reload(xsn_call *c) {
  int64_t added = 0;
  xs_status rc = xs_session_reload(XSN_SESSION_PTR(c), &added);
  c->number = (double)added;
  return rc;
}

/* The status of the handle's last call, which is not a failure of this one. */
static xs_status x_last_status(xsn_call *c) {
  c->number = xs_session_errcode(XSN_SESSION_PTR(c));
  return XS_OK;
}

/* ---- the class -------------------------------------------------------------------------- */

#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_session_life_rows[] = {
    {"flush", XSN_SESSION, NULL, x_flush, NULL, XSN_OUT_VOID, BOTH},
    {"persist", XSN_SESSION, NULL, x_persist, NULL, XSN_OUT_VOID, BOTH},
    {"setTitle", XSN_SESSION, p_title, x_title, NULL, XSN_OUT_VOID, BOTH},
    {"moveTo", XSN_SESSION, p_cwd, x_move, NULL, XSN_OUT_VOID, BOTH},
    {"reload", XSN_SESSION, NULL, x_reload, NULL, XSN_OUT_NUMBER, BOTH},
    {"fork", XSN_SESSION, p_opts, x_fork, NULL, XSN_OUT_SESSION, BOTH},
    {"createBranched", XSN_SESSION, p_leaf_opts, x_branched, NULL, XSN_OUT_SESSION, BOTH},
    {"lastStatus", XSN_SESSION, NULL, x_last_status, NULL, XSN_OUT_NUMBER, XSN_SYNC},
};
const xsn_method xsn_session_close_flush = {"close", XSN_SESSION, NULL, x_flush, NULL, XSN_OUT_VOID, XSN_SYNC};
const size_t xsn_session_life_row_count = sizeof xsn_session_life_rows / sizeof xsn_session_life_rows[0];

napi_value xsn_session_class(napi_env env) {
  const xsn_method *tables[] = {xsn_session_life_rows, xsn_session_write_rows, xsn_session_read_rows,
                                xsn_planning_session_rows};
  const size_t counts[] = {xsn_session_life_row_count, xsn_session_write_row_count, xsn_session_read_row_count,
                           xsn_planning_session_row_count};
  return xsn_define_class(env, XSN_SESSION, session_ctor, tables, counts, 4);
}
