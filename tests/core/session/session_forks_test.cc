// session/forks: new files made from a session (fork, create_branched, fork_from) and moving a
// session to another cwd (docs/format.md#new-files-from-old-ones, docs/decisions.md#write-path).
// In-memory fs with a fixed clock and seeded ids, so whole files are asserted byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "format/session_paths.h"
#include "format/clock.h"
#include "format/ids.h"
#include "session/forks.h"
#include "session/session.h"
#include "storage/faulty_fs.h"
#include "test_util.h"

namespace xs::session {
namespace {

constexpr int64_t kT0 = 1771237230000;  // 2026-02-16T10:20:30.000Z
const std::string kRoot = "/home/u/.xcsh/agent";
const std::string kCwd = "/home/u/proj";
const std::string kUser = R"({"role":"user","content":"hi"})";
const std::string kAssistant = R"({"role":"assistant","content":[{"type":"text","text":"yo"}],"provider":"p","model":"m"})";

std::string iso(int sec) { return format::iso_from_ms(kT0 + sec * 1000LL); }

SessionOptions options(const std::string& id, int start_sec, uint64_t seed, bool defer = false) {
  SessionOptions o;
  o.clock = format::Clock::Fixed(kT0 + start_sec * 1000LL, 1000);
  o.id_seed = seed;
  o.cwd = kCwd;
  o.session_id = id;
  o.defer_until_assistant = defer;
  return o;
}

std::string header(const std::string& id, int sec, const std::string& cwd, const std::string& extra = "") {
  return R"({"type":"session","version":3,"id":")" + id + R"(","timestamp":")" + iso(sec) + R"(","cwd":")" + cwd +
         "\"" + extra + "}";
}

std::string label_line(const std::string& id, const std::string& parent, int sec, const std::string& target,
                       const std::string& label) {
  return R"({"type":"label","id":")" + id + R"(","parentId":")" + parent + R"(","timestamp":")" + iso(sec) +
         R"(","targetId":")" + target + R"(","label":")" + label + "\"}";
}

std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

class SessionForksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions o = options("sess1", 0, 42);
    o.title = "T";
    auto r = Session::create(fs_, dir_, o);
    ASSERT_TRUE(r.ok()) << r.status().message();
    s_ = std::move(*r);
    path_ = s_->path();
    ids_ = test::seeded_entry_ids(42, 16);
  }
  std::string file(const std::string& path) { return test::get_file(*base_, path); }
  // The lines of a file after its header, each with its '\n'.
  std::string entry_lines(const std::string& path) {
    std::string f = file(path);
    return f.substr(f.find('\n') + 1);
  }
  std::string append(std::string_view message) {
    std::string id;
    Status st = s_->append_message(message, &id);
    EXPECT_TRUE(st.ok()) << st.message();
    return id;
  }
  std::string label(const std::string& target, std::optional<std::string_view> text) {
    std::string id;
    Status st = s_->append_label(target, text, &id);
    EXPECT_TRUE(st.ok()) << st.message();
    return id;
  }
  // Sorted names in a directory; none when it does not exist.
  std::vector<std::string> sessions_in(const std::string& dir) {
    auto r = base_->list_dir(dir);
    if (!r.ok()) return {};
    std::sort(r->begin(), r->end());
    return *r;
  }

  std::shared_ptr<storage::Fs> base_ = storage::make_memory_fs();
  std::shared_ptr<storage::FaultyFs> fs_ = std::make_shared<storage::FaultyFs>(base_);
  std::string dir_ = kRoot + "/sessions/--home-u-proj--";
  std::unique_ptr<Session> s_;
  std::string path_;
  std::vector<std::string> ids_;
};

// --- fork -------------------------------------------------------------------------------------

