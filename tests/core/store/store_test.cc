// store/store: a root and its file system (disk or memory), where new sessions go, open by path or
// id, continue-recent's choice (this terminal's breadcrumb, else the newest of the cwd, else a new
// session) with its best-effort breadcrumb, fork-from, listing, resolving, blob upkeep, and the
// store's blob store given to every session it hands out.
// Mostly posix_fs in a temp dir, so file mtimes can be set exactly (no sleeping for an order).
#include <gtest/gtest.h>

#include <unistd.h>

#include <climits>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "discovery/session_info.h"
#include "store/store.h"
#include "storage/path.h"
#include "test_util.h"

namespace xs::store {
namespace {

using session::Session;
using session::SessionOptions;
using V = std::vector<std::string>;

constexpr const char* kUser = R"({"role":"user","content":"hello"})";
constexpr const char* kAssistant =
    R"({"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"hi"}]})";

// Options of a session written at once, with a chosen id and a fixed clock.
SessionOptions written(const std::string& id) {
  SessionOptions o;
  o.defer_until_assistant = false;
  o.session_id = id;
  o.clock = format::Clock::Fixed(1767225600000, 1000);
  o.id_seed = 7;
  return o;
}

std::string first_line(const std::string& bytes) { return bytes.substr(0, bytes.find('\n')); }

std::string code_and(Code c, const std::string& message) { return std::to_string(static_cast<int>(c)) + ": " + message; }

// The path of the session a call opened, or "<code>: <message>".
std::string opened(Result<std::unique_ptr<Session>> r) {
  if (!r.ok()) return code_and(r.status().code(), r.status().message());
  return (*r)->path();
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(tmp_.path());
    ASSERT_TRUE(s.ok()) << s.status().message();
    store_ = *s;
  }
  // A session of `cwd` with a user and an assistant message, its file's mtime set; its path.
  std::string make(const std::string& id, const std::string& cwd, int64_t mtime_ms) {
    auto s = store_->create_session(cwd, written(id));
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (!s.ok()) return "";
    EXPECT_TRUE((*s)->append_message(kUser, nullptr).ok());
    EXPECT_TRUE((*s)->append_message(kAssistant, nullptr).ok());
    std::string path = (*s)->path();
    EXPECT_TRUE((*s)->close().ok());
    EXPECT_TRUE(test::set_mtime(path, mtime_ms));
    return path;
  }
  std::string breadcrumb_file(const std::string& terminal) const {
    return tmp_.path() + "/terminal-sessions/" + terminal;
  }

  test::TempDir tmp_;
  std::shared_ptr<Store> store_;
};

// --- open --------------------------------------------------------------------------------------

TEST(StoreOpen, AnEmptyRootIsInvalid) {
  auto s = Store::open("");
  EXPECT_EQ(s.status().code(), Code::kInvalid);
  EXPECT_EQ(s.status().message(), "root is empty");
}

TEST(StoreOpen, ARootThatIsAFileIsInvalid) {
  test::TempDir tmp;
  test::write_file(tmp.file("plain"), "x");
  auto s = Store::open(tmp.file("plain"));
  EXPECT_EQ(s.status().code(), Code::kInvalid);
  EXPECT_EQ(s.status().message(), tmp.file("plain") + " is not a directory");
}

TEST(StoreOpen, AMissingRootOpensAndIsMadeByTheFirstSessionWritten) {
  test::TempDir tmp;
  std::string root = tmp.file("later/store");
  auto s = Store::open(root);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ((*s)->root(), root);
  EXPECT_FALSE(test::file_exists(tmp.file("later"))) << "open writes nothing";
  auto session = (*s)->create_session("/w", written("first"));
  ASSERT_TRUE(session.ok()) << session.status().message();
  EXPECT_TRUE(test::file_exists((*session)->path()));
  EXPECT_EQ(storage::dir_name((*session)->path()), root + "/sessions/--w--");
}

