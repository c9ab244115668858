/*
 * keys.c -- the Keys class: a store's keyed session store (docs/keyed-store.md), reached as
 * `store.keys`. A Keys object has no handle of its own: it is made with its store, keeps it in a
 * read-only `store` property, and its calls run on the store's handle (xsn_handle_get). Absence
 * is not an error here, as in a Map: get gives null and delete false where the library says
 * XS_ENOTFOUND. update, whose callback runs under the document's lock, is in keys_update.c.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* `new Keys()` from JS has no store: Keys objects come with their Store. */
static napi_value keys_ctor(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value store = NULL, self;
  XSN_CHECK(env, napi_get_cb_info(env, info, &argc, &store, &self, NULL), NULL);
  xsn_env *e = xsn_env_get(env);
  if (!e->making_keys || argc != 1) {
    xsn_throw_type(env, "Keys objects are made by the Store (store.keys), not by new Keys()");
    return NULL;
  }
  e->making_keys = 0;
  const napi_property_descriptor prop = {"store", NULL, NULL, NULL, NULL, store, napi_default, NULL};
  XSN_CHECK(env, napi_define_properties(env, self, 1, &prop), NULL);
  XSN_CHECK(env, xsn_handle_tag(env, self, XSN_KEYS), NULL);
  return self;
}

napi_value xsn_new_keys(napi_env env, napi_value store) {
  xsn_env *e = xsn_env_get(env);
  napi_value ctor, obj = NULL;
  XSN_CHECK(env, napi_get_reference_value(env, e->keys_ctor, &ctor), NULL);
  e->making_keys = 1;
  napi_status st = napi_new_instance(env, ctor, 1, &store, &obj);
  e->making_keys = 0;
  if (st != napi_ok) {
    xsn_throw_napi(env, st);
    return NULL;
  }
  return obj;
}

/* ---- parsers ---------------------------------------------------------------------------- */

static int p_key(xsn_args *a, xsn_call *c) { return xsn_get_name(a, A(0), "key", XSN_REQUIRED, &c->s[0]); }

static int p_get(xsn_args *a, xsn_call *c) { return p_key(a, c) && xsn_get_read_options(a, A(1), c, 0); }

static int p_list(xsn_args *a, xsn_call *c) {
  xsn_optional_first(a); /* list({ raw: true }) */
  return xsn_get_name(a, A(0), "prefix", XSN_OPTIONAL, &c->s[0]) && xsn_get_read_options(a, A(1), c, 0);
}

static int p_put(xsn_args *a, xsn_call *c) {
  return p_key(a, c) && xsn_get_json(a, A(1), "record", XSN_REQUIRED, &c->s[1]);
}

static int p_patch(xsn_args *a, xsn_call *c) {
  return p_key(a, c) && xsn_get_json(a, A(1), "patch", XSN_REQUIRED, &c->s[1]);
}

/* ---- C calls (any thread) --------------------------------------------------------------- */

static xs_status r_get(xsn_call *c, char *b, size_t cap, size_t *n) {
  xs_status rc = xs_keys_get(XSN_STORE_PTR(c), c->s[0].p, b, cap, n);
  if (rc != XS_ENOTFOUND) return rc;
  c->absent = 1;
  *n = 0;
  return XS_OK;
}

static xs_status r_list(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_keys_list(XSN_STORE_PTR(c), c->s[0].p, b, cap, n);
}

static xs_status r_fix_stats(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_keys_fix_stats(XSN_STORE_PTR(c), c->s[0].p, b, cap, n); /* once: the retry copies the kept report */
}

static xs_status x_put(xsn_call *c) { return xs_keys_put(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, c->s[1].n); }
static xs_status x_patch(xsn_call *c) { return xs_keys_patch(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, c->s[1].n); }

static xs_status x_delete(xsn_call *c) {
  xs_status rc = xs_keys_delete(XSN_STORE_PTR(c), c->s[0].p);
  if (rc != XS_ENOTFOUND) return rc;
  c->absent = 1;
  return XS_OK;
}

/* ---- the class -------------------------------------------------------------------------- */

/* Every row has both forms: each reads or replaces the document on disk. */
#define BOTH (XSN_SYNC | XSN_ASYNC)
#define WRITE (XSN_SYNC | XSN_ASYNC | XSN_DOC_LOCK)
const xsn_method xsn_keys_rows[] = {
    {"get", XSN_KEYS, p_get, NULL, r_get, XSN_OUT_RECORD, BOTH},
    {"list", XSN_KEYS, p_list, NULL, r_list, XSN_OUT_JSON, BOTH},
    {"put", XSN_KEYS, p_put, x_put, NULL, XSN_OUT_VOID, WRITE},
    {"patch", XSN_KEYS, p_patch, x_patch, NULL, XSN_OUT_VOID, WRITE},
    {"delete", XSN_KEYS, p_key, x_delete, NULL, XSN_OUT_FOUND, WRITE},
    {"update", XSN_KEYS, xsn_update_parse, xsn_update_run, NULL, XSN_OUT_VOID, WRITE},
    {"fixStats", XSN_KEYS, p_list, NULL, r_fix_stats, XSN_OUT_JSON, WRITE},
};
const size_t xsn_keys_row_count = sizeof xsn_keys_rows / sizeof xsn_keys_rows[0];

napi_value xsn_keys_class(napi_env env) {
  const xsn_method *tables[] = {xsn_keys_rows, xsn_planning_keys_rows};
  const size_t counts[] = {xsn_keys_row_count, xsn_planning_keys_row_count};
  return xsn_define_class(env, XSN_KEYS, keys_ctor, tables, counts, 2);
}