TEST_F(SessionForksTest, ForkWritesANewIdEveryEntryAndTheOldIdAsParent) {
  append(kUser);
  append(kAssistant);
  append(kUser);
  std::string before = file(path_);
  SessionOptions o = options("", 100, 7);
  o.session_id.reset();  // generated from the seed
  auto f = fork_session(*s_, o);
  ASSERT_TRUE(f.ok()) << f.status().message();
  std::string sid = format::IdGenerator(7).session_id();
  std::string fpath = dir_ + "/" + format::session_file_name(iso(100), sid);
  EXPECT_EQ((*f)->path(), fpath);
  EXPECT_EQ(file(fpath), header(sid, 100, kCwd, R"(,"title":"T","parentSession":"sess1")") + "\n" + entry_lines(path_));
  EXPECT_TRUE((*f)->persisted());
  EXPECT_EQ((*f)->leaf_id(), std::optional<std::string_view>(ids_[2]));
  EXPECT_EQ(file(path_), before) << "the original is untouched";
  // The fork is open for writing: it holds its file's lock.
  EXPECT_EQ(Session::open(fs_, fpath, SessionOptions()).status().code(), Code::kLocked);
}

// The fork is made of the session's entries: a skipped line is reported on the original and not
// carried into a file that never had it.
TEST_F(SessionForksTest, ForkCopiesEntriesNotSkippedLines) {
  std::string src = dir_ + "/hand.jsonl";
  std::string u = R"({"type":"message","id":"m1","parentId":null,"timestamp":")" + iso(1) + R"(","message":)" + kUser + "}";
  test::put_file(*base_, src, header("hand", 0, "/w") + "\n\n{broken\n" + u + "\n");
  auto s = Session::open(fs_, src, SessionOptions());
  ASSERT_TRUE(s.ok()) << s.status().message();
  auto f = fork_session(**s, options("hand2", 100, 7));
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(file((*f)->path()), header("hand2", 100, "/w", R"(,"parentSession":"hand")") + "\n" + u + "\n");
  EXPECT_EQ((*f)->diagnostic_count(), 0u);
}

TEST_F(SessionForksTest, ForkWithAnInvalidIdWritesNothing) {
  append(kUser);
  append(kAssistant);
  std::vector<std::string> before = sessions_in(dir_);
  EXPECT_EQ(fork_session(*s_, options("bad/id", 100, 7)).status().code(), Code::kInvalid);
  EXPECT_EQ(sessions_in(dir_), before);
}

// --- create_branched ----------------------------------------------------------------------------

// Labels sit on the path (they move the leaf). They are dropped from the copy, so the entry after
// one is re-pointed at the entry before it instead of being left an orphan
// (docs/decisions.md#7-a-branched-session-keeps-its-chain).
TEST_F(SessionForksTest, CreateBranchedRelinksTheEntryAfterADroppedLabel) {
  std::string u1 = append(kUser), a1 = append(kAssistant);
  std::string l = label(u1, "start");
  std::string u2 = append(kUser), a2 = append(kAssistant);
  ASSERT_EQ(u2, ids_[3]);
  std::vector<std::string> orig;
  for (const std::string& id : {u1, a1, u2, a2}) {
    auto e = s_->entry_json(id);
    ASSERT_TRUE(e.ok());
    orig.push_back(*e);
  }
  auto b = create_branched(*s_, std::string_view(a2), options("br1", 100, 7));
  ASSERT_TRUE(b.ok()) << b.status().message();
  std::string new_label = test::seeded_entry_ids(7, 1)[0];
  std::string want = header("br1", 100, kCwd, ",\"parentSession\":\"" + path_ + "\"") + "\n" + orig[0] + "\n" + orig[1] +
                     "\n" + replace_once(orig[2], "\"parentId\":\"" + l + "\"", "\"parentId\":\"" + a1 + "\"") + "\n" +
                     orig[3] + "\n" + label_line(new_label, a2, 101, u1, "start") + "\n";
  EXPECT_EQ(file((*b)->path()), want) << "no title: pi's createBranchedSession header";
  EXPECT_EQ((*b)->path(), dir_ + "/" + format::session_file_name(iso(100), "br1"));
  // The whole path is one chain again: the context holds all four messages.
  auto ctx = (*b)->context(std::nullopt);
  auto old_ctx = s_->context(std::string_view(a2));
  ASSERT_TRUE(ctx.ok() && old_ctx.ok());
  EXPECT_EQ(*ctx, replace_once(*old_ctx, "\"leafId\":\"" + a2 + "\"", "\"leafId\":\"" + new_label + "\""));
  EXPECT_EQ((*b)->leaf_id(), std::optional<std::string_view>(new_label));
}

