// discovery/finder: listing a store newest first (per cwd, by the header's cwd, or all of it),
// resolving an id / id prefix / file name to one file, and terminal breadcrumbs
// (docs/format.md#finding-sessions, docs/decisions.md#4-discovery-has-no-blind-spot,
// docs/decisions.md#ids-paths-and-threads).
// Posix fs in a temp dir, so file mtimes can be set exactly (no sleeping for an order).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "discovery/finder.h"
#include "format/session_paths.h"
#include "storage/path.h"
#include "test_util.h"

namespace xs::discovery {
namespace {

const std::string kTs = "2026-02-16T10:20:30.000Z";

class FinderTest : public ::testing::Test {
 protected:
  // A session file for `cwd` with header id `id` (named after `name_id`, default the id), created
  // at `ts`.
  std::string make(const std::string& cwd, const std::string& id, int64_t mtime_ms, const std::string& name_id = "",
                   const std::string& ts = kTs) {
    std::string dir = format::session_dir(tmp_.path(), cwd);
    std::string path = dir + "/" + format::session_file_name(ts, name_id.empty() ? id : name_id);
    test::put_file(*fs_, path,
                   R"({"type":"session","version":3,"id":")" + id + R"(","timestamp":")" + ts + R"(","cwd":")" + cwd +
                       "\"}\n" + R"({"type":"message","id":"u1","parentId":null,"timestamp":")" + kTs +
                       R"(","message":{"role":"user","content":"prompt of )" + id + "\"}}\n");
    EXPECT_TRUE(test::set_mtime(path, mtime_ms));
    return path;
  }
  // The ids a listing returns, in order.
  std::vector<std::string> ids(const ListQuery& q) {
    auto r = finder_.list(q);
    EXPECT_TRUE(r.ok()) << r.status().message();
    std::vector<std::string> out;
    if (r.ok()) {
      for (const SessionSummary& s : *r) out.push_back(s.id);
    }
    return out;
  }
  static ListQuery cwd_query(const std::string& cwd, uint64_t limit = 0) {
    ListQuery q;
    q.cwd = cwd;
    q.limit = limit;
    return q;
  }
  std::string resolve(const std::string& query, const std::optional<std::string>& cwd = std::nullopt,
                      Code* code = nullptr, std::string* message = nullptr) {
    auto r = finder_.resolve(query, cwd);
    if (code) *code = r.ok() ? Code::kOk : r.status().code();
    if (message) *message = r.ok() ? "" : r.status().message();
    return r.ok() ? *r : "<error>";
  }

