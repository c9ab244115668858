// Session: a read-only handle picks up what the writer appended since it loaded
// (docs/decisions.md#reload).
#include <gtest/gtest.h>

#include <string>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- reload (docs/decisions.md#reload) -----------------------------------------------------------

TEST_P(SessionTest, ReaderReloadPicksUpAppendedEntries) {
  auto writer = create(options(false));
  std::string id;
  ASSERT_OK(writer->append_message(kUser, &id));
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& reader = *r;
  EXPECT_EQ(reader->entry_count(), 1u);
  int64_t added = -1;
  uint64_t gen = reader->generation();
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 0);
  EXPECT_EQ(reader->generation(), gen);
  ASSERT_OK(writer->append_message(kAssistant, &id));
  ASSERT_OK(writer->append_custom("x", std::nullopt, &id));
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 2);
  EXPECT_EQ(reader->entries_json(), writer->entries_json());
  EXPECT_EQ(reader->leaf_id(), ids_[2]);
  EXPECT_EQ(val(reader->context(std::nullopt)), val(writer->context(std::nullopt)));
  // A writable handle is the file's only writer: it has nothing to reload.
  EXPECT_EQ(writer->reload(&added).code(), Code::kMisuse);
}

TEST_P(SessionTest, ReaderReportsButNeverRepairsALineStillBeingWritten) {
  auto writer = create(options(false));
  std::string id;
  ASSERT_OK(writer->append_message(kUser, &id));
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& reader = *r;
  std::string full = line("custom", "later", ids_[0], 9, R"("customType":"x")");
  test::append_file(*base_, path_, full.substr(0, 20));
  std::string before = content();
  int64_t added = -1;
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 0);
  EXPECT_EQ(content(), before);
  std::string diags = reader->diagnostics_json();
  EXPECT_NE(diags.find("incomplete_tail"), std::string::npos) << diags;
  test::append_file(*base_, path_, full.substr(20) + "\n");
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 1);
  EXPECT_EQ(reader->diagnostics_json(), "[]");
  EXPECT_EQ(val(reader->entry_json("later")), full);
  EXPECT_EQ(reader->leaf_id(), "later");
}

TEST_P(SessionTest, ReaderReloadAfterARewriteReadsTheWholeFileAgain) {
  auto writer = create(options(false));
  std::string id;
  ASSERT_OK(writer->append_message(kUser, &id));
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& reader = *r;
  ASSERT_OK(writer->set_title("renamed"));
  ASSERT_OK(writer->append_message(kAssistant, &id));
  int64_t added = -1;
  ASSERT_OK(reader->reload(&added));
  EXPECT_EQ(added, 1);
  EXPECT_EQ(reader->header(), writer->header());
  EXPECT_EQ(reader->title(), "renamed");
  EXPECT_EQ(reader->entries_json(), writer->entries_json());
}

}  // namespace
}  // namespace xs::session
