// Re-imports, grown files, dry runs, damaged input, and a source tree left exactly as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "claude_test_util.h"
#include "import/claude/importer.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::import::claude {
namespace {

using testing::context_tokens;
using testing::corpus;
using testing::open_imported;
using testing::slurp;
using testing::spit;

std::shared_ptr<store::Store> disk_store(const std::string& root) { return *store::Store::open(root); }

// Every file under `dir` with its bytes and mtime.
std::map<std::string, std::pair<std::string, int64_t>> snapshot(const std::string& dir) {
  std::map<std::string, std::pair<std::string, int64_t>> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    auto t = std::filesystem::last_write_time(e.path()).time_since_epoch().count();
    out[e.path().string()] = {slurp(e.path().string()), static_cast<int64_t>(t)};
  }
  return out;
}

void expect_balanced(const ImportReport& r) {
  for (const ImportedSession& s : r.sessions) {
    EXPECT_EQ(s.rows_read, s.imported + s.kept_as_custom + s.already_imported + s.skipped) << s.source_file;
  }
}

TEST(ClaudeReimport, ASecondImportFindsEveryRowAndWritesNothing) {
  test::TempDir root;
  auto st = disk_store(root.path());
  auto first = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(first.ok());
  auto before = snapshot(root.path());
  auto second = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(second.ok());
  expect_balanced(*second);
  EXPECT_EQ(second->rows_read(), first->rows_read());
  EXPECT_EQ(second->already_imported(), first->imported() + first->kept_as_custom());
  EXPECT_EQ(second->imported() + second->kept_as_custom(), 0u);
  for (const ImportedSession& s : second->sessions) EXPECT_FALSE(s.created);
  EXPECT_EQ(snapshot(root.path()), before);  // not a byte written
}

// A new session is written whole when its import ends (docs/import-claude.md#speed): a first
// import that fails writes no session file, and the next one imports every row.
TEST(ClaudeReimport, AFailedFirstImportLeavesNoSessionFileAndTheNextImportsEveryRow) {
  test::TempDir root;
  store::StoreOptions o;
  auto faulty = std::make_shared<storage::FaultyFs>(storage::make_posix_fs());
  o.fs = faulty;
  auto st = *store::Store::open(root.path(), o);
  // Writes fail from the twentieth on: half way through a session written entry by entry.
  uint32_t writes = storage::op_mask({storage::FsOp::kAppend});
  faulty->arm({faulty->calls_of(writes) + 20, Code::kIo, /*persistent=*/true, /*torn_write=*/false, writes});
  auto failed = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  EXPECT_EQ(failed.status().code(), Code::kIo);
  EXPECT_TRUE(faulty->fault_hit());
  faulty->disarm();
  size_t session_files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root.path())) {
    if (e.path().extension() == ".jsonl") ++session_files;
  }
  EXPECT_EQ(session_files, 0u);
  auto again = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(again.ok()) << again.status().message();
  expect_balanced(*again);
  EXPECT_EQ(again->already_imported(), 0u);
  test::TempDir fresh_root;
  auto fresh = import_project(*disk_store(fresh_root.path()), storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(again->imported(), fresh->imported());
  EXPECT_EQ(again->kept_as_custom(), fresh->kept_as_custom());
  for (const ImportedSession& s : again->sessions) EXPECT_TRUE(s.created) << s.source_file;
}

// A transcript that grew since the last import gets only its new rows, and ends up as an import
// of the whole file in one go would: the same context.
TEST(ClaudeReimport, AGrownFileImportsOnlyItsNewRows) {
  std::string whole = slurp(corpus("marot-spotter/short.jsonl"));
  size_t cut = 0;
  for (int i = 0; i < 4; ++i) cut = whole.find('\n', cut) + 1;  // up to the first prompt
  test::TempDir src, root, fresh_root;
  spit(src.file("short.jsonl"), whole.substr(0, cut));
  auto st = disk_store(root.path());
  auto first = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->rows_read(), 4u);
  spit(src.file("short.jsonl"), whole);
  auto second = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(second.ok());
  expect_balanced(*second);
  EXPECT_EQ(second->already_imported(), 4u);
  EXPECT_EQ(second->imported() + second->kept_as_custom(), 11u);
  EXPECT_FALSE(second->sessions[0].created);
  auto fresh_st = disk_store(fresh_root.path());
  auto fresh = import_project(*fresh_st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(fresh.ok());
  auto grown = open_imported(*st, second->sessions[0]);
  auto once = open_imported(*fresh_st, fresh->sessions[0]);
  ASSERT_NE(grown, nullptr);
  ASSERT_NE(once, nullptr);
  EXPECT_EQ(context_tokens(*grown), context_tokens(*once));
  EXPECT_EQ(context_tokens(*grown).size(), 5u);
}

