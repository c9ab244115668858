/*
 * classes.c -- what Store, Session, History and Index share as JS classes: close(), the `closed`
 * getter, the prototype built from row tables (Keys, which has no handle of its own, has the rows
 * only), and how the addon makes objects of the classes JS cannot construct (Session, History,
 * Index).
 */
#include <stdio.h>
#include <stdlib.h>

#include "xsn.h"

static const xsn_kind kKinds[] = {[XSN_STORE] = XSN_STORE,
                                  [XSN_SESSION] = XSN_SESSION,
                                  [XSN_KEYS] = XSN_KEYS,
                                  [XSN_HISTORY] = XSN_HISTORY,
                                  [XSN_INDEX] = XSN_INDEX};

/* `this`, whose kind the property's data names; closed handles included. */
static xsn_handle *this_handle(napi_env env, napi_callback_info info) {
  napi_value self;
  size_t argc = 0;
  void *kind = NULL;
  XSN_CHECK(env, napi_get_cb_info(env, info, &argc, NULL, &self, &kind), NULL);
  return xsn_handle_get(env, self, *(const xsn_kind *)kind, 1);
}

/* Idempotent. A session or history is flushed first, and that flush's error is thrown once the handle is
 * closed all the same (a finalizer has nobody to tell). With async work in flight the flush waits
 * for the call running now, and the C handle is freed when the last one completes (its Promise
 * still settles normally); meanwhile new calls throw XS_ECLOSED. */
static napi_value close_method(napi_env env, napi_callback_info info) {
  xsn_handle *h = this_handle(env, info);
  if (!h || h->closed) return NULL;
  /* Each may leave its error pending. */
  if (h->kind == XSN_SESSION) xsn_call_now(env, h, &xsn_session_close_flush);
  if (h->kind == XSN_HISTORY) xsn_call_now(env, h, &xsn_history_close_flush);
  xsn_handle_close(h);
  return NULL;
}

static napi_value closed_getter(napi_env env, napi_callback_info info) {
  xsn_handle *h = this_handle(env, info);
  napi_value v = NULL;
  if (h) XSN_CHECK(env, napi_get_boolean(env, h->closed, &v), NULL);
  return v;
}

napi_value xsn_adopted(napi_env env, napi_callback_info info, xsn_kind kind, const char *how) {
  napi_value self;
  size_t argc = 0;
  XSN_CHECK(env, napi_get_cb_info(env, info, &argc, NULL, &self, NULL), NULL);
  xsn_env *e = xsn_env_get(env);
  xsn_handle *h = e->adopting;
  if (!h || h->kind != kind) {
    xsn_throw_type(env, "%s", how);
    return NULL;
  }
  e->adopting = NULL;
  return xsn_handle_wrap(env, self, h) == napi_ok ? self : NULL;
}

napi_value xsn_adopt(napi_env env, xsn_handle *h, napi_ref ctor_ref) {
  xsn_env *e = xsn_env_get(env);
  napi_value ctor, obj = NULL;
  napi_status st = napi_get_reference_value(env, ctor_ref, &ctor);
  if (st == napi_ok) {
    e->adopting = h;
    st = napi_new_instance(env, ctor, 0, NULL, &obj);
  }
  if (e->adopting == h) { /* the constructor never took it */
    e->adopting = NULL;
    xsn_handle_discard(h);
  }
  if (st != napi_ok) {
    xsn_throw_napi(env, st);
    return NULL;
  }
  return obj;
}

/* The constructor of the classes xsn_opened_class makes (data: the kind). */
static napi_value opened_ctor(napi_env env, napi_callback_info info) {
  void *data = NULL;
  size_t argc = 0;
  XSN_CHECK(env, napi_get_cb_info(env, info, &argc, NULL, NULL, &data), NULL);
  const xsn_kind kind = *(const xsn_kind *)data;
  const char *name = xsn_kind_name(kind);
  char how[128];
  snprintf(how, sizeof how, "%s objects are made by Store.open%s, not by new %s()", name, name, name);
  return xsn_adopted(env, info, kind, how);
}

napi_value xsn_opened_class(napi_env env, xsn_kind kind, const xsn_method *rows, size_t n) {
  return xsn_define_class(env, kind, opened_ctor, &rows, &n, 1);
}

napi_value xsn_new_opened(napi_env env, xsn_kind kind, void *p) {
  xsn_handle *h = xsn_handle_new(kind, p);
  if (!h) {
    xsn_free_ptr(kind, p);
    xsn_throw_status(env, XS_ENOMEM, "out of memory");
    return NULL;
  }
  xsn_env *e = xsn_env_get(env);
  return xsn_adopt(env, h, kind == XSN_HISTORY ? e->history_ctor : e->index_ctor);
}

/* A class whose prototype has close(), `closed` and the rows of `tables`; its constructor gets
 * the kind as its data. */
napi_value xsn_define_class(napi_env env, xsn_kind kind, napi_callback ctor, const xsn_method *const *tables,
                            const size_t *counts, size_t ntables) {
  void *data = (void *)&kKinds[kind];
  const napi_property_descriptor common[] = {
      {"close", NULL, close_method, NULL, NULL, NULL, napi_default_method, data},
      {"closed", NULL, NULL, closed_getter, NULL, NULL, napi_configurable, data},
  };
  const size_t ncommon = kind == XSN_KEYS ? 0 : sizeof common / sizeof common[0];
  size_t total = ncommon;
  for (size_t t = 0; t < ntables; t++) total += xsn_method_prop_count(tables[t], counts[t]);
  napi_property_descriptor *props = calloc(total, sizeof *props);
  if (!props) {
    xsn_throw_status(env, XS_ENOMEM, "out of memory defining a class");
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 0; i < ncommon; i++) props[k++] = common[i];
  for (size_t t = 0; t < ntables; t++) k += xsn_method_props(env, tables[t], counts[t], props + k);
  napi_value cls = NULL;
  napi_status st = k == total ? napi_define_class(env, xsn_kind_name(kind), NAPI_AUTO_LENGTH, ctor, data, k, props, &cls)
                              : napi_generic_failure;
  free(props);
  if (st != napi_ok) {
    xsn_throw_napi(env, st);
    return NULL;
  }
  return cls;
}
