// Guarantees G9 and G11 (reliability.md T4): an I/O fault at any seam call of any write path —
// first write, append (buffered and sync), flush, title rewrite, migration rewrite, preservation of
// a header-less file — gives an error (never a false OK), loses no acknowledged entry, leaks no
// descriptor or temp file, and a write/sync/rename failure poisons the session until reopened.
//
// For each workload the test first counts its seam calls, then reruns it once per call number N
// and fault variant, failing call N.
#include <dirent.h>
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "reliability_util.h"
#include "storage/faulty_fs.h"

namespace xs::test {
namespace {

using session::Session;
using storage::FaultyFs;
using storage::FsOp;

struct Variant {
  const char* name;
  Code code;
  bool persistent;
  bool torn;
};

const Variant kVariants[] = {
    {"EIO once", Code::kIo, false, false},
    {"EIO from then on", Code::kIo, true, false},
    {"ENOSPC once", Code::kNoSpace, false, false},
    {"torn write then EIO", Code::kIo, false, true},
};

// What a workload did: the entries it was told were appended, and the status of the call during
// which the fault fired (if it fired during a write operation).
struct Outcome {
  std::vector<std::string> acknowledged;  // ids of entries acknowledged as written
  std::vector<std::string> pending;       // acknowledged while the session was still deferred
  std::unique_ptr<Session> session;       // still open, to probe poisoning
};

// A workload prepares `dir` with a clean seam, then performs its operations through `fs`.
struct Workload {
  const char* name;
  std::function<void(const std::string& dir)> prepare;
  std::function<Outcome(std::shared_ptr<storage::Fs> fs, const std::string& dir)> run;
};

std::string session_file(const std::string& dir) { return dir + "/s.jsonl"; }

void write_base_session(const std::string& dir) {
  auto s = Session::open(storage::make_posix_fs(), session_file(dir), options(/*create=*/true, /*no_defer=*/true));
  ASSERT_TRUE(s.ok()) << s.status().message();
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("base question"), &id).ok());
  ASSERT_TRUE((*s)->append_message(assistant_message("base answer"), &id).ok());
  ASSERT_TRUE((*s)->close().ok());
}

// Appends until the first failure, recording what was acknowledged. An entry appended while the
// session is still deferred is only promised once the session is on disk.
void append_some(Session& s, Outcome& out, int n) {
  for (int i = 0; i < n; ++i) {
    std::string id;
    Status st = s.append_message(i % 2 ? assistant_message("a" + std::to_string(i)) : user_message("u" + std::to_string(i)), &id);
    if (!st.ok()) return;
    out.pending.push_back(id);
    if (s.persisted()) {
      out.acknowledged.insert(out.acknowledged.end(), out.pending.begin(), out.pending.end());
      out.pending.clear();
    }
  }
}

std::vector<Workload> workloads() {
  return {
      {"first write of a new session",
       [](const std::string&) {},
       [](std::shared_ptr<storage::Fs> fs, const std::string& dir) {
         Outcome out;
         auto s = Session::open(fs, session_file(dir), options(true, false));
         if (!s.ok()) return out;
         append_some(**s, out, 4);  // the assistant message (2nd) triggers the first write
         out.session = std::move(*s);
         return out;
       }},
      {"buffered appends to an existing file",
       write_base_session,
       [](std::shared_ptr<storage::Fs> fs, const std::string& dir) {
         Outcome out;
         auto s = Session::open(fs, session_file(dir), options(false, false));
         if (!s.ok()) return out;
         append_some(**s, out, 4);
         if (out.acknowledged.size() == 4 && !(*s)->flush().ok()) out.acknowledged.clear();
         out.session = std::move(*s);
         return out;
       }},
      {"sync appends",
       write_base_session,
       [](std::shared_ptr<storage::Fs> fs, const std::string& dir) {
         Outcome out;
         auto o = options(false, false);
         o.durability = session::Durability::kSync;
         auto s = Session::open(fs, session_file(dir), o);
         if (!s.ok()) return out;
         append_some(**s, out, 3);
         out.session = std::move(*s);
         return out;
       }},
      {"title rewrite",
       write_base_session,
       [](std::shared_ptr<storage::Fs> fs, const std::string& dir) {
         Outcome out;
         auto s = Session::open(fs, session_file(dir), options(false, false));
         if (!s.ok()) return out;
         append_some(**s, out, 1);
         if (out.acknowledged.size() == 1 && !(*s)->set_title(std::string_view("renamed")).ok()) {
           // The entry was acknowledged before the rewrite failed: it must survive.
         }
         append_some(**s, out, 1);
         out.session = std::move(*s);
         return out;
       }},
      {"migration rewrite on open",
       [](const std::string& dir) {
         write_file(session_file(dir),
                    "{\"type\":\"session\",\"id\":\"legacy\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n"
                    "{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"old\"}}\n"
                    "garbage kept byte for byte\n");
       },
       [](std::shared_ptr<storage::Fs> fs, const std::string& dir) {
         Outcome out;
         auto s = Session::open(fs, session_file(dir), options(false, false));
         if (!s.ok()) return out;
         append_some(**s, out, 2);
         out.session = std::move(*s);
         return out;
       }},
      {"header-less file preserved and replaced",
       [](const std::string& dir) { write_file(session_file(dir), "not a session\n"); },
       [](std::shared_ptr<storage::Fs> fs, const std::string& dir) {
         Outcome out;
         auto s = Session::open(fs, session_file(dir), options(false, false));
         if (!s.ok()) return out;
         append_some(**s, out, 2);
         out.session = std::move(*s);
         return out;
       }},
  };
}

