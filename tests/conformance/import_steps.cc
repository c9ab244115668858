#include "import_steps.h"

#include <cctype>

#include "output_dump.h"

using namespace case_json;

namespace {

// "{root}" in a case's expected text stands for the store root (the reports name absolute paths).
std::string with_root(std::string text, const std::string& root) {
  for (size_t at = 0; (at = text.find("{root}", at)) != std::string::npos; at += root.size()) text.replace(at, 6, root);
  return text;
}

// A listing's modification times are the test run's, not the case's: each "mtime" and "mtimeMs"
// number becomes 0 before the comparison.
std::string without_mtimes(std::string json) {
  for (std::string_view name : {"\"mtime\":", "\"mtimeMs\":"}) {
    for (size_t at = 0; (at = json.find(name, at)) != std::string::npos;) {
      at += name.size();
      size_t end = at;
      while (end < json.size() && (std::isdigit(static_cast<unsigned char>(json[end])) || json[end] == '-')) ++end;
      json.replace(at, end - at, "0");
    }
  }
  return json;
}

}  // namespace

bool run_import_step(xs_store* store, const std::string& root, std::string_view op, element s, xs_status expect) {
  if (op != "import" && op != "foreign_list" && op != "check_raw_file") return false;
  if (op == "check_raw_file") {
    bool exists = false;
    std::string bytes = read_file(root + "/" + c_str(s, "path"), &exists);
    EXPECT_TRUE(exists) << c_str(s, "path");
    EXPECT_EQ(bytes, text(s, "raw")) << c_str(s, "path");
    return true;
  }
  xs_import_options o;
  EXPECT_EQ(xs_import_options_init(&o, XS_IMPORT_OPTIONS_VERSION), XS_OK);
  if (flag(s, "dry_run")) o.flags |= XS_IMPORT_DRY_RUN;
  o.target_cwd = str(s, "target_cwd");
  o.fallback_cwd = str(s, "fallback_cwd");
  if (has(s, "lock_wait_ms")) o.lock_wait_ms = int64(s, "lock_wait_ms");
  if (has(s, "now_ms")) o.now_ms = int64(s, "now_ms");
  std::string source = root + "/" + c_str(s, "path");
  const char* kind = c_str(s, "kind");
  std::string got;
  bool importing = op == "import";
  xs_status rc = read_json(
      importing ? "xs_import" : "xs_foreign_list",
      [&](char* b, size_t c, size_t* n) {
        return importing ? xs_import(store, kind, source.c_str(), &o, b, c, n)
                         : xs_foreign_list(store, kind, source.c_str(), &o, b, c, n);
      },
      &got);
  EXPECT_EQ(rc, expect) << xs_store_errmsg(store);
  if (rc != XS_OK) return true;
  std::string want = with_root(text(s, "json"), root);
  EXPECT_EQ(importing ? got : without_mtimes(got), want);
  return true;
}
