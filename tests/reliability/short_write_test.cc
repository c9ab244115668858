// Short writes and EINTR below the write loop (docs/guarantees.md#t4 and #g9;
// docs/decisions.md#acknowledged-means-handed-to-the-kernel): an interrupted or partial write() is
// continued until the whole line is written — never an error by itself, never a false OK, never a
// byte doubled or lost — and a write that stops for good (writes nothing, disk full, file size
// limit) is an error that poisons the session while everything acknowledged before stays readable.
//
// ShortWrites.EveryWriteOfEveryOperation runs every operation of fault_workloads.h that writes
// through make_posix_fs(write_fn) and makes its N-th write(2), for every N, return -1/EINTR, write
// only 3 bytes (once, or every write from then on), or write 0 bytes. The first three must give
// exactly the value and the files of the fault-free run (fixed clock and id seeds, every file
// compared whole); the last must give an error, and then fault_harness.h's checks (poisoned handle,
// every acknowledged entry intact after reopening, no leak).
//
// Environment: XS_FAULT_STRIDE=k runs every k-th write number of each kind (offset by kind;
// default 1 = all; 2 under ASan -O0). XS_FAULT_ONLY=<text> runs only the operations whose name
// contains <text>.
#include <gtest/gtest.h>
#include <limits.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "fault_harness.h"

namespace xs::test {
namespace {

using session::Session;

std::atomic<int> g_calls{0};

// Every other call is interrupted before writing anything; the others write at most 7 bytes.
long interrupting_write(int fd, const void* buf, unsigned long n) {
  if (g_calls++ % 2 == 0) {
    errno = EINTR;
    return -1;
  }
  return ::write(fd, buf, n < 7 ? n : 7);
}

// Writes half of what it is asked, then reports a full disk.
std::atomic<int> g_budget{0};
long filling_write(int fd, const void* buf, unsigned long n) {
  if (g_budget <= 0) {
    errno = ENOSPC;
    return -1;
  }
  unsigned long k = n / 2 ? n / 2 : 1;
  g_budget -= 1;
  return ::write(fd, buf, k);
}

std::string write_session(std::shared_ptr<storage::Fs> fs, const std::string& path, int entries) {
  auto o = options(true, true);
  o.clock = format::Clock::Fixed(1767225600000, 1000);
  o.id_seed = 99;
  auto s = Session::open(fs, path, o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  for (int i = 0; i < entries; ++i) {
    std::string id;
    Status st = (*s)->append_message(user_message("entry number " + std::to_string(i)), &id);
    EXPECT_TRUE(st.ok()) << st.message();
  }
  EXPECT_TRUE((*s)->close().ok());
  return read_file(path);
}

TEST(ShortWrites, InterruptedAndPartialWritesCompleteTheLine) {
  TempDir a, b;
  g_calls = 0;
  std::string normal = write_session(storage::make_posix_fs(), a.file("s.jsonl"), 20);
  std::string chopped = write_session(storage::make_posix_fs(interrupting_write), b.file("s.jsonl"), 20);
  EXPECT_EQ(chopped, normal);  // byte for byte, although no write() wrote more than 7 bytes
  EXPECT_GT(g_calls.load(), 2 * static_cast<int>(normal.size() / 7));
}

TEST(ShortWrites, AWriteThatStopsIsAnErrorAndPoisons) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  write_session(storage::make_posix_fs(), path, 3);
  std::string before = read_file(path);

  g_budget = 2;  // two partial writes, then "disk full"
  auto s = Session::open(storage::make_posix_fs(filling_write), path, options(false, false));
  ASSERT_TRUE(s.ok());
  std::string id;
  Status st = (*s)->append_message(user_message(std::string(200, 'x')), &id);
  EXPECT_EQ(st.code(), Code::kNoSpace) << st.message();
  EXPECT_EQ((*s)->append_message(user_message("later"), &id).code(), Code::kPoisoned);
  EXPECT_EQ((*s)->flush().code(), Code::kPoisoned);
  (*s)->close();

  // The torn fragment is reported; every earlier entry is intact; the next writer repairs the tail.
  auto r = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->entry_count(), 3u);
  EXPECT_NE((*r)->diagnostics_json().find("\"incomplete_tail\""), std::string::npos);
  ASSERT_TRUE((*r)->append_message(user_message("after repair"), &id).ok());
  ASSERT_TRUE((*r)->close().ok());
  auto check = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(check.ok());
  EXPECT_EQ((*check)->entry_count(), 4u);
  EXPECT_TRUE((*check)->entry_json(id).ok());
  EXPECT_EQ(read_file(path).compare(0, before.size(), before), 0);
}

// A real kernel short write: RLIMIT_FSIZE cuts a write() short, and the next one fails with EFBIG.
TEST(ShortWrites, FileSizeLimitInAChildProcess) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  write_session(storage::make_posix_fs(), path, 3);
  size_t size = read_file(path).size();
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {size + 100, size + 100};
    setrlimit(RLIMIT_FSIZE, &lim);
    auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
    if (!s.ok()) _exit(10);
    std::string id;
    Status st = (*s)->append_message(user_message(std::string(5000, 'y')), &id);
    if (st.ok()) _exit(11);  // a false OK
    if (st.code() != Code::kNoSpace) _exit(12);
    if ((*s)->append_message(user_message("small"), &id).code() != Code::kPoisoned) _exit(13);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  auto r = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->entry_count(), 3u);
  EXPECT_EQ(read_file(path).size(), size + 100);  // the short write really happened
}

// --- the matrix ---

enum class WriteFault { kEintr, kShort, kShortFromThenOn, kZero };

