// Session: reopening a file (same entries and context, the leaf at the last line:
// docs/decisions.md#handles-and-the-leaf), read-only handles that never write, and missing files.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- reopening ---------------------------------------------------------------------------------

TEST_P(SessionTest, ReopenGivesTheSameEntriesAndContextWithTheLeafAtTheLastLine) {
  std::string entries, live_ctx;
  {
    auto s = create(options(false));
    std::string id;
    ASSERT_OK(s->append_message(kUser, &id));
    ASSERT_OK(s->append_message(kAssistant, &id));
    ASSERT_OK(s->set_leaf(ids_[0]));
    ASSERT_OK(s->append_message(R"({"role":"user","content":"alt"})", &id));
    ASSERT_OK(s->set_leaf(ids_[1]));  // in memory only: the leaf is not persisted
    entries = s->entries_json();
    live_ctx = val(s->context(std::string_view(ids_[2])));
    ASSERT_OK(s->close());
  }
  SessionOptions o = options();
  o.id_seed = kSeed + 1;
  auto r = open(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  EXPECT_EQ(s->entries_json(), entries);
  EXPECT_EQ(s->leaf_id(), ids_[2]);
  EXPECT_EQ(val(s->context(std::nullopt)), live_ctx);
  EXPECT_EQ(s->header(), header_line());
  EXPECT_EQ(s->diagnostics_json(), "[]");
  EXPECT_TRUE(s->persisted());
  std::string before = content();
  std::string id;
  ASSERT_OK(s->append_custom("after", std::nullopt, &id));
  std::string expected_id = test::seeded_entry_ids(kSeed + 1, 1)[0];
  EXPECT_EQ(id, expected_id);
  // Reopened sessions use the clock from their own options: a fresh fixed clock starts at kT0.
  EXPECT_EQ(content(), before + line("custom", expected_id, ids_[2], 0, R"("customType":"after")") + "\n");
}

TEST_P(SessionTest, ReadOnlySessionsNeverWrite) {
  put(header_line() + "\n" + line("message", "m1", "", 1, "\"message\":" + kUser) + "\n");
  std::string before = content();
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  auto& s = *r;
  EXPECT_TRUE(s->read_only());
  std::string id;
  EXPECT_EQ(s->append_message(kUser, &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->append_entry(R"({"type":"custom","customType":"x"})", &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->append_custom("x", std::nullopt, &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->append_label("m1", "l", &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->branch_with_summary(std::nullopt, "s", std::nullopt, std::nullopt, &id).code(), Code::kReadOnly);
  EXPECT_EQ(s->set_title("t").code(), Code::kReadOnly);
  EXPECT_EQ(s->persist().code(), Code::kReadOnly);
  EXPECT_TRUE(s->flush().ok());
  ASSERT_OK(s->set_leaf("m1"));  // navigation is fine: it writes nothing
  EXPECT_TRUE(s->close().ok());
  EXPECT_EQ(content(), before);
  EXPECT_FALSE(exists(path_ + ".lock"));
}

TEST_P(SessionTest, MissingFile) {
  EXPECT_EQ(open(options()).status().code(), Code::kNotFound);
  EXPECT_EQ(open(read_only()).status().code(), Code::kNotFound);
  SessionOptions o = options();
  o.create_if_missing = true;
  o.read_only = true;
  EXPECT_EQ(open(o).status().code(), Code::kNotFound);
  EXPECT_FALSE(exists());
  std::string other = root_ + "/elsewhere/deep/s.jsonl";
  o.read_only = false;
  auto r = open(o, other);
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  EXPECT_EQ(s->path(), other);
  EXPECT_FALSE(s->persisted());
  EXPECT_FALSE(exists(other));
  std::string id;
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(content(other), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kAssistant) + "\n");
}

}  // namespace
}  // namespace xs::session
