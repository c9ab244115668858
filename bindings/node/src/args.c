/*
 * args.c -- JS values into owned C values, with a clear TypeError/RangeError for anything else.
 *
 * Everything is copied on the JS thread before a call runs, so async work never touches a JS
 * value and the caller may change its objects while the work is in flight.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsn.h"

void xsn_str_free(xsn_str *s) {
  free(s->p);
  s->p = NULL;
  s->n = 0;
}

void xsn_strv_free(xsn_strv *v) {
  for (size_t i = 0; i < v->n; i++) free(v->p[i]);
  free(v->p);
  v->p = NULL;
  v->n = 0;
}

/* Room for one more and the NULL after it, so that even an empty list is an array to pass (the
 * library, not the binding, says that no session was named). */
static int strv_grow(xsn_args *a, xsn_strv *v) {
  char **p = realloc(v->p, (v->n + 2) * sizeof *p);
  if (!p) {
    xsn_throw_status(a->env, XS_ENOMEM, "out of memory copying a list argument");
    return 0;
  }
  p[v->n] = p[v->n + 1] = NULL;
  v->p = p;
  return 1;
}

static const char *type_name(napi_env env, napi_value v) {
  napi_valuetype t = napi_undefined;
  bool is = false;
  if (v) napi_typeof(env, v, &t);
  switch (t) {
    case napi_undefined: return "undefined";
    case napi_null: return "null";
    case napi_boolean: return "boolean";
    case napi_number: return "number";
    case napi_string: return "string";
    case napi_symbol: return "symbol";
    case napi_function: return "function";
    case napi_bigint: return "bigint";
    case napi_external: return "external";
    case napi_object: return napi_is_array(env, v, &is) == napi_ok && is ? "array" : "object";
  }
  return "value";
}

static napi_valuetype type_of(napi_env env, napi_value v) {
  napi_valuetype t = napi_undefined;
  if (v) napi_typeof(env, v, &t);
  return t;
}

int xsn_is_set(xsn_args *a, napi_value v) { return type_of(a->env, v) != napi_undefined; }

static int absent(napi_env env, napi_value v) {
  napi_valuetype t = type_of(env, v);
  return t == napi_undefined || t == napi_null;
}

static int wrong_type(xsn_args *a, napi_value v, const char *what, const char *expected) {
  xsn_throw_type(a->env, "%s.%s: %s must be %s (got %s)", a->cls, a->fn, what, expected, type_name(a->env, v));
  return 0;
}

/* A lone surrogate cannot be encoded in UTF-8: V8 would silently store U+FFFD in its place,
 * changing the caller's data. Only strings whose UTF-8 holds U+FFFD need the UTF-16 scan. */
static int has_lone_surrogate(napi_env env, napi_value v, const char *utf8, size_t n) {
  int replaced = 0;
  for (size_t i = 0; i + 2 < n && !replaced; i++)
    replaced = (unsigned char)utf8[i] == 0xEF && (unsigned char)utf8[i + 1] == 0xBF && (unsigned char)utf8[i + 2] == 0xBD;
  if (!replaced) return 0;
  size_t units = 0;
  if (napi_get_value_string_utf16(env, v, NULL, 0, &units) != napi_ok) return 1;
  char16_t *u = malloc((units + 1) * sizeof *u);
  if (!u || napi_get_value_string_utf16(env, v, u, units + 1, &units) != napi_ok) {
    free(u);
    return 1;
  }
  int lone = 0;
  for (size_t i = 0; i < units && !lone; i++) {
    if (u[i] >= 0xD800 && u[i] <= 0xDBFF && i + 1 < units && u[i + 1] >= 0xDC00 && u[i + 1] <= 0xDFFF)
      i++;
    else if (u[i] >= 0xD800 && u[i] <= 0xDFFF)
      lone = 1;
  }
  free(u);
  return lone;
}

/* A JS string as UTF-8. */
static int utf8_of(xsn_args *a, napi_value v, const char *what, xsn_str *out) {
  size_t n = 0;
  XSN_CHECK(a->env, napi_get_value_string_utf8(a->env, v, NULL, 0, &n), 0);
  char *p = malloc(n + 1);
  if (!p) {
    xsn_throw_status(a->env, XS_ENOMEM, "out of memory copying a string argument");
    return 0;
  }
  if (napi_get_value_string_utf8(a->env, v, p, n + 1, &n) != napi_ok) {
    free(p);
    xsn_throw_napi(a->env, napi_generic_failure);
    return 0;
  }
  if (has_lone_surrogate(a->env, v, p, n)) {
    free(p);
    xsn_throw_type(a->env, "%s.%s: %s is not valid Unicode (it holds a lone surrogate, which UTF-8 cannot encode)",
                   a->cls, a->fn, what);
    return 0;
  }
  out->p = p;
  out->n = n;
  return 1;
}

