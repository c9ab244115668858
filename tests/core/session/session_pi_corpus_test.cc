// Real pi files (the corpus beside the repository: ../shared/corpus/pi, pi-mono's test fixtures)
// continued by xsession: detected as pi's, migrated, appended to through every typed call, and
// still made only of lines of pi's forms (docs/dialects.md#what-the-pi-dialect-writes), so pi
// reads back what we wrote.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "blobs/blob_store.h"
#include "json/member_scanner.h"
#include "session/session.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::session {
namespace {

using format::Dialect;

// What pi would not read back as we meant it, for one line; empty when the line is pi's.
std::string not_pis(std::string_view line, bool is_header) {
  auto m = json::members_of(line);
  auto has = [&](std::string_view k) { return json::find_member(m, k) != nullptr; };
  std::string type = json::string_value(json::find_member(m, "type")).value_or("");
  if (line.find("blob:sha256:") != std::string_view::npos) return "a blob ref";
  if (is_header) return has("title") ? "a header title" : "";
  if (!has("id") || !has("parentId") || !has("timestamp")) return "no envelope";
  if (format::omp_only(format::entry_type_from_name(type))) return "an omp-only type " + type;
  if (type == "model_change" && (has("model") || has("role") || !has("provider") || !has("modelId"))) {
    return "an omp model_change";
  }
  if (type == "custom_message" && has("attribution")) return "attribution";
  if ((type == "compaction" || type == "branch_summary") &&
      (has("fromExtension") || has("shortSummary") || has("preserveData"))) {
    return "an omp " + type;
  }
  return "";
}

class PiCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(PiCorpus, ContinuedInPisDialectKeepsOnlyPisForms) {
  std::string source = std::string(XS_PI_CORPUS_DIR) + "/" + GetParam();
  auto fs = storage::make_posix_fs();
  storage::PaddedBuffer original;
  ASSERT_OK(fs->read_file(source, UINT64_MAX, &original, nullptr));
  test::TempDir tmp;
  std::string path = tmp.path() + "/" + GetParam();
  test::put_file(*fs, path, original.view());

  SessionOptions o;
  o.blobs = std::make_shared<blobs::BlobStore>(fs, tmp.path());  // present, and never used by pi's dialect
  auto opened = Session::open(fs, path, o);
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  Session& s = **opened;
  EXPECT_EQ(s.dialect(), Dialect::kPi);  // detected, not forced
  size_t before = s.entry_count();
  ASSERT_GT(before, 100u);

  std::string last(*s.leaf_id()), id;
  std::string image(4096, 'B');
  ASSERT_OK(s.append_message(R"({"role":"user","content":[{"type":"image","data":")" + image +
                                 R"(","mimeType":"image/png"}],"timestamp":1})",
                             &id));
  ASSERT_OK(s.append_model_change("openai/gpt-5", std::nullopt, &id));
  ASSERT_OK(s.append_thinking_level("high", &id));
  ASSERT_OK(s.append_message(
      R"({"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"openai","model":"gpt-5"})", &id));
  ASSERT_OK(s.append_compaction({"summary", std::nullopt, id, 100, std::nullopt, false, std::nullopt}, &id));
  ASSERT_OK(s.append_custom_message({"note", R"("hi")", true, R"({"k":1})", std::nullopt}, &id));
  ASSERT_OK(s.append_custom("state", R"({"n":1})", &id));
  ASSERT_OK(s.append_label(last, "before", &id));
  ASSERT_OK(s.branch_with_summary(last, "back", std::nullopt, true, &id));
  ASSERT_OK(s.set_title("Continued"));
  EXPECT_EQ(s.append_ttsr_injection(R"(["r"])", &id).code(), Code::kDialect);
  ASSERT_OK(s.close());

  std::string text = test::get_file(*fs, path);
  size_t n = 0, start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1, ++n) {
    std::string_view line(text.data() + start, nl - start);
    EXPECT_EQ(not_pis(line, n == 0), "") << "line " << n + 1 << ": " << line.substr(0, 200);
  }
  EXPECT_EQ(start, text.size());  // every line ends in '\n'
  EXPECT_EQ(n, 1 + before + 10);

  SessionOptions read;
  read.read_only = true;
  auto again = Session::open(fs, path, read);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->dialect(), Dialect::kPi);
  EXPECT_EQ((*again)->title(), "Continued");
  EXPECT_EQ((*again)->diagnostic_count(), 0u);
  EXPECT_FALSE(fs->stat(tmp.path() + "/blobs").ok());
}

INSTANTIATE_TEST_SUITE_P(Files, PiCorpus, ::testing::Values("before-compaction.jsonl", "large-session.jsonl"),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           return i.param.substr(0, i.param.find('.')) == "before-compaction" ? "before_compaction"
                                                                                              : "large_session";
                         });

}  // namespace
}  // namespace xs::session
