/*
 * handles.c -- the native half of Store, Session, History and Index objects and its lifetime.
 *
 * Three things may end a handle's use: close(), the GC (finalizer) and async work completing.
 * The C handle is freed when the JS side is done with it (closed or collected) AND no async work
 * still uses it, whichever happens last; the box itself lives until the finalizer has run and no
 * work refers to it. All of this happens on the JS thread, so plain ints suffice.
 *
 * One call at a time holds a handle (its gate). A keys.update Promise holds its store while its
 * callback runs on the JS thread, so a synchronous call that waits for the store there answers
 * the callback's question itself instead of waiting for the very thread it blocks.
 */
#include <stdlib.h>

#include "xsn.h"

/* Type tags: napi_unwrap alone would cast any wrapped object (another addon's, a Store passed
 * as a Session) to our struct; a tag check first makes `Session.prototype.leaf.call(store)` a
 * TypeError instead of a crash. */
static const napi_type_tag kTags[] = {
    [XSN_STORE] = {0x7873e5a10d5e4a11ULL, 0x9c0b5d2f3a6e7b01ULL},
    [XSN_SESSION] = {0x7873e5a10d5e4a11ULL, 0x9c0b5d2f3a6e7b02ULL},
    [XSN_KEYS] = {0x7873e5a10d5e4a11ULL, 0x9c0b5d2f3a6e7b03ULL},
    [XSN_HISTORY] = {0x7873e5a10d5e4a11ULL, 0x9c0b5d2f3a6e7b04ULL},
    [XSN_INDEX] = {0x7873e5a10d5e4a11ULL, 0x9c0b5d2f3a6e7b05ULL},
};

const char *xsn_kind_name(xsn_kind kind) {
  static const char *const names[] = {[XSN_STORE] = "Store",
                                      [XSN_SESSION] = "Session",
                                      [XSN_KEYS] = "Keys",
                                      [XSN_HISTORY] = "History",
                                      [XSN_INDEX] = "Index"};
  return names[kind];
}

napi_status xsn_handle_tag(napi_env env, napi_value obj, xsn_kind kind) {
  return napi_type_tag_object(env, obj, &kTags[kind]);
}

xsn_handle *xsn_handle_new(xsn_kind kind, void *ptr) {
  xsn_handle *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->kind = kind;
  h->ptr = ptr;
  xsn_gate_init(&h->gate);
  return h;
}

/* A session bound to a key writes its record as it closes: like its other writes, that passes
 * the documents gate, so a keys.update Promise holding the document is answered, not waited for. */
static void close_session(xsn_handle *h) {
  int doc = h->keyed && xsn_doc_gate_needed(1, h->env);
  if (doc) xsn_gate_enter(&xsn_doc_gate, h->env);
  xs_session_close(h->ptr);
  if (doc) xsn_gate_leave(&xsn_doc_gate);
}

void xsn_free_ptr(xsn_kind kind, void *ptr) {
  if (kind == XSN_STORE)
    xs_store_free(ptr);
  else if (kind == XSN_HISTORY)
    xs_history_close(ptr); /* close() threw its flush's error; a finalizer has nobody to tell */
  else if (kind == XSN_INDEX)
    xs_index_close(ptr);
}

static void free_ptr(xsn_handle *h) {
  if (!h->ptr || h->inflight > 0) return; /* a worker may still be inside a call on it */
  if (h->kind == XSN_SESSION)
    close_session(h);
  else
    xsn_free_ptr(h->kind, h->ptr);
  h->ptr = NULL;
}

static void destroy(xsn_handle *h) {
  xsn_gate_destroy(&h->gate);
  free(h);
}

void xsn_handle_close(xsn_handle *h) {
  h->closed = 1;
  free_ptr(h);
}

void xsn_handle_discard(xsn_handle *h) {
  xsn_handle_close(h);
  destroy(h);
}

void xsn_handle_work_done(xsn_handle *h) {
  h->inflight--;
  if (h->closed) free_ptr(h);
  if (!h->wrapped && h->inflight == 0) destroy(h);
}

/* GC'd (or the environment is torn down): an unclosed handle is closed, which for a session
 * flushes it and releases its writer lock. */
static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  xsn_handle *h = data;
  h->wrapped = 0;
  xsn_handle_close(h);
  if (h->inflight == 0) destroy(h);
}

void xsn_gate_init(xsn_gate *g) {
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  g->busy = 0;
  g->asking = NULL;
}

void xsn_gate_destroy(xsn_gate *g) {
  pthread_cond_destroy(&g->cv);
  pthread_mutex_destroy(&g->mu);
}

void xsn_gate_enter(xsn_gate *g, napi_env env) {
  pthread_mutex_lock(&g->mu);
  while (g->busy) {
    xsn_update *question = env && g->asking_env == env ? g->asking : NULL;
    if (question) {
      pthread_mutex_unlock(&g->mu);
      int answered = xsn_update_answer(env, question); /* the asker withdraws it then */
      pthread_mutex_lock(&g->mu);
      if (answered || !g->busy || g->asking != question) continue; /* look again */
    }
    pthread_cond_wait(&g->cv, &g->mu);
  }
  g->busy = 1;
  pthread_mutex_unlock(&g->mu);
}

void xsn_gate_leave(xsn_gate *g) {
  pthread_mutex_lock(&g->mu);
  g->busy = 0;
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

napi_status xsn_handle_wrap(napi_env env, napi_value obj, xsn_handle *h) {
  napi_status st = napi_type_tag_object(env, obj, &kTags[h->kind]);
  if (st == napi_ok) st = napi_wrap(env, obj, h, finalize, NULL, NULL);
  if (st != napi_ok) {
    xsn_throw_napi(env, st);
    xsn_handle_discard(h);
    return st;
  }
  h->wrapped = 1;
  return napi_ok;
}

static int has_tag(napi_env env, napi_value obj, xsn_kind kind) {
  napi_valuetype t = napi_undefined;
  bool tagged = false;
  if (obj) napi_typeof(env, obj, &t);
  if ((t == napi_object || t == napi_function) && napi_check_object_type_tag(env, obj, &kTags[kind], &tagged) != napi_ok)
    tagged = false;
  return tagged;
}

static xsn_handle *not_a(napi_env env, xsn_kind kind) {
  xsn_throw_type(env, "this is not a %s (a %s method was called on another object)", xsn_kind_name(kind),
                 xsn_kind_name(kind));
  return NULL;
}

xsn_handle *xsn_handle_get(napi_env env, napi_value obj, xsn_kind kind, int allow_closed) {
  void *data = NULL;
  if (!has_tag(env, obj, kind)) return not_a(env, kind);
  if (kind == XSN_KEYS) { /* tagged by its constructor, which also made `store` read-only */
    napi_value store = NULL;
    if (napi_get_named_property(env, obj, "store", &store) != napi_ok || !has_tag(env, store, XSN_STORE))
      return not_a(env, kind);
    return xsn_handle_get(env, store, XSN_STORE, allow_closed);
  }
  if (napi_unwrap(env, obj, &data) != napi_ok || !data) return not_a(env, kind);
  xsn_handle *h = data;
  if (h->closed && !allow_closed) {
    xsn_throw_closed(env, kind);
    return NULL;
  }
  return h;
}

const char *xsn_handle_errmsg(const xsn_handle *h) {
  if (h->kind == XSN_HISTORY) return xs_history_errmsg(h->ptr);
  if (h->kind == XSN_INDEX) return xs_index_errmsg(h->ptr);
  return h->kind == XSN_STORE ? xs_store_errmsg(h->ptr) : xs_session_errmsg(h->ptr);
}