int xsn_get_text(xsn_args *a, napi_value v, const char *what, int optional, xsn_str *out) {
  if (optional && absent(a->env, v)) return 1;
  if (type_of(a->env, v) != napi_string) return wrong_type(a, v, what, optional ? "a string or null" : "a string");
  return utf8_of(a, v, what, out);
}

int xsn_get_name(xsn_args *a, napi_value v, const char *what, int optional, xsn_str *out) {
  if (!xsn_get_text(a, v, what, optional, out)) return 0;
  if (out->p && strlen(out->p) != out->n) {
    xsn_str_free(out);
    xsn_throw_type(a->env, "%s.%s: %s must not contain NUL characters", a->cls, a->fn, what);
    return 0;
  }
  return 1;
}

int xsn_strv_push(xsn_args *a, napi_value v, const char *what, xsn_strv *out) {
  xsn_str s = {0};
  if (!xsn_get_name(a, v, what, XSN_REQUIRED, &s)) return 0;
  if (!strv_grow(a, out)) {
    xsn_str_free(&s);
    return 0;
  }
  out->p[out->n++] = s.p;
  return 1;
}

int xsn_get_names(xsn_args *a, napi_value v, const char *what, xsn_strv *out) {
  bool is_array = false;
  if (type_of(a->env, v) == napi_string) return xsn_strv_push(a, v, what, out);
  if (type_of(a->env, v) != napi_object || napi_is_array(a->env, v, &is_array) != napi_ok || !is_array)
    return wrong_type(a, v, what, "a string or an array of strings");
  uint32_t n = 0;
  XSN_CHECK(a->env, napi_get_array_length(a->env, v, &n), 0);
  if (!strv_grow(a, out)) return 0;
  for (uint32_t i = 0; i < n; i++) {
    char name[80];
    napi_value x;
    snprintf(name, sizeof name, "%s[%u]", what, (unsigned)i);
    XSN_CHECK(a->env, napi_get_element(a->env, v, i, &x), 0);
    if (!xsn_strv_push(a, x, name, out)) return 0;
  }
  return 1;
}

/* Pairs come as Array.from gives an iterable's elements (a Map's entries, an array of pairs) or,
 * for another object, as Object.entries gives its own enumerable string keys and values. */
int xsn_get_pairs(xsn_args *a, napi_value v, const char *what, xsn_strv *out) {
  napi_env env = a->env;
  if (absent(env, v)) return 1;
  if (type_of(env, v) != napi_object) return wrong_type(a, v, what, "a Map, an array of pairs or an object");
  napi_value global, symbol, iterator, method, cls, from, list;
  XSN_CHECK(env, napi_get_global(env, &global), 0);
  XSN_CHECK(env, napi_get_named_property(env, global, "Symbol", &symbol), 0);
  XSN_CHECK(env, napi_get_named_property(env, symbol, "iterator", &iterator), 0);
  XSN_CHECK(env, napi_get_property(env, v, iterator, &method), 0);
  int iterable = type_of(env, method) == napi_function;
  XSN_CHECK(env, napi_get_named_property(env, global, iterable ? "Array" : "Object", &cls), 0);
  XSN_CHECK(env, napi_get_named_property(env, cls, iterable ? "from" : "entries", &from), 0);
  XSN_CHECK(env, napi_call_function(env, cls, from, 1, &v, &list), 0);
  uint32_t n = 0;
  XSN_CHECK(env, napi_get_array_length(env, list, &n), 0);
  for (uint32_t i = 0; i < n; i++) {
    napi_value pair, x;
    bool is_array = false;
    uint32_t len = 0;
    char name[80];
    XSN_CHECK(env, napi_get_element(env, list, i, &pair), 0);
    if (type_of(env, pair) == napi_object) XSN_CHECK(env, napi_is_array(env, pair, &is_array), 0);
    if (is_array) XSN_CHECK(env, napi_get_array_length(env, pair, &len), 0);
    if (len != 2) {
      snprintf(name, sizeof name, "%s[%u]", what, (unsigned)i);
      return wrong_type(a, pair, name, "a pair [from, to]");
    }
    for (uint32_t k = 0; k < 2; k++) {
      snprintf(name, sizeof name, "%s[%u][%u]", what, (unsigned)i, (unsigned)k);
      XSN_CHECK(env, napi_get_element(env, pair, k, &x), 0);
      if (!xsn_strv_push(a, x, name, out)) return 0;
    }
  }
  return 1;
}

