/*
 * progress.c -- the progress callbacks of Store.archive and Store.import: progress(done, total),
 * called by the library on the thread of the C call while the store is busy with that call:
 *  - sync form: that is the JS thread, which runs the callback directly;
 *  - Promise form: the worker appends the numbers to a list and pokes the JS thread through a
 *    threadsafe function, without waiting for it (nothing can deadlock: the worker never waits
 *    for the JS thread). The JS thread delivers the list in order; the completion delivers what
 *    is left before the Promise settles, so every call comes before the result.
 * While the callback runs, calls on its store throw XS_EMISUSE (as in a keys.update callback).
 * The C callback cannot cancel the call: a callback that throws is not called again, the call
 * runs to its end, and then throws (rejects with) that very exception.
 */
#include <stdlib.h>

#include "xsn.h"

typedef struct {
  uint64_t done, total;
} tick;

struct xsn_progress {
  xsn_handle *h;
  xs_archive_progress_fn *slot;  /* the options' `progress` (archive's or import's: the same type) */
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
    p->h->in_callback = 1; /* the store is busy with the call: calls on it are XS_EMISUSE */
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
      p->lost = 1; /* progress is advice: the call goes on without it */
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
  *c->prog->slot = progress_queued;
  XSN_CHECK(env, napi_create_string_utf8(env, "xsession.progress", NAPI_AUTO_LENGTH, &name), 0);
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

int xsn_progress_parse(xsn_args *a, napi_value fn, xsn_call *c, xs_archive_progress_fn *slot, void **user) {
  napi_valuetype t = napi_undefined;
  if (!fn || napi_typeof(a->env, fn, &t) != napi_ok || t == napi_undefined || t == napi_null) return 1;
  if (t != napi_function) {
    xsn_throw_type(a->env, "%s.%s: progress must be a function", a->cls, a->fn);
    return 0;
  }
  if (!(c->prog = calloc(1, sizeof *c->prog))) {
    xsn_throw_status(a->env, XS_ENOMEM, "out of memory");
    return 0;
  }
  c->prog->h = c->h;
  c->prog->slot = slot;
  pthread_mutex_init(&c->prog->mu, NULL);
  XSN_CHECK(a->env, napi_create_reference(a->env, fn, 1, &c->prog->fn), 0);
  *slot = progress_here; /* the Promise form replaces it (xsn_progress_start_async) */
  *user = c->prog;
  return 1;
}

void xsn_progress_here(xsn_call *c) {
  if (c->prog) c->prog->env = c->sync_env;
}
