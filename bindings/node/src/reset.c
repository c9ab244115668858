/*
 * reset.c -- reset policies (docs/reset-policies.md): the ResetPolicy object, and
 * Store.sessionForKey, which gives a key's current session (continued, or new when the policy
 * says the old one expired) with the reason, decided under the keyed document's lock.
 */
#include "xsn.h"

#define A(i) (a->argv[i])

/* Neither undefined nor null: null means "none" in these options. */
static int given(xsn_args *a, napi_value v) {
  napi_valuetype t = napi_undefined;
  if (v) napi_typeof(a->env, v, &t);
  return t != napi_undefined && t != napi_null;
}

/* The numbers go to the library as given (within their C types): an hour outside 0-23 or a
 * negative idle time is its XS_EINVAL, as for every other caller. */
int xsn_get_reset_policy(xsn_args *a, napi_value v, const char *what, xs_reset_policy *p, xsn_str *tz) {
  static const char *const keys[] = {"dailyHour", "idleMinutes", "timeZone", NULL};
  napi_value o, x;
  int64_t hour = 0;
  xs_reset_policy_init(p, XS_RESET_POLICY_VERSION);
  if (!xsn_get_options(a, v, what, keys, &o)) return 0;
  if (given(a, x = xsn_prop(a, o, "dailyHour"))) {
    if (!xsn_get_int(a, x, "dailyHour", INT32_MIN, INT32_MAX, &hour)) return 0;
    p->daily_hour = (int32_t)hour;
  }
  if (given(a, x = xsn_prop(a, o, "idleMinutes")) &&
      !xsn_get_int(a, x, "idleMinutes", INT64_MIN, INT64_MAX, &p->idle_minutes))
    return 0;
  if (!xsn_get_name(a, xsn_prop(a, o, "timeZone"), "timeZone", XSN_OPTIONAL, tz)) return 0;
  p->time_zone = tz->p;
  return 1;
}

/* (key, {nowMs?, policy?, force?, session?}): policy absent or null = the store's. */
static int p_session_for_key(xsn_args *a, xsn_call *c) {
  static const char *const keys[] = {"nowMs", "policy", "force", "session", NULL};
  napi_value o, x;
  int force = 0;
  if (!xsn_get_name(a, A(0), "key", XSN_REQUIRED, &c->s[0]) || !xsn_get_options(a, A(1), "options", keys, &o) ||
      !xsn_get_bool(a, xsn_prop(a, o, "force"), "force", &force))
    return 0;
  if (force) c->u32 |= XS_RESET_FORCE;
  if (given(a, x = xsn_prop(a, o, "nowMs")) && !xsn_get_int(a, x, "nowMs", INT64_MIN, INT64_MAX, &c->i64)) return 0;
  if (given(a, x = xsn_prop(a, o, "policy"))) {
    if (!xsn_get_reset_policy(a, x, "policy", &c->policy, &c->s[1])) return 0;
    c->has_policy = 1;
  }
  return xsn_get_session_options(a, xsn_prop(a, o, "session"), c);
}

static xs_status x_session_for_key(xsn_call *c) {
  uint32_t flags = c->u32;
  c->u32 = XS_RESET_CONTINUED; /* from here on: the reason */
  return xs_store_session_for_key(XSN_STORE_PTR(c), c->s[0].p, c->i64, c->has_policy ? &c->policy : NULL, flags,
                                  &c->sopts, &c->fresh, &c->u32);
}

/* It writes the keyed document, so it passes the documents gate as keys writes do. */
const xsn_method xsn_reset_rows[] = {
    {"sessionForKey", XSN_STORE, p_session_for_key, x_session_for_key, NULL, XSN_OUT_KEYED,
     XSN_SYNC | XSN_ASYNC | XSN_DOC_LOCK},
};
const size_t xsn_reset_row_count = sizeof xsn_reset_rows / sizeof xsn_reset_rows[0];
