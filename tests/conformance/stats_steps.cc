#include "stats_steps.h"

#include <dirent.h>

#include <algorithm>
#include <vector>

#include "output_dump.h"

using namespace case_json;

namespace {

// `{root}` in an expected text stands for the store root (paths the library writes into records).
std::string rooted(std::string text, const std::string& root) {
  for (size_t p = text.find("{root}"); p != std::string::npos; p = text.find("{root}", p + root.size())) {
    text.replace(p, 6, root);
  }
  return text;
}

}  // namespace

bool run_stats_step(xs_store* store, xs_session* session, const std::string& root, std::string_view op, element s,
                    xs_status expect) {
  if (op == "check_stats") {
    std::string got;
    xs_status rc = read_json(
        "xs_session_stats", [&](char* b, size_t c, size_t* n) { return xs_session_stats(session, b, c, n); }, &got);
    EXPECT_EQ(rc, expect) << xs_session_errmsg(session);
    if (rc == XS_OK) {
      EXPECT_EQ(got, text(s, "json"));
    }
  } else if (op == "keys_fix_stats") {
    std::string got;
    const char* prefix = str(s, "prefix");
    xs_status rc = read_json(
        "xs_keys_fix_stats", [&](char* b, size_t c, size_t* n) { return xs_keys_fix_stats(store, prefix, b, c, n); },
        &got);
    EXPECT_EQ(rc, expect) << xs_store_errmsg(store);
    if (rc == XS_OK && has(s, "json")) {
      EXPECT_EQ(got, rooted(text(s, "json"), root));
    }
  } else if (op == "check_stats_document") {
    bool exists = false;
    std::string bytes = read_file(root + "/sessions.json", &exists);
    EXPECT_TRUE(exists);
    EXPECT_EQ(bytes, rooted(text(s, "raw"), root));
  } else if (op == "check_store_files") {
    std::vector<std::string> found = names_in(root), want;
    std::sort(found.begin(), found.end());
    for (element f : array_of(at(s, "files"))) want.emplace_back(view(f));
    EXPECT_EQ(found, want);
  } else {
    return false;
  }
  return true;
}
