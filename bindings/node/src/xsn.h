/*
 * xsn.h -- what the files of the Node addon share.
 *
 * The addon is table-driven: every JS method is one `xsn_method` row that names a `parse`
 * function (JS values -> owned C copies, main thread), a `run` or `read` function (xs_* calls
 * only, so it may run on a worker thread) and how the result becomes a JS value. The dispatcher
 * (dispatch.c) runs a row synchronously or as async work behind a Promise. Wrapping a new C
 * function is therefore one run/read function plus one table row.
 */
#ifndef XSN_H
#define XSN_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <node_api.h>

#include "xsession.h"

/* The class of a JS object. A Keys object (store.keys) has no handle of its own: its calls run on
 * its store's. */
typedef enum { XSN_STORE = 1, XSN_SESSION = 2, XSN_KEYS = 3, XSN_HISTORY = 4, XSN_INDEX = 5 } xsn_kind;

/* ---- errors.c --------------------------------------------------------------------------- */

/* Binding-only code: the JS wrapper was closed (the C handle may already be freed). */
#define XSN_CLOSED_CODE "XS_ECLOSED"

const char *xsn_status_name(xs_status code); /* "XS_ENOTFOUND"; unknown codes -> "XS_ERROR" */
napi_value xsn_status_error(napi_env env, xs_status code, const char *msg);
void xsn_throw_status(napi_env env, xs_status code, const char *msg);
void xsn_throw_closed(napi_env env, xsn_kind kind); /* XS_ECLOSED: "the session is closed" */
void xsn_throw_type(napi_env env, const char *fmt, ...);
void xsn_throw_range(napi_env env, const char *fmt, ...);
/* After a failed napi_* call: throws its error unless an exception is already pending. */
void xsn_throw_napi(napi_env env, napi_status st);
napi_value xsn_status_table(napi_env env); /* {XS_OK: 0, XS_ERROR: -1, ...} */
napi_value xsn_error_class(napi_env env);  /* a new XsError class (addon.c keeps it per environment) */
/* The value a JS callback threw, kept in *ref: taken (the reference deleted, *ref NULL), or NULL. */
napi_value xsn_take_thrown(napi_env env, napi_ref *ref);

/* Checks a napi_* call; on failure throws (if nothing is pending) and returns `ret`. */
#define XSN_CHECK(env, call, ret)          \
  do {                                     \
    napi_status xsn_st_ = (call);          \
    if (xsn_st_ != napi_ok) {              \
      xsn_throw_napi((env), xsn_st_);      \
      return ret;                          \
    }                                      \
  } while (0)

/* ---- handles.c -------------------------------------------------------------------------- */

/* A gate one call at a time passes (xsn_gate_enter/leave): a mutex and a condition with a
 * `busy` flag, so that a JS thread waiting at it can do something while it waits. A keys.update
 * Promise's worker holds its gates while it asks the JS thread to run its callback (`asking`,
 * from `asking_env`); that thread, waiting at one of them, answers it (keys_update.c) instead of
 * waiting for a worker that waits for it. */
typedef struct xsn_gate {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* broadcast when `busy` clears and when a question is asked */
  int busy;
  struct xsn_update *asking;
  napi_env asking_env;
} xsn_gate;

void xsn_gate_init(xsn_gate *g);
void xsn_gate_destroy(xsn_gate *g);
/* Waits until the gate is free and takes it. `env` is given on a JS thread only: waiting there
 * answers a question of that environment's update. */
void xsn_gate_enter(xsn_gate *g, napi_env env);
void xsn_gate_leave(xsn_gate *g);

/* The native half of a Store, Session, History or Index object. Its gate is held across one call:
 * its C call, its error-text copy and its buffer retry. The other fields are touched on the JS
 * thread only. A worker thread reads `ptr`, which cannot be freed while `inflight` > 0. */
