/*
 * retention.c -- Store.archive and Store.prune (docs/retention.md). archive's progress(done,
 * total) is called once before the first candidate (0) and after each (progress.c).
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* ---- parsers ---------------------------------------------------------------------------- */

/* {olderThanMs, nowMs?, dryRun?, raw?} (+ progress? for archive). Negative numbers and a missing
 * olderThanMs reach the library, whose XS_EINVAL says what is wrong with them. */
static int p_retention(xsn_args *a, xsn_call *c, int with_progress) {
  static const char *const archive_keys[] = {"olderThanMs", "nowMs", "dryRun", "raw", "progress", NULL};
  static const char *const prune_keys[] = {"olderThanMs", "nowMs", "dryRun", "raw", NULL};
  napi_value o, x;
  int dry = 0;
  xs_archive_options_init(&c->aopts, XS_ARCHIVE_OPTIONS_VERSION);
  if (!xsn_get_options(a, A(0), "options", with_progress ? archive_keys : prune_keys, &o) ||
      !xsn_get_bool(a, xsn_prop(a, o, "dryRun"), "dryRun", &dry) ||
      !xsn_get_bool(a, xsn_prop(a, o, "raw"), "raw", &c->raw))
    return 0;
  if (dry) c->aopts.flags |= XS_ARCHIVE_DRY_RUN;
  if (xsn_is_set(a, x = xsn_prop(a, o, "olderThanMs")) &&
      !xsn_get_int(a, x, "olderThanMs", INT64_MIN, INT64_MAX, &c->aopts.older_than_ms))
    return 0;
  if (xsn_is_set(a, x = xsn_prop(a, o, "nowMs")) && !xsn_get_int(a, x, "nowMs", INT64_MIN, INT64_MAX, &c->aopts.now_ms))
    return 0;
  return !with_progress ||
         xsn_progress_parse(a, xsn_prop(a, o, "progress"), c, &c->aopts.progress, &c->aopts.progress_user);
}

static int p_archive(xsn_args *a, xsn_call *c) { return p_retention(a, c, 1); }
static int p_prune(xsn_args *a, xsn_call *c) { return p_retention(a, c, 0); }

/* ---- C calls (any thread): once each; the retry after XS_EBUFS copies the kept report ---- */

static xs_status r_archive(xsn_call *c, char *b, size_t cap, size_t *n) {
  xsn_progress_here(c);
  return xs_store_archive(XSN_STORE_PTR(c), &c->aopts, b, cap, n);
}
static xs_status r_prune(xsn_call *c, char *b, size_t cap, size_t *n) {
  return xs_store_prune(XSN_STORE_PTR(c), &c->aopts, b, cap, n);
}

#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_retention_rows[] = {
    {"archive", XSN_STORE, p_archive, NULL, r_archive, XSN_OUT_JSON, BOTH},
    {"prune", XSN_STORE, p_prune, NULL, r_prune, XSN_OUT_JSON, BOTH},
};
const size_t xsn_retention_row_count = sizeof xsn_retention_rows / sizeof xsn_retention_rows[0];
