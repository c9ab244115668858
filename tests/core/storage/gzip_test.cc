// storage/gzip: exact round trips, several members, and every kind of hostile input refused with
// kCorrupt and a message saying which (docs/retention.md#limits).
#include "storage/gzip.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "test_util.h"

namespace xs::storage {
namespace {

std::string session_like(size_t lines) {
  std::string s = R"({"type":"session","version":3,"id":"abc","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"})"
                  "\n";
  std::mt19937 rng(5);
  for (size_t i = 0; i < lines; ++i) {
    s += R"({"type":"message","id":")" + std::to_string(i) + R"(","message":{"role":"user","content":"line )" +
         std::to_string(rng()) + "\"}}\n";
  }
  return s;
}

std::string gz(std::string_view data, int level = kArchiveLevel) {
  auto r = gzip_compress(data, level);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::string(r->view()) : std::string();
}

std::string inflated(std::string_view data, uint64_t max_out = kMaxInflatedBytes) {
  PaddedBuffer out;
  Status st = gunzip(data, max_out, &out);
  if (!st.ok()) return std::to_string(static_cast<int>(st.code())) + ": " + st.message();
  return std::string(out.view());
}

TEST(Gzip, RoundTripsExactBytes) {
  for (const std::string& text : {std::string(), std::string("x"), std::string("\0\n\xff", 3), session_like(20000)}) {
    for (int level : {0, 1, 6, 9}) {
      std::string z = gz(text, level);
      ASSERT_GE(z.size(), 18u);
      EXPECT_EQ(static_cast<unsigned char>(z[0]), 0x1f);
      EXPECT_EQ(static_cast<unsigned char>(z[1]), 0x8b);
      EXPECT_EQ(inflated(z), text) << "level " << level;
      EXPECT_TRUE(gunzip_matches(z, text).ok());
    }
  }
  std::string big = session_like(20000);
  EXPECT_LT(gz(big).size(), big.size() / 2);  // session text compresses
}

TEST(Gzip, GzipCommandReadsWhatWeWrite) {
  test::TempDir dir;
  std::string text = session_like(3000);
  test::write_file(dir.file("a.jsonl.gz"), gz(text));
  std::string cmd = "gzip -dc " + dir.file("a.jsonl.gz") + " > " + dir.file("a.jsonl");
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(test::read_file(dir.file("a.jsonl")), text);
  // ...and we read what gzip writes (its header carries a name and a time).
  ASSERT_EQ(std::system(("gzip -1 -c " + dir.file("a.jsonl") + " > " + dir.file("b.gz")).c_str()), 0);
  EXPECT_EQ(inflated(test::read_file(dir.file("b.gz"))), text);
}

TEST(Gzip, ReadsEveryMember) {
  std::string both = gz("first\n") + gz("second\n");
  EXPECT_EQ(inflated(both), "first\nsecond\n");
  EXPECT_TRUE(gunzip_matches(both, "first\nsecond\n").ok());
}

TEST(Gzip, RefusesHostileInput) {
  std::string text = session_like(2000);
  std::string z = gz(text);
  auto code = [](const std::string& r) { return r.substr(0, r.find(':')); };
  const std::string corrupt = std::to_string(static_cast<int>(Code::kCorrupt));
  EXPECT_EQ(inflated(""), corrupt + ": not gzip data (no gzip magic bytes)");
  EXPECT_EQ(inflated(text), corrupt + ": not gzip data (no gzip magic bytes)");
  EXPECT_EQ(inflated(z.substr(0, z.size() - 1)), corrupt + ": gzip data cut short (no end of stream)");
  EXPECT_EQ(inflated(z.substr(0, z.size() / 2)), corrupt + ": gzip data cut short (no end of stream)");
  EXPECT_EQ(inflated(z.substr(0, 10)), corrupt + ": gzip data cut short (no end of stream)");
  std::string bad_crc = z;
  bad_crc[bad_crc.size() - 6] ^= 0x55;
  EXPECT_EQ(code(inflated(bad_crc)), corrupt);
  EXPECT_NE(inflated(bad_crc).find("incorrect data check"), std::string::npos) << inflated(bad_crc);
  std::string bad_len = z;  // the trailer's length (what a reader's first guess comes from) lies
  bad_len[bad_len.size() - 1] = '\x7f';
  EXPECT_NE(inflated(bad_len).find("incorrect length check"), std::string::npos) << inflated(bad_len);
  EXPECT_EQ(inflated(z + "junk"), corrupt + ": 4 bytes after the end of the gzip data are not gzip");
  std::string flipped = z;
  flipped[z.size() / 2] ^= 0xff;
  EXPECT_EQ(code(inflated(flipped)), corrupt);
  // A bomb: 32 MiB of zeros in a few KiB, refused at the limit, not inflated whole.
  std::string zeros(32u << 20, '\0');
  std::string bomb = gz(zeros, 9);
  EXPECT_LT(bomb.size(), 64u << 10);
  EXPECT_EQ(inflated(bomb, 1u << 20), corrupt +
                                          ": gzip data inflates past 1048576 bytes, the limit for an archived session "
                                          "(docs/retention.md#limits)");
}

TEST(Gzip, MatchesSaysWhereItDiffers) {
  std::string z = gz("abcdef");
  EXPECT_TRUE(gunzip_matches(z, "abcdef").ok());
  EXPECT_EQ(gunzip_matches(z, "abcdeX").code(), Code::kCorrupt);
  EXPECT_EQ(gunzip_matches(z, "abcdefg").message(), "the archive inflates to 6 bytes, the session has 7");
  EXPECT_EQ(gunzip_matches(z, "abc").code(), Code::kCorrupt);
}

TEST(Gzip, PrefixStopsEarly) {
  std::string text = session_like(5000);
  std::string z = gz(text);
  PaddedBuffer out;
  bool whole = true;
  ASSERT_TRUE(gunzip_prefix(z, 4096, &out, &whole).ok());
  EXPECT_FALSE(whole);
  EXPECT_EQ(std::string(out.view()), text.substr(0, 4096));
  ASSERT_TRUE(gunzip_prefix(z, text.size() + 10, &out, &whole).ok());
  EXPECT_TRUE(whole);
  EXPECT_EQ(std::string(out.view()), text);
}

TEST(Gzip, ReadsAFileThroughTheSeam) {
  auto fs = make_memory_fs();
  test::put_file(*fs, "/d/a.jsonl.gz", gz("hello\n"));
  PaddedBuffer out;
  FileInfo info;
  ASSERT_TRUE(read_gzip_file(*fs, "/d/a.jsonl.gz", kMaxInflatedBytes, &out, &info).ok());
  EXPECT_EQ(std::string(out.view()), "hello\n");
  EXPECT_EQ(info.size, gz("hello\n").size());
  test::put_file(*fs, "/d/b.jsonl.gz", "plain");
  Status st = read_gzip_file(*fs, "/d/b.jsonl.gz", kMaxInflatedBytes, &out);
  EXPECT_EQ(st.code(), Code::kCorrupt);
  EXPECT_EQ(st.message(), "/d/b.jsonl.gz: not gzip data (no gzip magic bytes)");
  EXPECT_EQ(read_gzip_file(*fs, "/d/none.gz", kMaxInflatedBytes, &out).code(), Code::kNotFound);
  EXPECT_TRUE(is_archive_path("/d/a.jsonl.gz"));
  EXPECT_FALSE(is_archive_path("/d/a.jsonl"));
  EXPECT_FALSE(is_archive_path(".jsonl.gz"));
}

}  // namespace
}  // namespace xs::storage