typedef struct xsn_handle {
  xsn_kind kind;
  void *ptr; /* xs_store* / xs_session* / xs_history* / xs_index*; NULL once freed */
  xsn_gate gate;
  int in_callback; /* a keys.update callback of this store is running: calls on it are XS_EMISUSE */
  int inflight;    /* async works that will still use ptr */
  int closed;      /* close() or the finalizer ran: JS may not start new calls */
  int wrapped;     /* the JS object is alive (its finalizer has not run) */
  int keyed;       /* a session bound to a key: its writes and its close write the keyed document */
  napi_env env;    /* keyed: the environment whose JS thread frees it (for the documents gate) */
} xsn_handle;

xsn_handle *xsn_handle_new(xsn_kind kind, void *ptr);
/* Tags `obj` and ties h's lifetime to it (the finalizer closes an unclosed handle). On failure
 * the handle and its C pointer are freed and an exception is pending. */
napi_status xsn_handle_wrap(napi_env env, napi_value obj, xsn_handle *h);
/* The open handle behind `obj` (a Keys object: its store's), or NULL with a TypeError (not a
 * `kind`) / XS_ECLOSED thrown. */
xsn_handle *xsn_handle_get(napi_env env, napi_value obj, xsn_kind kind, int allow_closed);
napi_status xsn_handle_tag(napi_env env, napi_value obj, xsn_kind kind);
void xsn_handle_close(xsn_handle *h);     /* frees ptr now, or when the last async work ends */
void xsn_handle_discard(xsn_handle *h);   /* never wrapped: close and free at once */
void xsn_free_ptr(xsn_kind kind, void *ptr); /* frees a store's, history's or index's C handle */
void xsn_handle_work_done(xsn_handle *h); /* one async work finished */
const char *xsn_handle_errmsg(const xsn_handle *h);
const char *xsn_kind_name(xsn_kind kind);

/* ---- args.c: JS values -> owned C values ------------------------------------------------ */

typedef struct {
  char *p; /* NUL-terminated copy; NULL = absent (undefined / null where allowed) */
  size_t n;
} xsn_str;

void xsn_str_free(xsn_str *s);

/* Owned strings for the C calls that take `const char *const *` (session ids, cwd-map pairs). */
typedef struct {
  char **p;
  size_t n;
} xsn_strv;

void xsn_strv_free(xsn_strv *v);

/* The arguments of one JS call, with the method's name for error messages. */
typedef struct {
  napi_env env;
  const char *cls, *fn;
  size_t argc;
  napi_value argv[6];
} xsn_args;

enum { XSN_REQUIRED = 0, XSN_OPTIONAL = 1 };

/* Each returns 1, or 0 with a TypeError/RangeError pending. `v` NULL counts as undefined. */
int xsn_get_name(xsn_args *a, napi_value v, const char *what, int optional, xsn_str *out);
int xsn_get_text(xsn_args *a, napi_value v, const char *what, int optional, xsn_str *out);
int xsn_get_json(xsn_args *a, napi_value v, const char *what, int optional, xsn_str *out);
int xsn_get_bytes(xsn_args *a, napi_value v, const char *what, xsn_str *out);
/* A string, or an array of strings (each as xsn_get_name takes it; `what`[i] in messages). */
int xsn_get_names(xsn_args *a, napi_value v, const char *what, xsn_strv *out);
/* [from, to] pairs: a Map, another iterable of pairs or a plain object {from: to}; undefined or
 * null: none. Into *out as from0, to0, from1, to1, ... */
