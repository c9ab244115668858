// Guarantees G1 and G4 (reliability.md T1): a writer process is SIGKILLed at random moments while
// it appends entries of 100 B to 480 KB; every entry it acknowledged is in the file exactly once
// and intact, and nothing written after a kill is ever glued onto a torn fragment (each kill
// leaves at most one bad line). Files rotate every few kills so the disk use stays small.
//
// XS_KILL9_KILLS overrides the number of kills (default 200).
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <random>
#include <thread>

#include "reliability_util.h"

namespace xs::test {
namespace {

using session::Session;

constexpr int kKillsPerFile = 10;

// Deterministic content for sequence number `seq`: its size is log-uniform in [100 B, 480 KB]
// (larger strings would be cut by the size rules at 500,000 characters).
std::string payload(uint64_t seq) {
  std::mt19937_64 rng(seq);
  double lo = std::log(100.0), hi = std::log(480.0 * 1000.0);
  size_t len = static_cast<size_t>(std::exp(lo + (hi - lo) * std::uniform_real_distribution<double>(0, 1)(rng)));
  std::string s = "seq:" + std::to_string(seq) + ":";
  while (s.size() < len) s += static_cast<char>('a' + rng() % 26);
  return s;
}

[[noreturn]] void writer(const std::string& path, uint64_t first_seq, int ack_fd) {
  auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
  if (!s.ok()) _exit(3);
  for (uint64_t seq = first_seq;; ++seq) {
    std::string id;
    if (!(*s)->append_message(user_message(payload(seq)), &id).ok()) _exit(4);
    if (write(ack_fd, &seq, sizeof seq) != sizeof seq) _exit(5);  // acknowledged: tell the parent
  }
}

struct FileCheck {
  size_t entries = 0;
  size_t bad_lines = 0;
};

// Every entry is an intact payload; every acknowledged sequence number appears exactly once.
FileCheck verify(const std::string& path, const std::set<uint64_t>& acked) {
  FileCheck out;
  auto s = Session::open(storage::make_posix_fs(), path, read_only());
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return out;
  rapidjson::Document entries;
  std::string text = (*s)->entries_json();
  entries.Parse(text.c_str(), text.size());
  EXPECT_FALSE(entries.HasParseError());
  std::map<uint64_t, int> seen;
  for (const auto& e : entries.GetArray()) {
    std::string content = e["message"]["content"].GetString();
    uint64_t seq = std::stoull(content.substr(4, content.find(':', 4) - 4));
    EXPECT_EQ(content, payload(seq)) << "entry " << seq << " is damaged";
    ++seen[seq];
  }
  for (uint64_t seq : acked) EXPECT_EQ(seen[seq], 1) << "acknowledged entry " << seq << " lost or duplicated";
  out.entries = entries.Size();
  rapidjson::Document diags;
  std::string d = (*s)->diagnostics_json();
  diags.Parse(d.c_str());
  out.bad_lines = diags.Size();
  return out;
}

TEST(KillNine, AcknowledgedAppendsSurviveAndNothingIsGlued) {
  int kills = 200;
  if (const char* k = std::getenv("XS_KILL9_KILLS")) kills = std::atoi(k);
  std::mt19937 rng(12345);
  TempDir dir;
  size_t total_acked = 0, torn = 0;
  std::string path;
  std::set<uint64_t> acked;
  int kills_on_file = 0;
  for (int kill_no = 0; kill_no < kills; ++kill_no) {
    if (kill_no % kKillsPerFile == 0) {
      if (!path.empty()) std::remove(path.c_str());
      path = dir.file("kill9-" + std::to_string(kill_no) + ".jsonl");
      auto s = Session::open(storage::make_posix_fs(), path, options(true, true));
      ASSERT_TRUE(s.ok());
      ASSERT_TRUE((*s)->close().ok());
      acked.clear();
      kills_on_file = 0;
    }
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    uint64_t first_seq = static_cast<uint64_t>(kill_no) * 1000000;
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      close(fds[0]);
      writer(path, first_seq, fds[1]);
    }
    close(fds[1]);
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 20000));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself with " << WEXITSTATUS(status);
    uint64_t seq;
    while (read(fds[0], &seq, sizeof seq) == sizeof seq) acked.insert(seq), ++total_acked;
    close(fds[0]);
    ++kills_on_file;
    if (kill_no % kKillsPerFile == kKillsPerFile - 1 || kill_no == kills - 1) {
      FileCheck c = verify(path, acked);
      EXPECT_LE(c.bad_lines, static_cast<size_t>(kills_on_file)) << "more damaged lines than kills: glued appends";
      torn += c.bad_lines;
      if (::testing::Test::HasFailure()) return;
    }
  }
  std::printf("kill -9: %d kills, %zu acknowledged entries all present, %zu torn fragments reported\n", kills,
              total_acked, torn);
  EXPECT_GT(total_acked, static_cast<size_t>(kills));
}

}  // namespace
}  // namespace xs::test
