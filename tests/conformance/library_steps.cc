#include "library_steps.h"

#include <string>

#include "output_dump.h"

using namespace case_json;

namespace {

// The step's "settings": xs_compaction_settings_init's defaults, then the fields it names.
xs_compaction_settings settings_of(element s) {
  xs_compaction_settings c;
  xs_compaction_settings_init(&c, XS_COMPACTION_SETTINGS_VERSION);
  if (!has(s, "settings")) return c;
  element in = at(s, "settings");
  if (has(in, "version")) c.version = static_cast<uint32_t>(uint64(in, "version"));
  if (has(in, "context_window")) c.context_window = int64(in, "context_window");
  if (has(in, "reserve_tokens")) c.reserve_tokens = int64(in, "reserve_tokens");
  if (has(in, "reserve_floor")) c.reserve_floor = int64(in, "reserve_floor");
  if (has(in, "keep_recent_tokens")) c.keep_recent_tokens = int64(in, "keep_recent_tokens");
  if (has(in, "soft_threshold_tokens")) c.soft_threshold_tokens = int64(in, "soft_threshold_tokens");
  return c;
}

// A decision's answer: the status, and the step's "result" when the call succeeded.
void check_decision(element s, xs_status expect, xs_status rc, int got, const char* errmsg) {
  EXPECT_EQ(rc, expect) << errmsg;
  if (rc == XS_OK) {
    EXPECT_EQ(got != 0, flag(s, "result"));
  }
}

}  // namespace

bool run_library_step(xs_store* store, xs_session* session, std::string_view op, element s, xs_status expect) {
  xs_compaction_settings settings = settings_of(s);
  int got = -1;
  if (op == "compaction_plan") {
    std::string leaf = has(s, "leaf") ? std::string(view(s, "leaf")) : std::string();
    std::string plan;
    xs_status rc = read_json(
        "xs_compaction_plan",
        [&](char* b, size_t c, size_t* n) {
          return xs_compaction_plan(session, has(s, "leaf") ? leaf.c_str() : nullptr, &settings, b, c, n);
        },
        &plan);
    EXPECT_EQ(rc, expect) << xs_session_errmsg(session);
    if (rc == XS_OK) {
      EXPECT_EQ(plan, text(s, "plan"));
    }
  } else if (op == "check_resume") {
    std::string leaf = has(s, "leaf") ? std::string(view(s, "leaf")) : std::string();
    std::string report;
    xs_status rc = read_json(
        "xs_session_resume_check",
        [&](char* b, size_t c, size_t* n) {
          return xs_session_resume_check(session, has(s, "leaf") ? leaf.c_str() : nullptr, b, c, n);
        },
        &report);
    EXPECT_EQ(rc, expect) << xs_session_errmsg(session);
    if (rc == XS_OK) {
      EXPECT_EQ(report, text(s, "json"));
    }
  } else if (op == "check_should_compact") {
    xs_status rc = xs_should_compact(&settings, int64(s, "context_tokens"), &got);
    check_decision(s, expect, rc, got, "");
  } else if (op == "check_should_flush_memory") {
    xs_status rc = xs_should_flush_memory(&settings, int64(s, "context_tokens"), int64(s, "compaction_count"),
                                          int64(s, "last_flush_compaction_count"), &got);
    check_decision(s, expect, rc, got, "");
  } else if (op == "keys_claim_memory_flush") {
    xs_status rc = xs_keys_claim_memory_flush(store, c_str(s, "key"), &settings, int64(s, "context_tokens"),
                                              int64(s, "now_ms"), &got);
    check_decision(s, expect, rc, got, xs_store_errmsg(store));
  } else {
    return false;
  }
  return true;
}
