/*
 * session_write.c -- appends and leaf moves. Each is one write of one line (or none), so an append
 * is synchronous and returns the new entry's id; its Promise form `<name>Async` runs it on a worker
 * instead, for sessions opened with {sync: true}, whose every append waits for fdatasync.
 *
 * JSON arguments (entries, messages, details...) may be a JS value (JSON.stringify'd), the JSON
 * text itself as a string (its bytes reach the file token for token), or a Buffer of UTF-8.
 * Struct-shaped appends (compaction, custom message, session init) take one object whose keys
 * are the C struct's fields in camelCase.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* ---- parsers ---------------------------------------------------------------------------- */

static int p_entry(xsn_args *a, xsn_call *c) { return xsn_get_json(a, A(0), "entry", XSN_REQUIRED, &c->s[0]); }
static int p_message(xsn_args *a, xsn_call *c) { return xsn_get_json(a, A(0), "message", XSN_REQUIRED, &c->s[0]); }
static int p_rules(xsn_args *a, xsn_call *c) { return xsn_get_json(a, A(0), "rules", XSN_REQUIRED, &c->s[0]); }
static int p_info_name(xsn_args *a, xsn_call *c) { return xsn_get_text(a, A(0), "name", XSN_REQUIRED, &c->s[0]); }
static int p_level(xsn_args *a, xsn_call *c) { return xsn_get_name(a, A(0), "level", XSN_OPTIONAL, &c->s[0]); }
/* null (or no argument) is NULL: the leaf becomes none. */
static int p_leaf(xsn_args *a, xsn_call *c) { return xsn_get_name(a, A(0), "id", XSN_OPTIONAL, &c->s[0]); }

/* (name, second name?) and (name, json?) argument pairs. */
static int p_name_name(xsn_args *a, xsn_call *c, const char *first, const char *second) {
  return xsn_get_name(a, A(0), first, XSN_REQUIRED, &c->s[0]) &&
         xsn_get_name(a, A(1), second, XSN_OPTIONAL, &c->s[1]);
}
static int p_name_json(xsn_args *a, xsn_call *c, const char *first) {
  return xsn_get_name(a, A(0), first, XSN_REQUIRED, &c->s[0]) &&
         xsn_get_json(a, A(1), "data", XSN_OPTIONAL, &c->s[1]);
}
static int p_model(xsn_args *a, xsn_call *c) { return p_name_name(a, c, "model", "role"); }
static int p_label(xsn_args *a, xsn_call *c) { return p_name_name(a, c, "targetId", "label"); }
static int p_custom(xsn_args *a, xsn_call *c) { return p_name_json(a, c, "customType"); }
static int p_mode(xsn_args *a, xsn_call *c) { return p_name_json(a, c, "mode"); }

/* The single object argument of a struct-shaped append, with its allowed keys. */
static napi_value fields(xsn_args *a, const char *const *keys) {
  napi_value o = NULL;
  napi_valuetype t = napi_undefined;
  if (A(0)) napi_typeof(a->env, A(0), &t);
  if (t != napi_object) {
    xsn_throw_type(a->env, "%s.%s: the argument must be an object with the entry's fields", a->cls, a->fn);
    return NULL;
  }
  return xsn_get_options(a, A(0), "the argument", keys, &o) ? o : NULL;
}

static int p_compaction(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"summary",        "shortSummary", "firstKeptEntryId", "tokensBefore",
                                     "details",        "fromExtension", "preserveData",    NULL};
  napi_value o = fields(a, keys);
  return o && xsn_get_text(a, xsn_prop(a, o, "summary"), "summary", XSN_REQUIRED, &c->s[0]) &&
         xsn_get_text(a, xsn_prop(a, o, "shortSummary"), "shortSummary", XSN_OPTIONAL, &c->s[1]) &&
         xsn_get_name(a, xsn_prop(a, o, "firstKeptEntryId"), "firstKeptEntryId", XSN_REQUIRED, &c->s[2]) &&
         xsn_get_int(a, xsn_prop(a, o, "tokensBefore"), "tokensBefore", INT64_MIN, INT64_MAX, &c->i64) &&
         xsn_get_json(a, xsn_prop(a, o, "details"), "details", XSN_OPTIONAL, &c->s[3]) &&
         xsn_get_tri(a, xsn_prop(a, o, "fromExtension"), "fromExtension", &c->i32) &&
         xsn_get_json(a, xsn_prop(a, o, "preserveData"), "preserveData", XSN_OPTIONAL, &c->s[4]);
}

static int p_custom_message(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"customType", "content", "display", "details", "attribution", NULL};
  napi_value o = fields(a, keys);
  int display = 1;
  int ok = o && xsn_get_name(a, xsn_prop(a, o, "customType"), "customType", XSN_REQUIRED, &c->s[0]) &&
           xsn_get_json(a, xsn_prop(a, o, "content"), "content", XSN_REQUIRED, &c->s[1]) &&
           xsn_get_bool(a, xsn_prop(a, o, "display"), "display", &display) &&
           xsn_get_json(a, xsn_prop(a, o, "details"), "details", XSN_OPTIONAL, &c->s[2]) &&
           xsn_get_name(a, xsn_prop(a, o, "attribution"), "attribution", XSN_OPTIONAL, &c->s[3]);
  c->i32 = display;
  return ok;
}

static int p_session_init(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"systemPrompt", "task", "tools", "outputSchema", NULL};
  napi_value o = fields(a, keys);
  return o && xsn_get_text(a, xsn_prop(a, o, "systemPrompt"), "systemPrompt", XSN_REQUIRED, &c->s[0]) &&
         xsn_get_text(a, xsn_prop(a, o, "task"), "task", XSN_REQUIRED, &c->s[1]) &&
         xsn_get_json(a, xsn_prop(a, o, "tools"), "tools", XSN_REQUIRED, &c->s[2]) &&
         xsn_get_json(a, xsn_prop(a, o, "outputSchema"), "outputSchema", XSN_OPTIONAL, &c->s[3]);
}