int xsn_get_pairs(xsn_args *a, napi_value v, const char *what, xsn_strv *out);
/* Appends one name to *out; 0 with an exception pending. */
int xsn_strv_push(xsn_args *a, napi_value v, const char *what, xsn_strv *out);
int xsn_get_bool(xsn_args *a, napi_value v, const char *what, int *out); /* undefined: *out kept */
int xsn_get_tri(xsn_args *a, napi_value v, const char *what, int32_t *out); /* XS_UNSET, 0, 1 */
int xsn_get_int(xsn_args *a, napi_value v, const char *what, int64_t min, int64_t max, int64_t *out);
int xsn_get_uint64(xsn_args *a, napi_value v, const char *what, uint64_t *out);
/* The option `key` of `o` as 0..UINT32_MAX into *out; absent: *out kept (its init's default). */
int xsn_get_u32_option(xsn_args *a, napi_value o, const char *key, uint32_t *out);
/* An options object: undefined/null -> *out NULL; otherwise every key must be in `allowed`. */
int xsn_get_options(xsn_args *a, napi_value v, const char *what, const char *const *allowed, napi_value *out);
napi_value xsn_prop(xsn_args *a, napi_value obj, const char *key); /* NULL when obj is NULL */
int xsn_is_set(xsn_args *a, napi_value v);                         /* not undefined (NULL counts as it) */
/* For (id?, options?) signatures: when argv[0] is an object the id was left out, so the
 * arguments shift one place right (argv[0] becomes undefined, options move to argv[1]). */
void xsn_optional_first(xsn_args *a);

/* ---- dispatch.c: one JS method call ----------------------------------------------------- */

typedef struct {
  char *p;
  size_t len, cap;
} xsn_text;

typedef enum {
  XSN_OUT_VOID,    /* undefined */
  XSN_OUT_ID,      /* the new entry id in call->id */
  XSN_OUT_STRING,  /* call->out as a string */
  XSN_OUT_LEAF,    /* call->out as a string, null when empty */
  XSN_OUT_JSON,    /* call->out parsed with JSON.parse (the raw text with {raw: true}) */
  XSN_OUT_BUFFER,  /* call->out as a Buffer */
  XSN_OUT_SESSION, /* call->fresh wrapped in a new Session */
  XSN_OUT_NUMBER,  /* call->number */
  XSN_OUT_RECORD,  /* as XSN_OUT_JSON, or null when call->absent */
  XSN_OUT_FOUND,   /* true, or false when call->absent */
  XSN_OUT_BOOL,    /* call->yes as a boolean */
  XSN_OUT_KEYED,   /* {session: call->fresh wrapped, reason: the XS_RESET_* name of call->u32} */
  XSN_OUT_HISTORY, /* call->history wrapped in a new History */
  XSN_OUT_INDEX    /* call->index wrapped in a new Index */
} xsn_out;

/* XSN_DOC_LOCK: the C call takes the keyed store's document lock (keys writes). XSN_SYNC_FIRST:
 * with both forms, `name` is the synchronous one and `nameAsync` the Promise (the appends, which
 * were synchronous first). */
enum { XSN_SYNC = 1, XSN_ASYNC = 2, XSN_DOC_LOCK = 4, XSN_SYNC_FIRST = 8 };

#define XSN_MAX_STRS 8
#define XSN_SESSION_STRS 5 /* the string fields of SessionOptions */

typedef struct xsn_call xsn_call;

typedef struct xsn_method {
  const char *name;
  xsn_kind kind;                          /* the class of `this` */
  int (*parse)(xsn_args *a, xsn_call *c); /* JS thread; 0 = exception pending */
  xs_status (*run)(xsn_call *c);          /* any thread; xs_* calls only */
  xs_status (*read)(xsn_call *c, char *buf, size_t cap, size_t *len); /* or: a buffer reader */
  xsn_out out;
  unsigned forms; /* XSN_SYNC: `name` is synchronous; with XSN_ASYNC too, `name` returns a
                     Promise and `nameSync` is the synchronous form (XSN_SYNC_FIRST: `name` and
                     `nameAsync`); and XSN_DOC_LOCK */
} xsn_method;

