// format/session_paths: store layout (docs/format.md#store-layout).
#include <gtest/gtest.h>

#include "format/session_paths.h"

namespace xs::format {
namespace {

TEST(EncodeCwd, DropsOneLeadingSeparatorAndDashesTheRest) {
  EXPECT_EQ(encode_cwd("/home/u/proj"), "home-u-proj");
  EXPECT_EQ(encode_cwd("C:\\x\\y"), "C--x-y");
  EXPECT_EQ(encode_cwd("\\\\server\\share"), "-server-share");
  EXPECT_EQ(encode_cwd("//a"), "-a");
  EXPECT_EQ(encode_cwd("/"), "");
  EXPECT_EQ(encode_cwd(""), "");
  EXPECT_EQ(encode_cwd("relative/dir"), "relative-dir");
  EXPECT_EQ(encode_cwd("/a b/c.d/caf\xc3\xa9"), "a b-c.d-caf\xc3\xa9");
}

TEST(EncodeCwd, DifferentPathsCanCollide) {
  EXPECT_EQ(encode_cwd("/a-b"), encode_cwd("/a/b"));
  EXPECT_EQ(encode_cwd("/a:b"), encode_cwd("/a/b"));
}

TEST(SessionDir, UnderSessionsWithDoubleDashes) {
  EXPECT_EQ(sessions_root("/store"), "/store/sessions");
  EXPECT_EQ(sessions_root("/store/"), "/store/sessions");
  EXPECT_EQ(session_dir("/store", "/home/u/proj"), "/store/sessions/--home-u-proj--");
  EXPECT_EQ(session_dir("/store/", "C:\\x\\y"), "/store/sessions/--C--x-y--");
  EXPECT_EQ(session_dir("/store", "/"), "/store/sessions/----");
}

TEST(SessionFileName, TimestampWithColonsAndDotsAsDashes) {
  EXPECT_EQ(session_file_name("2025-01-02T03:04:10.000Z", "0a1b2c3d4e5f6071"),
            "2025-01-02T03-04-10-000Z_0a1b2c3d4e5f6071.jsonl");
  EXPECT_EQ(session_file_name("2025-01-02T03:04:10.000Z", "019424f8-7410-70f4-a995-bfaf6656e553"),
            "2025-01-02T03-04-10-000Z_019424f8-7410-70f4-a995-bfaf6656e553.jsonl");
}

}  // namespace
}  // namespace xs::format
