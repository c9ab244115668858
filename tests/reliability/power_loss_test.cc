// Guarantees G2, G3, G4, G5 and G8 of docs/guarantees.md under simulated power loss (technique
// docs/guarantees.md#t2). Each workload
// (power_loss_workloads.h: appends buffered, appends sync, migration rewrite, blob put) runs once
// through a recording seam (storage/crash_fs.h); then, for every crash point of its trace, disks a
// power loss may leave behind are built under the persistence model documented in crash_fs.h (the
// durable-only state, the nothing-lost state, and states sampled with a fixed seed: unsynced
// appends cut, zeroed, garbled or torn, unsynced creates/renames/unlinks undone), round after round
// over all crash points, until the workload has the wanted number of distinct states (distinct file
// sets, by hash). Each new state is opened read-only and writable on a fresh in-memory seam and
// checked:
//  G2  every entry acknowledged as durable before the crash point is there byte for byte (sync mode:
//      every acknowledged append; buffered: what a completed flush, title rewrite or close covered),
//      and a file whose creation was durable exists;
//  G3  the entries returned are exactly the whole intact lines of the file, in file order (no damaged
//      line ever returned, every intact line after a damaged region still returned), and every
//      damaged line is reported with its offset and length;
//  G5  a migrated path holds the complete old file or the complete new one; a writable open removes
//      any leftover temp file and (old file) migrates it again to exactly the same bytes;
//  G8  every blob file is absent or matches its name's SHA-256; every blob a returned entry refers
//      to exists and is intact;
//  G4  after the writable open one more entry appends cleanly (a '\n' first after a torn tail) and a
//      reload returns it intact after everything that was there.
// A state met again at a later crash point is only checked against G2 again (the rest depends on
// the bytes alone), and a session file is opened only once per distinct content with the same temp
// files and blobs beside it (the engine is deterministic: the same inputs give the same answers).
// The four workloads start with their directories on disk; two more runs let the engine create the
// session directory and the blob directory itself.
// The model's own behaviour is pinned by the PowerLoss.Model* tests on tiny traces.
//
// XS_POWERLOSS_STATES: distinct states per workload (default 10000, the CI count; 100000 for the
// long run). XS_POWERLOSS_SEED: the sampling seed (default 1), to rotate in long runs.
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>
#include <unordered_map>

#include "power_loss_checker.h"
#include "power_loss_workloads.h"

