/* xsession.h must compile on its own as strict C99 (-std=c99 -pedantic -Werror): a C agent includes
 * nothing else first. This file is compiled by the build and by the capi.header_c99 test. */
#include "xsession.h"

/* Use a few declarations so the compiler checks them, not just the preprocessor. */
static xs_status (*const check_open)(xs_store *, const char *, const xs_session_options *, xs_session **) = xs_session_open;
static xs_status (*const check_append)(xs_session *, const char *, size_t, char *) = xs_append;
static xs_status (*const check_context)(xs_session *, const char *, char *, size_t, size_t *) = xs_build_context;

int xs_header_c99_probe(void);
int xs_header_c99_probe(void) {
  return (check_open != 0) + (check_append != 0) + (check_context != 0) + XS_ID_BUFSIZE;
}
