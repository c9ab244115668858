/*
 * session_read.c -- the readers: JSON (or an id) through a caller buffer, returned parsed, or as
 * the library's exact text with {raw: true}. Readers whose cost grows with the session (context,
 * entries, path, tree) also have a Promise form that runs off the JS thread. dialect() names the
 * dialect the session writes.
 */
#include <stdio.h>
#include <string.h>

#include "xsn.h"

#define A(i) (a->argv[i])

/* ---- parsers: (options), (id, options), (id?, options) ---------------------------------- */

static int p_opts(xsn_args *a, xsn_call *c) { return xsn_get_read_options(a, A(0), c, 0); }
static int p_repair(xsn_args *a, xsn_call *c) {
  return xsn_get_flag_options(a, A(0), "quarantine", XS_REPAIR_QUARANTINE, c);
}
static int p_blob_opts(xsn_args *a, xsn_call *c) { return xsn_get_read_options(a, A(0), c, 1); }
static int p_id_opts(xsn_args *a, xsn_call *c) {
  return xsn_get_name(a, A(0), "id", XSN_REQUIRED, &c->s[0]) && xsn_get_read_options(a, A(1), c, 1);
}
static int p_optid_opts(xsn_args *a, xsn_call *c) {
  xsn_optional_first(a);
  return xsn_get_name(a, A(0), "id", XSN_OPTIONAL, &c->s[0]) && xsn_get_read_options(a, A(1), c, 1);
}
static int p_leaf_opts(xsn_args *a, xsn_call *c) {
  xsn_optional_first(a);
  return xsn_get_name(a, A(0), "leafId", XSN_OPTIONAL, &c->s[0]) && xsn_get_read_options(a, A(1), c, 0);
}

/* ---- C calls (any thread); c->u32 holds the XS_READ_* (repair: XS_REPAIR_*) flags -------- */

#define S XSN_SESSION_PTR(c)
#define READER(fn) static xs_status fn(xsn_call *c, char *b, size_t cap, size_t *n)

READER(r_context) { return xs_build_context(S, c->s[0].p, b, cap, n); }
READER(r_header) { return xs_session_header(S, b, cap, n); }
READER(r_entries) { return xs_session_entries(S, c->u32, b, cap, n); }
READER(r_entry) { return xs_session_entry(S, c->s[0].p, c->u32, b, cap, n); }
READER(r_path) { return xs_session_path(S, c->s[0].p, c->u32, b, cap, n); }
READER(r_children) { return xs_session_children(S, c->s[0].p, c->u32, b, cap, n); }
READER(r_tree) { return xs_session_tree(S, c->u32, b, cap, n); }
READER(r_labels) { return xs_session_labels(S, b, cap, n); }
READER(r_leaf) { return xs_session_leaf(S, b, cap, n); }
READER(r_diagnostics) { return xs_session_diagnostics(S, b, cap, n); }
READER(r_info) { return xs_session_info(S, b, cap, n); }
READER(r_usage) { return xs_session_usage(S, b, cap, n); }
READER(r_stats) { return xs_session_stats(S, b, cap, n); }
READER(r_resume) { return xs_session_resume_check(S, c->s[0].p, b, cap, n); }
READER(r_verify) { return xs_session_verify(S, b, cap, n); }
/* A write that reports through a buffer: the retry after XS_EBUFS copies the kept report, so the
 * repair is never done twice. */
READER(r_repair) { return xs_session_repair(S, c->u32, b, cap, n); }

/* The dialect's name comes back through the id buffer of the call (the row's XSN_OUT_ID). */
static xs_status x_dialect(xsn_call *c) {
  uint32_t dialect = 0;
  xs_status rc = xs_session_dialect(S, &dialect);
  if (rc != XS_OK) return rc;
  const char *name = xsn_dialect_name(dialect);
  if (!name) {
    char msg[64];
    snprintf(msg, sizeof msg, "dialect %u is newer than this binding", (unsigned)dialect);
    c->errmsg = strdup(msg); /* our failure: the library's error text would be stale */
    return XS_ERROR;
  }
  snprintf(c->id, sizeof c->id, "%s", name);
  return XS_OK;
}

/* ---- rows ------------------------------------------------------------------------------- */

#define READ(name, parse, read, forms) {name, XSN_SESSION, parse, NULL, read, XSN_OUT_JSON, forms}
#define BOTH (XSN_SYNC | XSN_ASYNC)
const xsn_method xsn_session_read_rows[] = {
    READ("buildContext", p_leaf_opts, r_context, BOTH),
    READ("entries", p_blob_opts, r_entries, BOTH),
    READ("path", p_optid_opts, r_path, BOTH),
    READ("tree", p_blob_opts, r_tree, BOTH),
    READ("header", p_opts, r_header, XSN_SYNC),
    READ("entry", p_id_opts, r_entry, XSN_SYNC),
    READ("children", p_id_opts, r_children, XSN_SYNC),
    READ("labels", p_opts, r_labels, XSN_SYNC),
    READ("diagnostics", p_opts, r_diagnostics, XSN_SYNC),
    READ("info", p_opts, r_info, XSN_SYNC),
    READ("usage", p_opts, r_usage, XSN_SYNC),
    READ("stats", p_opts, r_stats, XSN_SYNC),
    READ("resumeCheck", p_leaf_opts, r_resume, BOTH),
    READ("verify", p_opts, r_verify, BOTH),
    READ("repair", p_repair, r_repair, BOTH),
    {"leaf", XSN_SESSION, NULL, NULL, r_leaf, XSN_OUT_LEAF, XSN_SYNC},
    {"dialect", XSN_SESSION, NULL, x_dialect, NULL, XSN_OUT_ID, XSN_SYNC},
};
const size_t xsn_session_read_row_count = sizeof xsn_session_read_rows / sizeof xsn_session_read_rows[0];