TEST_F(SessionForksTest, CreateBranchedFromALabelAtTheRootStartsWithARoot) {
  std::string u1 = append(kUser);
  ASSERT_OK(s_->set_leaf(std::nullopt));
  std::string l = label(u1, "x");  // a root: the leaf was reset
  std::string u9 = append(kUser);
  auto e = s_->entry_json(u9);
  ASSERT_TRUE(e.ok());
  auto b = create_branched(*s_, std::string_view(u9), options("br2", 100, 7));
  ASSERT_TRUE(b.ok()) << b.status().message();
  // u1 is not on the path, so its label is not carried.
  EXPECT_EQ(entry_lines((*b)->path()), replace_once(*e, "\"parentId\":\"" + l + "\"", "\"parentId\":null") + "\n");
}

// Fresh labels follow the label map's JavaScript insertion order: an update keeps its place, a
// cleared label that is set again moves to the end. Stamped with the new session's clock.
TEST_F(SessionForksTest, CreateBranchedCarriesLabelsInMapOrder) {
  std::string u1 = append(kUser), a1 = append(kAssistant);
  label(a1, "two");
  label(u1, "one");
  label(a1, std::nullopt);
  label(u1, "uno");
  label(a1, "dos");
  auto b = create_branched(*s_, std::nullopt, options("br3", 100, 7));
  ASSERT_TRUE(b.ok()) << b.status().message();
  std::vector<std::string> fresh = test::seeded_entry_ids(7, 2);
  std::string lines = entry_lines((*b)->path());
  std::string u1_line = lines.substr(0, lines.find('\n') + 1);
  std::string a1_line = lines.substr(u1_line.size(), lines.find('\n', u1_line.size()) + 1 - u1_line.size());
  EXPECT_EQ(lines, u1_line + a1_line + label_line(fresh[0], a1, 101, u1, "uno") + "\n" +
                       label_line(fresh[1], fresh[0], 102, a1, "dos") + "\n");
  EXPECT_EQ((*b)->labels_json(), R"([{"targetId":")" + u1 + R"(","label":"uno","timestamp":")" + iso(101) +
                                     R"("},{"targetId":")" + a1 + R"(","label":"dos","timestamp":")" + iso(102) + "\"}]");
}

TEST_F(SessionForksTest, CreateBranchedWithoutALeafOrWithABadIdWritesNothing) {
  EXPECT_EQ(create_branched(*s_, std::nullopt, options("b1", 100, 7)).status().code(), Code::kNotFound) << "empty";
  append(kUser);
  append(kAssistant);
  std::vector<std::string> before = sessions_in(dir_);
  EXPECT_EQ(create_branched(*s_, std::string_view("nope"), options("b2", 100, 7)).status().code(), Code::kNotFound);
  EXPECT_EQ(create_branched(*s_, std::nullopt, options("a b", 100, 7)).status().code(), Code::kInvalid);
  ASSERT_OK(s_->set_leaf(std::nullopt));
  EXPECT_EQ(create_branched(*s_, std::nullopt, options("b3", 100, 7)).status().code(), Code::kNotFound);
  EXPECT_EQ(sessions_in(dir_), before);
}

// --- fork_from ----------------------------------------------------------------------------------