namespace xs::test {
namespace {

using storage::CrashFs;
using storage::CrashState;
using storage::CrashStates;

std::string describe(const CrashFs::Record& r) {
  static const char* kNames[] = {"mkdir", "create", "append", "sync", "close", "rename", "rename_noreplace",
                                 "unlink", "sync_dir", "touch", "link"};
  std::string s = kNames[static_cast<int>(r.op)];
  if (!r.path.empty()) s += " " + r.path;
  if (!r.to.empty()) s += " -> " + r.to;
  if (r.ino) s += " ino " + std::to_string(r.ino);
  if (r.op == CrashFs::Op::kAppend) s += " at " + std::to_string(r.offset) + " +" + std::to_string(r.size);
  return s;
}

// Round after round, every crash point once in a shuffled order (so a reduced count still spreads
// over the whole trace): round 0 a sampled state, round 1 the durable-only state, round 2 the
// nothing-lost state, then sampled ones, until the workload has `target` distinct states or has
// tried 50 times as many.
// The links of a trace: a generic no-replace rename's first halves (crash_fs.h, point 4).
std::vector<CrashFs::Record> links_of(const CrashStates& states) {
  std::vector<CrashFs::Record> links;
  for (const CrashFs::Record& r : states.trace()) {
    if (r.op == CrashFs::Op::kLink) links.push_back(r);
  }
  return links;
}

// A state with a file under both names of a link made before crash point k (the generic rename
// stopped between its two steps).
bool has_both_names(const CrashState& st, const CrashStates& states, size_t k) {
  for (size_t i = 0; i < k; ++i) {
    const CrashFs::Record& r = states.trace()[i];
    if (r.op == CrashFs::Op::kLink && st.files.count(r.path) && st.files.count(r.to)) return true;
  }
  return false;
}

void run(const Workload& w) {
  // Every state is copied and parsed a few times over: keep freed blocks in the heap rather than
  // hand them back to the kernel, which would make every state pay page faults for fresh memory.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  size_t target = env_count("XS_POWERLOSS_STATES", 10000);
  uint64_t seed = env_count("XS_POWERLOSS_SEED", 1);
  auto started = std::chrono::steady_clock::now();
  CrashStates states(*w.fs);
  // The seam recorded the no-replace renames as this build's posix_fs makes them: one atomic call,
  // or link then unlink under XS_GENERIC_POSIX_FS (scripts/test-portable-fs).
  size_t links = links_of(states).size(), atomic = 0, both_names = 0;
  for (const CrashFs::Record& r : states.trace()) atomic += r.op == CrashFs::Op::kRenameNoReplace;
#if defined(XS_GENERIC_POSIX_FS)
  EXPECT_EQ(atomic, 0u) << "an atomic no-replace rename in the generic build's trace";
#else
  EXPECT_EQ(links, 0u) << "a link+unlink rename in the Linux build's trace";
#endif
  Stats stats;
  stats.points = states.ops() + 1 - w.first_point;
  Checker checker(w, &stats);
  std::unordered_map<uint64_t, Seen> seen;
  std::vector<size_t> points;
  for (size_t k = w.first_point; k <= states.ops(); ++k) points.push_back(k);
  for (uint64_t round = 0; stats.distinct < target && stats.tried < 50 * target; ++round) {
    std::shuffle(points.begin(), points.end(), std::mt19937_64(seed * 0x100000001B3ull + round));
    for (size_t n = 0; n < points.size() && stats.distinct < target; ++n) {
      size_t k = points[n];
      uint64_t variant = seed * 0x100000001B3ull + round;
      CrashState st = round == 1 ? states.durable(k) : round == 2 ? states.complete(k) : states.sample(k, variant);
      ++stats.tried;
      uint64_t hash = st.hash();
      auto it = seen.find(hash);
      if (it != seen.end()) {
        checker.check_durable(k, it->second);
      } else {
        ++stats.distinct;
        both_names += links && has_both_names(st, states, k);
        seen.emplace(hash, checker.check(k, st));
      }
      if (::testing::Test::HasFailure()) {
        std::printf("power loss [%s]: failed at crash point %zu of %zu (after: %s), round %llu, "
                    "XS_POWERLOSS_SEED=%llu; files and directories in the state:\n",
                    w.name.c_str(), k, states.ops(), k ? describe(states.trace()[k - 1]).c_str() : "nothing",
                    static_cast<unsigned long long>(round), static_cast<unsigned long long>(seed));
        for (const auto& [path, bytes] : st.files) std::printf("  %s: %zu bytes\n", path.c_str(), bytes.size());
        for (const std::string& d : st.dirs) std::printf("  %s/\n", d == "/" ? "" : d.c_str());
        return;
      }
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("power loss [%s]: %zu ops, %zu crash points, %zu distinct states (%zu tried, %zu file opens) in "
              "%.1f s; states: %zu with damaged lines reported, %zu of them with intact entries after the damage, "
              "%zu losing acknowledged unsynced entries, %zu without the file, %zu with the old file, "
              "%zu with a rewrite's temp file, %zu with a put's temp file; %zu durable-entry checks, "
              "%zu blob refs and %zu blob files verified; workload: %zu flushes, %zu rewrites, %zu blob puts; "
              "no-replace renames: %zu atomic, %zu link+unlink (%zu states with a file under both names); "
              "seed %llu\n",
              w.name.c_str(), states.ops(), stats.points, stats.distinct, stats.tried, stats.opened, secs,
              stats.damaged, stats.intact_after_damage, stats.lost_unsynced, stats.missing, stats.old_file,
              stats.session_temps, stats.blob_temps, stats.durable_checked, stats.blobs_checked,
              stats.blob_files_checked, w.flushes, w.rewrites, w.blob_puts, atomic, links, both_names,
              static_cast<unsigned long long>(seed));
  ::testing::Test::RecordProperty("ops", static_cast<int>(states.ops()));
  ::testing::Test::RecordProperty("crash_points", static_cast<int>(stats.points));
  ::testing::Test::RecordProperty("distinct_states", static_cast<int>(stats.distinct));
  ::testing::Test::RecordProperty("states_tried", static_cast<int>(stats.tried));
  ::testing::Test::RecordProperty("file_opens", static_cast<int>(stats.opened));
  ::testing::Test::RecordProperty("states_with_damage", static_cast<int>(stats.damaged));
  ::testing::Test::RecordProperty("states_losing_unsynced", static_cast<int>(stats.lost_unsynced));
  ::testing::Test::RecordProperty("durable_entries_checked", static_cast<int>(stats.durable_checked));
  ::testing::Test::RecordProperty("seed", static_cast<int>(seed));
  ::testing::Test::RecordProperty("states_with_both_names", static_cast<int>(both_names));
  EXPECT_GE(stats.distinct, target) << "the model gave fewer distinct states than asked for";
  if (links) {
    EXPECT_GT(both_names, 0u) << "no state between a link and its unlink was checked";
  }
}

// --- the model itself, on traces small enough to know every answer -----------------------------

std::set<std::string> contents(const CrashStates& states, size_t k, const std::string& path, int samples) {
  std::set<std::string> out;
  for (int i = 0; i < samples; ++i) {
    CrashState st = states.sample(k, static_cast<uint64_t>(i));
    auto it = st.files.find(path);
    out.insert(it == st.files.end() ? "<missing>" : it->second);
  }
  return out;
}

TEST(PowerLoss, ModelCutsZeroesAndGarblesOnlyUnsyncedAppends) {
  auto fs = std::make_shared<CrashFs>();
  durable_dir(*fs, "/d");
  auto f = fs->create_new("/d/f");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append("abc").ok());
  size_t unsynced = fs->ops();
  ASSERT_TRUE((*f)->sync().ok());
  ASSERT_TRUE(fs->sync_dir("/d").ok());
  ASSERT_TRUE((*f)->append("defgh").ok());
  ASSERT_TRUE((*f)->append("ijk").ok());
  CrashStates states(*fs);
  size_t k = states.ops();
  EXPECT_EQ(states.durable(k).files.at("/d/f"), "abc");
  EXPECT_EQ(states.complete(k).files.at("/d/f"), "abcdefghijk");
  std::set<std::string> seen = contents(states, k, "/d/f", 3000);
  bool garbage = false;
  for (const std::string& c : seen) {
    ASSERT_EQ(c.compare(0, 3, "abc"), 0) << "synced bytes damaged: " << c;
    ASSERT_LE(c.size(), 11u);
    for (size_t i = 3; i < c.size(); ++i) garbage |= c[i] != '\0' && c[i] != "abcdefghijk"[i];
  }
  for (const char* want : {"abc", "abcdefghijk", "abcdefgh", "abcdef", "abcdefghij"}) {
    EXPECT_TRUE(seen.count(want)) << "never cut to " << want;
  }
  EXPECT_TRUE(seen.count(std::string("abc\0\0\0\0\0ijk", 11))) << "never a hole before a later append";
  EXPECT_TRUE(seen.count(std::string("abcdefgh\0\0\0", 11))) << "never a size extended over zeros";
  EXPECT_TRUE(garbage) << "never garbage";
  // Before the syncs neither the file's name nor its bytes are certain.
  EXPECT_EQ(states.durable(unsynced).files.count("/d/f"), 0u);
  std::set<std::string> early = contents(states, unsynced, "/d/f", 300);
  for (const char* want : {"<missing>", "", "ab", "abc"}) EXPECT_TRUE(early.count(want)) << "never " << want;
}

// Damage inside a file comes in whole sectors: an append of 1500 bytes from offset 3 is torn only
// at offsets 512 and 1024 (or damaged from its start).
TEST(PowerLoss, ModelDamagesWholeSectors) {
  auto fs = std::make_shared<CrashFs>();
  durable_dir(*fs, "/d");
  std::string data;
  for (size_t i = 0; i < 1500; ++i) data += static_cast<char>('a' + i % 26);
  auto f = fs->create_new("/d/f");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append("abc").ok());
  ASSERT_TRUE((*f)->sync().ok());
  ASSERT_TRUE(fs->sync_dir("/d").ok());
  ASSERT_TRUE((*f)->append(data).ok());
  CrashStates states(*fs);
  std::string all = "abc" + data;
  std::set<size_t> zero_starts;
  for (const std::string& c : contents(states, states.ops(), "/d/f", 3000)) {
    size_t first = 3;
    while (first < c.size() && c[first] == all[first]) ++first;
    if (first == c.size() || c[first] != '\0') continue;
    size_t end = std::min(c.size(), (first / 512 + 1) * 512);
    if (std::all_of(c.begin() + static_cast<std::ptrdiff_t>(first), c.begin() + static_cast<std::ptrdiff_t>(end),
                    [](char ch) { return ch == '\0'; })) {
      zero_starts.insert(first);
    }
  }
  EXPECT_EQ(zero_starts, (std::set<size_t>{3, 512, 1024})) << "zero-filled damage starts elsewhere";
}

TEST(PowerLoss, ModelUndoesNameChangesUntilTheirDirectoryIsSynced) {
  auto fs = std::make_shared<CrashFs>();
  durable_dir(*fs, "/d");
  durable_file(*fs, "/d/a", "A");
  ASSERT_TRUE(fs->rename("/d/a", "/d/b").ok());
  size_t renamed = fs->ops();
  ASSERT_TRUE(fs->make_dirs("/d/sub").ok());
  durable_file(*fs, "/d/sub/x", "X");  // /d, which holds "sub", is synced by make_dirs itself (fs.h)
  size_t nested = fs->ops();
  ASSERT_TRUE(fs->sync_dir("/d").ok());
  CrashStates states(*fs);
  std::set<std::string> names;
  for (int i = 0; i < 200; ++i) {
    CrashState st = states.sample(renamed, static_cast<uint64_t>(i));
    bool a = st.files.count("/d/a") > 0, b = st.files.count("/d/b") > 0;
    names.insert(a ? (b ? "both" : "a") : (b ? "b" : "none"));
    EXPECT_EQ(st.files.count("/d/a") ? st.files.at("/d/a") : st.files.at("/d/b"), "A");
  }
  EXPECT_EQ(names, (std::set<std::string>{"a", "b"})) << "a rename is undone or not, never half";
  std::set<bool> sub;
  for (int i = 0; i < 200; ++i) sub.insert(states.sample(nested, static_cast<uint64_t>(i)).files.count("/d/sub/x") > 0);
  EXPECT_EQ(sub, (std::set<bool>{true})) << "a directory make_dirs created vanished with a synced file in it";
  for (int i = 0; i < 50; ++i) {
    CrashState st = states.sample(states.ops(), static_cast<uint64_t>(i));
    EXPECT_EQ(st.files.count("/d/a"), 0u);
    EXPECT_EQ(st.files.at("/d/b"), "A");
    EXPECT_EQ(st.files.at("/d/sub/x"), "X");
  }
}

// The bug class the model exists to catch (ALICE): replacing a file by rename without an fsync of
// the new file first can leave the target empty or short; with the fsync it is old or new.
TEST(PowerLoss, ModelCatchesARenameWithoutFsync) {
  for (bool fsync_first : {false, true}) {
    auto fs = std::make_shared<CrashFs>();
    durable_dir(*fs, "/d");
    durable_file(*fs, "/d/t", "old contents");
    size_t setup = fs->ops();
    auto f = fs->create_new("/d/tmp");
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->append("new contents").ok());
    if (fsync_first) {
      ASSERT_TRUE((*f)->sync().ok());
    }
    ASSERT_TRUE((*f)->close().ok());
    ASSERT_TRUE(fs->rename("/d/tmp", "/d/t").ok());
    ASSERT_TRUE(fs->sync_dir("/d").ok());
    CrashStates states(*fs);
    std::set<std::string> seen;
    for (size_t k = setup; k <= states.ops(); ++k) {
      for (const std::string& c : contents(states, k, "/d/t", 100)) seen.insert(c);
    }
    bool only_old_or_new = true;
    for (const std::string& c : seen) only_old_or_new &= c == "old contents" || c == "new contents";
    EXPECT_EQ(only_old_or_new, fsync_first) << (fsync_first ? "with" : "without") << " the fsync";
    EXPECT_TRUE(seen.count("old contents") && seen.count("new contents"));
  }
}

// A no-replace rename across directories, atomic or as the generic path makes it (link, then
// unlink): every name set a crash may leave at each point. The file is never under neither name;
// only link+unlink can leave it under both, until the old name's directory is synced.
TEST(PowerLoss, ModelRecordsTheGenericNoReplaceRenameInTwoSteps) {
  using How = CrashFs::NoReplaceRename;
  for (How how : {How::kAtomic, How::kLinkThenUnlink}) {
    bool generic = how == How::kLinkThenUnlink;
    SCOPED_TRACE(generic ? "link+unlink" : "atomic");
    auto fs = std::make_shared<CrashFs>(how);
    EXPECT_EQ(fs->no_replace_rename(), how);
    durable_dir(*fs, "/d");
    durable_dir(*fs, "/e");
    durable_file(*fs, "/d/a", "A");
    size_t before = fs->ops();
    ASSERT_TRUE(fs->rename_noreplace("/d/a", "/e/b").ok());
    EXPECT_TRUE(fs->rename_noreplace("/e/b", "/d/a").ok());  // and back: /d/a is free again
    ASSERT_TRUE(fs->rename_noreplace("/d/a", "/e/b").ok());
    EXPECT_EQ(fs->rename_noreplace("/e/b", "/e/b").code(), Code::kExists);
    size_t moved = fs->ops();
    ASSERT_TRUE(fs->sync_dir("/e").ok());
    size_t target_synced = fs->ops();
    ASSERT_TRUE(fs->sync_dir("/d").ok());
    CrashStates states(*fs);
    ASSERT_EQ(moved - before, generic ? 6u : 3u);
    if (generic) {
      EXPECT_EQ(describe(states.trace()[before]), "link /d/a -> /e/b ino 1");
      EXPECT_EQ(describe(states.trace()[before + 1]), "unlink /d/a ino 1");
    } else {
      EXPECT_EQ(describe(states.trace()[before]), "rename_noreplace /d/a -> /e/b ino 1");
    }
    auto names_at = [&](size_t k) {
      std::set<std::string> names;
      for (int i = 0; i < 300; ++i) {
        CrashState st = states.sample(k, static_cast<uint64_t>(i));
        bool a = st.files.count("/d/a") > 0, b = st.files.count("/e/b") > 0;
        names.insert(a ? (b ? "both" : "a") : (b ? "b" : "none"));
        for (const auto& [path, bytes] : st.files) EXPECT_EQ(bytes, "A") << path;
      }
      return names;
    };
    using Names = std::set<std::string>;
    if (generic) {
      EXPECT_EQ(names_at(before + 1), (Names{"a", "both"})) << "after the first link";
      EXPECT_EQ(names_at(before + 2), (Names{"a", "both", "b"})) << "after the first unlink";
      EXPECT_EQ(names_at(moved), (Names{"a", "both", "b"}));
      EXPECT_EQ(names_at(target_synced), (Names{"both", "b"})) << "the link is durable, the unlink not yet";
      EXPECT_EQ(states.durable(target_synced).files.size(), 2u);
    } else {
      EXPECT_EQ(names_at(before + 1), (Names{"a", "b"}));
      EXPECT_EQ(names_at(moved), (Names{"a", "b"}));
      EXPECT_EQ(names_at(target_synced), (Names{"a", "b"})) << "a rename changes both directories";
    }
    EXPECT_EQ(names_at(states.ops()), (Names{"b"}));
    EXPECT_EQ(states.complete(moved).files, (std::map<std::string, std::string>{{"/e/b", "A"}}));
  }
}

// Two names of one file carry one set of bytes: unsynced appends are damaged alike under both.
TEST(PowerLoss, ModelGivesBothNamesOfALinkTheSameBytes) {
  auto fs = std::make_shared<CrashFs>(CrashFs::NoReplaceRename::kLinkThenUnlink);
  durable_dir(*fs, "/d");
  durable_dir(*fs, "/e");
  durable_file(*fs, "/d/a", "synced;");
  auto f = fs->open_append("/d/a");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append(std::string(3000, 'u')).ok());
  ASSERT_TRUE(fs->rename_noreplace("/d/a", "/e/b").ok());
  CrashStates states(*fs);
  size_t between = states.ops() - 1, both = 0, differing_from_complete = 0;
  for (int i = 0; i < 400; ++i) {
    CrashState st = states.sample(between, static_cast<uint64_t>(i));
    if (!st.files.count("/d/a") || !st.files.count("/e/b")) continue;
    ++both;
    EXPECT_EQ(st.files.at("/d/a"), st.files.at("/e/b"));
    differing_from_complete += st.files.at("/e/b") != "synced;" + std::string(3000, 'u');
  }
  EXPECT_GT(both, 0u);
  EXPECT_GT(differing_from_complete, 0u) << "the unsynced append was never damaged";
}