struct xsn_call {
  const xsn_method *m;
  xsn_handle *h;
  /* arguments (owned) */
  xsn_str s[XSN_MAX_STRS];
  int64_t i64;
  int32_t i32;
  uint32_t u32;
  int raw;
  xs_session_options sopts; /* string fields point into opt_s */
  xsn_str opt_s[XSN_SESSION_STRS];
  xs_list_options lopts;
  xs_gc_options gopts;
  xs_compaction_settings csettings;
  xs_archive_options aopts;
  xs_import_options iopts; /* its cwds point into s[2] and s[3] */
  xs_reset_policy policy; /* its time_zone points into s[1] */
  xs_history_options hopts; /* its path points into s[0] */
  xs_index_options xopts;   /* its path points into s[0] */
  xs_search_options qopts;  /* its strings point into s[1..3] */
  xsn_strv strv;            /* export's and exportHtml's ids; importBundle's cwd map, old, new, ... */
  xs_export_options eopts;
  xs_import_bundle_options bopts; /* its cwd_map is strv.p */
  xs_html_options htopts;
  int has_policy;
  int64_t n[3]; /* further integer arguments (token counts, times) */
  /* results */
  xs_status rc;
  char *errmsg;
  xsn_text out;
  char id[XS_ID_BUFSIZE];
  xs_session *fresh;
  xs_history *history; /* XSN_OUT_HISTORY */
  xs_index *index;     /* XSN_OUT_INDEX */
  double number;
  int yes;    /* XSN_OUT_BOOL */
  int absent; /* the record or key was not there (XS_ENOTFOUND made a result) */
  /* a keys.update call (keys_update.c); NULL for every other call */
  struct xsn_update *upd;
  /* an archive or import call with a progress callback (progress.c); NULL for every other call */
  struct xsn_progress *prog;
  napi_env sync_env; /* the JS thread's env during a synchronous call; NULL on a worker */
  /* async */
  napi_async_work work;
  napi_deferred deferred;
  napi_ref self;
};

/* JS thread: runs the C call of `m` (a row without arguments) on `h` at once, under its gates as
 * any call; 1, or 0 with its XsError thrown. */
int xsn_call_now(napi_env env, xsn_handle *h, const xsn_method *m);
/* session.c, history.c: close()'s last flush, whose error close() throws. */
extern const xsn_method xsn_session_close_flush, xsn_history_close_flush;

/* Adds a table's rows to a class's property list; returns the number written. */
size_t xsn_method_props(napi_env env, const xsn_method *rows, size_t n, napi_property_descriptor *props);
size_t xsn_method_prop_count(const xsn_method *rows, size_t n);

/* ---- buffers.c -------------------------------------------------------------------------- */

/* Calls c->m->read into c->out, growing the buffer on XS_EBUFS. The handle's lock is held by the
 * caller, so the library's cached result serves the retry (it is not built twice). */
xs_status xsn_read_text(xsn_call *c);
void xsn_text_free(xsn_text *t);

/* ---- options.c -------------------------------------------------------------------------- */

/* SessionOptions {readOnly, create, noDefer, sync, maxLineBytes, maxDepth, dialect,
 * clockStartMs, clockStepMs, idSeed, cwd, sessionId, title, parentSession, key} -> c->sopts. */
int xsn_get_session_options(xsn_args *a, napi_value v, xsn_call *c);
/* 'omp' / 'pi' -> XS_DIALECT_OMP / XS_DIALECT_PI; undefined or null leaves *out as it was
 * (XS_DIALECT_AUTO from the options' init); any other value is a TypeError. */
int xsn_get_dialect(xsn_args *a, napi_value v, const char *what, uint32_t *out);
/* "omp" / "pi"; NULL for a value newer than this binding. */
const char *xsn_dialect_name(uint32_t dialect);
/* ReadOptions {raw, resolveBlobs}; resolveBlobs only where `blobs` is set. */
int xsn_get_read_options(xsn_args *a, napi_value v, xsn_call *c, int blobs);
/* {<name>?: boolean, raw?: boolean}, for calls whose one option is a flag (blobList's verify,
 * repair's quarantine): c->u32 = flag when <name> is true, else 0. */
