// Session: creating a session, and the deferred first write (nothing on disk before the first
// assistant message unless asked for; docs/decisions.md#deferred-first-write); the header it writes
// and the options it refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/ids.h"
#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- creation and deferred persistence --------------------------------------------------------

TEST_P(SessionTest, CreateDefersTheFileUntilTheFirstAssistantMessage) {
  auto s = create(options());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->path(), path_);
  EXPECT_FALSE(s->persisted());
  EXPECT_EQ(s->header(), header_line());
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(id, ids_[0]);
  ASSERT_OK(s->append_thinking_level("high", &id));
  ASSERT_OK(s->set_title("named"));
  EXPECT_FALSE(s->persisted());
  EXPECT_FALSE(exists());
  EXPECT_FALSE(base_->stat(dir_).ok());  // not even the directory
  ASSERT_OK(s->append_message(kAssistant, &id));
  EXPECT_EQ(id, ids_[2]);
  EXPECT_TRUE(s->persisted());
  std::string l0 = line("message", ids_[0], "", 1, "\"message\":" + kUser);
  std::string l1 = line("thinking_level_change", ids_[1], ids_[0], 2, R"("thinkingLevel":"high")");
  std::string l2 = line("message", ids_[2], ids_[1], 3, "\"message\":" + kAssistant);
  EXPECT_EQ(content(), header_line(R"(,"title":"named")") + "\n" + l0 + "\n" + l1 + "\n" + l2 + "\n");
  ASSERT_OK(s->append_custom("ext", std::nullopt, &id));
  std::string l3 = line("custom", ids_[3], ids_[2], 4, R"("customType":"ext")");
  EXPECT_EQ(content(), header_line(R"(,"title":"named")") + "\n" + l0 + "\n" + l1 + "\n" + l2 + "\n" + l3 + "\n");
  EXPECT_EQ(names(), (std::vector<std::string>{kFileName, kFileName + ".lock"}));
}

TEST_P(SessionTest, SessionWithoutAssistantNeverCreatesAFile) {
  {
    auto s = create(options());
    std::string id;
    ASSERT_OK(s->append_message(kUser, &id));
    ASSERT_OK(s->append_custom("x", std::string_view(R"({"a":1})"), &id));
    ASSERT_OK(s->flush());
    ASSERT_OK(s->close());
  }
  EXPECT_FALSE(exists());
  EXPECT_FALSE(base_->stat(dir_).ok());
}

TEST_P(SessionTest, NoDeferWritesTheHeaderAtOnce) {
  auto s = create(options(false));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->persisted());
  EXPECT_EQ(content(), header_line() + "\n");
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n");
}

TEST_P(SessionTest, WriteNowForcesTheFileOfADeferredSession) {
  auto s = create(options());
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  ASSERT_OK(s->persist());
  EXPECT_TRUE(s->persisted());
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, "\"message\":" + kUser) + "\n");
}

TEST_P(SessionTest, HeaderCarriesTitleAndParentSessionInThatOrder) {
  SessionOptions o = options(false);
  o.title = "T \"1\"";
  o.parent_session = "/old/s.jsonl";
  auto s = create(o);
  ASSERT_TRUE(s);
  EXPECT_EQ(content(), header_line(R"(,"title":"T \"1\"","parentSession":"/old/s.jsonl")") + "\n");
}

TEST_P(SessionTest, GeneratedSessionIdIsSixteenHexAndNamesTheFile) {
  SessionOptions o = options(false);
  o.session_id.reset();
  auto s = create(o);
  ASSERT_TRUE(s);
  format::IdGenerator g(kSeed);
  std::string sid = g.session_id();
  EXPECT_EQ(s->header_info().id, sid);
  EXPECT_EQ(s->path(), dir_ + "/2026-02-16T10-20-30-000Z_" + sid + ".jsonl");
  // Entry ids continue the same seeded sequence.
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));
  EXPECT_EQ(id, test::seeded_entry_ids(kSeed, 1, true)[0]);
}

TEST_P(SessionTest, InvalidCreateOptions) {
  SessionOptions bad_id = options();
  bad_id.session_id = "../escape";
  EXPECT_EQ(Session::create(fs_, dir_, bad_id).status().code(), Code::kInvalid);
  SessionOptions long_id = options();
  long_id.session_id = std::string(65, 'a');
  EXPECT_EQ(Session::create(fs_, dir_, long_id).status().code(), Code::kInvalid);
  SessionOptions bad_cwd = options();
  bad_cwd.cwd = "/bad\xff";
  EXPECT_EQ(Session::create(fs_, dir_, bad_cwd).status().code(), Code::kInvalid);
  SessionOptions bad_title = options();
  bad_title.title = "\xc3";
  EXPECT_EQ(Session::create(fs_, dir_, bad_title).status().code(), Code::kInvalid);
  EXPECT_FALSE(base_->stat(dir_).ok());
}

}  // namespace
}  // namespace xs::session
