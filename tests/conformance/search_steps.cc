#include "search_steps.h"

#include <vector>

#include "output_dump.h"

using namespace case_json;

namespace {

// A JSON string naming a path under the store root, as relative to it; any other JSON as it is.
std::string relative(const std::string& root, std::string json) {
  if (json.compare(0, root.size() + 2, "\"" + root + "/") == 0) json = "\"" + json.substr(root.size() + 2);
  return json;
}

// The expected items `want` against the output's `got`, in order: as many, each a path equal to
// the output's, or an object each of whose members equals the output item's.
void expect_items(const std::string& root, const std::vector<element>& got, element want, const std::string& text) {
  std::vector<element> wanted = elements(want);
  ASSERT_EQ(got.size(), wanted.size()) << text;
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (wanted[i].is_string()) {
      EXPECT_EQ(relative(root, to_json(got[i])), to_json(wanted[i])) << "item " << i << " of " << text;
      continue;
    }
    for (auto [member, value] : object_of(wanted[i])) {
      std::string have = has(got[i], member) ? relative(root, to_json(at(got[i], member))) : "(none)";
      EXPECT_EQ(have, to_json(value)) << "item " << i << " member " << member << " of " << text;
    }
  }
}

// The members the step lists equal to the report's (its lists item by item).
void expect_members(const std::string& root, element report, element want, const std::string& text) {
  for (auto [member, value] : object_of(want)) {
    element have = at(report, member);
    if (have.is_array()) {
      expect_items(root, elements(have), value, text);
    } else {
      EXPECT_EQ(to_json(have), to_json(value)) << member << " of " << text;
    }
  }
}

}  // namespace

bool run_search_step(xs_store* store, const std::string& root, std::string_view op, element s, xs_status expect) {
  if (op != "index_refresh" && op != "index_rebuild" && op != "index_verify" && op != "index_list" && op != "search") {
    return false;
  }
  xs_index_options io;
  EXPECT_EQ(xs_index_options_init(&io, XS_INDEX_OPTIONS_VERSION), XS_OK);
  std::string path = root + "/index.db";
  io.path = path.c_str();
  xs_index* ix = nullptr;
  EXPECT_EQ(xs_index_open(store, &io, &ix), XS_OK) << xs_store_errmsg(store);
  if (!ix) return true;
  std::string got;
  xs_status rc;
  if (op == "search") {
    xs_search_options o;
    EXPECT_EQ(xs_search_options_init(&o, XS_SEARCH_OPTIONS_VERSION), XS_OK);
    if (has(s, "cwd")) o.cwd = c_str(s, "cwd");
    if (has(s, "role")) o.role = c_str(s, "role");
    if (has(s, "session_id")) o.session_id = c_str(s, "session_id");
    if (has(s, "since_ms")) o.since_ms = int64(s, "since_ms");
    if (has(s, "limit")) o.limit = static_cast<uint32_t>(uint64(s, "limit"));
    if (flag(s, "literal")) o.flags |= XS_SEARCH_LITERAL;
    const char* query = c_str(s, "query");
    rc = read_json(
        "xs_search", [&](char* b, size_t c, size_t* n) { return xs_search(ix, query, &o, b, c, n); }, &got);
  } else if (op == "index_list") {
    const char* cwd = has(s, "cwd") ? c_str(s, "cwd") : nullptr;
    uint32_t limit = has(s, "limit") ? static_cast<uint32_t>(uint64(s, "limit")) : 0;
    rc = read_json(
        "xs_index_list", [&](char* b, size_t c, size_t* n) { return xs_index_list(ix, cwd, limit, b, c, n); }, &got);
  } else {
    auto fn = op == "index_refresh" ? xs_index_refresh : op == "index_rebuild" ? xs_index_rebuild : xs_index_verify;
    const char* name = op == "index_refresh"   ? "xs_index_refresh"
                       : op == "index_rebuild" ? "xs_index_rebuild"
                                               : "xs_index_verify";
    rc = read_json(
        name, [&](char* b, size_t c, size_t* n) { return fn(ix, b, c, n); }, &got);
  }
  EXPECT_EQ(rc, expect) << xs_index_errmsg(ix);
  if (rc == XS_OK) {
    simdjson::dom::parser parser;
    element out = parse(parser, got);
    if (op == "search") {
      expect_items(root, elements(out), at(s, "hits"), got);
    } else if (op == "index_list") {
      expect_items(root, elements(out), at(s, "sessions"), got);
    } else {
      expect_members(root, out, at(s, "report"), got);
    }
  } else if (has(s, "message_prefix")) {
    std::string message = xs_index_errmsg(ix);
    EXPECT_EQ(message.compare(0, view(s, "message_prefix").size(), view(s, "message_prefix")), 0) << message;
  }
  xs_index_close(ix);
  return true;
}
