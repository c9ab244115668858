// The index kept current by the store's own sessions (docs/search.md#kept-current): appends and
// rewrites reach the index without a refresh, a batch at a time on the updater's thread; closing
// the index indexes what is queued; a session outliving its index or its store writes on.
#include "search/index_updater.h"

#include "search_fixture.h"

namespace xs::search {
namespace {

class IndexUpdaterTest : public SearchFixture {
 protected:
  std::unique_ptr<SessionIndex> open_index(IndexOptions o = {}) {
    o.follow_writes = true;
    return SearchFixture::open_index(o);
  }
  std::unique_ptr<session::Session> new_session(std::string id) {
    session::SessionOptions o;
    o.defer_until_assistant = false;
    o.session_id = std::move(id);
    auto s = store_->create_session("/w/app", o);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(*s) : nullptr;
  }
  static void say(session::Session& s, const std::string& text) {
    std::string m = R"({"role":"user","content":")" + text + R"(","timestamp":1})";
    ASSERT_TRUE(s.append_message(m, nullptr).ok());
  }
  static size_t hits(const std::string& json) {
    size_t n = 0;
    for (size_t at = 0; (at = json.find("\"sessionId\":", at)) != std::string::npos; ++at) ++n;
    return n;
  }
};

TEST_F(IndexUpdaterTest, AppendsOfTheStoresSessionsAreIndexedWithoutARefresh) {
  auto x = open_index();
  ASSERT_TRUE(x);
  auto s = new_session("s1");
  ASSERT_TRUE(s);
  ASSERT_NO_FATAL_FAILURE(say(*s, "deploy the zeppelin"));
  ASSERT_TRUE(x->flush().ok());
  EXPECT_EQ(hits(search(*x, "zeppelin")), 1u);
  ASSERT_NO_FATAL_FAILURE(say(*s, "and the zeppelin hangar"));
  ASSERT_NO_FATAL_FAILURE(say(*s, "then the dirigible"));
  ASSERT_TRUE(x->flush().ok());
  EXPECT_EQ(hits(search(*x, "zeppelin")), 2u);
  EXPECT_EQ(hits(search(*x, "dirigible")), 1u);
  // The rows are what a refresh makes: nothing left for it to do.
  RefreshReport r = refresh(*x);
  EXPECT_EQ(r.files, 1u);
  EXPECT_EQ(r.unchanged, 1u);
  EXPECT_EQ(r.entries, 0u);
  EXPECT_EQ(rows("SELECT count(*), sum(on_path) FROM entries"), "3|3\n");
}

TEST_F(IndexUpdaterTest, ATitleRewriteIsIndexedToo) {
  auto x = open_index();
  auto s = new_session("s1");
  ASSERT_NO_FATAL_FAILURE(say(*s, "hello"));
  ASSERT_TRUE(s->set_title(std::string_view("Airship plans")).ok());
  ASSERT_TRUE(x->flush().ok());
  EXPECT_EQ(rows("SELECT id, title FROM sessions"), "s1|Airship plans\n");
}

TEST_F(IndexUpdaterTest, WithoutFollowWritesNothingIsIndexedBeforeARefresh) {
  auto x = SearchFixture::open_index();
  auto s = new_session("s1");
  ASSERT_NO_FATAL_FAILURE(say(*s, "unfollowed words"));
  ASSERT_TRUE(x->flush().ok());  // nothing to wait for
  EXPECT_EQ(hits(search(*x, "unfollowed")), 0u);
  EXPECT_EQ(refresh(*x).added, 1u);
  EXPECT_EQ(hits(search(*x, "unfollowed")), 1u);
}

TEST_F(IndexUpdaterTest, ClosingTheIndexIndexesWhatIsQueued) {
  auto x = open_index();
  auto s = new_session("s1");
  ASSERT_NO_FATAL_FAILURE(say(*s, "queued words"));
  x.reset();  // no flush: the destructor indexes what is queued
  EXPECT_EQ(rows("SELECT count(*) FROM entries"), "1\n");
  // And a session that outlives its index writes on, telling nobody.
  ASSERT_NO_FATAL_FAILURE(say(*s, "after the index"));
  EXPECT_EQ(rows("SELECT count(*) FROM entries"), "1\n");
  // Or its store: the session keeps what it needs.
  store_.reset();
  ASSERT_NO_FATAL_FAILURE(say(*s, "after the store"));
}

TEST_F(IndexUpdaterTest, AnUpdateThatFailsIsReportedByFlushAndLeftForTheNextRefresh) {
  auto x = open_index();
  auto s = new_session("s1");
  ASSERT_TRUE(x->flush().ok());
  // Another connection holds the write lock longer than the index waits for it.
  IndexOptions quick;
  quick.busy_timeout = std::chrono::milliseconds(50);
  x.reset();
  x = open_index(quick);
  sqlite::Db blocker;
  ASSERT_TRUE(blocker.open(root_ + "/index.db", false, std::chrono::milliseconds(50)).ok());
  ASSERT_TRUE(blocker.exec("BEGIN IMMEDIATE").ok());
  ASSERT_NO_FATAL_FAILURE(say(*s, "blocked words"));
  Status st = x->flush();
  EXPECT_EQ(st.code(), Code::kLocked) << st.message();
  EXPECT_EQ(st.message().rfind("indexing what sessions wrote: ", 0), 0u) << st.message();
  EXPECT_TRUE(x->flush().ok());  // reported once
  ASSERT_TRUE(blocker.exec("COMMIT").ok());
  EXPECT_EQ(hits(search(*x, "blocked")), 0u);
  RefreshReport r = refresh(*x);
  EXPECT_EQ(r.appended, 1u);
  EXPECT_EQ(hits(search(*x, "blocked")), 1u);
}

}  // namespace
}  // namespace xs::search
