// A session moved to another directory (move_to: a no-replace rename of the file across
// directories, then the rewrite of its header) under simulated power loss (storage/crash_fs.h).
// On Linux the rename is one atomic call; on the generic POSIX path (XS_GENERIC_POSIX_FS, what
// macOS's fallback and the BSDs run) it is link, then unlink, and a crash between them leaves the
// session under both names. For every crash point of the workload, the durable-only state, the
// nothing-lost state and sampled states are checked:
//  - the session is under its old name, its new name, or (only on the generic path) both: never
//    neither, and each name holds every entry acknowledged as durable by then, whole;
//  - each name opens read-only with those entries and no damage but a torn last append, and opens
//    for writing and takes one more entry.
// Both names of one file are installed as two copies (the seam has no link): what the engine sees
// on the next open of each name is the same, but an append through one name is not seen under the
// other, as it would be on a real disk (see tests/RELIABILITY.md on that state).
//
// XS_POWERLOSS_STATES (as for the other workloads: 10,000, 600 under ASan) sets the samples per
// crash point (a fiftieth of it, at least 10); XS_POWERLOSS_SEED the sampling seed (default 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "power_loss_workloads.h"

namespace xs::test {
namespace {

using storage::CrashFs;
using storage::CrashState;
using storage::CrashStates;

const std::string kMovedDir = "/store/sessions/--moved--";

struct MoveWorkload {
  std::shared_ptr<CrashFs> fs = std::make_shared<CrashFs>();
  std::string from, to;
  size_t first_point = 0;   // the session and its first entries are durable from here on
  std::vector<WrittenLine> lines;
};

void append(session::Session& s, MoveWorkload* w, uint64_t n) {
  std::string id;
  ASSERT_TRUE(s.append_message(user_message(text_payload(n, n == 3)), &id).ok());
  auto line = s.entry_json(id);
  ASSERT_TRUE(line.ok());
  w->lines.push_back({*line, w->fs->ops(), {}, w->fs->ops()});  // sync mode: durable once acknowledged
}

// A session with 8 entries, closed; reopened for writing, moved to another directory, 4 more
// entries, closed. Appends are synced (durable when acknowledged).
void move_workload(MoveWorkload* w) {
  durable_dir(*w->fs, kSessionDir);
  durable_dir(*w->fs, kMovedDir);
  {
    auto s = session::Session::create(w->fs, kSessionDir,
                                      power_loss_options(w->fs, false, session::Durability::kSync, false));
    ASSERT_TRUE(s.ok()) << s.status().message();
    w->from = (*s)->path();
    for (uint64_t n = 0; n < 8; ++n) append(**s, w, n);
    ASSERT_TRUE((*s)->close().ok());
  }
  w->first_point = w->fs->ops();
  w->to = storage::join_path(kMovedDir, storage::base_name(w->from));
  auto s = session::Session::open(w->fs, w->from, power_loss_options(w->fs, false, session::Durability::kSync, false));
  ASSERT_TRUE(s.ok()) << s.status().message();
  ASSERT_TRUE((*s)->move_to(kMovedDir, "/moved").ok());
  ASSERT_EQ((*s)->path(), w->to);
  for (uint64_t n = 8; n < 12; ++n) append(**s, w, n);
  ASSERT_TRUE((*s)->close().ok());
}

struct MoveStats {
  size_t states = 0, old_name = 0, new_name = 0, both = 0, durable_checked = 0;
};

// One name of the session in a state: its durable entries, whole; opens read-only and writable.
void check_name(const std::string& path, const std::string& bytes, const MoveWorkload& w, size_t k,
                const std::shared_ptr<storage::Fs>& fs, MoveStats* stats) {
  std::string first = bytes.substr(0, bytes.find('\n'));
  EXPECT_TRUE(first.find("\"cwd\":\"/work\"") != std::string::npos || first.find("\"cwd\":\"/moved\"") != std::string::npos)
      << path << " does not start with a header of the session: " << first.substr(0, 200);
  auto ro = session::Session::open(fs, path, power_loss_options(fs, false, session::Durability::kSync, true));
  ASSERT_TRUE(ro.ok()) << path << ": " << ro.status().message();
  std::string entries = (*ro)->entries_json();
  for (size_t j = 0; j < w.lines.size(); ++j) {
    if (w.lines[j].durable_at > k) continue;
    ++stats->durable_checked;
    EXPECT_NE(bytes.find("\n" + w.lines[j].bytes + "\n"), std::string::npos) << path << ": durable entry " << j << " lost";
    EXPECT_NE(entries.find(w.lines[j].bytes), std::string::npos) << path << ": durable entry " << j << " not returned";
  }
  auto rw = session::Session::open(fs, path,
                                   power_loss_options(fs, false, session::Durability::kSync, false, kPowerLossIdSeed + 1));
  ASSERT_TRUE(rw.ok()) << path << ": " << rw.status().message();
  std::string id;
  ASSERT_TRUE((*rw)->append_message(user_message("appended after the power loss"), &id).ok()) << path;
  ASSERT_TRUE((*rw)->close().ok()) << path;
}

void check_state(const CrashState& st, const MoveWorkload& w, size_t k, MoveStats* stats) {
  ++stats->states;
  bool old_name = st.files.count(w.from) > 0, new_name = st.files.count(w.to) > 0;
  ASSERT_TRUE(old_name || new_name) << "the session is under neither name at crash point " << k;
  stats->old_name += old_name && !new_name;
  stats->new_name += new_name && !old_name;
  stats->both += old_name && new_name;
  auto fs = storage::make_memory_fs();
  ASSERT_TRUE(st.install(*fs).ok());
  for (const std::string& path : {w.from, w.to}) {
    if (st.files.count(path)) check_name(path, st.files.at(path), w, k, fs, stats);
  }
}

TEST(PowerLoss, SessionMove) {
  MoveWorkload w;
  move_workload(&w);
  ASSERT_FALSE(::testing::Test::HasFailure());
  uint64_t seed = env_count("XS_POWERLOSS_SEED", 1);
  size_t samples = std::max<size_t>(10, env_count("XS_POWERLOSS_STATES", 10000) / 50);
  CrashStates states(*w.fs);
  MoveStats stats;
  std::set<uint64_t> seen;
  for (size_t k = w.first_point; k <= states.ops() && !::testing::Test::HasFailure(); ++k) {
    std::vector<CrashState> at_k{states.durable(k), states.complete(k)};
    for (uint64_t i = 0; i < samples; ++i) at_k.push_back(states.sample(k, seed * 100000 + i));
    for (const CrashState& st : at_k) {
      if (seen.insert(st.hash()).second) check_state(st, w, k, &stats);
    }
  }
  size_t links = 0;
  for (const CrashFs::Record& r : states.trace()) links += r.op == CrashFs::Op::kLink;
  std::printf("power loss [session move]: %zu ops, %zu crash points, %zu distinct states: %zu under the old name "
              "only, %zu under the new name only, %zu under both; %zu durable-entry checks; %zu link+unlink "
              "renames; seed %llu\n",
              states.ops(), states.ops() + 1 - w.first_point, stats.states, stats.old_name, stats.new_name, stats.both,
              stats.durable_checked, links, static_cast<unsigned long long>(seed));
  EXPECT_GT(stats.old_name, 0u);
  EXPECT_GT(stats.new_name, 0u);
#if defined(XS_GENERIC_POSIX_FS)
  EXPECT_GT(links, 0u);
  EXPECT_GT(stats.both, 0u) << "the state between the link and the unlink was never checked";
#else
  EXPECT_EQ(links, 0u);
  EXPECT_EQ(stats.both, 0u) << "an atomic rename left the session under both names";
#endif
}

}  // namespace
}  // namespace xs::test
