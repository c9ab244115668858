/*
 * retention.c -- Store.archive and Store.prune (docs/retention.md), and archive's progress
 * callback.
 *
 * progress(done, total) is called once before the first candidate (0) and after each. The
 * library calls it on the thread of the C call while the store is busy with that call:
 *  - sync form: that is the JS thread, which runs the callback directly;
 *  - Promise form: the worker appends the numbers to a list and pokes the JS thread through a
 *    threadsafe function, without waiting for it (nothing can deadlock: the worker never waits
 *    for the JS thread). The JS thread delivers the list in order; the completion delivers what
 *    is left before the Promise settles, so every call comes before the result.
 * While the callback runs, calls on its store throw XS_EMISUSE (as in a keys.update callback).
 * The C callback cannot cancel the archive: a callback that throws is not called again, the
 * archive runs to its end, and the call throws (rejects with) that very exception.
 */
#include <stdlib.h>

#include "xsn.h"

#define A(i) (a->argv[i])

typedef struct {
  uint64_t done, total;
} tick;

struct xsn_progress {
  xsn_handle *h;
  napi_ref fn;
  napi_env env;                  /* sync form: the JS thread's */
  napi_threadsafe_function tsfn; /* Promise form */
  pthread_mutex_t mu;            /* guards ticks and count (the worker appends) */
  tick *ticks;
  size_t count, cap, delivered;
  int lost;        /* out of memory for a tick: the callback is not called again */
  napi_ref thrown; /* what the callback threw; it is not called after that */
};

static void progress_delete(napi_env env, xsn_progress *p) {
  if (!p) return;
  if (env && p->fn) napi_delete_reference(env, p->fn);
  if (env && p->thrown) napi_delete_reference(env, p->thrown);
  free(p->ticks);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

/* JS thread: fn(done, total); an exception it throws is kept and ends the deliveries. */
static void call_fn(napi_env env, xsn_progress *p, tick t) {
  napi_handle_scope scope;
  napi_value fn, global, args[2], result, err = NULL;
  bool pending = false;
  if (p->thrown || napi_open_handle_scope(env, &scope) != napi_ok) return;
  if (napi_get_reference_value(env, p->fn, &fn) == napi_ok && napi_get_global(env, &global) == napi_ok &&
      napi_create_double(env, (double)t.done, &args[0]) == napi_ok &&
      napi_create_double(env, (double)t.total, &args[1]) == napi_ok) {
    p->h->in_callback = 1; /* the store is busy with the archive: calls on it are XS_EMISUSE */
    napi_call_function(env, global, fn, 2, args, &result);
    p->h->in_callback = 0;
  }
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending &&
      napi_get_and_clear_last_exception(env, &err) == napi_ok &&
      napi_create_reference(env, err, 1, &p->thrown) != napi_ok)
    p->thrown = NULL;
  napi_close_handle_scope(env, scope);
}

/* JS thread: every tick not yet delivered, in order. */
static void deliver(napi_env env, xsn_progress *p) {
  for (;;) {
    pthread_mutex_lock(&p->mu);
    int more = p->delivered < p->count;
    tick t = more ? p->ticks[p->delivered++] : (tick){0, 0};
    pthread_mutex_unlock(&p->mu);
    if (!more) return;
    call_fn(env, p, t);
  }
}

/* The library's callbacks (the thread of the C call). */
static void progress_here(uint64_t done, uint64_t total, void *user) {
  xsn_progress *p = user;
  call_fn(p->env, p, (tick){done, total});
}

static void progress_queued(uint64_t done, uint64_t total, void *user) {
  xsn_progress *p = user;
  pthread_mutex_lock(&p->mu);
  if (!p->lost && p->count == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 16;
    tick *grown = realloc(p->ticks, cap * sizeof *grown);
    if (grown) {
      p->ticks = grown;
      p->cap = cap;
    } else {
      p->lost = 1; /* progress is advice: the archive goes on without it */
    }
  }
  if (!p->lost) p->ticks[p->count++] = (tick){done, total};
  pthread_mutex_unlock(&p->mu);
  /* Closing (the environment is going away): nobody is left to call. */
  napi_call_threadsafe_function(p->tsfn, NULL, napi_tsfn_nonblocking);
}

static void call_js(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)js_cb;
  (void)data;
  if (env) deliver(env, context);
}

static void tsfn_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  progress_delete(env, data);
}

int xsn_progress_start_async(napi_env env, xsn_call *c) {
  napi_value name;
  c->aopts.progress = progress_queued;
  XSN_CHECK(env, napi_create_string_utf8(env, "xsession.Store.archive", NAPI_AUTO_LENGTH, &name), 0);
  XSN_CHECK(env,
            napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, c->prog, tsfn_finalize, c->prog, call_js,
                                            &c->prog->tsfn),
            0);
  return 1;
}

void xsn_progress_end_async(napi_env env, xsn_call *c) {
  if (c->prog && c->prog->tsfn) deliver(env, c->prog);
}

napi_value xsn_progress_thrown(napi_env env, xsn_call *c) {
  return c->prog ? xsn_take_thrown(env, &c->prog->thrown) : NULL;
}

void xsn_progress_free(napi_env env, xsn_call *c) {
  if (c->prog && c->prog->tsfn)
    napi_release_threadsafe_function(c->prog->tsfn, napi_tsfn_release); /* tsfn_finalize frees it */
  else
    progress_delete(env, c->prog);
  c->prog = NULL;
}

/* ---- parsers ---------------------------------------------------------------------------- */

/* {olderThanMs, nowMs?, dryRun?, raw?} (+ progress? for archive). Negative numbers and a missing
 * olderThanMs reach the library, whose XS_EINVAL says what is wrong with them. */
static int p_retention(xsn_args *a, xsn_call *c, int with_progress) {
  static const char *const archive_keys[] = {"olderThanMs", "nowMs", "dryRun", "raw", "progress", NULL};
  static const char *const prune_keys[] = {"olderThanMs", "nowMs", "dryRun", "raw", NULL};
  napi_value o, x, fn;
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
  napi_valuetype t = napi_undefined;
  if (!with_progress || !(fn = xsn_prop(a, o, "progress")) || napi_typeof(a->env, fn, &t) != napi_ok ||
      t == napi_undefined || t == napi_null)
    return 1;
  if (t != napi_function) {
    xsn_throw_type(a->env, "%s.%s: progress must be a function", a->cls, a->fn);
    return 0;
  }
  if (!(c->prog = calloc(1, sizeof *c->prog))) {
    xsn_throw_status(a->env, XS_ENOMEM, "out of memory");
    return 0;
  }
  c->prog->h = c->h;
  pthread_mutex_init(&c->prog->mu, NULL);
  XSN_CHECK(a->env, napi_create_reference(a->env, fn, 1, &c->prog->fn), 0);
  c->aopts.progress = progress_here; /* the Promise form replaces it (xsn_progress_start_async) */
  c->aopts.progress_user = c->prog;
  return 1;
}

static int p_archive(xsn_args *a, xsn_call *c) { return p_retention(a, c, 1); }
static int p_prune(xsn_args *a, xsn_call *c) { return p_retention(a, c, 0); }

/* ---- C calls (any thread): once each; the retry after XS_EBUFS copies the kept report ---- */

static xs_status r_archive(xsn_call *c, char *b, size_t cap, size_t *n) {
  if (c->prog) c->prog->env = c->sync_env;
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