// --- the workloads ----------------------------------------------------------------------------

TEST(PowerLoss, AppendBuffered) {
  Workload w;
  append_workload(&w, session::Durability::kBuffered);
  ASSERT_FALSE(::testing::Test::HasFailure());
  run(w);
}

TEST(PowerLoss, AppendSync) {
  Workload w;
  append_workload(&w, session::Durability::kSync);
  ASSERT_FALSE(::testing::Test::HasFailure());
  run(w);
}

TEST(PowerLoss, MigrationRewrite) {
  Workload w;
  migration_workload(&w);
  ASSERT_FALSE(::testing::Test::HasFailure());
  run(w);
}

TEST(PowerLoss, BlobPut) {
  Workload w;
  blob_workload(&w);
  ASSERT_FALSE(::testing::Test::HasFailure());
  run(w);
}

// The workloads above start with their directories on disk (a store in use). The first session of
// a cwd and the first blob of a store make their directory too (make_dirs), and that directory's
// own entry must reach the disk before anything inside it is acknowledged as durable.
TEST(PowerLoss, AppendSyncInANewDirectory) {
  Workload w;
  append_workload(&w, session::Durability::kSync, 20, true);
  ASSERT_FALSE(::testing::Test::HasFailure());
  run(w);
}

TEST(PowerLoss, BlobPutInANewDirectory) {
  Workload w;
  blob_workload(&w, 12, true);
  ASSERT_FALSE(::testing::Test::HasFailure());
  run(w);
}

}  // namespace
}  // namespace xs::test