  test::TempDir tmp_;
  std::shared_ptr<storage::Fs> fs_ = storage::make_posix_fs();
  Finder finder_{fs_, tmp_.path()};
};

using V = std::vector<std::string>;

TEST_F(FinderTest, AnEmptyOrMissingStoreListsNothing) {
  EXPECT_EQ(ids(ListQuery()), V{});
  EXPECT_EQ(ids(cwd_query("/w")), V{});
  EXPECT_EQ(test::list_dir(tmp_.path()), V{}) << "listing creates nothing";
}

TEST_F(FinderTest, ListIsNewestFirstAcrossDirectoriesWithALimit) {
  make("/w", "w-old", 1600000000000);
  make("/x", "x-new", 1800000000000);
  make("/w", "w-mid", 1700000000000);
  make("/y", "y-oldest", 1500000000000);
  EXPECT_EQ(ids(ListQuery()), (V{"x-new", "w-mid", "w-old", "y-oldest"}));
  ListQuery two;
  two.limit = 2;
  EXPECT_EQ(ids(two), (V{"x-new", "w-mid"}));
  EXPECT_EQ(ids(cwd_query("/w")), (V{"w-mid", "w-old"}));
  EXPECT_EQ(ids(cwd_query("/w", 1)), (V{"w-mid"}));
  EXPECT_EQ(ids(cwd_query("/nowhere")), V{});
}

// Equal mtimes keep a stable order: directory name, then file name.
TEST_F(FinderTest, EqualMtimesKeepDirectoryThenFileNameOrder) {
  make("/b", "b2", 1700000000000);
  make("/a", "a2", 1700000000000);
  make("/b", "b1", 1700000000000);
  make("/a", "a1", 1700000000000);
  EXPECT_EQ(ids(ListQuery()), (V{"a1", "a2", "b1", "b2"}));
}

// Sessions written one after the other often share an mtime (the kernel's file clock advances once
// a tick): the later creation comes first, whatever the names, so continue-recent takes it.
TEST_F(FinderTest, EqualMtimesPutTheLaterCreatedSessionFirst) {
  make("/w", "made-first", 1700000000000, "z-name", "2026-02-16T10:20:30.001Z");
  make("/w", "made-last", 1700000000000, "a-name", "2026-02-16T10:20:30.003Z");
  make("/w", "made-second", 1700000000000, "m-name", "2026-02-16T10:20:30.002Z");
  EXPECT_EQ(ids(cwd_query("/w")), (V{"made-last", "made-second", "made-first"}));
  EXPECT_EQ(ids(cwd_query("/w", 1)), V{"made-last"});
}

TEST_F(FinderTest, ListByCwdChecksTheHeaderBecauseDirectoryNamesCollide) {
  make("/a-b", "dash", 1700000000000);
  make("/a/b", "slash", 1700000001000);
  EXPECT_EQ(test::list_dir(tmp_.path() + "/sessions"), V{"--a-b--"});
  EXPECT_EQ(ids(cwd_query("/a/b")), V{"slash"});
  EXPECT_EQ(ids(cwd_query("/a-b")), V{"dash"});
  EXPECT_EQ(ids(ListQuery()), (V{"slash", "dash"}));
}

TEST_F(FinderTest, OnlyJsonlFilesWithAHeaderAreListed) {
  std::string good = make("/w", "good", 1700000000000);
  std::string dir = storage::dir_name(good);
  test::put_file(*fs_, dir + "/junk.jsonl", "not a session\n");
  test::put_file(*fs_, dir + "/empty.jsonl", "");
  test::put_file(*fs_, dir + "/notes.txt", test::get_file(*fs_, good));
  test::put_file(*fs_, dir + "/.hidden.jsonl", test::get_file(*fs_, good));               // dot files: temps
  test::put_file(*fs_, dir + "/" + storage::base_name(good) + ".lock", "");
  test::put_file(*fs_, dir + "/old.jsonl.corrupt-2026", test::get_file(*fs_, good));     // preserved copies
  ASSERT_TRUE(fs_->make_dirs(dir + "/sub.jsonl").ok());                                   // a directory
  test::put_file(*fs_, tmp_.path() + "/sessions/stray.jsonl", test::get_file(*fs_, good));  // not in a cwd dir
  auto r = finder_.list(ListQuery());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].path, good);
  EXPECT_EQ((*r)[0].modified_ms, 1700000000000);
  EXPECT_EQ((*r)[0].first_message, std::optional<std::string>("prompt of good"));
}

TEST_F(FinderTest, FullListingLoadsCounts) {
  make("/w", "s1", 1700000000000);
  ListQuery q;
  q.full = true;
  auto r = finder_.list(q);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_TRUE((*r)[0].full);
  EXPECT_EQ((*r)[0].message_count, 1u);
  EXPECT_EQ((*r)[0].entry_count, 1u);
  EXPECT_EQ((*r)[0].diagnostics, 0u);
}

// --- resolve ----------------------------------------------------------------------------------

TEST_F(FinderTest, ResolveByIdPrefixFileNameOrNameSuffixCaseInsensitively) {
  std::string a = make("/w", "Abc123", 1700000000000);
  std::string b = make("/x", "xyz789", 1700000000000);
  EXPECT_EQ(resolve("Abc123"), a);
  EXPECT_EQ(resolve("abc"), a);
  EXPECT_EQ(resolve("ABC12"), a);
  EXPECT_EQ(resolve("XYZ"), b);
  std::string name = storage::base_name(a);
  EXPECT_EQ(resolve(name), a);
  EXPECT_EQ(resolve(name.substr(0, name.size() - 6)), a);
  EXPECT_EQ(resolve("2026-02-16T10-20-30-000Z_xy"), b);
}

// A renamed file is still found by the id in its header.
TEST_F(FinderTest, ResolveReadsTheHeaderIdWhenTheNameDoesNotHoldIt) {
  std::string p = make("/w", "deadbeef", 1700000000000, "renamed");
  EXPECT_EQ(resolve("deadb"), p);
  EXPECT_EQ(resolve("renam"), p);
}

TEST_F(FinderTest, ResolveSearchesTheCwdFirstThenTheWholeStore) {
  std::string w = make("/w", "ab-w", 1700000000000);
  std::string x = make("/x", "ab-x", 1700000000000);
  EXPECT_EQ(resolve("ab", std::string("/w")), w);
  EXPECT_EQ(resolve("ab", std::string("/x")), x);
  EXPECT_EQ(resolve("ab-x", std::string("/w")), x) << "no match in /w: the whole store";
  EXPECT_EQ(resolve("ab-x", std::string("/never-used")), x);
}

