// Fuzz target: arbitrary bytes as the JSON of an append, through the C API (in-memory store).
//
// The input is given, in turn, to xs_append (a whole entry), xs_append_message (a message) and
// xs_append_custom (custom data), on a live session written at once (deferral off), once with the
// default limits and once with small ones (max line 512 bytes, depth 8). Invariants (abort):
//  - a refused append leaves the session exactly as it was (entries and leaf);
//  - an accepted append returns an id, the entry reads back under it as valid JSON, the leaf moves
//    to it, and a context can be built at it;
//  - after close + reopen: the same entries, no diagnostics (everything the API wrote loads back
//    cleanly), the leaf at the last entry, and the same context there (no acknowledged entry lost).
#include <cstdint>
#include <string>
#include <vector>

#include "capi_util.h"

using namespace xs_fuzz;

namespace {

void run(const char* data, size_t size, uint64_t max_line, uint32_t max_depth) {
  xs_store* st = memory_store();
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = XS_SESSION_NO_DEFER | XS_SESSION_FIXED_CLOCK;
  o.clock_start_ms = 1767225600000;
  o.clock_step_ms = 1000;
  o.id_seed = 3;
  o.max_line_bytes = max_line;
  o.max_depth = max_depth;
  xs_session* s = nullptr;
  FUZZ_CHECK(xs_session_create(st, "/w", &o, &s) == XS_OK, xs_store_errmsg(st));
  const char* user = "{\"role\":\"user\",\"content\":\"hi\"}";
  char first[XS_ID_BUFSIZE];
  FUZZ_CHECK(xs_append_message(s, user, strlen(user), first) == XS_OK, xs_session_errmsg(s));

  std::string last_id = first;
  for (int kind = 0; kind < 3; ++kind) {
    const std::string before = entries(s);
    const std::string leaf_before = leaf(s);
    char id[XS_ID_BUFSIZE] = {0};
    xs_status r;
    if (kind == 0) {
      r = xs_append(s, data, size, id);
    } else if (kind == 1) {
      r = xs_append_message(s, data, size, id);
    } else {
      r = xs_append_custom(s, "fuzz", data, size, id);
    }
    if (r != XS_OK) {
      FUZZ_CHECK(r == XS_EINVAL || r == XS_ELIMIT || r == XS_EEXISTS || r == XS_ENOTFOUND || r == XS_EDIALECT,
                 std::string("unexpected status ") + xs_status_str(r) + ": " + xs_session_errmsg(s));
      FUZZ_CHECK_EQ(entries(s), before, "a refused append changed the entries");
      FUZZ_CHECK_EQ(leaf(s), leaf_before, "a refused append moved the leaf");
      continue;
    }
    FUZZ_CHECK(id[0] != '\0', "accepted append returned no id");
    std::string entry;
    xs_status g = read_out([&](char* b, size_t c, size_t* l) { return xs_session_entry(s, id, 0, b, c, l); }, &entry);
    FUZZ_CHECK(g == XS_OK, std::string("an accepted entry cannot be read back: ") + xs_status_str(g));
    FUZZ_CHECK(parses(entry), "an accepted entry reads back as invalid JSON: " + entry);
    FUZZ_CHECK_EQ(leaf(s), std::string(id), "the leaf is not the appended entry");
    std::string ctx;
    xs_status c = context(s, id, &ctx);
    FUZZ_CHECK(c == XS_OK, std::string("no context at an accepted entry: ") + xs_status_str(c));
    FUZZ_CHECK(parses(ctx), "the context is not valid JSON: " + ctx);
    last_id = id;
  }

  // Close and reopen: nothing acknowledged is lost, everything loads cleanly.
  const std::string all = entries(s);
  std::string ctx_last;
  FUZZ_CHECK(context(s, last_id.c_str(), &ctx_last) == XS_OK, "");
  const std::string path = info_string(s, "path");
  FUZZ_CHECK(xs_session_flush(s) == XS_OK, xs_session_errmsg(s));
  xs_session_close(s);
  o.flags = XS_SESSION_READ_ONLY;
  s = nullptr;
  FUZZ_CHECK(xs_session_open(st, path.c_str(), &o, &s) == XS_OK, xs_store_errmsg(st));
  FUZZ_CHECK_EQ(entries(s), all, "entries changed across close + reopen");
  FUZZ_CHECK_EQ(diagnostics(s), std::string("[]"), "a file written by the API loads with diagnostics");
  FUZZ_CHECK_EQ(leaf(s), last_id, "the reopened leaf is not the last entry");
  std::string ctx_again;
  FUZZ_CHECK(context(s, nullptr, &ctx_again) == XS_OK, "");
  FUZZ_CHECK_EQ(ctx_again, ctx_last, "the context at the last entry changed across close + reopen");
  xs_session_close(s);
  xs_store_free(st);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* text = reinterpret_cast<const char*>(data);
  run(text, size, 0, 0);
  run(text, size, 512, 8);
  return 0;
}