TEST(StoreOpen, InMemoryKeepsEverythingOffTheDiskAndDefaultsItsRoot) {
  StoreOptions o;
  o.in_memory = true;
  auto s = Store::open("", o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ((*s)->root(), "/memory");
  EXPECT_EQ((*s)->session_dir("/w"), "/memory/sessions/--w--");
  auto created = (*s)->create_session("/w", written("mem-1"));
  ASSERT_TRUE(created.ok()) << created.status().message();
  std::string path = (*created)->path();
  ASSERT_TRUE((*created)->close().ok());
  EXPECT_FALSE(test::file_exists(path)) << "an in-memory session reached the disk";
  EXPECT_EQ(opened((*s)->open_session(path, {})), path);
  EXPECT_EQ(opened((*s)->open_session("mem-1", {})), path) << "ids resolve in memory too";
  // Another in-memory store is another file system.
  auto other = Store::open("", o);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ((*other)->open_session(path, {}).status().code(), Code::kNotFound);
  // A root given is kept.
  auto named = Store::open("/elsewhere", o);
  ASSERT_TRUE(named.ok());
  EXPECT_EQ((*named)->root(), "/elsewhere");
}

TEST(StoreOpen, InMemoryWithAFileSystemIsInvalid) {
  StoreOptions o;
  o.in_memory = true;
  o.fs = storage::make_memory_fs();
  auto s = Store::open("/r", o);
  EXPECT_EQ(s.status().code(), Code::kInvalid);
  EXPECT_EQ(s.status().message(), "a store in memory has its own file system");
}

TEST(StoreOpen, AGivenFileSystemIsUsedWithTheDiskRules) {
  StoreOptions o;
  o.fs = storage::make_memory_fs();
  ASSERT_TRUE(o.fs->make_dirs("/given").ok());
  test::put_file(*o.fs, "/given/file", "x");
  EXPECT_EQ(Store::open("", o).status().code(), Code::kInvalid);
  EXPECT_EQ(Store::open("/given/file", o).status().message(), "/given/file is not a directory");
  auto s = Store::open("/given", o);
  ASSERT_TRUE(s.ok());
  auto created = (*s)->create_session("/w", written("on-given"));
  ASSERT_TRUE(created.ok()) << created.status().message();
  EXPECT_TRUE(o.fs->stat((*created)->path()).ok()) << "the session went through the given seam";
}

// --- create ------------------------------------------------------------------------------------

TEST_F(StoreTest, SessionDirEncodesTheCwdUnderTheRoot) {
  EXPECT_EQ(store_->session_dir("/home/u/p"), tmp_.path() + "/sessions/--home-u-p--");
  EXPECT_EQ(store_->session_dir("C:\\w"), tmp_.path() + "/sessions/--C--w--");
}

TEST_F(StoreTest, CreateWritesIntoTheCwdsDirectoryWithTheCwdInItsHeader) {
  SessionOptions o = written("new-1");
  o.cwd = "/ignored";  // the argument wins
  auto s = store_->create_session("/home/u/p", o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(storage::dir_name((*s)->path()), store_->session_dir("/home/u/p"));
  EXPECT_EQ(storage::base_name((*s)->path()), "2026-01-01T00-00-00-000Z_new-1.jsonl");
  EXPECT_EQ(first_line(test::read_file((*s)->path())),
            R"({"type":"session","version":3,"id":"new-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/u/p"})");
}

TEST_F(StoreTest, CreateRefusesReadOnly) {
  SessionOptions o;
  o.read_only = true;
  EXPECT_EQ(opened(store_->create_session("/w", o)), code_and(Code::kInvalid, "a new session cannot be read-only"));
  EXPECT_FALSE(test::file_exists(tmp_.file("sessions")));
}

TEST_F(StoreTest, EverySessionPutsImagesIntoTheStoresBlobStore) {
  test::TempDir elsewhere;
  SessionOptions o = written("img-1");
  o.blobs = std::make_shared<blobs::BlobStore>(storage::make_posix_fs(), elsewhere.path());  // replaced
  auto s = store_->create_session("/w", o);
  ASSERT_TRUE(s.ok());
  std::string image = R"({"role":"user","content":[{"type":"image","mimeType":"image/png","data":")" +
                      std::string(2048, 'A') + R"("}]})";
  ASSERT_TRUE((*s)->append_message(image, nullptr).ok());
  ASSERT_TRUE((*s)->append_message(kAssistant, nullptr).ok());
  ASSERT_TRUE((*s)->flush().ok());
  auto listing = store_->list_blobs(true);
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  ASSERT_EQ(listing->blobs.size(), 1u);
  EXPECT_EQ(listing->blobs[0].problem, "");
  EXPECT_NE(test::read_file((*s)->path()).find("blob:sha256:" + listing->blobs[0].name), std::string::npos);
  EXPECT_FALSE(test::file_exists(elsewhere.file("blobs")));
  // The same for the other ways in.
  std::string path = (*s)->path();
  ASSERT_TRUE((*s)->close().ok());
  SessionOptions reopen;
  reopen.blobs = o.blobs;
  auto again = store_->open_session(path, reopen);
  ASSERT_TRUE(again.ok());
  EXPECT_NE((*again)->entries_json(true).find(std::string(2048, 'A')), std::string::npos)
      << "the image resolves from the store's blobs";
}

