/* The agent loop from the README: create a session, append a user and an assistant message,
 * branch back with a summary, label an entry, and print the context the model would see.
 * Usage: xs_agent_loop STORE_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsession.h"

#define CHECK(s, call)                                                               \
  do {                                                                               \
    xs_status rc_ = (call);                                                          \
    if (rc_ != XS_OK) {                                                              \
      fprintf(stderr, "%s failed: %s (%s)\n", #call, xs_status_str(rc_), xs_session_errmsg(s)); \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

/* Reads a JSON result with the size-query-then-fill protocol; the caller frees it. */
static char *context_of(xs_session *s, const char *leaf) {
  size_t len = 0;
  xs_status rc = xs_build_context(s, leaf, NULL, 0, &len); /* size query */
  if (rc != XS_OK && rc != XS_EBUFS) return NULL;
  char *buf = malloc(len + 1);
  if (!buf || xs_build_context(s, leaf, buf, len, &len) != XS_OK) { free(buf); return NULL; }
  buf[len] = '\0';
  return buf;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s STORE_DIR\n", argv[0]); return 2; }
  xs_store *store = xs_store_new();
  if (!store || xs_store_open(store, argv[1], NULL) != XS_OK) {
    fprintf(stderr, "cannot open store: %s\n", store ? xs_store_errmsg(store) : "out of memory");
    return 1;
  }
  xs_session *s = NULL;
  if (xs_session_create(store, "/home/dev/project", NULL, &s) != XS_OK) {
    fprintf(stderr, "cannot create session: %s\n", xs_store_errmsg(store));
    return 1;
  }
  char question[XS_ID_BUFSIZE], answer[XS_ID_BUFSIZE], summary[XS_ID_BUFSIZE];
  const char *user = "{\"role\":\"user\",\"content\":\"Why does the build fail?\",\"timestamp\":1}";
  const char *reply = "{\"role\":\"assistant\",\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\","
                      "\"content\":[{\"type\":\"text\",\"text\":\"A missing include.\"}],\"timestamp\":2}";
  CHECK(s, xs_append_message(s, user, strlen(user), question));
  CHECK(s, xs_append_message(s, reply, strlen(reply), answer)); /* first reply: the file is written */
  CHECK(s, xs_append_label(s, answer, "diagnosis", NULL));
  /* Go back to the question and leave a durable note about the path we abandon. */
  const char *note = "Tried the missing-include theory.";
  CHECK(s, xs_session_branch_with_summary(s, question, note, strlen(note), NULL, 0, XS_UNSET, summary));
  CHECK(s, xs_session_flush(s));

  char *context = context_of(s, NULL);
  if (!context) { fprintf(stderr, "context failed: %s\n", xs_session_errmsg(s)); return 1; }
  printf("%s\n", context);
  free(context);
  xs_session_close(s);
  xs_store_free(store);
  return 0;
}