static int copy_bytes(xsn_args *a, const void *data, size_t n, xsn_str *out) {
  out->p = malloc(n + 1);
  if (!out->p) {
    xsn_throw_status(a->env, XS_ENOMEM, "out of memory copying a Buffer argument");
    return -1;
  }
  if (n) memcpy(out->p, data, n);
  out->p[n] = '\0';
  out->n = n;
  return 1;
}

/* A Uint8Array (Buffer) or ArrayBuffer: 1 and copied; 0 with nothing pending if it is neither;
 * -1 with an exception pending (another typed array, whose bytes are not text, or a failure). */
static int binary_of(xsn_args *a, napi_value v, const char *what, xsn_str *out) {
  bool is = false;
  void *data = NULL;
  size_t n = 0;
  if (napi_is_typedarray(a->env, v, &is) == napi_ok && is) {
    napi_typedarray_type type;
    napi_value ab;
    size_t offset;
    XSN_CHECK(a->env, napi_get_typedarray_info(a->env, v, &type, &n, &data, &ab, &offset), -1);
    if (type != napi_uint8_array) {
      wrong_type(a, v, what, "a Buffer or Uint8Array, not another typed array");
      return -1;
    }
    return copy_bytes(a, data, n, out);
  }
  if (napi_is_arraybuffer(a->env, v, &is) == napi_ok && is) {
    XSN_CHECK(a->env, napi_get_arraybuffer_info(a->env, v, &data, &n), -1);
    return copy_bytes(a, data, n, out);
  }
  return 0;
}

int xsn_get_bytes(xsn_args *a, napi_value v, const char *what, xsn_str *out) {
  if (type_of(a->env, v) == napi_string) return utf8_of(a, v, what, out);
  int r = binary_of(a, v, what, out);
  if (r == 0) return wrong_type(a, v, what, "a Buffer, a Uint8Array, an ArrayBuffer or a string");
  return r > 0;
}

/* JSON text: a string is taken as the JSON text itself (its bytes reach the file token for
 * token); a Buffer as UTF-8 bytes (so invalid UTF-8 reaches the library, which refuses it); any
 * other value goes through JSON.stringify. */
int xsn_get_json(xsn_args *a, napi_value v, const char *what, int optional, xsn_str *out) {
  napi_valuetype t = type_of(a->env, v);
  if (optional && absent(a->env, v)) return 1;
  if (t == napi_string) return utf8_of(a, v, what, out);
  if (t == napi_object) {
    int r = binary_of(a, v, what, out);
    if (r != 0) return r > 0;
  }
  if (t != napi_object && t != napi_number && t != napi_boolean && t != napi_null)
    return wrong_type(a, v, what, "a JSON-serialisable value, JSON text or a Buffer");
  napi_value global, json_text;
  xsn_env *e = xsn_env_get(a->env);
  napi_value stringify;
  XSN_CHECK(a->env, napi_get_reference_value(a->env, e->json_stringify, &stringify), 0);
  XSN_CHECK(a->env, napi_get_global(a->env, &global), 0);
  XSN_CHECK(a->env, napi_call_function(a->env, global, stringify, 1, &v, &json_text), 0);
  if (type_of(a->env, json_text) != napi_string) return wrong_type(a, v, what, "a JSON-serialisable value");
  return utf8_of(a, json_text, what, out);
}

int xsn_get_bool(xsn_args *a, napi_value v, const char *what, int *out) {
  napi_valuetype t = type_of(a->env, v);
  if (t == napi_undefined) return 1;
  if (t != napi_boolean) return wrong_type(a, v, what, "a boolean");
  bool b = false;
  XSN_CHECK(a->env, napi_get_value_bool(a->env, v, &b), 0);
  *out = b;
  return 1;
}

#define MAX_SAFE 9007199254740991.0 /* Number.MAX_SAFE_INTEGER: above it a number is inexact */

