// Guarantees G9 and G11 (docs/guarantees.md#g9, #g11; technique #t4, SQLite's ioerr loop) for every
// public operation that touches the disk: opening for writing (new, existing, v1/v2 migration,
// header-less, torn tail), every append kind, the first write and persist, set_title, flush,
// close, repair, fork, create_branched, fork_from, move_to, appends that put or touch a blob, the
// blob store's gc and listings, and the reads (read-only open, the parallel loader, reload,
// context, entries and verify with blobs) — fault_workloads.h. For each operation the test counts
// its seam calls in a fault-free run, then reruns it once per call number N and fault kind, failing
// call N:
//  - EIO and ENOSPC, once or from then on (a persistent fault fails every later call that changes
//    something, while lookups still answer: a device that refuses writes);
//  - a torn write: the append writes half its bytes, then fails with EIO (at every append);
//  - an fsync failure: the N-th sync or directory sync fails with EIO, numbered among syncs only,
//    so every sync of every operation fails once;
//  - a rename failure, numbered among renames only: EXDEV once, and EDQUOT from then on.
// posix_fs maps errno to codes (EIO, EXDEV, EACCES -> kIo; ENOSPC, EDQUOT, EFBIG -> kNoSpace), so
// those two codes are how any such failure reaches the engine. A sync that passes skips fdatasync:
// the runs test errors, not power loss.
//
// fault_harness.h checks every run (result, handle, leaks, disk). The call that failed decides
// what is expected:
//  - a write, sync, directory sync or rename: the operation fails (never a false OK), and when it
//    was the handle's own file, the handle is poisoned — every mutating call returns kPoisoned and
//    changes nothing — until the file is reopened. A failed blob write fails the append but leaves
//    the session usable (its file was not touched); a failed write of a new file (fork...) leaves
//    the source session usable;
//  - a lookup, a cleanup unlink, taking a lock, opening for append, refreshing a blob's age: the
//    session stays usable (read-side conditions never poison);
//  - any other call may be ridden out, but then the OK result must be exactly the fault-free one,
//    value and files, byte for byte. Ridden out by design: a lookup that only chooses a path (the
//    parallel loader falls back to a plain read; a blob put that cannot see its blob writes it
//    again), an unlink that cleans up (a leftover temp file goes at the next writable open, a lock
//    file beside no session at the next writable open of its path), closing the append descriptor
//    of a file a rewrite has just replaced.
//
// Environment: XS_FAULT_STRIDE=k runs every k-th call number of each kind, offset by kind so the
// kinds still share out every call (default 1 = all; 2 under ASan -O0). XS_FAULT_ONLY=<text> runs
// only the operations whose name contains <text>.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <set>

#include "fault_harness.h"