int xsn_get_flag_options(xsn_args *a, napi_value v, const char *name, uint32_t flag, xsn_call *c);

/* ---- keys_update.c: keys.update, whose JS callback runs while a C call holds the store ------- */

typedef struct xsn_update xsn_update;
/* Parses (key, fn, options?) of update into c. */
int xsn_update_parse(xsn_args *a, xsn_call *c);
/* The C call: xs_keys_update with the callback run here (sync) or on the JS thread (async). */
xs_status xsn_update_run(xsn_call *c);
/* Async form: before queueing, the threadsafe function that brings the question to the JS
 * thread (0 with an exception pending); in the completion, its release. */
int xsn_update_start_async(napi_env env, xsn_call *c);
void xsn_update_end_async(napi_env env, xsn_call *c);
/* JS thread: answers a question a gate's holder asked: 1, or 0 if it was answered already. */
int xsn_update_answer(napi_env env, xsn_update *u);
/* Whether a C call that writes the keyed document (`writes_doc`: a keys write, or any call on a
 * session bound to a key) passes the documents gate: on a worker, or on the JS thread outside an
 * update callback (see keys_update.c). */
int xsn_doc_gate_needed(int writes_doc, napi_env env);
extern xsn_gate xsn_doc_gate;
/* The exception the callback threw (taken: a second call gives NULL). */
napi_value xsn_update_thrown(napi_env env, xsn_call *c);
/* The update's state, unless the threadsafe function owns it now. */
void xsn_update_free(napi_env env, xsn_call *c);

/* ---- planning.c: compaction settings and the handle-less decisions ------------------------- */

/* CompactionSettings {contextWindow, reserveTokens, reserveFloor, keepRecentTokens,
 * softThresholdTokens, version} from `v` (undefined or null: the defaults) into *out; `extra`
 * names the other keys the object may have (NULL-terminated, or NULL); *obj gets the object. */
int xsn_get_compaction_settings(xsn_args *a, napi_value v, const char *const *extra, xs_compaction_settings *out,
                                napi_value *obj);
/* The module's planning functions and constants (shouldCompact, ...), defined on `exports`. */
int xsn_define_planning(napi_env env, napi_value exports);

/* ---- reset.c: reset policies ------------------------------------------------------------ */

/* ResetPolicy {dailyHour, idleMinutes, timeZone} -> *p (xs_reset_policy_init first); its time
 * zone is copied into *tz, which p->time_zone points into. 1, or 0 with an exception pending. */
int xsn_get_reset_policy(xsn_args *a, napi_value v, const char *what, xs_reset_policy *p, xsn_str *tz);

/* ---- progress.c: the progress callbacks of archive and import (the pattern of keys_update.c,
 * without waiting) ---- */

typedef struct xsn_progress xsn_progress;
/* `fn` (undefined or null: none; else a function, or a TypeError) into c->prog, with the
 * options' progress and progress_user (`slot`, `user`) set for the synchronous form. */
int xsn_progress_parse(xsn_args *a, napi_value fn, xsn_call *c, xs_archive_progress_fn *slot, void **user);
/* In the C call (run/read): a synchronous call's callback runs on c->sync_env. */
void xsn_progress_here(xsn_call *c);
int xsn_progress_start_async(napi_env env, xsn_call *c);
/* Completion (JS thread): delivers the progress calls not yet delivered. */
void xsn_progress_end_async(napi_env env, xsn_call *c);
/* The exception the callback threw (taken: a second call gives NULL). */
napi_value xsn_progress_thrown(napi_env env, xsn_call *c);
/* Frees the state, or releases the threadsafe function, whose finalizer then frees it. */
void xsn_progress_free(napi_env env, xsn_call *c);

/* ---- import.c: defaultImportOptions and IMPORT_OPTIONS_VERSION, defined on `exports` ---- */

