/* The main job until the `xs` CLI exists: open session files read-only and show what the library
 * makes of them (header, what the loader skipped, labels, usage, and the model's context).
 * Nothing is written, not even for files that need a migration.
 * Usage: xs_show_session FILE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsession.h"

typedef xs_status (*reader)(xs_session *, char *, size_t, size_t *);

static xs_status context_at_leaf(xs_session *s, char *buf, size_t cap, size_t *len) {
  return xs_build_context(s, NULL, buf, cap, len);
}

/* Size query, then fill: the pattern every caller of a (buf, cap, out_len) function uses. */
static char *read_text(xs_session *s, reader fn) {
  size_t len = 0;
  xs_status rc = fn(s, NULL, 0, &len);
  if (rc != XS_OK && rc != XS_EBUFS) return NULL;
  char *buf = malloc(len + 1);
  if (!buf) return NULL;
  if (fn(s, buf, len, &len) != XS_OK) { free(buf); return NULL; }
  buf[len] = '\0';
  return buf;
}

/* Indents JSON for reading (strings are copied untouched). */
static void print_pretty(const char *json) {
  int depth = 0, in_string = 0;
  for (const char *p = json; *p; ++p) {
    char c = *p;
    if (in_string) {
      putchar(c);
      if (c == '\\' && p[1]) putchar(*++p);
      else if (c == '"') in_string = 0;
      continue;
    }
    switch (c) {
      case '"': in_string = 1; putchar(c); break;
      case '{': case '[':
        if ((p[1] == '}' || p[1] == ']')) { putchar(c); putchar(*++p); break; }
        printf("%c\n%*s", c, 2 * ++depth, "");
        break;
      case '}': case ']': printf("\n%*s%c", 2 * --depth, "", c); break;
      case ',': printf(",\n%*s", 2 * depth, ""); break;
      case ':': printf(": "); break;
      default: putchar(c);
    }
  }
  putchar('\n');
}

static int show(xs_store *store, const char *path) {
  xs_session_options opts;
  xs_session_options_init(&opts, XS_SESSION_OPTIONS_VERSION);
  opts.flags = XS_SESSION_READ_ONLY;
  xs_session *s = NULL;
  printf("==> %s\n", path);
  if (xs_session_open(store, path, &opts, &s) != XS_OK) {
    printf("cannot open: %s\n", xs_store_errmsg(store));
    return 1;
  }
  struct { const char *title; reader fn; } parts[] = {
      {"session", xs_session_info},        {"skipped or noticed while loading", xs_session_diagnostics},
      {"labels", xs_session_labels},       {"usage", xs_session_usage},
      {"context at the leaf", context_at_leaf},
  };
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; ++i) {
    char *text = read_text(s, parts[i].fn);
    if (!text) { printf("%s: error: %s\n", parts[i].title, xs_session_errmsg(s)); xs_session_close(s); return 1; }
    printf("-- %s\n", parts[i].title);
    print_pretty(text);
    free(text);
  }
  xs_session_close(s);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s FILE...\n", argv[0]); return 2; }
  xs_store *store = xs_store_new();
  /* Opening files by path does not depend on the store's root; an in-memory store writes nothing. */
  xs_store_options so;
  xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION);
  if (!store || xs_store_open(store, ".", &so) != XS_OK) { fprintf(stderr, "cannot open store\n"); return 1; }
  int failed = 0;
  for (int i = 1; i < argc; ++i) failed |= show(store, argv[i]);
  xs_store_free(store);
  return failed;
}