namespace xs::test {
namespace {

using namespace faults;  // NOLINT: the matrix's own vocabulary
using storage::FsOp;
using storage::op_mask;

struct Kind {
  const char* name;
  Code code;
  bool persistent;
  bool torn;
  uint32_t only_ops;  // 0: N numbers every call; else only the calls of these ops
  bool appends_only;  // N runs over the appends only (a torn write is an append's)
};

const Kind kKinds[] = {
    {"EIO once", Code::kIo, false, false, 0, false},
    {"EIO from then on", Code::kIo, true, false, 0, false},
    {"ENOSPC once", Code::kNoSpace, false, false, 0, false},
    {"ENOSPC from then on", Code::kNoSpace, true, false, 0, false},
    {"torn write then EIO", Code::kIo, false, true, 0, true},
    {"fsync fails (EIO), N-th sync", Code::kIo, false, false, op_mask({FsOp::kSync, FsOp::kSyncDir}), false},
    {"rename fails (EXDEV), N-th rename", Code::kIo, false, false,
     op_mask({FsOp::kRename, FsOp::kRenameNoReplace}), false},
    {"rename fails (EDQUOT) from the N-th rename on", Code::kNoSpace, true, false,
     op_mask({FsOp::kRename, FsOp::kRenameNoReplace}), false},
};

bool writes(FsOp op) {
  return op == FsOp::kAppend || op == FsOp::kSync || op == FsOp::kSyncDir || op == FsOp::kRename ||
         op == FsOp::kRenameNoReplace;
}

// Failures that never poison a session: lookups, cleanups, taking a lock, opening for append (the
// descriptor is opened before anything is written), refreshing a blob's age.
bool harmless(FsOp op) {
  return op == FsOp::kReadFile || op == FsOp::kReadRange || op == FsOp::kStat || op == FsOp::kListDir ||
         op == FsOp::kUnlink || op == FsOp::kTryLock || op == FsOp::kOpenAppend || op == FsOp::kTouch;
}

Expect classify(const Workload& w, const Trial& r, const std::vector<storage::InjectedFault>& injected, const Kind& k) {
  Expect e;
  e.healthy = true;
  for (const storage::InjectedFault& i : injected) {
    bool in_blobs = i.path.compare(0, r.root.size() + 6, r.root + "/blobs") == 0;
    if (writes(i.op)) {
      e.must_fail = true;
      if (!in_blobs && w.target == Target::kSession) e.poisoned = true;
    }
    if (!harmless(i.op)) e.healthy = false;
    if (i.op == FsOp::kUnlink) e.leftovers = true;
    if (k.torn && i.op == FsOp::kAppend) e.extra_damage = 1;
  }
  return e;
}

TEST(FaultInjection, EverySeamCallOfEveryOperation) {
  const size_t stride = env_count("XS_FAULT_STRIDE", 1);
  const char* only = std::getenv("XS_FAULT_ONLY");
  Findings findings;
  Stats stats;
  std::map<std::string, size_t> by_kind, absorbed;  // faults by kind; OK results by the call that failed
  std::set<std::string> sites, clean_sites;  // "operation | seam call" pairs: failed, and present
  size_t operations = 0;

  for (const Workload& w : workloads()) {
    if (only && w.name.find(only) == std::string::npos) continue;
    ++operations;
    Template t = make_template(w);
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << w.name << ": preparing the template failed";
    Clean clean = run_clean(w, t, findings, stats);
    ASSERT_FALSE(clean.op_calls.empty()) << w.name << ": the operation makes no seam call";
    for (FsOp op : clean.op_calls) clean_sites.insert(w.name + " | " + storage::fs_op_name(op));

    for (size_t ki = 0; ki < std::size(kKinds); ++ki) {
      const Kind& k = kKinds[ki];
      // The call numbers this kind fails, counted among the calls it numbers.
      std::vector<uint64_t> numbers;
      uint64_t counted = 0;
      for (size_t c = 0; c < clean.op_calls.size(); ++c) {
        FsOp op = clean.op_calls[c];
        if (k.only_ops && !(k.only_ops & storage::op_bit(op))) continue;
        ++counted;
        if (!k.appends_only || op == FsOp::kAppend) numbers.push_back(counted);
      }
      for (size_t j = ki % stride; j < numbers.size(); j += stride) {
        TempDir dir;
        Trial r;
        if (!start_run(w, t, dir.path(), r)) break;
        std::string shown = r.s ? entries_view(*r.s) : "";
        uint64_t base = k.only_ops ? r.fs->calls_of(k.only_ops) : r.fs->calls();
        r.fs->arm({base + numbers[j], k.code, k.persistent, k.torn, k.only_ops});
        Status st = w.op(r);
        r.fs->disarm();
        std::vector<storage::InjectedFault> injected = r.fs->injected();
        std::string where = std::string(k.name) + ", call " + std::to_string(numbers[j]);
        if (injected.empty()) {
          findings.add(w.name, "the armed fault was never reached", where);
          continue;
        }
        where += " (" + std::string(storage::fs_op_name(injected[0].op)) + " " +
                 relative(injected[0].path, r.root) + ") -> " + (st.ok() ? "OK" : st.message().substr(0, 160));
        ++by_kind[k.name];
        if (st.ok()) ++absorbed[storage::fs_op_name(injected[0].op)];
        sites.insert(w.name + " | " + storage::fs_op_name(injected[0].op));
        finish_run(w, t, clean, r, st, shown, classify(w, r, injected, k), where, findings, stats);
      }
    }
  }
  findings.report();

  size_t faults = 0;
  std::string kinds, ridden;
  for (const auto& [name, n] : by_kind) {
    faults += n;
    kinds += std::string(kinds.empty() ? "" : ", ") + name + " " + std::to_string(n);
  }
  for (const auto& [name, n] : absorbed) {
    ridden += std::string(ridden.empty() ? "" : ", ") + name + " " + std::to_string(n);
  }
  RecordProperty("faults_injected", static_cast<int>(faults));
  RecordProperty("operations", static_cast<int>(operations));
  RecordProperty("call_sites", static_cast<int>(sites.size()));
  RecordProperty("poison_checks", static_cast<int>(stats.poison_checks));
  RecordProperty("acked_refound", static_cast<int>(stats.acked_refound));
  std::printf("fault matrix: %zu faults injected (%s) into %zu operations; %zu of %zu seam call sites "
              "(operation x call kind) failed at least once; %zu OK results compared byte for byte with the "
              "fault-free run (faults ridden out, by failed call: %s); %zu poisoned sessions probed; %zu acknowledged "
              "entries found again in %zu reopened files; %zu violations; stride %zu\n",
              faults, kinds.c_str(), operations, sites.size(), clean_sites.size(), stats.ok_compared, ridden.c_str(),
              stats.poison_checks, stats.acked_refound, stats.reopened, findings.total(), stride);
  if (stride == 1) {
    // Coverage: every kind of call every operation makes failed at least once.
    for (const std::string& s : clean_sites) EXPECT_TRUE(sites.count(s)) << "never failed: " << s;
  }
  EXPECT_GT(faults, 0u);
}

// A reload that fails while it reads again a file that a rewrite replaced must leave the read-only
// handle as it was: it must not lose the header line it had, which header() (xs_session_header)
// reads.
TEST(FaultInjection, AFailedReloadLeavesTheHandleAsItWas) {
  TempDir dir;
  Trial t;
  t.root = dir.path();
  t.fs = std::make_shared<storage::FaultyFs>(storage::make_posix_fs(), /*real_syncs=*/false);
  write_base(t);
  auto reader = Session::open(t.fs, t.file(), read_opts(t));
  ASSERT_TRUE(reader.ok());
  std::string header((*reader)->header()), id = (*reader)->header_info().id;
  size_t entries = (*reader)->entry_count();
  {
    auto writer = Session::open(t.fs, t.file(), opts(t));
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->set_title(std::string_view("retitled")).ok());  // a new inode: a full reload
    ASSERT_TRUE((*writer)->close().ok());
  }
  t.fs->fail(FsOp::kReadFile);
  int64_t added = 0;
  EXPECT_FALSE((*reader)->reload(&added).ok());
  t.fs->clear(FsOp::kReadFile);
  EXPECT_EQ((*reader)->entry_count(), entries) << "a failed reload dropped the entries the handle had";
  EXPECT_EQ((*reader)->header_info().id, id) << "a failed reload dropped the header";
  // header() indexes the header line: on a handle without one it reads past its lines.
  EXPECT_EXIT(
      {
        std::string h((*reader)->header());
        std::exit(h == header ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// Not visible to the matrix, which appends a plain message after a failure: blobs (G8) and sticky
// errors (G9) together.
// The entry that names a blob is written only once the blob is durable, and nothing is retried
// into a false OK. When a put's directory sync fails, the blob file is already in place under its
// name; a second put of the same bytes must not take it for durable and let the entry be written
// without that directory ever being synced.
TEST(FaultInjection, ABlobWhoseDirectorySyncFailedIsNotTakenForDurable) {
  TempDir dir;
  Trial t;
  t.root = dir.path();
  t.fs = std::make_shared<storage::FaultyFs>(storage::make_posix_fs(), /*real_syncs=*/false);
  t.blobs = std::make_shared<blobs::BlobStore>(t.fs, t.root);
  auto s = Session::open(t.fs, t.file(), opts(t, /*create=*/true));
  ASSERT_TRUE(s.ok()) << s.status().message();
  std::string id;
  t.fs->fail(FsOp::kSyncDir);  // the append's first directory sync is the blob's, after its rename
  Status st = (*s)->append_message(image_message(), &id);
  t.fs->clear(FsOp::kSyncDir);
  ASSERT_FALSE(st.ok());
  ASSERT_TRUE(file_exists(t.blobs->path_of(blobs::sha256_hex(image_bytes()))));

  size_t before = t.fs->log().size();
  st = (*s)->append_message(image_message(), &id);
  std::vector<FsOp> log = t.fs->log();
  bool synced_first = false;
  for (size_t i = before; i < log.size() && log[i] != FsOp::kAppend; ++i) synced_first |= log[i] == FsOp::kSyncDir;
  EXPECT_TRUE(!st.ok() || synced_first)
      << "the retried append wrote an entry naming a blob whose directory entry was never synced";
}

}  // namespace
}  // namespace xs::test
