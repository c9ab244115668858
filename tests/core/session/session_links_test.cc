// A session file with more than one name (hard links; what a move to another directory leaves
// when it stops half-way on a file system without an atomic no-replace rename): each name has
// its own lock file, so a writable open refuses it; a read-only open reads it and verify says why.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "format/clock.h"
#include "session/session.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::session {
namespace {

const std::string kFile =
    "{\"type\":\"session\",\"version\":3,\"id\":\"sess1\",\"timestamp\":\"2026-02-16T10:20:30.000Z\","
    "\"cwd\":\"/home/u/proj\"}\n"
    "{\"type\":\"message\",\"id\":\"m1\",\"parentId\":null,\"timestamp\":\"2026-02-16T10:20:31.000Z\","
    "\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n";

SessionOptions options(bool read_only) {
  SessionOptions o;
  o.clock = format::Clock::Fixed(1771237230000, 1000);
  o.read_only = read_only;
  return o;
}

TEST(SessionLinks, AWritableOpenRefusesAFileWithTwoNamesAndWritesNothing) {
  test::TempDir tmp;
  std::string a = tmp.file("a.jsonl"), b = tmp.file("b.jsonl");
  test::write_file(a, kFile);
  ASSERT_EQ(::link(a.c_str(), b.c_str()), 0);
  auto fs = storage::make_posix_fs();
  for (const std::string& name : {a, b}) {
    auto s = Session::open(fs, name, options(false));
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.status().code(), Code::kConflict);
    EXPECT_EQ(s.status().message(), name + " has 2 names (hard links; an interrupted move leaves two): not writing "
                                           "to it until the other name is removed");
  }
  EXPECT_EQ(test::read_file(a), kFile);
  EXPECT_EQ(test::list_dir(tmp.path()), (std::vector<std::string>{"a.jsonl", "a.jsonl.lock", "b.jsonl", "b.jsonl.lock"}));

  auto reader = Session::open(fs, b, options(true));
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ((*reader)->entry_count(), 1u);
  std::string verify = (*reader)->verify_json();
  EXPECT_NE(verify.find(R"("problems":[{"line":0,"offset":0,"length":0,"code":"multiple_names","reason":"the file )"
                        R"(has 2 names (hard links, or a move to another directory that stopped half-way); no )"
                        R"(writer opens it until the other name is removed","fixable":false}])"),
            std::string::npos)
      << verify;

  // The other name removed, the file is a session like any other again.
  ASSERT_EQ(::unlink(b.c_str()), 0);
  auto writer = Session::open(fs, a, options(false));
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  EXPECT_NE((*writer)->verify_json().find(R"("problems":[])"), std::string::npos);
}

}  // namespace
}  // namespace xs::session
