// Hostile and damaged Claude Code projects: every line of every corpus file cut, and a 100 MB
// transcript with bad rows in it. Nothing crashes, every row is reported with its line, and the
// source tree is never written.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "claude_test_util.h"
#include "corpus_copies.h"
#include "import/claude/importer.h"
#include "test_util.h"

namespace xs::import::claude {
namespace {

using testing::corpus;
using testing::slurp;
using testing::spit;

// Each line of `bytes` cut to half its length (the newline kept).
std::string every_line_cut(const std::string& bytes, uint64_t* lines) {
  std::string cut;
  for (size_t pos = 0; pos < bytes.size();) {
    size_t nl = bytes.find('\n', pos);
    size_t end = nl == std::string::npos ? bytes.size() : nl;
    std::string half = bytes.substr(pos, (end - pos) / 2);
    if (half.find_first_not_of(" \t\r") != std::string::npos) ++*lines;
    cut += half + "\n";
    pos = end + 1;
  }
  return cut;
}

// Every transcript of every corpus project (subagent files included) with each line cut in half:
// every row is skipped and reported with its own file and line, nothing is imported, and the
// damaged tree is left byte for byte.
TEST(ClaudeBadInput, EveryCorpusFileWithEachLineTruncated) {
  for (const std::string& project : testing::corpus_projects()) {
    SCOPED_TRACE(project);
    test::TempDir src;
    uint64_t lines = 0;
    for (const std::string& file : testing::transcripts(corpus(project))) {
      spit(src.file(file), every_line_cut(slurp(corpus(project) + "/" + file), &lines));
    }
    std::map<std::string, std::string> before;
    for (const std::string& file : testing::transcripts(src.path())) before[file] = slurp(src.file(file));

    auto st = testing::memory_store();
    auto r = import_project(*st, storage::make_posix_fs(), src.path());
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->rows_read(), lines);
    EXPECT_EQ(r->skipped_rows(), lines);
    EXPECT_EQ(r->imported() + r->kept_as_custom(), 0u);
    ASSERT_EQ(r->skipped.size(), lines);
    std::set<std::pair<std::string, uint64_t>> places;
    for (const SkippedRow& s : r->skipped) {
      EXPECT_FALSE(s.reason.empty());
      places.insert({s.file, s.line});
    }
    EXPECT_EQ(places.size(), lines) << "a row reported twice";
    for (const auto& [file, bytes] : before) EXPECT_EQ(slurp(src.file(file)), bytes) << file;
  }
}

// The corpus's largest transcript repeated to 100 MB, with a truncated row, a row of binary bytes
// and a row with invalid UTF-8 in the middle: those three are reported with their lines, every
// other row is imported or kept, the context builds, and the source file is unchanged.
// XS_CLAUDE_BAD_MB sets the size (the ASan tree of scripts/test-sanitizers thins it to 20 MB).
TEST(ClaudeBadInput, AHundredMegabyteTranscriptWithBadRows) {
  const char* mb_env = std::getenv("XS_CLAUDE_BAD_MB");
  const size_t mb = mb_env && *mb_env ? std::strtoul(mb_env, nullptr, 10) : 100;
  const std::string id = "258c7280-ae70-4798-800f-63464d01a85d";
  std::string one = slurp(corpus("marot-spotter/" + id + ".jsonl"));
  ASSERT_FALSE(one.empty());
  std::string bytes;
  unsigned copies = 0;
  while (bytes.size() < (mb << 20)) bytes += testing::copy_with_distinct_uuids(one, copies++, id);
  uint64_t good_rows = testing::count_rows(bytes);

  size_t middle = bytes.find('\n', bytes.size() / 2) + 1;
  std::string binary;
  for (int i = 1; i < 200; ++i) {
    char c = static_cast<char>((i * 37) & 0xff);
    binary += c == '\n' ? '\x01' : c;
  }
  std::string bad = "{\"type\":\"user\",\"uuid\":\"cut-in-the-mid\n" + binary +
                    "\n{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"\xff\xfe\"}}\n";
  bytes.insert(middle, bad);
  uint64_t bad_line = std::count(bytes.begin(), bytes.begin() + middle, '\n') + 1;

  test::TempDir src, root;
  spit(src.file(id + ".jsonl"), bytes);
  auto st = *store::Store::open(root.path());
  auto r = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->rows_read(), good_rows + 3);
  EXPECT_EQ(r->imported() + r->kept_as_custom(), good_rows);
  ASSERT_EQ(r->skipped.size(), 3u);
  for (uint64_t k = 0; k < 3; ++k) EXPECT_EQ(r->skipped[k].line, bad_line + k) << r->skipped[k].reason;
  EXPECT_EQ(r->sessions.size(), 1u);

  auto session = testing::open_imported(*st, r->sessions[0]);
  ASSERT_NE(session, nullptr);
  EXPECT_TRUE(session->context(std::nullopt).ok());
  EXPECT_EQ(slurp(src.file(id + ".jsonl")), bytes);
}

}  // namespace
}  // namespace xs::import::claude