TEST_F(StoreTest, ASessionOutlivesItsStore) {
  auto s = store_->create_session("/w", written("outlives"));
  ASSERT_TRUE(s.ok());
  store_.reset();
  EXPECT_TRUE((*s)->append_message(kUser, nullptr).ok());
  EXPECT_TRUE((*s)->append_message(kAssistant, nullptr).ok());
  EXPECT_TRUE((*s)->close().ok());
  EXPECT_NE(test::read_file((*s)->path()).find("\"hi\""), std::string::npos);
}

// --- open by path, id or prefix ---------------------------------------------------------------

TEST_F(StoreTest, OpenByPathIdAndUnambiguousPrefix) {
  std::string a = make("abc-111", "/w", 1700000000000);
  std::string b = make("abd-222", "/x", 1700000001000);
  EXPECT_EQ(opened(store_->open_session(a, {})), a);
  EXPECT_EQ(opened(store_->open_session("abc-111", {})), a);
  EXPECT_EQ(opened(store_->open_session("abd", {})), b) << "a prefix, across working directories";
  EXPECT_EQ(opened(store_->open_session("ABC", {})), a) << "case-insensitive";
  EXPECT_EQ(opened(store_->open_session(storage::base_name(b), {})), b) << "the file name";
}

TEST_F(StoreTest, OpenByAmbiguousPrefixNamesTheCandidates) {
  std::string a = make("abc-111", "/w", 1700000000000);
  std::string b = make("abd-222", "/x", 1700000001000);
  EXPECT_EQ(opened(store_->open_session("ab", {})),
            code_and(Code::kAmbiguous, "\"ab\" matches 2 sessions: " + storage::base_name(a) + ", " +
                                           storage::base_name(b)));
}

TEST_F(StoreTest, OpenOfAnUnknownIdOrMissingPathIsNotFound) {
  make("abc-111", "/w", 1700000000000);
  EXPECT_EQ(opened(store_->open_session("zzz", {})), code_and(Code::kNotFound, "no session matches \"zzz\""));
  std::string missing = tmp_.file("sessions/--w--/missing.jsonl");
  EXPECT_EQ(opened(store_->open_session(missing, {})), code_and(Code::kNotFound, missing + ": no such session file"));
}

// A bare name is a path when it names a file (relative to the process's directory), or when the
// caller asks to create a missing file; only otherwise is it an id.
class StoreInWorkingDir : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    char buf[PATH_MAX];
    ASSERT_NE(::getcwd(buf, sizeof buf), nullptr);
    saved_ = buf;
    ASSERT_EQ(::chdir(work_.path().c_str()), 0);
  }
  void TearDown() override { ASSERT_EQ(::chdir(saved_.c_str()), 0); }

  test::TempDir work_;
  std::string saved_;
};

TEST_F(StoreInWorkingDir, ABareNameThatNamesAFileIsAPath) {
  std::string in_store = make("abc-111", "/w", 1700000000000);
  test::write_file(work_.file("abc"), test::read_file(in_store));
  EXPECT_EQ(opened(store_->open_session("abc", {})), "abc");
  EXPECT_EQ(opened(store_->open_session("abc-1", {})), in_store);
}

TEST_F(StoreInWorkingDir, CreateIfMissingTakesABareNameAsAPath) {
  std::string in_store = make("abc-111", "/w", 1700000000000);
  SessionOptions o = written("fresh");
  o.create_if_missing = true;
  EXPECT_EQ(opened(store_->open_session("abc-111", o)), "abc-111");
  EXPECT_TRUE(test::file_exists(work_.file("abc-111"))) << "a new file here, not the store's session";
  EXPECT_NE(test::read_file(work_.file("abc-111")).find("\"id\":\"fresh\""), std::string::npos);
}

// --- continue-recent ---------------------------------------------------------------------------

