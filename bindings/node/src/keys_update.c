/*
 * keys_update.c -- keys.update(key, fn): xs_keys_update with a JS callback that decides, under the
 * document's lock, what the record becomes.
 *
 * fn(current) gets the record (parsed, or its exact text with {raw: true}) or null, and returns
 * the new record (a value, JSON text or UTF-8 bytes, as every JSON argument), null to remove it,
 * or undefined to keep it. Whatever it throws cancels the update (the library writes nothing) and
 * is what the call throws or rejects with, unchanged. While fn runs, the store is held: calls on
 * it from fn are XS_EMISUSE (dispatch.c), as the C API makes them.
 *
 * Sync form: the library calls back on the JS thread, which runs fn directly.
 * Promise form: xs_keys_update runs on a libuv worker. Its callback posts the question to the JS
 * thread through a threadsafe function and blocks until the answer is there. Meanwhile the worker
 * holds two gates, and a JS thread that waits at either answers the question itself instead of
 * waiting for a worker that waits for it:
 *  - the store's (a synchronous call on the same store);
 *  - the documents gate, which every keys write passes (process-wide): a synchronous write
 *    through *another* Store on the same document would otherwise wait inside the library for
 *    the document lock the worker holds, 10 s, then fail with XS_ELOCKED. Writes from inside an
 *    update callback do not pass it (that update holds it): on another document they just run,
 *    on the same one they meet the library's lock as the C API's callers do. Only the environment
 *    that owns a question answers it; another one's thread waits for it.
 * Whoever comes first (the threadsafe function's call or a waiting call) answers; the other finds
 * the question taken. The state below lives until the threadsafe function is finalized, which
 * Node does only after the last queued call, so a late call still finds it.
 */
#include <stdlib.h>

#include "xsn.h"

xsn_gate xsn_doc_gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, NULL};

/* This thread is running an update callback (of any store, any environment). */
static _Thread_local int t_in_update_fn;

int xsn_doc_gate_needed(int writes_doc, napi_env env) { return writes_doc && (!env || !t_in_update_fn); }

#define A(i) (a->argv[i])

typedef enum { ASK_NONE, ASK_ASKED, ASK_TAKEN, ASK_ANSWERED } ask_state;
typedef enum { KEEP, SET, REMOVE } decision;

struct xsn_update {
  xsn_handle *h; /* the store's */
  napi_ref fn;
  int raw;
  napi_env env;                  /* sync form: the JS thread's */
  napi_threadsafe_function tsfn; /* Promise form */
  napi_env owner;                /* Promise form: the environment that runs fn */
  /* The question (state under mu): the record as the library lent it, valid while it waits. */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  ask_state state;
  const char *current;
  size_t current_len;
  /* The answer. */
  xs_status rc; /* XS_OK, or XS_ERROR when fn threw (the library returns it; `thrown` is shown) */
  decision what;
  xsn_str text; /* SET: the new record */
  napi_ref thrown;
};

static void update_delete(napi_env env, xsn_update *u) {
  if (!u) return;
  if (env && u->fn) napi_delete_reference(env, u->fn);
  if (env && u->thrown) napi_delete_reference(env, u->thrown);
  xsn_str_free(&u->text);
  pthread_cond_destroy(&u->cv);
  pthread_mutex_destroy(&u->mu);
  free(u);
}

int xsn_update_parse(xsn_args *a, xsn_call *c) {
  napi_valuetype t = napi_undefined;
  if (!xsn_get_name(a, A(0), "key", XSN_REQUIRED, &c->s[0])) return 0;
  if (A(1)) napi_typeof(a->env, A(1), &t);
  if (t != napi_function) {
    xsn_throw_type(a->env, "%s.%s: fn must be a function", a->cls, a->fn);
    return 0;
  }
  if (!(c->upd = calloc(1, sizeof *c->upd))) {
    xsn_throw_status(a->env, XS_ENOMEM, "out of memory");
    return 0;
  }
  c->upd->h = c->h;
  pthread_mutex_init(&c->upd->mu, NULL);
  pthread_cond_init(&c->upd->cv, NULL);
  XSN_CHECK(a->env, napi_create_reference(a->env, A(1), 1, &c->upd->fn), 0);
  if (!xsn_get_read_options(a, A(2), c, 0)) return 0;
  c->upd->raw = c->raw;
  c->raw = 0;
  return 1;
}

