/*
 * buffers.c -- the caller-buffer protocol of the C API's readers.
 *
 * One call with a modest buffer serves most results; a larger one answers XS_EBUFS with the size
 * it needs, and the retry with exactly that size copies the result the library kept on the handle
 * (the caller holds the handle's lock across both calls, so nothing can invalidate that cache in
 * between and the result is never built twice).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsn.h"

#define FIRST_GUESS 16384 /* most entries, headers and small contexts fit */

void xsn_text_free(xsn_text *t) {
  free(t->p);
  t->p = NULL;
  t->len = t->cap = 0;
}

static int reserve(xsn_text *t, size_t cap) {
  if (t->cap >= cap && t->p) return 1;
  char *p = realloc(t->p, cap ? cap : 1);
  if (!p) return 0;
  t->p = p;
  t->cap = cap;
  return 1;
}

static xs_status no_memory(xsn_call *c, size_t size) {
  char msg[96];
  snprintf(msg, sizeof msg, "out of memory for a %zu-byte result buffer", size);
  c->errmsg = strdup(msg); /* our failure, not the library's: its error text would be stale */
  return XS_ENOMEM;
}

xs_status xsn_read_text(xsn_call *c) {
  xsn_text *t = &c->out;
  if (!reserve(t, FIRST_GUESS)) return no_memory(c, FIRST_GUESS);
  for (;;) {
    size_t need = 0;
    xs_status rc = c->m->read(c, t->p, t->cap, &need);
    if (rc == XS_OK) {
      t->len = need;
      return XS_OK;
    }
    /* `need <= cap` cannot come with XS_EBUFS; stopping then rules out an endless loop. */
    if (rc != XS_EBUFS || need <= t->cap) return rc;
    if (!reserve(t, need)) return no_memory(c, need);
  }
}
