// What the Session tests (tests/core/session/session_*_test.cc) share. A fixed clock and seeded
// ids make every byte of a file known in advance, so the tests assert whole files. SessionTest runs
// each test twice, on memory_fs and on posix_fs in a temp dir, both behind a FaultyFs that can fail
// a seam call on demand; it is instantiated once, in session_fixture.cc, for every file.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "session/session.h"
#include "storage/faulty_fs.h"
#include "storage/fs.h"
#include "test_util.h"
#include "util/status.h"

namespace xs::session::fixture {

inline constexpr int64_t kT0 = 1771237230000;  // 2026-02-16T10:20:30.000Z
inline constexpr uint64_t kSeed = 42;
inline const std::string kFileName = "2026-02-16T10-20-30-000Z_sess1.jsonl";

inline const std::string kUser = R"({"role":"user","content":"hi"})";
inline const std::string kAssistant =
    R"({"role":"assistant","content":[{"type":"text","text":"yo"}],"provider":"anthropic","model":"claude"})";

// The clock's time `sec` seconds after kT0: as an ISO timestamp, and as epoch milliseconds.
std::string iso(int sec);
std::string ms(int sec);

// Session "sess1" in /home/u/proj with the fixed clock (kT0, then one second per timestamp taken)
// and ids seeded with kSeed; `defer`: nothing is written before the first assistant message.
SessionOptions options(bool defer = true);

// The header those options write, with `extra` members (",\"title\":...") before the closing brace.
std::string header_line(const std::string& extra = "");

// The value of a Result, or a readable error in its place (never dereferences an error).
std::string val(const Result<std::string>& r);

class SessionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override;

  std::unique_ptr<Session> create(SessionOptions o);
  Result<std::unique_ptr<Session>> open(SessionOptions o, const std::string& path = "");
  SessionOptions read_only();
  // These read and write through the file system beneath the FaultyFs: a fault a test injects never
  // touches what the test itself reads or writes.
  std::string content(const std::string& path = "");
  bool exists(const std::string& path = "");
  std::vector<std::string> names();
  uint64_t ino();
  void put(const std::string& bytes);
  // Another process renames its own file over path_.
  void foreign_replace(const std::string& bytes);

  // An entry line as we write it: envelope (type, id, parentId, timestamp) then payload, or
  // payload first for custom / custom_message.
  std::string line(const std::string& type, const std::string& id, const std::string& parent, int sec,
                   const std::string& payload);

  std::unique_ptr<test::TempDir> tmp_;
  std::shared_ptr<storage::Fs> base_;
  std::shared_ptr<storage::FaultyFs> fs_;
  std::string root_, dir_, path_;
  std::vector<std::string> ids_;  // the first 64 entry ids kSeed hands out
};

}  // namespace xs::session::fixture