int xsn_define_import(napi_env env, napi_value exports);

/* ---- the rows of each class (store.c, session.c, session_write.c, session_read.c, keys.c) ---- */

#define XSN_SESSION_PTR(c) ((xs_session *)(c)->h->ptr)
#define XSN_STORE_PTR(c) ((xs_store *)(c)->h->ptr)
#define XSN_HISTORY_PTR(c) ((xs_history *)(c)->h->ptr)
#define XSN_INDEX_PTR(c) ((xs_index *)(c)->h->ptr)

extern const xsn_method xsn_store_rows[], xsn_session_life_rows[], xsn_session_write_rows[], xsn_session_read_rows[],
    xsn_keys_rows[], xsn_retention_rows[], xsn_import_rows[], xsn_reset_rows[], xsn_planning_session_rows[], xsn_planning_keys_rows[],
    xsn_bundle_rows[];
extern const size_t xsn_store_row_count, xsn_session_life_row_count, xsn_session_write_row_count,
    xsn_session_read_row_count, xsn_keys_row_count, xsn_retention_row_count, xsn_import_row_count, xsn_reset_row_count,
    xsn_planning_session_row_count, xsn_planning_keys_row_count, xsn_bundle_row_count;
/* history.c: Store.openHistory. */
extern const xsn_method xsn_history_store_rows[];
extern const size_t xsn_history_store_row_count;
/* search.c: Store.openIndex. */
extern const xsn_method xsn_index_store_rows[];
extern const size_t xsn_index_store_row_count;

/* classes.c: a class whose prototype has the rows of `tables`, and close() and `closed` if it is
 * a handle's class (not Keys). */
napi_value xsn_define_class(napi_env env, xsn_kind kind, napi_callback ctor, const xsn_method *const *tables,
                            const size_t *counts, size_t ntables);
/* The constructor of a class whose objects only the addon makes (Session, History, Index): wraps
 * the handle xsn_adopt is giving it, else throws a TypeError saying `how` they are made. */
napi_value xsn_adopted(napi_env env, napi_callback_info info, xsn_kind kind, const char *how);
/* A new object of the class `ctor` around h (which the constructor takes through
 * xsn_env.adopting); on failure h and its C handle are freed and NULL returned. */
napi_value xsn_adopt(napi_env env, xsn_handle *h, napi_ref ctor);
/* The class of the handles a Store opens (History, Index: `Store.open<Kind>`), with the rows. */
napi_value xsn_opened_class(napi_env env, xsn_kind kind, const xsn_method *rows, size_t n);
/* Wraps an open xs_history or xs_index `p` in a new object of its class; on failure closes p and
 * returns NULL. */
napi_value xsn_new_opened(napi_env env, xsn_kind kind, void *p);
/* ---- addon.c: per-environment state ----------------------------------------------------- */

typedef struct {
  napi_ref session_ctor, keys_ctor, history_ctor, index_ctor;
  napi_ref json_parse, json_stringify;
  napi_ref xs_error; /* the XsError class every status error is made of */
  xsn_handle *adopting; /* set while xsn_adopt constructs a Session, History or Index */
  int making_keys;      /* set while xsn_new_keys constructs a Keys */
} xsn_env;

xsn_env *xsn_env_get(napi_env env);
/* Wraps an open xs_session in a new Session object (`keyed`: bound to a key of the keyed store);
 * on failure closes it and returns NULL. */
napi_value xsn_new_session(napi_env env, xs_session *s, int keyed);
napi_value xsn_session_class(napi_env env);
napi_value xsn_store_class(napi_env env);
napi_value xsn_keys_class(napi_env env);
napi_value xsn_history_class(napi_env env);
napi_value xsn_index_class(napi_env env);
/* keys.c: the Keys object of a new Store (its `keys`); NULL with an exception pending. */
napi_value xsn_new_keys(napi_env env, napi_value store);

#endif /* XSN_H */