/* branchWithSummary(fromId | null, summary, {details?, fromExtension?}?) */
static int p_branch_summary(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"details", "fromExtension", NULL};
  napi_value o;
  c->i32 = XS_UNSET;
  return xsn_get_name(a, A(0), "fromId", XSN_OPTIONAL, &c->s[0]) &&
         xsn_get_text(a, A(1), "summary", XSN_REQUIRED, &c->s[1]) && xsn_get_options(a, A(2), "options", keys, &o) &&
         xsn_get_json(a, xsn_prop(a, o, "details"), "details", XSN_OPTIONAL, &c->s[2]) &&
         xsn_get_tri(a, xsn_prop(a, o, "fromExtension"), "fromExtension", &c->i32);
}

/* ---- C calls (any thread) --------------------------------------------------------------- */

#define S XSN_SESSION_PTR(c)
/* Struct fields from argument slot i: text is (x, x_len), JSON is (x_json, x_len); NULL and 0
 * when the argument was absent. */
#define TEXT(field, i) (field = c->s[i].p, field##_len = c->s[i].n)
#define JSON(field, i) (field##_json = c->s[i].p, field##_len = c->s[i].n)

static xs_status x_append(xsn_call *c) { return xs_append(S, c->s[0].p, c->s[0].n, c->id); }
static xs_status x_message(xsn_call *c) { return xs_append_message(S, c->s[0].p, c->s[0].n, c->id); }
static xs_status x_level(xsn_call *c) { return xs_append_thinking_level(S, c->s[0].p, c->id); }
static xs_status x_model(xsn_call *c) { return xs_append_model_change(S, c->s[0].p, c->s[1].p, c->id); }
static xs_status x_label(xsn_call *c) { return xs_append_label(S, c->s[0].p, c->s[1].p, c->id); }
static xs_status x_rules(xsn_call *c) { return xs_append_ttsr_injection(S, c->s[0].p, c->s[0].n, c->id); }
static xs_status x_custom(xsn_call *c) { return xs_append_custom(S, c->s[0].p, c->s[1].p, c->s[1].n, c->id); }
static xs_status x_mode(xsn_call *c) { return xs_append_mode_change(S, c->s[0].p, c->s[1].p, c->s[1].n, c->id); }
static xs_status x_session_info(xsn_call *c) { return xs_append_session_info(S, c->s[0].p, c->s[0].n, c->id); }
static xs_status x_set_leaf(xsn_call *c) { return xs_session_set_leaf(S, c->s[0].p); }

static xs_status x_compaction(xsn_call *c) {
  xs_compaction k;
  xs_compaction_init(&k, XS_COMPACTION_VERSION);
  TEXT(k.summary, 0);
  TEXT(k.short_summary, 1);
  k.first_kept_entry_id = c->s[2].p;
  k.tokens_before = c->i64;
  JSON(k.details, 3);
  k.from_extension = c->i32;
  JSON(k.preserve_data, 4);
  return xs_append_compaction(S, &k, c->id);
}

static xs_status x_custom_message(xsn_call *c) {
  xs_custom_message m;
  xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION);
  m.custom_type = c->s[0].p;
  JSON(m.content, 1);
  m.display = c->i32;
  JSON(m.details, 2);
  m.attribution = c->s[3].p;
  return xs_append_custom_message(S, &m, c->id);
}

static xs_status x_session_init(xsn_call *c) {
  xs_session_init_entry si;
  xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION);
  TEXT(si.system_prompt, 0);
  TEXT(si.task, 1);
  JSON(si.tools, 2);
  JSON(si.output_schema, 3);
  return xs_append_session_init(S, &si, c->id);
}

static xs_status x_branch_summary(xsn_call *c) {
  return xs_session_branch_with_summary(S, c->s[0].p, c->s[1].p, c->s[1].n, c->s[2].p, c->s[2].n, c->i32, c->id);
}

/* ---- rows ------------------------------------------------------------------------------- */

#define APPEND_FORMS (XSN_SYNC | XSN_ASYNC | XSN_SYNC_FIRST)
#define APPEND(name, parse, run) {name, XSN_SESSION, parse, run, NULL, XSN_OUT_ID, APPEND_FORMS}
const xsn_method xsn_session_write_rows[] = {
    APPEND("append", p_entry, x_append),
    APPEND("appendMessage", p_message, x_message),
    APPEND("appendThinkingLevel", p_level, x_level),
    APPEND("appendModelChange", p_model, x_model),
    APPEND("appendCompaction", p_compaction, x_compaction),
    APPEND("appendCustom", p_custom, x_custom),
    APPEND("appendCustomMessage", p_custom_message, x_custom_message),
    APPEND("appendLabel", p_label, x_label),
    APPEND("appendTtsrInjection", p_rules, x_rules),
    APPEND("appendSessionInit", p_session_init, x_session_init),
    APPEND("appendModeChange", p_mode, x_mode),
    APPEND("appendSessionInfo", p_info_name, x_session_info),
    APPEND("branchWithSummary", p_branch_summary, x_branch_summary),
    {"setLeaf", XSN_SESSION, p_leaf, x_set_leaf, NULL, XSN_OUT_VOID, XSN_SYNC},
};
const size_t xsn_session_write_row_count = sizeof xsn_session_write_rows / sizeof xsn_session_write_rows[0];
