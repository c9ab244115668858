// Session: one writer per file (docs/decisions.md#one-writer-per-file), and what another process
// writing the file does to ours: the next append or rewrite is a conflict and writes nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- one writer per file ------------------------------------------------------------------------

TEST_P(SessionTest, SecondWriterIsLockedReadersAreNot) {
  auto s = create(options(false));
  ASSERT_TRUE(s);
  EXPECT_EQ(open(options()).status().code(), Code::kLocked);
  auto reader = open(read_only());
  ASSERT_TRUE(reader.ok());
  ASSERT_OK(s->close());
  auto second = open(options());
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(open(options()).status().code(), Code::kLocked);
  second->reset();  // destroyed without close(): the lock goes with it
  EXPECT_TRUE(open(options()).ok());
}

TEST_P(SessionTest, DeferredSessionOpenedByPathHoldsTheLockBeforeItsFileExists) {
  SessionOptions o = options();
  o.create_if_missing = true;
  auto first = open(o);
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(exists());
  EXPECT_EQ(open(o).status().code(), Code::kLocked);
}

// --- foreign writers ------------------------------------------------------------------------------

TEST_P(SessionTest, ForeignRenameOverOurFileMakesTheNextAppendAConflict) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  foreign_replace("{\"foreign\":true}\n");
  EXPECT_EQ(s->append_message(kAssistant, &id).code(), Code::kConflict);
  EXPECT_EQ(content(), "{\"foreign\":true}\n");
  EXPECT_EQ(s->entry_count(), 1u);
  EXPECT_EQ(s->leaf_id(), ids_[0]);
  // Also when the writer has not opened its descriptor yet (first append after open).
  ASSERT_OK(s->close());
  s.reset();
  put(header_line() + "\n");
  auto r = open(options());
  ASSERT_TRUE(r.ok());
  foreign_replace("theirs\n");
  EXPECT_EQ((*r)->append_message(kUser, &id).code(), Code::kConflict);
  EXPECT_EQ(content(), "theirs\n");
  // A failed branch_with_summary leaves the leaf where it was.
  EXPECT_EQ((*r)->branch_with_summary(std::nullopt, "s", std::nullopt, std::nullopt, &id).code(), Code::kConflict);
  EXPECT_FALSE((*r)->leaf_id().has_value());
}

TEST_P(SessionTest, ForeignAppendMakesTheNextRewriteAConflict) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  test::append_file(*base_, path_, "{\"type\":\"custom\",\"customType\":\"theirs\",\"id\":\"z\",\"parentId\":null}\n");
  std::string before = content();
  EXPECT_EQ(s->set_title("mine").code(), Code::kConflict);
  EXPECT_EQ(content(), before);
  EXPECT_EQ(s->header(), header_line());
  EXPECT_FALSE(s->title().has_value());
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

}  // namespace
}  // namespace xs::session