int xsn_get_int(xsn_args *a, napi_value v, const char *what, int64_t min, int64_t max, int64_t *out) {
  napi_valuetype t = type_of(a->env, v);
  int64_t x = 0;
  if (t == napi_bigint) {
    bool lossless = false;
    XSN_CHECK(a->env, napi_get_value_bigint_int64(a->env, v, &x, &lossless), 0);
    if (!lossless || x < min || x > max) goto range;
  } else if (t == napi_number) {
    double d = 0;
    XSN_CHECK(a->env, napi_get_value_double(a->env, v, &d), 0);
    if (!isfinite(d) || trunc(d) != d) return wrong_type(a, v, what, "an integer");
    if (d < -MAX_SAFE || d > MAX_SAFE || d < (double)min || d > (double)max) goto range;
    x = (int64_t)d;
  } else {
    return wrong_type(a, v, what, "an integer (number or bigint)");
  }
  *out = x;
  return 1;
range:
  xsn_throw_range(a->env, "%s.%s: %s must be between %lld and %lld", a->cls, a->fn, what, (long long)min,
                  (long long)max);
  return 0;
}

int xsn_get_uint64(xsn_args *a, napi_value v, const char *what, uint64_t *out) {
  if (type_of(a->env, v) == napi_bigint) {
    bool lossless = false;
    uint64_t x = 0;
    XSN_CHECK(a->env, napi_get_value_bigint_uint64(a->env, v, &x, &lossless), 0);
    if (!lossless) {
      xsn_throw_range(a->env, "%s.%s: %s must be between 0 and 2^64-1", a->cls, a->fn, what);
      return 0;
    }
    *out = x;
    return 1;
  }
  int64_t x = 0;
  if (!xsn_get_int(a, v, what, 0, INT64_MAX, &x)) return 0;
  *out = (uint64_t)x;
  return 1;
}

int xsn_get_u32_option(xsn_args *a, napi_value o, const char *key, uint32_t *out) {
  napi_value v = xsn_prop(a, o, key);
  int64_t n = 0;
  if (!xsn_is_set(a, v)) return 1;
  if (!xsn_get_int(a, v, key, 0, UINT32_MAX, &n)) return 0;
  *out = (uint32_t)n;
  return 1;
}

/* A throwing getter leaves its exception pending and gives NULL (undefined); the dispatcher
 * checks for a pending exception after parsing, so the call never runs with a default. */
napi_value xsn_prop(xsn_args *a, napi_value obj, const char *key) {
  napi_value v = NULL;
  if (obj && napi_get_named_property(a->env, obj, key, &v) != napi_ok) return NULL;
  return v;
}

/* Unknown keys are refused: a misspelt option ("readonly") silently ignored would open a
 * session for writing that the caller meant to only read. */
int xsn_get_options(xsn_args *a, napi_value v, const char *what, const char *const *allowed, napi_value *out) {
  *out = NULL;
  if (absent(a->env, v)) return 1;
  bool is_array = false;
  if (type_of(a->env, v) != napi_object || (napi_is_array(a->env, v, &is_array) == napi_ok && is_array))
    return wrong_type(a, v, what, "an options object");
  napi_value keys;
  uint32_t n = 0;
  XSN_CHECK(a->env,
            napi_get_all_property_names(a->env, v, napi_key_own_only, napi_key_enumerable | napi_key_skip_symbols,
                                        napi_key_numbers_to_strings, &keys),
            0);
  XSN_CHECK(a->env, napi_get_array_length(a->env, keys, &n), 0);
  for (uint32_t i = 0; i < n; i++) {
    napi_value k;
    char name[64] = "";
    size_t len = 0;
    XSN_CHECK(a->env, napi_get_element(a->env, keys, i, &k), 0);
    XSN_CHECK(a->env, napi_get_value_string_utf8(a->env, k, name, sizeof name, &len), 0);
    int known = 0;
    for (const char *const *p = allowed; *p && !known; p++) known = strcmp(*p, name) == 0;
    if (!known) {
      xsn_throw_type(a->env, "%s.%s: unknown key '%s' in %s", a->cls, a->fn, name, what);
      return 0;
    }
  }
  *out = v;
  return 1;
}

int xsn_get_tri(xsn_args *a, napi_value v, const char *what, int32_t *out) {
  int b = -1;
  if (!xsn_get_bool(a, v, what, &b)) return 0;
  *out = b < 0 ? XS_UNSET : b; /* undefined: absent from the entry */
  return 1;
}

void xsn_optional_first(xsn_args *a) {
  if (type_of(a->env, a->argv[0]) != napi_object) return;
  a->argv[1] = a->argv[0];
  a->argv[0] = NULL;
}
