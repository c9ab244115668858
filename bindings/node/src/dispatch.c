/*
 * dispatch.c -- runs one table row (xsn_method) as a synchronous call or as async work.
 *
 * Both forms share everything but the thread the C call runs on: parse the JS arguments into
 * owned copies, run the row under the handle's lock (copying the error text before unlocking, so
 * a concurrent call cannot replace it), then turn the result into a JS value.
 *
 * Async form: the row runs on a libuv worker (napi_create_async_work). While it is queued or
 * running, the handle's `inflight` count keeps close() and the finalizer from freeing the C
 * handle, and a strong reference keeps the JS object alive. Errors, argument errors included,
 * reject the returned Promise; the async form never throws.
 *
 * keys.update runs JS (its callback) while its C call holds the store: the callback's exception,
 * not the status it cancelled with, is what the call throws or rejects with (keys_update.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsn.h"

static void call_free(napi_env env, xsn_call *c) {
  xsn_update_free(env, c);
  xsn_progress_free(env, c);
  for (int i = 0; i < XSN_MAX_STRS; i++) xsn_str_free(&c->s[i]);
  xsn_strv_free(&c->strv);
  for (int i = 0; i < XSN_SESSION_STRS; i++) xsn_str_free(&c->opt_s[i]);
  xsn_text_free(&c->out);
  free(c->errmsg);
  xs_session_close(c->fresh); /* a session the JS side never received (NULL: no-op) */
  xs_history_close(c->history);
  xs_index_close(c->index);
  free(c);
}

/* Any thread: the C call itself (`env` on the JS thread only). */
static void execute_call(xsn_call *c, napi_env env) {
  int doc = xsn_doc_gate_needed((c->m->forms & XSN_DOC_LOCK) || c->h->keyed, env);
  if (doc) xsn_gate_enter(&xsn_doc_gate, env);
  xsn_gate_enter(&c->h->gate, env);
  c->rc = c->m->read ? xsn_read_text(c) : c->m->run(c);
  if (c->rc != XS_OK && !c->errmsg) c->errmsg = strdup(xsn_handle_errmsg(c->h));
  xsn_gate_leave(&c->h->gate);
  if (doc) xsn_gate_leave(&xsn_doc_gate);
}

/* `this` checked and the arguments copied; NULL with an exception pending. */
static xsn_call *prepare(napi_env env, napi_callback_info info, napi_value *self) {
  xsn_args a = {.env = env, .argc = sizeof a.argv / sizeof a.argv[0]};
  void *data = NULL;
  XSN_CHECK(env, napi_get_cb_info(env, info, &a.argc, a.argv, self, &data), NULL);
  const xsn_method *m = data;
  a.cls = xsn_kind_name(m->kind);
  a.fn = m->name;
  xsn_handle *h = xsn_handle_get(env, *self, m->kind, 0);
  if (!h) return NULL;
  if (h->in_callback) { /* the update holds the store: a call on it would wait for itself */
    xsn_throw_status(env, XS_EMISUSE,
                     "a keys.update callback may not call its own store (the update holds it); return the "
                     "new record instead");
    return NULL;
  }
  xsn_call *c = calloc(1, sizeof *c);
  if (!c) {
    xsn_throw_status(env, XS_ENOMEM, "out of memory");
    return NULL;
  }
  c->m = m;
  c->h = h;
  bool pending = false;
  if ((m->parse && !m->parse(&a, c)) || napi_is_exception_pending(env, &pending) != napi_ok || pending) {
    call_free(env, c); /* a failed or throwing getter on an options object ends here too */
    return NULL;
  }
  /* Parsing ran user code (getters, toJSON), which may have closed this very object. */
  if (h->closed) {
    xsn_throw_closed(env, h->kind);
    call_free(env, c);
    return NULL;
  }
  return c;
}

static napi_value json_parse(napi_env env, napi_value text) {
  napi_value parse, global, v;
  XSN_CHECK(env, napi_get_reference_value(env, xsn_env_get(env)->json_parse, &parse), NULL);
  XSN_CHECK(env, napi_get_global(env, &global), NULL);
  XSN_CHECK(env, napi_call_function(env, global, parse, 1, &text, &v), NULL);
  return v;
}

/* {session, reason} of Store.sessionForKey. */
static napi_value keyed_session(napi_env env, xsn_call *c) {
  napi_value o, reason, session;
  xs_session *s = c->fresh;
  c->fresh = NULL; /* xsn_new_session owns it now, even when it fails */
  if (!(session = xsn_new_session(env, s, 1))) return NULL;
  XSN_CHECK(env, napi_create_object(env, &o), NULL);
  XSN_CHECK(env, napi_create_string_utf8(env, xs_reset_reason_str(c->u32), NAPI_AUTO_LENGTH, &reason), NULL);
  XSN_CHECK(env, napi_set_named_property(env, o, "session", session), NULL);
  XSN_CHECK(env, napi_set_named_property(env, o, "reason", reason), NULL);
  return o;
}