struct WriteKind {
  const char* name;
  WriteFault fault;
};

const WriteKind kWriteKinds[] = {
    {"EINTR", WriteFault::kEintr},
    {"3 bytes written", WriteFault::kShort},
    {"3 bytes per write from then on", WriteFault::kShortFromThenOn},
    {"0 bytes written", WriteFault::kZero},
};

// The write(2) of the matrix: counts every call and makes call g_fault_at fail the chosen way.
// Only the test thread writes (the parallel loader's threads only read).
std::atomic<uint64_t> g_writes{0};
std::atomic<uint64_t> g_fault_at{0};  // 0: no fault
std::atomic<int> g_fault{0};
std::atomic<uint64_t> g_faulted{0};    // writes that were cut
std::string g_fault_path;              // the file the first cut write went to

long matrix_write(int fd, const void* buf, unsigned long n) {
  uint64_t k = ++g_writes;
  uint64_t at = g_fault_at.load();
  auto fault = static_cast<WriteFault>(g_fault.load());
  if (at == 0 || k < at || (k > at && fault != WriteFault::kShortFromThenOn)) return ::write(fd, buf, n);
  if (g_faulted++ == 0) {
    char target[PATH_MAX];
    ssize_t len = ::readlink(("/proc/self/fd/" + std::to_string(fd)).c_str(), target, sizeof(target) - 1);
    g_fault_path.assign(target, len > 0 ? static_cast<size_t>(len) : 0);
  }
  switch (fault) {
    case WriteFault::kEintr:
      errno = EINTR;
      return -1;
    case WriteFault::kShort:
    case WriteFault::kShortFromThenOn:
      return ::write(fd, buf, n < 3 ? n : 3);
    case WriteFault::kZero:
      return 0;
  }
  return -1;
}

TEST(ShortWrites, EveryWriteOfEveryOperation) {
  using namespace faults;  // NOLINT: the matrix's own vocabulary
  const size_t stride = env_count("XS_FAULT_STRIDE", 1);
  const char* only = std::getenv("XS_FAULT_ONLY");
  Findings findings;
  Stats stats;
  std::map<std::string, size_t> by_kind;
  size_t operations = 0, writes_total = 0, cut_total = 0;

  for (const Workload& w : workloads()) {
    if (only && w.name.find(only) == std::string::npos) continue;
    Template t = make_template(w);
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << w.name << ": preparing the template failed";
    // The fault-free run, through the counting write(2): how many writes the operation makes.
    uint64_t writes;
    {
      TempDir dir;
      Trial r;
      ASSERT_TRUE(start_run(w, t, dir.path(), r, matrix_write));
      uint64_t before = g_writes;
      ASSERT_TRUE(w.op(r).ok()) << w.name;
      writes = g_writes - before;
    }
    if (writes == 0) continue;  // an operation that only reads
    ++operations;
    writes_total += writes;
    Clean clean = run_clean(w, t, findings, stats, matrix_write);

    for (size_t ki = 0; ki < std::size(kWriteKinds); ++ki) {
      const WriteKind& k = kWriteKinds[ki];
      for (uint64_t n = 1 + ki % stride; n <= writes; n += stride) {
        TempDir dir;
        Trial r;
        if (!start_run(w, t, dir.path(), r, matrix_write)) break;
        std::string shown = r.s ? entries_view(*r.s) : "";
        g_faulted = 0;
        g_fault = static_cast<int>(k.fault);
        g_fault_at = g_writes + n;
        Status st = w.op(r);
        g_fault_at = 0;
        std::string where = std::string(k.name) + ", write " + std::to_string(n);
        if (g_faulted == 0) {
          findings.add(w.name, "the armed write was never reached", where);
          continue;
        }
        where += " (" + relative(g_fault_path, r.root) + ") -> " +
                 (st.ok() ? "OK" : st.message().substr(0, 160));
        ++by_kind[k.name];
        cut_total += g_faulted;
        Expect e;
        if (k.fault == WriteFault::kZero) {
          // A write that makes no progress is an I/O error: never retried forever, never a false OK.
          e.must_fail = true;
          bool in_blobs = g_fault_path.compare(0, r.root.size() + 6, r.root + "/blobs") == 0;
          e.poisoned = !in_blobs && w.target == Target::kSession;
        } else {
          e.must_succeed = true;
          e.healthy = true;
        }
        finish_run(w, t, clean, r, st, shown, e, where, findings, stats);
      }
    }
  }
  findings.report();

  size_t faults = 0;
  std::string kinds;
  for (const auto& [name, count] : by_kind) {
    faults += count;
    kinds += std::string(kinds.empty() ? "" : ", ") + name + " " + std::to_string(count);
  }
  RecordProperty("write_faults", static_cast<int>(faults));
  RecordProperty("operations", static_cast<int>(operations));
  RecordProperty("poison_checks", static_cast<int>(stats.poison_checks));
  RecordProperty("acked_refound", static_cast<int>(stats.acked_refound));
  std::printf("short writes: %zu runs with a cut write(2) (%s; %zu cut writes in all) over the %zu writes of %zu "
              "operations; %zu OK results identical to the fault-free run, byte for byte; %zu poisoned sessions "
              "probed; %zu acknowledged entries found again in %zu reopened files; %zu violations; stride %zu\n",
              faults, kinds.c_str(), cut_total, writes_total, operations, stats.ok_compared, stats.poison_checks,
              stats.acked_refound, stats.reopened, findings.total(), stride);
  EXPECT_GT(faults, 0u);
}

}  // namespace
}  // namespace xs::test