bool latches(FsOp op) {
  return op == FsOp::kAppend || op == FsOp::kSync || op == FsOp::kRename || op == FsOp::kRenameNoReplace;
}

std::set<std::string> temp_files(const std::string& dir) {
  std::set<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (std::string(e->d_name).find(".xs-tmp-") != std::string::npos) out.insert(e->d_name);
    }
    closedir(d);
  }
  return out;
}

TEST(FaultInjection, EverySeamCallOfEveryWritePath) {
  size_t faults_injected = 0, poison_checks = 0, entries_checked = 0;
  for (const Workload& w : workloads()) {
    // Count the workload's seam calls with no fault armed.
    uint64_t total;
    {
      TempDir dir;
      w.prepare(dir.path());
      auto faulty = std::make_shared<FaultyFs>(storage::make_posix_fs());
      Outcome clean = w.run(faulty, dir.path());
      ASSERT_FALSE(clean.acknowledged.empty()) << w.name << ": the workload must succeed without faults";
      total = faulty->calls();
    }
    for (const Variant& v : kVariants) {
      for (uint64_t n = 1; n <= total; ++n) {
        SCOPED_TRACE(std::string(w.name) + ", " + v.name + ", call " + std::to_string(n));
        TempDir dir;
        w.prepare(dir.path());
        if (::testing::Test::HasFatalFailure()) return;
        int fds_before = open_fd_count();
        auto faulty = std::make_shared<FaultyFs>(storage::make_posix_fs());
        faulty->arm({n, v.code, v.persistent, v.torn});
        Outcome out = w.run(faulty, dir.path());
        ASSERT_TRUE(faulty->fault_hit());
        ++faults_injected;
        FsOp failed_op = faulty->log()[n - 1];

        if (out.session) {
          // A write, sync or rename failure is sticky: nothing more is accepted until reopened.
          std::string id;
          Status after = out.session->append_message(user_message("after the fault"), &id);
          if (latches(failed_op)) {
            EXPECT_EQ(after.code(), Code::kPoisoned) << after.message();
            ++poison_checks;
          }
          if (after.ok() && out.session->persisted()) out.acknowledged.push_back(id);
          out.session->close();
          out.session.reset();
        }
        EXPECT_EQ(open_fd_count(), fds_before) << "descriptor leaked after a fault in " << storage::fs_op_name(failed_op);

        // Reopened with a healthy seam: the file loads and holds every acknowledged entry, once.
        auto healthy = storage::make_posix_fs();
        auto reopened = Session::open(healthy, session_file(dir.path()), options(false, false));
        if (out.acknowledged.empty() && reopened.status().code() == Code::kNotFound) continue;
        ASSERT_TRUE(reopened.ok()) << reopened.status().message();
        EXPECT_TRUE(temp_files(dir.path()).empty()) << "temp file left after a writable open";
        std::string entries = (*reopened)->entries_json();
        for (const std::string& id : out.acknowledged) {
          EXPECT_EQ(count_occurrences(entries, "\"id\":\"" + id + "\""), 1u)
              << "acknowledged entry " << id << " lost after a fault in " << storage::fs_op_name(failed_op);
          ++entries_checked;
        }
        // And it takes new entries, which read back intact (a torn fragment never swallows them).
        std::string id;
        ASSERT_TRUE((*reopened)->append_message(user_message("after reopening"), &id).ok());
        ASSERT_TRUE((*reopened)->close().ok());
        auto check = Session::open(healthy, session_file(dir.path()), read_only());
        ASSERT_TRUE(check.ok());
        EXPECT_TRUE((*check)->entry_json(id).ok());
      }
    }
  }
  RecordProperty("faults_injected", static_cast<int>(faults_injected));
  std::printf("fault injection: %zu faults injected, %zu poisoned sessions checked, %zu acknowledged entries "
              "found after reopening\n", faults_injected, poison_checks, entries_checked);
  EXPECT_GT(faults_injected, 200u);
  EXPECT_GT(poison_checks, 50u);
  EXPECT_GT(entries_checked, 300u);
}

}  // namespace
}  // namespace xs::test