/* JS thread: the value of a successful call; NULL with an exception pending. */
static napi_value result_of(napi_env env, xsn_call *c) {
  napi_value v = NULL;
  napi_status st = napi_ok;
  switch (c->m->out) {
    case XSN_OUT_VOID: st = napi_get_undefined(env, &v); break;
    case XSN_OUT_ID: st = napi_create_string_utf8(env, c->id, NAPI_AUTO_LENGTH, &v); break;
    case XSN_OUT_NUMBER: st = napi_create_double(env, c->number, &v); break;
    case XSN_OUT_FOUND: st = napi_get_boolean(env, !c->absent, &v); break;
    case XSN_OUT_BOOL: st = napi_get_boolean(env, c->yes, &v); break;
    case XSN_OUT_KEYED: return keyed_session(env, c);
    case XSN_OUT_BUFFER: st = napi_create_buffer_copy(env, c->out.len, c->out.p, NULL, &v); break;
    case XSN_OUT_RECORD:
    case XSN_OUT_LEAF:
      if (c->absent || (c->m->out == XSN_OUT_LEAF && c->out.len == 0)) {
        st = napi_get_null(env, &v);
        break;
      }
      /* fall through */
    case XSN_OUT_STRING:
    case XSN_OUT_JSON:
      /* Fails beyond V8's longest string (about 512 MiB): an Error, not a crash. */
      st = napi_create_string_utf8(env, c->out.p, c->out.len, &v);
      if (st == napi_ok && (c->m->out == XSN_OUT_JSON || c->m->out == XSN_OUT_RECORD) && !c->raw)
        return json_parse(env, v);
      break;
    case XSN_OUT_HISTORY: {
      xs_history *p = c->history;
      c->history = NULL; /* xsn_new_opened owns it now, even when it fails */
      return xsn_new_opened(env, XSN_HISTORY, p);
    }
    case XSN_OUT_INDEX: {
      xs_index *p = c->index;
      c->index = NULL; /* xsn_new_opened owns it now, even when it fails */
      return xsn_new_opened(env, XSN_INDEX, p);
    }
    case XSN_OUT_SESSION: {
      xs_session *s = c->fresh;
      c->fresh = NULL; /* xsn_new_session owns it now, even when it fails */
      return xsn_new_session(env, s, c->sopts.key != NULL); /* bound by SessionOptions.key */
    }
  }
  if (st != napi_ok) {
    xsn_throw_napi(env, st);
    return NULL;
  }
  return v;
}

/* The exception a JS callback of the call threw (taken), or NULL. */
static napi_value callback_thrown(napi_env env, xsn_call *c) {
  napi_value thrown = xsn_update_thrown(env, c);
  return thrown ? thrown : xsn_progress_thrown(env, c);
}

/* The napi_callbacks of a row's two forms (data = the row). */
static napi_value call_sync(napi_env env, napi_callback_info info) {
  napi_value self;
  xsn_call *c = prepare(env, info, &self);
  if (!c) return NULL;
  c->sync_env = env;
  /* An update's or a progress callback may close the store while the C call is inside it: defer
   * the free. */
  int runs_js = c->upd || c->prog;
  if (runs_js) c->h->inflight++;
  execute_call(c, env);
  if (runs_js) xsn_handle_work_done(c->h);
  napi_value r = NULL, thrown = callback_thrown(env, c);
  if (thrown)
    napi_throw(env, thrown);
  else if (c->rc != XS_OK)
    xsn_throw_status(env, c->rc, c->errmsg);
  else
    r = result_of(env, c);
  call_free(env, c);
  return r;
}

int xsn_call_now(napi_env env, xsn_handle *h, const xsn_method *m) {
  xsn_call *c = calloc(1, sizeof *c);
  if (!c) {
    xsn_throw_status(env, XS_ENOMEM, "out of memory");
    return 0;
  }
  c->m = m;
  c->h = h;
  c->sync_env = env;
  execute_call(c, env);
  int ok = c->rc == XS_OK;
  if (!ok) xsn_throw_status(env, c->rc, c->errmsg);
  call_free(env, c);
  return ok;
}

static void execute_cb(napi_env env, void *data) {
  (void)env; /* no napi_* on a worker thread */
  execute_call(data, NULL);
}

static void settle_with_pending(napi_env env, napi_deferred d) {
  napi_value err = NULL;
  napi_get_and_clear_last_exception(env, &err);
  napi_reject_deferred(env, d, err);
}