/* ---- JS thread: run fn and turn what it did into the answer ---------------------------- */

static int is_thenable(napi_env env, napi_value v) {
  napi_valuetype t = napi_undefined;
  napi_value then;
  bool has = false;
  napi_typeof(env, v, &t);
  if (t != napi_object && t != napi_function) return 0;
  if (napi_has_named_property(env, v, "then", &has) != napi_ok || !has) return 0;
  if (napi_get_named_property(env, v, "then", &then) != napi_ok) return 0;
  napi_typeof(env, then, &t);
  return t == napi_function;
}

/* fn(current) -> keep / set / remove: 1. Otherwise 0, with an exception pending (fn's own, or
 * for a result that is not JSON) unless a napi_* call failed. */
static int run_fn(napi_env env, xsn_update *u) {
  xsn_args a = {.env = env, .cls = "Keys", .fn = "update"};
  napi_value fn, arg = NULL, global, result = NULL, text, parse;
  napi_valuetype t = napi_undefined;
  if (napi_get_reference_value(env, u->fn, &fn) != napi_ok || napi_get_global(env, &global) != napi_ok) return 0;
  if (!u->current) {
    if (napi_get_null(env, &arg) != napi_ok) return 0;
  } else if (napi_create_string_utf8(env, u->current, u->current_len, &text) != napi_ok) {
    return 0;
  } else if (u->raw) {
    arg = text;
  } else if (napi_get_reference_value(env, xsn_env_get(env)->json_parse, &parse) != napi_ok ||
             napi_call_function(env, global, parse, 1, &text, &arg) != napi_ok) {
    return 0;
  }
  int decided = 0;
  u->h->in_callback = 1; /* until fn's result is JSON text: toJSON and getters are its code too */
  t_in_update_fn++;
  if (napi_call_function(env, global, fn, 1, &arg, &result) == napi_ok && napi_typeof(env, result, &t) == napi_ok) {
    if (t == napi_undefined || t == napi_null) {
      u->what = t == napi_null ? REMOVE : KEEP;
      decided = 1;
    } else if (is_thenable(env, result)) {
      xsn_throw_type(env, "Keys.update: fn returned a Promise; it must return the record itself (it runs while "
                          "the document is locked)");
    } else if (xsn_get_json(&a, result, "the record fn returned", XSN_REQUIRED, &u->text)) {
      u->what = SET;
      decided = 1;
    }
  }
  t_in_update_fn--;
  u->h->in_callback = 0;
  return decided;
}

static void decide(napi_env env, xsn_update *u) {
  napi_handle_scope scope;
  bool pending = false;
  napi_value err = NULL;
  if (napi_open_handle_scope(env, &scope) != napi_ok) {
    u->rc = XS_ENOMEM;
    return;
  }
  u->rc = run_fn(env, u) ? XS_OK : XS_ERROR;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) {
    napi_get_and_clear_last_exception(env, &err);
    if (napi_create_reference(env, err, 1, &u->thrown) != napi_ok) u->thrown = NULL;
    u->rc = XS_ERROR;
  }
  napi_close_handle_scope(env, scope);
}

/* The answer, as the library's callback returns it. */
static xs_status answer(xsn_update *u, const char **out, size_t *out_len) {
  if (u->rc != XS_OK) return u->rc;
  if (u->what == REMOVE) {
    *out = NULL;
    *out_len = 0;
  } else if (u->what == SET) {
    *out = u->text.p;
    *out_len = u->text.n;
  } /* KEEP: *out is the current record already */
  return XS_OK;
}

/* The worker posts its question at the gates it holds, and withdraws it once answered (before
 * its call can end, so a gate never names a finished update). */