// The earlier import caught a reply half written (two of its five rows): the rest becomes a
// second assistant message after the first, and every call still has its result after them.
TEST(ClaudeReimport, AReplyCutByAnEarlierImportContinuesAfterIt) {
  std::string whole = slurp(corpus("marot-spotter/short.jsonl"));
  size_t cut = 0;
  for (int i = 0; i < 6; ++i) cut = whole.find('\n', cut) + 1;
  test::TempDir src, root;
  spit(src.file("short.jsonl"), whole.substr(0, cut));
  auto st = disk_store(root.path());
  ASSERT_TRUE(import_project(*st, storage::make_posix_fs(), src.path()).ok());
  spit(src.file("short.jsonl"), whole);
  auto second = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->already_imported(), 6u);
  auto s = open_imported(*st, second->sessions[0]);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(context_tokens(*s),
            (std::vector<std::string>{"U:mix phx.server doesnt seem to ", "A:msg_01MKH1ccEGrZGNPvu8pYiiQa",
                                      "A:msg_01MKH1ccEGrZGNPvu8pYiiQa", "R:toolu_0116Hyi5v8ut7Ffb7d8qV1Sc",
                                      "R:toolu_01FdQ8qTyVyZjE3Kw4dguQGx", "U:[Request interrupted by user f"}));
}

TEST(ClaudeReimport, ADryRunReportsTheSameAndWritesNothing) {
  test::TempDir root;
  auto st = disk_store(root.path());
  ImportOptions dry;
  dry.dry_run = true;
  auto planned = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"), dry);
  ASSERT_TRUE(planned.ok());
  EXPECT_TRUE(planned->dry_run);
  EXPECT_TRUE(snapshot(root.path()).empty());
  auto done = import_project(*st, storage::make_posix_fs(), corpus("marot-spotter"));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(planned->rows_read(), done->rows_read());
  EXPECT_EQ(planned->imported(), done->imported());
  EXPECT_EQ(planned->kept_as_custom(), done->kept_as_custom());
  for (const ImportedSession& s : planned->sessions) EXPECT_EQ(s.session_file, "");
}

TEST(ClaudeReimport, TheSourceTreeIsLeftByteForByte) {
  test::TempDir src, root;
  std::filesystem::copy(corpus("marot-spotter"), src.path(), std::filesystem::copy_options::recursive);
  auto before = snapshot(src.path());
  auto st = disk_store(root.path());
  ASSERT_TRUE(import_project(*st, storage::make_posix_fs(), src.path()).ok());
  ASSERT_TRUE(import_project(*st, storage::make_posix_fs(), src.path()).ok());
  EXPECT_EQ(snapshot(src.path()), before);
}

// Each corpus file with one of its lines cut in half: that line is a skipped row, every other row
// is accounted for as before, nothing crashes.
TEST(ClaudeReimport, ATruncatedLineInEveryCorpusFileIsOneSkippedRow) {
  for (const std::string& project : testing::corpus_projects()) {
    for (const std::string& file : testing::transcripts(corpus(project))) {
      std::string bytes = slurp(corpus(project) + "/" + file);
      uint64_t rows = testing::count_rows(bytes);
      size_t lines = std::count(bytes.begin(), bytes.end(), '\n');
      for (size_t target : {size_t(0), lines / 2, lines > 0 ? lines - 1 : 0}) {
        SCOPED_TRACE(file + " line " + std::to_string(target + 1));
        size_t start = 0;
        for (size_t i = 0; i < target; ++i) start = bytes.find('\n', start) + 1;
        size_t end = bytes.find('\n', start);
        if (end == std::string::npos) end = bytes.size();
        if (end - start < 4) continue;
        std::string damaged = bytes.substr(0, start + (end - start) / 2) + bytes.substr(end);
        test::TempDir src;
        spit(src.file(file), damaged);
        auto st = testing::memory_store();
        auto r = import_project(*st, storage::make_posix_fs(), src.path());
        ASSERT_TRUE(r.ok()) << r.status().message();
        expect_balanced(*r);
        EXPECT_EQ(r->rows_read(), rows);
        ASSERT_GE(r->skipped.size(), 1u) << r->to_json();
        EXPECT_EQ(r->skipped[0].line, target + 1);
      }
    }
  }
}

TEST(ClaudeReimport, BinaryFilesAndBrokenIndexesAreReportedNotFatal) {
  test::TempDir src;
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 131) & 0xff);
  spit(src.file("binary.jsonl"), binary);
  spit(src.file("sessions-index.json"), "[1,2,3]");
  spit(src.file("ok.jsonl"), slurp(corpus("claudeless-v2.1.29/clear-command/5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl")));
  auto st = testing::memory_store();
  auto r = import_project(*st, storage::make_posix_fs(), src.path());
  ASSERT_TRUE(r.ok());
  expect_balanced(*r);
  EXPECT_EQ(r->rows_read(), testing::count_rows(binary) + 8u);
  EXPECT_EQ(r->skipped_rows(), testing::count_rows(binary));
  EXPECT_EQ(r->imported() + r->kept_as_custom(), 8u);
  EXPECT_NE(r->to_json().find("sessions-index.json is not an object; ignored"), std::string::npos);
  EXPECT_EQ(import_project(*st, storage::make_posix_fs(), src.file("missing")).status().code(), Code::kNotFound);
}

}  // namespace
}  // namespace xs::import::claude
