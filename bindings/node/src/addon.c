/*
 * addon.c -- module initialisation: the per-environment state (the addon is context-aware, so
 * each worker_thread gets its own) and the module's exports.
 */
#include <stdlib.h>

#include "xsn.h"

static void env_free(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data); /* its references are released with the environment */
}

xsn_env *xsn_env_get(napi_env env) {
  void *data = NULL;
  napi_get_instance_data(env, &data);
  return data;
}

/* version() -> {major, minor, patch} of the loaded library (the header's is bindingVersion). */
static napi_value version_object(napi_env env, int major, int minor, int patch) {
  napi_value o, v;
  const int parts[3] = {major, minor, patch};
  const char *const names[3] = {"major", "minor", "patch"};
  XSN_CHECK(env, napi_create_object(env, &o), NULL);
  for (int i = 0; i < 3; i++) {
    XSN_CHECK(env, napi_create_int32(env, parts[i], &v), NULL);
    XSN_CHECK(env, napi_set_named_property(env, o, names[i], v), NULL);
  }
  return o;
}

static napi_value version(napi_env env, napi_callback_info info) {
  (void)info;
  int major = 0, minor = 0, patch = 0;
  xs_version(&major, &minor, &patch);
  return version_object(env, major, minor, patch);
}

static napi_value status_string(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg = NULL, self, out;
  XSN_CHECK(env, napi_get_cb_info(env, info, &argc, &arg, &self, NULL), NULL);
  xsn_args a = {.env = env, .cls = "xsession", .fn = "statusString"};
  int64_t code = 0;
  if (!xsn_get_int(&a, argc ? arg : NULL, "code", INT32_MIN, INT32_MAX, &code)) return NULL;
  XSN_CHECK(env, napi_create_string_utf8(env, xs_status_str((xs_status)code), NAPI_AUTO_LENGTH, &out), NULL);
  return out;
}

static int keep_json_functions(napi_env env, xsn_env *e) {
  napi_value global, json, parse, stringify;
  XSN_CHECK(env, napi_get_global(env, &global), 0);
  XSN_CHECK(env, napi_get_named_property(env, global, "JSON", &json), 0);
  XSN_CHECK(env, napi_get_named_property(env, json, "parse", &parse), 0);
  XSN_CHECK(env, napi_get_named_property(env, json, "stringify", &stringify), 0);
  XSN_CHECK(env, napi_create_reference(env, parse, 1, &e->json_parse), 0);
  XSN_CHECK(env, napi_create_reference(env, stringify, 1, &e->json_stringify), 0);
  return 1;
}

NAPI_MODULE_INIT() {
  xsn_env *e = calloc(1, sizeof *e);
  if (!e) {
    xsn_throw_status(env, XS_ENOMEM, "out of memory loading xsession");
    return NULL;
  }
  XSN_CHECK(env, napi_set_instance_data(env, e, env_free, NULL), (free(e), NULL));
  if (!keep_json_functions(env, e)) return NULL;
  napi_value xs_error = xsn_error_class(env);
  if (!xs_error) return NULL;
  XSN_CHECK(env, napi_create_reference(env, xs_error, 1, &e->xs_error), NULL);

  napi_value store = xsn_store_class(env), session = store ? xsn_session_class(env) : NULL;
  napi_value keys = session ? xsn_keys_class(env) : NULL, history = keys ? xsn_history_class(env) : NULL;
  napi_value index = history ? xsn_index_class(env) : NULL;
  if (!index) return NULL;
  XSN_CHECK(env, napi_create_reference(env, session, 1, &e->session_ctor), NULL);
  XSN_CHECK(env, napi_create_reference(env, keys, 1, &e->keys_ctor), NULL);
  XSN_CHECK(env, napi_create_reference(env, history, 1, &e->history_ctor), NULL);
  XSN_CHECK(env, napi_create_reference(env, index, 1, &e->index_ctor), NULL);

  napi_value status = xsn_status_table(env), binding_version, fn_version, fn_status;
  if (!status) return NULL;
  XSN_CHECK(env, napi_object_freeze(env, status), NULL);
  if (!(binding_version = version_object(env, XS_VERSION_MAJOR, XS_VERSION_MINOR, XS_VERSION_PATCH))) return NULL;
  XSN_CHECK(env, napi_create_function(env, "version", NAPI_AUTO_LENGTH, version, NULL, &fn_version), NULL);
  XSN_CHECK(env, napi_create_function(env, "statusString", NAPI_AUTO_LENGTH, status_string, NULL, &fn_status), NULL);
  const napi_property_descriptor props[] = {
      {"Store", NULL, NULL, NULL, NULL, store, napi_enumerable, NULL},
      {"Session", NULL, NULL, NULL, NULL, session, napi_enumerable, NULL},
      {"Keys", NULL, NULL, NULL, NULL, keys, napi_enumerable, NULL},
      {"History", NULL, NULL, NULL, NULL, history, napi_enumerable, NULL},
      {"Index", NULL, NULL, NULL, NULL, index, napi_enumerable, NULL},
      {"XsError", NULL, NULL, NULL, NULL, xs_error, napi_enumerable, NULL},
      {"status", NULL, NULL, NULL, NULL, status, napi_enumerable, NULL},
      {"bindingVersion", NULL, NULL, NULL, NULL, binding_version, napi_enumerable, NULL},
      {"version", NULL, NULL, NULL, NULL, fn_version, napi_enumerable, NULL},
      {"statusString", NULL, NULL, NULL, NULL, fn_status, napi_enumerable, NULL},
  };
  XSN_CHECK(env, napi_define_properties(env, exports, sizeof props / sizeof props[0], props), NULL);
  if (!xsn_define_planning(env, exports)) return NULL;
  if (!xsn_define_import(env, exports)) return NULL;
  return exports;
}