// A v1 source is migrated in memory (ids from the options' seed) and only read.
TEST_F(SessionForksTest, ForkFromMigratesAV1SourceAndLeavesItAsItWas) {
  std::string src = kRoot + "/v1.jsonl";
  std::string u = R"({"type":"message","timestamp":")" + iso(1) + R"(","message":)" + kUser;
  std::string a = R"({"type":"message","timestamp":")" + iso(2) + R"(","message":)" + kAssistant;
  std::string bytes = R"({"type":"session","id":"old1","timestamp":")" + iso(0) + R"(","cwd":"/w","title":"Old"})" "\n" +
                      u + "}\n" + a + "}\n";
  test::put_file(*base_, src, bytes);
  std::string other = kRoot + "/sessions/--other--";
  SessionOptions o = options("cp1", 100, 9);
  o.cwd = "/other";
  auto f = fork_from(fs_, src, other, o);
  ASSERT_TRUE(f.ok()) << f.status().message();
  std::vector<std::string> m = test::seeded_entry_ids(9, 2);
  EXPECT_EQ(file(other + "/" + format::session_file_name(iso(100), "cp1")),
            header("cp1", 100, "/other", R"(,"title":"Old","parentSession":"old1")") + "\n" + u + ",\"id\":\"" + m[0] +
                "\",\"parentId\":null}\n" + a + ",\"id\":\"" + m[1] + "\",\"parentId\":\"" + m[0] + "\"}\n");
  EXPECT_EQ(file(src), bytes);
  EXPECT_EQ((*f)->header_info().cwd, "/other");
}

// --- move_to ------------------------------------------------------------------------------------

TEST_F(SessionForksTest, MoveToRenamesRewritesTheCwdAndMovesTheLock) {
  append(kUser);
  append(kAssistant);
  std::string entries = entry_lines(path_);
  std::string new_dir = kRoot + "/sessions/--new--";
  ASSERT_OK(s_->move_to(new_dir, "/new"));
  std::string moved = new_dir + "/" + format::session_file_name(iso(0), "sess1");
  EXPECT_EQ(s_->path(), moved);
  EXPECT_EQ(s_->header_info().cwd, "/new");
  // The cwd is replaced in place; the title after it keeps its position.
  EXPECT_EQ(file(moved), header("sess1", 0, "/new", R"(,"title":"T")") + "\n" + entries);
  EXPECT_EQ(sessions_in(dir_), std::vector<std::string>{}) << "old file and its lock are gone";
  EXPECT_EQ(Session::open(fs_, moved, SessionOptions()).status().code(), Code::kLocked);
  // Still writable, in the new place.
  std::string id = append(kUser);
  EXPECT_EQ(file(moved), header("sess1", 0, "/new", R"(,"title":"T")") + "\n" + entries + *s_->entry_json(id) + "\n");
  // Moving to where it already is, with the cwd it already has, changes nothing.
  std::string now = file(moved);
  ASSERT_OK(s_->move_to(new_dir, "/new"));
  EXPECT_EQ(file(moved), now);
}

// "/a-b" and "/a/b" share a directory (the encoding collides), so a move between them renames
// nothing, but the header must still say the new cwd: listing by cwd reads the header.
TEST_F(SessionForksTest, MoveToACwdThatSharesTheDirectoryStillRewritesTheCwd) {
  std::string shared = kRoot + "/sessions/" + "--a-b--";
  ASSERT_EQ(format::session_dir(kRoot, "/a-b"), shared);
  ASSERT_EQ(format::session_dir(kRoot, "/a/b"), shared);
  append(kUser);
  append(kAssistant);
  ASSERT_OK(s_->move_to(shared, "/a-b"));
  std::string entries = entry_lines(s_->path());
  ASSERT_OK(s_->move_to(shared, "/a/b"));
  EXPECT_EQ(s_->path(), shared + "/" + format::session_file_name(iso(0), "sess1"));
  EXPECT_EQ(s_->header_info().cwd, "/a/b");
  EXPECT_EQ(file(s_->path()), header("sess1", 0, "/a/b", R"(,"title":"T")") + "\n" + entries);
}