TEST_F(StoreTest, ContinueRecentPrefersThisTerminalsBreadcrumb) {
  std::string older = make("older", "/w", 1600000000000);
  make("newer", "/w", 1700000000000);
  ASSERT_TRUE(store_->write_breadcrumb("term-1", "/w", older).ok());
  EXPECT_EQ(opened(store_->continue_recent("/w", std::string_view("term-1"), {})), older);
  EXPECT_EQ(test::read_file(breadcrumb_file("term-1")), "/w\n" + older + "\n");
}

TEST_F(StoreTest, ContinueRecentTakesTheNewestOfTheCwdAndLeavesABreadcrumb) {
  make("older", "/w", 1600000000000);
  std::string newer = make("newer", "/w", 1700000000000);
  make("elsewhere", "/x", 1800000000000);
  EXPECT_EQ(opened(store_->continue_recent("/w", std::nullopt, {})), newer);
  EXPECT_FALSE(test::file_exists(tmp_.file("terminal-sessions"))) << "no terminal, no breadcrumb";
  // A terminal without a breadcrumb (or with one for another cwd) gets the newest, then a breadcrumb.
  ASSERT_TRUE(store_->write_breadcrumb("term-2", "/x", newer).ok());
  EXPECT_EQ(opened(store_->continue_recent("/w", std::string_view("term-2"), {})), newer);
  EXPECT_EQ(test::read_file(breadcrumb_file("term-2")), "/w\n" + newer + "\n");
  EXPECT_EQ(store_->finder().breadcrumb("term-2", "/w"), newer);
}

