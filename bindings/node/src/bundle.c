/*
 * bundle.c -- Store.export, Store.importBundle (docs/bundles.md) and Store.exportHtml
 * (docs/html-view.md): sessions carried to another store in one file, and sessions written as
 * pages.
 *
 * Store-level calls that return a report, so they follow import's form: a Promise (on a worker: a
 * bundle is read and written whole) and a Sync form, the parsed report (raw: true gives the
 * library's exact text). Ids, paths and cwd-map paths reach the library as given: an empty list
 * or path, a relative cwd, a session the store does not have are its statuses, as for every
 * other caller.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* (ids, outPath, options?) of export and exportHtml: the ids into c->strv, the path into s[0]. */
static int p_targets(xsn_args *a, xsn_call *c, const char *const *keys, napi_value *options) {
  return xsn_get_names(a, A(0), "ids", &c->strv) && xsn_get_name(a, A(1), "outPath", XSN_REQUIRED, &c->s[0]) &&
         xsn_get_options(a, A(2), "options", keys, options) &&
         xsn_get_bool(a, xsn_prop(a, *options, "raw"), "raw", &c->raw);
}

/* {lineage (default true: the sessions the named ones descend from travel too), gzip, raw}. */
static int p_export(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"lineage", "gzip", "raw", NULL};
  napi_value o;
  int lineage = 1, gzip = 0;
  xs_export_options_init(&c->eopts, XS_EXPORT_OPTIONS_VERSION);
  if (!p_targets(a, c, keys, &o) || !xsn_get_bool(a, xsn_prop(a, o, "lineage"), "lineage", &lineage) ||
      !xsn_get_bool(a, xsn_prop(a, o, "gzip"), "gzip", &gzip))
    return 0;
  if (!lineage) c->eopts.flags |= XS_EXPORT_NO_LINEAGE;
  if (gzip) c->eopts.flags |= XS_EXPORT_GZIP;
  return 1;
}

/* (bundlePath, {cwdMap, rename, dryRun, raw}?); the cwd map's pairs into c->strv. */
static int p_import_bundle(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"cwdMap", "rename", "dryRun", "raw", NULL};
  napi_value o;
  int rename = 0, dry = 0;
  xs_import_bundle_options_init(&c->bopts, XS_IMPORT_BUNDLE_OPTIONS_VERSION);
  if (!xsn_get_name(a, A(0), "bundlePath", XSN_REQUIRED, &c->s[0]) ||
      !xsn_get_options(a, A(1), "options", keys, &o) || !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw) ||
      !xsn_get_bool(a, xsn_prop(a, o, "rename"), "rename", &rename) ||
      !xsn_get_bool(a, xsn_prop(a, o, "dryRun"), "dryRun", &dry) ||
      !xsn_get_pairs(a, xsn_prop(a, o, "cwdMap"), "cwdMap", &c->strv))
    return 0;
  if (rename) c->bopts.flags |= XS_IMPORT_BUNDLE_RENAME;
  if (dry) c->bopts.flags |= XS_IMPORT_BUNDLE_DRY_RUN;
  c->bopts.cwd_map = (const char *const *)c->strv.p; /* borrowed for the call */
  c->bopts.cwd_map_len = c->strv.n;
  return 1;
}

/* {raw}: the HTML options have no flags yet. */
static int p_export_html(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"raw", NULL};
  napi_value o;
  xs_html_options_init(&c->htopts, XS_HTML_OPTIONS_VERSION);
  return p_targets(a, c, keys, &o);
}

/* Any thread; the retry after XS_EBUFS copies the kept report (nothing is written twice). */
static xs_status r_export(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_export(XSN_STORE_PTR(c), (const char *const *)c->strv.p, c->strv.n, c->s[0].p, &c->eopts, b, cap, n);
}
static xs_status r_import_bundle(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_import_bundle(XSN_STORE_PTR(c), c->s[0].p, &c->bopts, b, cap, n);
}
static xs_status r_export_html(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_export_html(XSN_STORE_PTR(c), (const char *const *)c->strv.p, c->strv.n, c->s[0].p, &c->htopts, b, cap,
                        n);
}

#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_bundle_rows[] = {
    {"export", XSN_STORE, p_export, NULL, r_export, XSN_OUT_JSON, BOTH},
    {"importBundle", XSN_STORE, p_import_bundle, NULL, r_import_bundle, XSN_OUT_JSON, BOTH},
    {"exportHtml", XSN_STORE, p_export_html, NULL, r_export_html, XSN_OUT_JSON, BOTH},
};
const size_t xsn_bundle_row_count = sizeof xsn_bundle_rows / sizeof xsn_bundle_rows[0];