static void complete_cb(napi_env env, napi_status status, void *data) {
  xsn_call *c = data;
  xsn_progress_end_async(env, c); /* every progress call runs before the Promise settles */
  napi_value v = NULL, thrown = callback_thrown(env, c);
  if (thrown) {
    napi_reject_deferred(env, c->deferred, thrown);
  } else if (status != napi_ok) {
    napi_value code = NULL, msg = NULL;
    napi_create_string_utf8(env, "ERR_XSESSION_CANCELLED", NAPI_AUTO_LENGTH, &code);
    napi_create_string_utf8(env, "the operation was cancelled", NAPI_AUTO_LENGTH, &msg);
    napi_create_error(env, code, msg, &v);
    napi_reject_deferred(env, c->deferred, v);
  } else if (c->rc != XS_OK) {
    if ((v = xsn_status_error(env, c->rc, c->errmsg)))
      napi_reject_deferred(env, c->deferred, v);
    else
      settle_with_pending(env, c->deferred);
  } else if ((v = result_of(env, c))) {
    napi_resolve_deferred(env, c->deferred, v);
  } else {
    settle_with_pending(env, c->deferred);
  }
  xsn_update_end_async(env, c);
  napi_delete_async_work(env, c->work);
  napi_delete_reference(env, c->self);
  xsn_handle_work_done(c->h); /* may free the C handle if close() came meanwhile */
  call_free(env, c);
}

static napi_value call_async(napi_env env, napi_callback_info info) {
  napi_value promise, self, name;
  napi_deferred d;
  XSN_CHECK(env, napi_create_promise(env, &d, &promise), NULL);
  xsn_call *c = prepare(env, info, &self);
  if (!c) {
    settle_with_pending(env, d);
    return promise;
  }
  c->deferred = d;
  if ((c->upd && !xsn_update_start_async(env, c)) || (c->prog && !xsn_progress_start_async(env, c))) {
    call_free(env, c);
    settle_with_pending(env, d);
    return promise;
  }
  napi_status st = napi_create_string_utf8(env, c->m->name, NAPI_AUTO_LENGTH, &name);
  if (st == napi_ok) st = napi_create_async_work(env, NULL, name, execute_cb, complete_cb, c, &c->work);
  if (st == napi_ok) st = napi_create_reference(env, self, 1, &c->self);
  if (st == napi_ok) st = napi_queue_async_work(env, c->work);
  if (st != napi_ok) {
    if (c->self) napi_delete_reference(env, c->self);
    if (c->work) napi_delete_async_work(env, c->work);
    xsn_update_end_async(env, c);
    xsn_progress_end_async(env, c);
    call_free(env, c);
    xsn_throw_napi(env, st);
    settle_with_pending(env, d);
    return promise;
  }
  c->h->inflight++;
  return promise;
}

size_t xsn_method_prop_count(const xsn_method *rows, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += (rows[i].forms & XSN_SYNC ? 1 : 0) + (rows[i].forms & XSN_ASYNC ? 1 : 0);
  return k;
}

static napi_property_descriptor method_prop(napi_value name, napi_callback cb, const xsn_method *row) {
  napi_property_descriptor p = {0};
  p.name = name;
  p.method = cb;
  p.attributes = napi_default_method;
  p.data = (void *)row;
  return p;
}

/* An async row gives `name` (Promise) and `nameSync` (XSN_SYNC_FIRST: `name` and `nameAsync`); a
 * sync-only row gives `name`. Names are napi_values (not utf8name) because the suffixed name is
 * built here and must outlive this call. */
size_t xsn_method_props(napi_env env, const xsn_method *rows, size_t n, napi_property_descriptor *props) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const xsn_method *r = &rows[i];
    const int both = (r->forms & XSN_SYNC) && (r->forms & XSN_ASYNC), sync_first = r->forms & XSN_SYNC_FIRST;
    char sync_name[96], async_name[96];
    napi_value aname, sname;
    snprintf(sync_name, sizeof sync_name, "%s%s", r->name, both && !sync_first ? "Sync" : "");
    snprintf(async_name, sizeof async_name, "%s%s", r->name, both && sync_first ? "Async" : "");
    if (napi_create_string_utf8(env, async_name, NAPI_AUTO_LENGTH, &aname) != napi_ok ||
        napi_create_string_utf8(env, sync_name, NAPI_AUTO_LENGTH, &sname) != napi_ok)
      return 0;
    if (r->forms & XSN_ASYNC) props[k++] = method_prop(aname, call_async, r);
    if (r->forms & XSN_SYNC) props[k++] = method_prop(sname, call_sync, r);
  }
  return k;
}