TEST_F(StoreTest, ContinueRecentCreatesWhenTheCwdHasNoSession) {
  make("elsewhere", "/x", 1700000000000);
  SessionOptions o = written("started");
  o.cwd = "/ignored";
  auto s = store_->continue_recent("/w", std::string_view("term-3"), o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(storage::dir_name((*s)->path()), store_->session_dir("/w"));
  EXPECT_EQ((*s)->header_info().id, "started");
  EXPECT_EQ((*s)->header_info().cwd, "/w");
  EXPECT_EQ(test::read_file(breadcrumb_file("term-3")), "/w\n" + (*s)->path() + "\n");
}

TEST_F(StoreTest, ContinueRecentSucceedsWhenTheBreadcrumbCannotBeWritten) {
  std::string newest = make("only", "/w", 1700000000000);
  test::write_file(tmp_.file("terminal-sessions"), "a file where the directory would go");
  EXPECT_EQ(opened(store_->continue_recent("/w", std::string_view("term-4"), {})), newest);
  EXPECT_EQ(test::read_file(tmp_.file("terminal-sessions")), "a file where the directory would go");
  // A terminal id a breadcrumb cannot be named after is only not remembered either.
  EXPECT_EQ(store_->write_breadcrumb("bad/id", "/w", newest).code(), Code::kInvalid);
  EXPECT_EQ(opened(store_->continue_recent("/w", std::string_view("bad/id"), {})), newest);
}

TEST_F(StoreTest, ContinueRecentRefusesReadOnly) {
  make("only", "/w", 1700000000000);
  SessionOptions o;
  o.read_only = true;
  EXPECT_EQ(opened(store_->continue_recent("/w", std::nullopt, o)),
            code_and(Code::kInvalid, "continue-recent opens for writing"));
}

// --- copies and moves --------------------------------------------------------------------------

TEST_F(StoreTest, ForkFromCopiesIntoTheTargetCwd) {
  std::string source = make("source", "/a", 1700000000000);
  std::string before = test::read_file(source);
  SessionOptions o = written("copy");
  o.cwd = "/ignored";
  auto s = store_->fork_from(source, "/b", o);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(storage::dir_name((*s)->path()), store_->session_dir("/b"));
  EXPECT_EQ((*s)->header_info().cwd, "/b");
  EXPECT_EQ((*s)->header_info().parent_session, "source");
  std::string copy = test::read_file((*s)->path());
  EXPECT_EQ(copy.substr(copy.find('\n')), before.substr(before.find('\n'))) << "the entries, byte for byte";
  EXPECT_EQ(test::read_file(source), before);
  std::string missing = tmp_.file("nope.jsonl");
  EXPECT_EQ(store_->fork_from(missing, "/b", {}).status().code(), Code::kNotFound);
}

TEST_F(StoreTest, ForkBranchAndMoveStayInTheStore) {
  std::string path = make("orig", "/a", 1700000000000);
  auto s = store_->open_session(path, {});
  ASSERT_TRUE(s.ok());
  auto forked = store_->fork_session(**s, written("forked"));
  ASSERT_TRUE(forked.ok()) << forked.status().message();
  EXPECT_EQ(storage::dir_name((*forked)->path()), store_->session_dir("/a"));
  auto branched = store_->create_branched(**s, std::nullopt, written("branched"));
  ASSERT_TRUE(branched.ok()) << branched.status().message();
  EXPECT_EQ((*branched)->header_info().parent_session, path);
  ASSERT_TRUE(store_->move_session(**forked, "/moved").ok());
  EXPECT_EQ(storage::dir_name((*forked)->path()), store_->session_dir("/moved"));
  EXPECT_EQ((*forked)->header_info().cwd, "/moved");
  EXPECT_NE(first_line(test::read_file((*forked)->path())).find("\"cwd\":\"/moved\""), std::string::npos);
}

// --- list and resolve --------------------------------------------------------------------------

TEST_F(StoreTest, ListIsNewestFirstPerCwdOrAcrossTheStore) {
  std::string old_w = make("old-w", "/w", 1600000000000);
  std::string new_x = make("new-x", "/x", 1800000000000);
  std::string mid_w = make("mid-w", "/w", 1700000000000);
  auto ids = [&](const discovery::ListQuery& q) {
    auto r = store_->list(q);
    EXPECT_TRUE(r.ok());
    V out;
    if (r.ok()) {
      for (const auto& s : *r) out.push_back(s.id);
    }
    return out;
  };
  EXPECT_EQ(ids({}), (V{"new-x", "mid-w", "old-w"}));
  discovery::ListQuery w;
  w.cwd = "/w";
  EXPECT_EQ(ids(w), (V{"mid-w", "old-w"}));
  w.limit = 1;
  EXPECT_EQ(ids(w), V{"mid-w"});
  auto two = store_->list(w);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(discovery::summaries_json(*two), "[" + discovery::summary_json((*two)[0]) + "]");
  auto all = store_->list({});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(discovery::summaries_json(*all), "[" + discovery::summary_json((*all)[0]) + "," +
                                                 discovery::summary_json((*all)[1]) + "," +
                                                 discovery::summary_json((*all)[2]) + "]");
  EXPECT_EQ(discovery::summaries_json({}), "[]");
}

TEST_F(StoreTest, ResolveSearchesTheCwdFirstThenTheStore) {
  std::string in_w = make("same-1", "/w", 1700000000000);
  std::string in_x = make("same-2", "/x", 1700000000000);
  EXPECT_EQ(store_->resolve("same", std::string_view("/w")).value(), in_w);
  EXPECT_EQ(store_->resolve("same", std::string_view("/x")).value(), in_x);
  EXPECT_EQ(store_->resolve("same-2", std::string_view("/w")).value(), in_x) << "not in /w: the whole store";
  EXPECT_EQ(store_->resolve("same", std::nullopt).status().code(), Code::kAmbiguous);
  EXPECT_EQ(store_->resolve("", std::nullopt).status().code(), Code::kInvalid);
}

// --- blobs -------------------------------------------------------------------------------------

TEST_F(StoreTest, CollectGarbageTakesNowFromTheClockWhenNotGiven) {
  std::string fresh;
  std::string stale;
  ASSERT_TRUE(store_->blobs().put("put just now", &fresh).ok());
  ASSERT_TRUE(store_->blobs().put("put two hours ago", &stale).ok());
  int64_t now_ms = static_cast<int64_t>(::time(nullptr)) * 1000;
  EXPECT_TRUE(test::set_mtime(store_->blobs().path_of(stale), now_ms - 2 * blobs::kDefaultGraceMs));
  blobs::GcOptions o;
  o.dry_run = true;  // now_ms 0: the system clock's now
  auto report = store_->collect_garbage(o);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->deleted.size(), 1u);
  EXPECT_EQ(report->deleted[0].name, stale);
  ASSERT_EQ(report->young.size(), 1u);
  EXPECT_EQ(report->young[0].name, fresh);
  EXPECT_TRUE(test::file_exists(store_->blobs().path_of(stale))) << "a dry run deletes nothing";
  // A given now is used as it is: at the blobs' own epoch, both are young.
  o.now_ms = now_ms - 2 * blobs::kDefaultGraceMs;
  auto then = store_->collect_garbage(o);
  ASSERT_TRUE(then.ok());
  EXPECT_TRUE(then->deleted.empty());
  EXPECT_EQ(then->young.size(), 2u);
}

}  // namespace
}  // namespace xs::store
