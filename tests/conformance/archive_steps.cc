#include "archive_steps.h"

#include <vector>

#include "output_dump.h"

using namespace case_json;

namespace {

// The report's list `key` against the step's `want` list: as many, in order, each listed member
// equal (`path` relative to the store root).
void expect_listed(const std::string& root, element report, std::string_view key, element want,
                   const std::string& text) {
  std::vector<element> got = elements(at(report, key)), wanted = elements(want);
  ASSERT_EQ(got.size(), wanted.size()) << key << " of " << text;
  for (size_t i = 0; i < wanted.size(); ++i) {
    for (auto [member, value] : object_of(wanted[i])) {
      if (member == "path") {
        std::string path(view(got[i], "path"));
        EXPECT_EQ(path.compare(0, root.size() + 1, root + "/") == 0 ? path.substr(root.size() + 1) : path, view(value))
            << key << " of " << text;
      } else {
        EXPECT_EQ(has(got[i], member) ? to_json(at(got[i], member)) : "(none)", to_json(value))
            << key << " member " << member << " of " << text;
      }
    }
  }
}

}  // namespace

bool run_archive_step(xs_store* store, const std::string& root, std::string_view op, element s, xs_status expect) {
  if (op != "archive" && op != "prune" && op != "check_path_exists") return false;
  if (op == "check_path_exists") {
    bool exists = false;
    read_file(root + "/" + std::string(view(s, "path")), &exists);
    EXPECT_EQ(exists, flag(s, "exists")) << view(s, "path");
    return true;
  }
  xs_archive_options o;
  EXPECT_EQ(xs_archive_options_init(&o, XS_ARCHIVE_OPTIONS_VERSION), XS_OK);
  if (has(s, "older_than_ms")) o.older_than_ms = int64(s, "older_than_ms");
  if (has(s, "now_ms")) o.now_ms = int64(s, "now_ms");
  if (flag(s, "dry_run")) o.flags |= XS_ARCHIVE_DRY_RUN;
  std::string got;
  bool archive = op == "archive";
  xs_status rc = read_json(
      archive ? "xs_store_archive" : "xs_store_prune",
      [&](char* b, size_t c, size_t* n) {
        return archive ? xs_store_archive(store, &o, b, c, n) : xs_store_prune(store, &o, b, c, n);
      },
      &got);
  EXPECT_EQ(rc, expect) << xs_store_errmsg(store);
  if (rc != XS_OK) return true;
  simdjson::dom::parser parser;
  element report = parse(parser, got);
  EXPECT_EQ(to_json(at(report, "dryRun")), flag(s, "dry_run") ? "true" : "false") << got;
  if (archive) {
    expect_listed(root, report, "archived", at(s, "archived"), got);
    expect_listed(root, report, "skipped", at(s, "skipped"), got);
  } else {
    expect_listed(root, report, "pruned", at(s, "pruned"), got);
  }
  return true;
}