TEST_F(SessionForksTest, MoveToOfASessionNotYetOnDiskMovesWhereItWillBeWritten) {
  auto d = Session::create(fs_, dir_, options("def1", 0, 5, /*defer=*/true));
  ASSERT_TRUE(d.ok());
  std::string id;
  ASSERT_OK((*d)->append_message(kUser, &id));
  std::string new_dir = kRoot + "/sessions/--new--";
  ASSERT_OK((*d)->move_to(new_dir, "/new"));
  EXPECT_FALSE((*d)->persisted());
  std::string name = format::session_file_name(iso(0), "def1");
  EXPECT_EQ(sessions_in(new_dir), std::vector<std::string>{}) << "nothing written yet";
  EXPECT_FALSE(base_->stat(dir_ + "/" + name).ok());
  ASSERT_OK((*d)->append_message(kAssistant, &id));
  std::string moved = new_dir + "/" + name;
  EXPECT_EQ((*d)->path(), moved);
  EXPECT_FALSE(base_->stat(dir_ + "/" + name).ok());
  EXPECT_EQ(file(moved).substr(0, file(moved).find('\n')), header("def1", 0, "/new"));
  EXPECT_EQ(Session::open(fs_, moved, SessionOptions()).status().code(), Code::kLocked);
}

// A session opened by path before its file exists holds that path's lock; once moved, the lock
// must follow it, or a second writer could open the moved file.
TEST_F(SessionForksTest, MoveToOfAnUnwrittenSessionOpenedByPathMovesItsLock) {
  std::string p = dir_ + "/pending.jsonl";
  SessionOptions o = options("pend", 0, 5, /*defer=*/true);
  o.create_if_missing = true;
  auto d = Session::open(fs_, p, o);
  ASSERT_TRUE(d.ok()) << d.status().message();
  std::string id;
  ASSERT_OK((*d)->append_message(kUser, &id));
  std::string new_dir = kRoot + "/sessions/--new--";
  ASSERT_OK((*d)->move_to(new_dir, "/new"));
  ASSERT_OK((*d)->append_message(kAssistant, &id));
  ASSERT_TRUE(base_->stat(new_dir + "/pending.jsonl").ok());
  EXPECT_EQ(Session::open(fs_, new_dir + "/pending.jsonl", SessionOptions()).status().code(), Code::kLocked);
  EXPECT_FALSE(base_->stat(p + ".lock").ok()) << "no lock file left for a path that names nothing";
}

TEST_F(SessionForksTest, AFailedMoveIsRolledBack) {
  append(kUser);
  append(kAssistant);
  std::string before = file(path_);
  std::string new_dir = kRoot + "/sessions/--new--";
  fs_->fail(storage::FsOp::kCreateNew);  // the rewrite's temp file
  EXPECT_EQ(s_->move_to(new_dir, "/new").code(), Code::kIo);
  fs_->clear(storage::FsOp::kCreateNew);
  EXPECT_EQ(s_->path(), path_);
  EXPECT_EQ(s_->header_info().cwd, kCwd);
  EXPECT_EQ(std::string(s_->header()), header("sess1", 0, kCwd, R"(,"title":"T")"));
  EXPECT_EQ(file(path_), before);
  EXPECT_EQ(sessions_in(new_dir), std::vector<std::string>{}) << "no file, no lock, no temp";
  EXPECT_EQ(Session::open(fs_, path_, SessionOptions()).status().code(), Code::kLocked) << "still ours";
  // The write error is sticky until the session is reopened (docs/decisions.md#sticky-errors).
  std::string id;
  EXPECT_EQ(s_->append_message(kUser, &id).code(), Code::kPoisoned);
  EXPECT_EQ(file(path_), before);
}

TEST_F(SessionForksTest, MoveToRefusesReadOnlyHandlesAndBadCwds) {
  append(kUser);
  append(kAssistant);
  std::string before = file(path_);
  SessionOptions ro;
  ro.read_only = true;
  auto r = Session::open(fs_, path_, ro);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->move_to(kRoot + "/sessions/--x--", "/x").code(), Code::kReadOnly);
  EXPECT_EQ(s_->move_to(kRoot + "/sessions/--x--", "/x\xFF").code(), Code::kInvalid);
  EXPECT_EQ(file(path_), before);
  EXPECT_EQ(sessions_in(kRoot + "/sessions"), std::vector<std::string>{"--home-u-proj--"});
}

}  // namespace
}  // namespace xs::session