static void post(xsn_gate *g, xsn_update *u) {
  pthread_mutex_lock(&g->mu);
  g->asking = u;
  g->asking_env = u->owner;
  pthread_cond_broadcast(&g->cv); /* a JS thread waiting at the gate answers it */
  pthread_mutex_unlock(&g->mu);
}

static void withdraw(xsn_gate *g, xsn_update *u) {
  pthread_mutex_lock(&g->mu);
  if (g->asking == u) g->asking = NULL;
  pthread_mutex_unlock(&g->mu);
}

static void set_state(xsn_update *u, ask_state s) {
  pthread_mutex_lock(&u->mu);
  u->state = s;
  pthread_cond_broadcast(&u->cv);
  pthread_mutex_unlock(&u->mu);
}

int xsn_update_answer(napi_env env, xsn_update *u) {
  pthread_mutex_lock(&u->mu);
  int mine = u->state == ASK_ASKED;
  if (mine) u->state = ASK_TAKEN;
  pthread_mutex_unlock(&u->mu);
  if (!mine) return 0;
  if (env)
    decide(env, u);
  else
    u->rc = XS_ERROR; /* the environment is going away: nobody can run fn */
  set_state(u, ASK_ANSWERED);
  return 1;
}

/* The threadsafe function's call on the JS thread (env NULL while the environment is torn down).
 * Once answered, the worker may be gone and the handle with it; u itself lives on. */
static void call_js(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)js_cb;
  (void)context;
  xsn_update_answer(env, data);
}

static void tsfn_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  update_delete(env, data);
}

/* ---- the library's callback (the thread of the C call) ---------------------------------- */

static xs_status decide_here(void *user, const char *current, size_t len, const char **out, size_t *out_len) {
  xsn_update *u = user;
  u->current = current;
  u->current_len = len;
  decide(u->env, u);
  return answer(u, out, out_len);
}

static xs_status ask_js_thread(void *user, const char *current, size_t len, const char **out, size_t *out_len) {
  xsn_update *u = user;
  u->current = current;
  u->current_len = len;
  set_state(u, ASK_ASKED);
  post(&u->h->gate, u);
  post(&xsn_doc_gate, u);
  /* Closing (the environment is going away): no call will come, so answer "cancelled" here. */
  if (napi_call_threadsafe_function(u->tsfn, u, napi_tsfn_nonblocking) != napi_ok) xsn_update_answer(NULL, u);
  pthread_mutex_lock(&u->mu);
  while (u->state != ASK_ANSWERED) pthread_cond_wait(&u->cv, &u->mu);
  pthread_mutex_unlock(&u->mu);
  withdraw(&u->h->gate, u);
  withdraw(&xsn_doc_gate, u);
  return answer(u, out, out_len);
}

xs_status xsn_update_run(xsn_call *c) {
  xsn_update *u = c->upd;
  u->env = c->sync_env;
  return xs_keys_update(XSN_STORE_PTR(c), c->s[0].p, u->env ? decide_here : ask_js_thread, u);
}

/* ---- the call's lifetime (dispatch.c) --------------------------------------------------- */

int xsn_update_start_async(napi_env env, xsn_call *c) {
  napi_value name;
  c->upd->owner = env;
  XSN_CHECK(env, napi_create_string_utf8(env, "xsession.Keys.update", NAPI_AUTO_LENGTH, &name), 0);
  XSN_CHECK(env,
            napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, c->upd, tsfn_finalize, NULL, call_js,
                                            &c->upd->tsfn),
            0);
  return 1;
}

void xsn_update_end_async(napi_env env, xsn_call *c) {
  (void)env;
  if (!c->upd || !c->upd->tsfn) return;
  napi_release_threadsafe_function(c->upd->tsfn, napi_tsfn_release);
  c->upd = NULL; /* tsfn_finalize frees it after the last queued call */
}

napi_value xsn_update_thrown(napi_env env, xsn_call *c) {
  return c->upd ? xsn_take_thrown(env, &c->upd->thrown) : NULL;
}

void xsn_update_free(napi_env env, xsn_call *c) {
  update_delete(env, c->upd);
  c->upd = NULL;
}
