/*
 * errors.c -- xs_status codes as JS Error objects.
 *
 * A failing call throws (or rejects with) an XsError whose `code` is the status's macro name
 * ('XS_ELOCKED'), `status` its number, and `message` the library's own text for that call
 * (copied under the handle's lock, so it is never another call's message).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xsn.h"

static const struct {
  xs_status code;
  const char *name;
} kStatuses[] = {
    {XS_OK, "XS_OK"},
    {XS_ERROR, "XS_ERROR"},
    {XS_ENOMEM, "XS_ENOMEM"},
    {XS_EINVAL, "XS_EINVAL"},
    {XS_EMISUSE, "XS_EMISUSE"},
    {XS_ENOTFOUND, "XS_ENOTFOUND"},
    {XS_EEXISTS, "XS_EEXISTS"},
    {XS_EBUFS, "XS_EBUFS"},
    {XS_ECORRUPT, "XS_ECORRUPT"},
    {XS_EIO, "XS_EIO"},
    {XS_ELOCKED, "XS_ELOCKED"},
    {XS_EVERSION, "XS_EVERSION"},
    {XS_ENOSPC, "XS_ENOSPC"},
    {XS_EREADONLY, "XS_EREADONLY"},
    {XS_ECONFLICT, "XS_ECONFLICT"},
    {XS_ELIMIT, "XS_ELIMIT"},
    {XS_ENOHEADER, "XS_ENOHEADER"},
    {XS_EPOISONED, "XS_EPOISONED"},
    {XS_EAMBIGUOUS, "XS_EAMBIGUOUS"},
    {XS_EDIALECT, "XS_EDIALECT"},
    {XS_EINTERNAL, "XS_EINTERNAL"},
};

const char *xsn_status_name(xs_status code) {
  for (size_t i = 0; i < sizeof kStatuses / sizeof kStatuses[0]; i++) {
    if (kStatuses[i].code == code) return kStatuses[i].name;
  }
  return "XS_ERROR"; /* a code newer than this binding: generic, `status` keeps the number */
}

napi_value xsn_status_table(napi_env env) {
  napi_value table, num;
  if (napi_create_object(env, &table) != napi_ok) return NULL;
  for (size_t i = 0; i < sizeof kStatuses / sizeof kStatuses[0]; i++) {
    if (napi_create_int32(env, kStatuses[i].code, &num) != napi_ok ||
        napi_set_named_property(env, table, kStatuses[i].name, num) != napi_ok)
      return NULL;
  }
  return table;
}

/* XsError is a JS class (so `instanceof` and subclassing work as for any Error), compiled once per
 * environment from this source: Node-API cannot declare a class that extends Error. */
static const char kXsErrorSource[] =
    "(class XsError extends Error {\n"
    "  constructor(message, code, status) {\n"
    "    super(message);\n"
    "    this.code = code;\n"
    "    this.status = status;\n"
    "  }\n"
    "  get name() { return 'XsError'; }\n"
    "})";

napi_value xsn_error_class(napi_env env) {
  napi_value src, cls;
  XSN_CHECK(env, napi_create_string_utf8(env, kXsErrorSource, NAPI_AUTO_LENGTH, &src), NULL);
  XSN_CHECK(env, napi_run_script(env, src, &cls), NULL);
  return cls;
}

/* An XsError with `code`, `status` and `message` (a plain Error before the class exists: while
 * the module loads); NULL if even that failed (exception pending). */
static napi_value make_error(napi_env env, const char *code, xs_status status, const char *msg) {
  napi_value args[3], cls = NULL, err;
  xsn_env *e = xsn_env_get(env);
  if (e && e->xs_error && napi_get_reference_value(env, e->xs_error, &cls) != napi_ok) return NULL;
  if (napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &args[0]) != napi_ok ||
      napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &args[1]) != napi_ok ||
      napi_create_int32(env, status, &args[2]) != napi_ok)
    return NULL;
  if (cls) return napi_new_instance(env, cls, 3, args, &err) == napi_ok ? err : NULL;
  if (napi_create_error(env, args[1], args[0], &err) != napi_ok ||
      napi_set_named_property(env, err, "status", args[2]) != napi_ok)
    return NULL;
  return err;
}

napi_value xsn_status_error(napi_env env, xs_status code, const char *msg) {
  /* The library always sets a message, but never show an empty one. */
  if (!msg || !*msg) msg = xs_status_str(code);
  return make_error(env, xsn_status_name(code), code, msg);
}

void xsn_throw_status(napi_env env, xs_status code, const char *msg) {
  napi_value err = xsn_status_error(env, code, msg);
  if (err) napi_throw(env, err);
}

void xsn_throw_closed(napi_env env, xsn_kind kind) {
  char msg[64];
  static const char *const what[] = {[XSN_STORE] = "store",
                                     [XSN_SESSION] = "session",
                                     [XSN_KEYS] = "store",
                                     [XSN_HISTORY] = "history",
                                     [XSN_INDEX] = "index"};
  snprintf(msg, sizeof msg, "the %s is closed", what[kind]);
  napi_value err = make_error(env, XSN_CLOSED_CODE, XS_EMISUSE, msg);
  if (err) napi_throw(env, err);
}

typedef napi_status (*thrower)(napi_env, const char *, const char *);

static void throw_formatted(napi_env env, thrower fn, const char *code, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  fn(env, code, msg);
}

void xsn_throw_type(napi_env env, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  throw_formatted(env, napi_throw_type_error, "ERR_INVALID_ARG_TYPE", fmt, ap);
  va_end(ap);
}

void xsn_throw_range(napi_env env, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  throw_formatted(env, napi_throw_range_error, "ERR_OUT_OF_RANGE", fmt, ap);
  va_end(ap);
}

void xsn_throw_napi(napi_env env, napi_status st) {
  /* Read the error info first: napi_is_exception_pending resets it. */
  const napi_extended_error_info *info = NULL;
  char buf[256];
  snprintf(buf, sizeof buf, "%s (napi_status %d)",
           napi_get_last_error_info(env, &info) == napi_ok && info && info->error_message ? info->error_message
                                                                                         : "Node-API call failed",
           (int)st);
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return;
  napi_throw_error(env, "ERR_XSESSION_NAPI", buf);
}

napi_value xsn_take_thrown(napi_env env, napi_ref *ref) {
  napi_value v = NULL;
  if (!*ref) return NULL;
  if (napi_get_reference_value(env, *ref, &v) != napi_ok) v = NULL;
  napi_delete_reference(env, *ref);
  *ref = NULL;
  return v;
}