TEST_F(FinderTest, AmbiguousUnknownAndEmptyQueries) {
  std::string a = make("/w", "abc1", 1700000000000);
  std::string b = make("/w", "abd2", 1700000000000);
  Code code;
  std::string message;
  EXPECT_EQ(resolve("ab", std::nullopt, &code, &message), "<error>");
  EXPECT_EQ(code, Code::kAmbiguous);
  EXPECT_EQ(message, "\"ab\" matches 2 sessions: " + storage::base_name(a) + ", " + storage::base_name(b));
  EXPECT_EQ(resolve("zzz", std::nullopt, &code, &message), "<error>");
  EXPECT_EQ(code, Code::kNotFound);
  EXPECT_EQ(message, "no session matches \"zzz\"");
  EXPECT_EQ(resolve("", std::nullopt, &code), "<error>");
  EXPECT_EQ(code, Code::kInvalid);
}

TEST_F(FinderTest, AnAmbiguityNamesAtMostFiveCandidates) {
  for (int i = 1; i <= 7; ++i) make("/w", "dup" + std::to_string(i), 1700000000000);
  Code code;
  std::string message;
  resolve("dup", std::nullopt, &code, &message);
  EXPECT_EQ(code, Code::kAmbiguous);
  std::string names;
  for (int i = 1; i <= 5; ++i) names += (i > 1 ? ", " : "") + format::session_file_name(kTs, "dup" + std::to_string(i));
  EXPECT_EQ(message, "\"dup\" matches 7 sessions: " + names + ", ...");
}

// --- breadcrumbs ------------------------------------------------------------------------------

TEST_F(FinderTest, BreadcrumbRoundTripAndFileFormat) {
  std::string p = make("/w", "s1", 1700000000000);
  ASSERT_TRUE(finder_.write_breadcrumb("tty-1", "/w", p).ok());
  EXPECT_EQ(test::read_file(tmp_.path() + "/terminal-sessions/tty-1"), "/w\n" + p + "\n");
  EXPECT_EQ(finder_.breadcrumb("tty-1", "/w"), std::optional<std::string>(p));
  EXPECT_EQ(finder_.breadcrumb("tty-2", "/w"), std::nullopt) << "another terminal";
  EXPECT_EQ(finder_.breadcrumb("tty-1", "/x"), std::nullopt) << "another cwd";
  // Rewritten whole, atomically (no temp file left beside it).
  ASSERT_TRUE(finder_.write_breadcrumb("tty-1", "/x", p).ok());
  EXPECT_EQ(test::list_dir(tmp_.path() + "/terminal-sessions"), V{"tty-1"});
  EXPECT_EQ(finder_.breadcrumb("tty-1", "/x"), std::optional<std::string>(p));
  EXPECT_EQ(finder_.breadcrumb("tty-1", "/w"), std::nullopt);
}

TEST_F(FinderTest, ABreadcrumbMustNameAnExistingRegularFile) {
  std::string p = make("/w", "s1", 1700000000000);
  ASSERT_TRUE(finder_.write_breadcrumb("t", "/w", tmp_.path() + "/gone.jsonl").ok());
  EXPECT_EQ(finder_.breadcrumb("t", "/w"), std::nullopt);
  ASSERT_TRUE(finder_.write_breadcrumb("t", "/w", tmp_.path() + "/sessions").ok());
  EXPECT_EQ(finder_.breadcrumb("t", "/w"), std::nullopt) << "a directory";
  std::string crumb = tmp_.path() + "/terminal-sessions/t";
  test::write_file(crumb, "/w\n");
  EXPECT_EQ(finder_.breadcrumb("t", "/w"), std::nullopt) << "one line only";
  test::write_file(crumb, "/w");
  EXPECT_EQ(finder_.breadcrumb("t", "/w"), std::nullopt);
  test::write_file(crumb, "/w\n" + p);  // no final newline: still two lines
  EXPECT_EQ(finder_.breadcrumb("t", "/w"), std::optional<std::string>(p));
  test::write_file(crumb, "/w\n" + p + "\nextra\n");
  EXPECT_EQ(finder_.breadcrumb("t", "/w"), std::optional<std::string>(p));
}

TEST_F(FinderTest, BreadcrumbArgumentsAreValidated) {
  for (const std::string& bad : {std::string(), std::string("a/b"), std::string(".."), std::string("tty 1"),
                                 std::string(65, 'a')}) {
    EXPECT_EQ(finder_.write_breadcrumb(bad, "/w", "/w/x.jsonl").code(), Code::kInvalid) << bad;
    EXPECT_EQ(finder_.breadcrumb(bad, "/w"), std::nullopt) << bad;
  }
  EXPECT_EQ(finder_.write_breadcrumb("t", "/w\nx", "/w/x.jsonl").code(), Code::kInvalid);
  EXPECT_EQ(finder_.write_breadcrumb("t", "/w", "/w/x\n.jsonl").code(), Code::kInvalid);
  EXPECT_EQ(test::list_dir(tmp_.path()), V{}) << "nothing written";
}

}  // namespace
}  // namespace xs::discovery
