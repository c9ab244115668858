/*
 * import.c -- Store.import and Store.foreignList (docs/import.md): another agent's store read into
 * native sessions of this one, or only listed; and defaultImportOptions.
 *
 * Both are store-level calls that return JSON, so they follow archive's form: a Promise and a
 * Sync form, the parsed report (raw: true gives the library's exact text). The kind is passed to
 * the library as given: an unknown kind is its XS_EINVAL, as for every other caller.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* (kind, sourcePath, options?) -> s[0], s[1], c->iopts (its cwds point into s[2], s[3]); *options
 * gets the options object (NULL when left out). A version
 * other than the header's goes to the library as a caller of another header would send it, whose
 * XS_EVERSION answers it. */
static int p_source(xsn_args *a, xsn_call *c, const char *const *keys, napi_value *options) {
  napi_value o, x;
  int dry = 0;
  int64_t version = XS_IMPORT_OPTIONS_VERSION;
  xs_import_options_init(&c->iopts, XS_IMPORT_OPTIONS_VERSION);
  if (!xsn_get_name(a, A(0), "kind", XSN_REQUIRED, &c->s[0]) ||
      !xsn_get_name(a, A(1), "sourcePath", XSN_REQUIRED, &c->s[1]) ||
      !xsn_get_options(a, A(2), "options", keys, &o) || !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw) ||
      !xsn_get_bool(a, xsn_prop(a, o, "dryRun"), "dryRun", &dry) ||
      !xsn_get_name(a, xsn_prop(a, o, "targetCwd"), "targetCwd", XSN_OPTIONAL, &c->s[2]) ||
      !xsn_get_name(a, xsn_prop(a, o, "fallbackCwd"), "fallbackCwd", XSN_OPTIONAL, &c->s[3]))
    return 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "lockWaitMs")) &&
      !xsn_get_int(a, x, "lockWaitMs", INT64_MIN, INT64_MAX, &c->iopts.lock_wait_ms))
    return 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "nowMs")) && !xsn_get_int(a, x, "nowMs", INT64_MIN, INT64_MAX, &c->iopts.now_ms))
    return 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "version")) && !xsn_get_int(a, x, "version", 0, UINT32_MAX, &version)) return 0;
  c->iopts.version = (uint32_t)version;
  if (dry) c->iopts.flags |= XS_IMPORT_DRY_RUN;
  c->iopts.target_cwd = c->s[2].p; /* copied by the call */
  c->iopts.fallback_cwd = c->s[3].p;
  *options = o;
  return 1;
}

/* progress(done, total): source bytes read, of the total (docs/import.md; progress.c). */
static int p_import(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"dryRun", "targetCwd", "fallbackCwd", "lockWaitMs", "nowMs", "version", "raw",
                                     "progress", NULL};
  napi_value o;
  return p_source(a, c, keys, &o) &&
         xsn_progress_parse(a, xsn_prop(a, o, "progress"), c, &c->iopts.progress, &c->iopts.progress_user);
}

/* A listing reads only the lock options: the others are not accepted rather than ignored. */
static int p_foreign_list(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"lockWaitMs", "nowMs", "version", "raw", NULL};
  napi_value o;
  return p_source(a, c, keys, &o);
}

/* Any thread; the retry after XS_EBUFS copies the kept report (nothing is imported twice). */
static xs_status r_import(xsn_call *c, char *b, size_t cap, size_t *n) {
  xsn_progress_here(c);
  return xs_import(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, &c->iopts, b, cap, n);
}
static xs_status r_foreign_list(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_foreign_list(XSN_STORE_PTR(c), c->s[0].p, c->s[1].p, &c->iopts, b, cap, n);
}

#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_import_rows[] = {
    {"import", XSN_STORE, p_import, NULL, r_import, XSN_OUT_JSON, BOTH},
    {"foreignList", XSN_STORE, p_foreign_list, NULL, r_foreign_list, XSN_OUT_JSON, BOTH},
};
const size_t xsn_import_row_count = sizeof xsn_import_rows / sizeof xsn_import_rows[0];

/* defaultImportOptions: what xs_import_options_init fills in, frozen. */
static napi_value defaults_object(napi_env env) {
  xs_import_options d;
  napi_value o, dry, target, fallback, wait, now;
  if (xs_import_options_init(&d, XS_IMPORT_OPTIONS_VERSION) != XS_OK) {
    xsn_throw_status(env, XS_EVERSION, "xs_import_options_init refused this binding's version");
    return NULL;
  }
  XSN_CHECK(env, napi_create_object(env, &o), NULL);
  XSN_CHECK(env, napi_get_boolean(env, (d.flags & XS_IMPORT_DRY_RUN) != 0, &dry), NULL);
  XSN_CHECK(env, napi_get_null(env, &target), NULL); /* the init leaves both cwds NULL */
  XSN_CHECK(env, napi_get_null(env, &fallback), NULL);
  XSN_CHECK(env, napi_create_int64(env, d.lock_wait_ms, &wait), NULL);
  XSN_CHECK(env, napi_create_int64(env, d.now_ms, &now), NULL);
  const napi_property_descriptor props[] = {
      {"dryRun", NULL, NULL, NULL, NULL, dry, napi_enumerable, NULL},
      {"targetCwd", NULL, NULL, NULL, NULL, target, napi_enumerable, NULL},
      {"fallbackCwd", NULL, NULL, NULL, NULL, fallback, napi_enumerable, NULL},
      {"lockWaitMs", NULL, NULL, NULL, NULL, wait, napi_enumerable, NULL},
      {"nowMs", NULL, NULL, NULL, NULL, now, napi_enumerable, NULL},
  };
  XSN_CHECK(env, napi_define_properties(env, o, sizeof props / sizeof props[0], props), NULL);
  XSN_CHECK(env, napi_object_freeze(env, o), NULL);
  return o;
}

int xsn_define_import(napi_env env, napi_value exports) {
  napi_value defaults = defaults_object(env), version;
  if (!defaults) return 0;
  XSN_CHECK(env, napi_create_uint32(env, XS_IMPORT_OPTIONS_VERSION, &version), 0);
  const napi_property_descriptor props[] = {
      {"defaultImportOptions", NULL, NULL, NULL, NULL, defaults, napi_enumerable, NULL},
      {"IMPORT_OPTIONS_VERSION", NULL, NULL, NULL, NULL, version, napi_enumerable, NULL},
  };
  XSN_CHECK(env, napi_define_properties(env, exports, sizeof props / sizeof props[0], props), 0);
  return 1;
}
