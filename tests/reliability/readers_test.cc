// Readers beside a writer in another process (docs/guarantees.md#t6; guarantees #g1, #g3, #g5):
// readers take no lock, a reader never repairs (docs/decisions.md#reload), migration rewrites only
// on writable opens (docs/decisions.md#migration).
//
//  - During appends: a child appends entries of 100 B - 2 MiB (content derived from the sequence
//    number; files of 16 entries; buffered or sync durability, whole or piecewise write()s, by
//    turns) while this process opens the file read-only in a loop, a long-lived read-only handle
//    reload()s it, and a second reader process opens it too. Every view is the header plus the
//    first n entries byte for byte (no hole, nothing damaged), n never decreases and covers every
//    append acknowledged before the open, and the only diagnostic ever seen is an incomplete_tail
//    where the line being written starts. The readers never write: their seam counts and refuses
//    every mutating call, and each finished file is exactly the writer's bytes with no diagnostics.
//  - During migration rewrites: a child puts v1/v2 files back and opens them writable, which
//    rewrites them atomically, while this process reads them in a loop: every read, of the old file
//    (migrated in memory) or of the new one, returns exactly the migrated session; no read fails or
//    sees a partial or missing file.
//  - Deterministic cases for the two relations the loops rely on: reload reaches the state a fresh
//    open reaches (partial last line awaited, never repaired), and a read-only open migrates in
//    memory exactly as the rewrite does (same seed) or up to the ids (random ids), writing nothing.
//
// XS_READERS_OPENS: read-only opens during appends (default 2000, the CI count).
// XS_READERS_MIGRATION_READS: reads during migration rewrites (default 1000).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <set>

#include "migration_fixtures.h"
#include "readers_util.h"

namespace xs::test {
namespace {

using session::Session;

// ------------------------------------------------------------------------------------------------
// Reads during appends

// Read-only opens of this process per entry the writer appends: the two go in step, so the file
// sizes (and the run time) stay bounded however fast the writer is, and every open happens while
// the file grows, however slow it is.
constexpr uint64_t kOpensPerAppend = 2;

struct AppendShared {
  std::atomic<int32_t> file{-1};   // the file the writer fills (its header is on disk)
  std::atomic<uint64_t> acked{0};  // appends acknowledged: sequence numbers 0 .. acked-1
  std::atomic<uint64_t> opens{0};  // read-only opens this process finished (paces the writer)
  std::atomic<bool> stop{false};
};
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<int32_t>::is_always_lock_free,
              "shared between processes");

// write(2) for half of the files: a record over 64 KiB goes out in 64 KiB pieces with a pause
// after each, as a slow disk or a signal can leave it (short writes, which the engine continues).
// The line being written then stays visible in part for a while, and readers meet it often.
long piecewise_write(int fd, const void* buf, unsigned long n) {
  if (n <= (64u << 10)) return write(fd, buf, n);
  long done = write(fd, buf, 64u << 10);
  usleep(200);
  return done;
}

// The writer process: fills file after file until told to stop (between two appends). Files take
// turns: buffered or sync durability, whole write() or pieces.
int append_writer(const std::string& dir, AppendShared* sh) {
  auto whole = storage::make_posix_fs(), pieces = storage::make_posix_fs(piecewise_write);
  for (uint32_t g = 0;; ++g) {
    session::SessionOptions o = exact_writer(true, g + 1, append_session_id(g));
    o.durability = g % 2 ? session::Durability::kSync : session::Durability::kBuffered;
    auto s = Session::open(g % 4 < 2 ? whole : pieces, file_path(dir, g), o);
    if (!s.ok()) return 10;
    sh->file.store(static_cast<int32_t>(g));
    for (uint32_t i = 0; i < kEntriesPerFile; ++i) {
      uint64_t seq = uint64_t{g} * kEntriesPerFile + i;
      std::string message = message_of(seq);
      while (!sh->stop.load() && sh->opens.load() < seq * kOpensPerAppend) usleep(50);
      if (sh->stop.load()) return (*s)->close().ok() ? 0 : 13;
      std::string id;
      if (!(*s)->append_message(message, &id).ok()) return 11;
      sh->acked.store(seq + 1);
    }
    if (!(*s)->close().ok()) return 12;
  }
}

struct ReaderReport {
  uint64_t opens = 0, partial = 0, retired = 0, failures = 0, mutating = 0;
  char first_failure[512] = {};
};

// The second reader process: opens whatever file the writer is filling until told to stop.
int second_reader(const std::string& dir, AppendShared* sh, int report_fd) {
  auto fs = reader_fs();
  ReaderReport r;
  auto fail = [&](const std::string& what) {
    if (r.failures++ == 0) std::snprintf(r.first_failure, sizeof r.first_failure, "%s", what.c_str());
  };
  std::unique_ptr<FileModel> model;
  size_t last = 0;
  uint64_t paced = 0;  // one open for each of the first reader's
  while (!sh->stop.load() && r.failures < 10) {
    if (sh->opens.load() == paced) {
      usleep(50);
      continue;
    }
    paced = sh->opens.load();
    int32_t g = sh->file.load();
    if (g < 0) {
      usleep(100);
      continue;
    }
    if (!model || model->g != static_cast<uint32_t>(g)) model = std::make_unique<FileModel>(g), last = 0;
    size_t acked = acked_in(sh->acked.load(), g);
    auto s = Session::open(fs, file_path(dir, g), read_only());
    ++r.opens;
    if (!s.ok()) {
      // This process deletes finished files two behind the writer; a reader that lagged that far finds none.
      if (s.status().code() == Code::kNotFound && sh->file.load() >= g + 2) ++r.retired;
      else fail("open " + std::to_string(g) + ": " + s.status().message());
      continue;
    }
    Snapshot snap;
    std::string bad = check_snapshot(*model, **s, &snap);
    if (!bad.empty()) fail("file " + std::to_string(g) + ": " + bad);
    else if (snap.entries < last || snap.entries < acked) fail("file " + std::to_string(g) + ": went back");
    last = snap.entries;
    r.partial += snap.partial;
  }
  r.mutating = mutating_calls(*fs);
  return write(report_fd, &r, sizeof r) == static_cast<ssize_t>(sizeof r) ? 0 : 1;
}

TEST(Readers, ReadOnlyOpensAndReloadsDuringAppendsSeeOnlyWholeEntriesInOrder) {
  const uint64_t opens = env_count("XS_READERS_OPENS", 2000);
  TempDir dir;
  Shared<AppendShared> sh;
  Pipe report;
  ASSERT_TRUE(report.ok());
  pid_t writer = spawn([&] { return append_writer(dir.path(), &*sh); });
  pid_t reader2 = spawn([&] { return second_reader(dir.path(), &*sh, report.fd[1]); });
  ASSERT_GT(writer, 0);
  ASSERT_GT(reader2, 0);

  auto fs = reader_fs();
  int failures = 0;
  auto fail = [&](const std::string& what) {
    if (++failures <= 5) ADD_FAILURE() << what;
  };
  uint64_t partial_opens = 0, partial_reloads = 0, reload_added = 0, done = 0, files_checked = 0, bytes_checked = 0;
  int32_t current = -1;
  std::unique_ptr<FileModel> model;
  std::unique_ptr<Session> follower;  // the long-lived read-only handle on the current file
  size_t last_open = 0, last_reload = 0;

  // File `m` is finished with n entries: the follower catches up, a fresh open agrees, and the
  // bytes are exactly the writer's (so the readers added nothing, not even a newline).
  auto finish = [&](const FileModel& m, size_t n) {
    std::string path = file_path(dir.path(), m.g);
    int64_t added = 0;
    Status st = follower->reload(&added);
    if (!st.ok()) return fail("final reload of " + path + ": " + st.message());
    auto fresh = Session::open(fs, path, read_only());
    if (!fresh.ok()) return fail("final open of " + path + ": " + fresh.status().message());
    for (Session* s : {follower.get(), fresh->get()}) {
      Snapshot snap;
      std::string bad = check_snapshot(m, *s, &snap);
      if (!bad.empty() || snap.entries != n || snap.partial) {
        fail(path + " finished with " + std::to_string(n) + " entries: " + bad + " " + s->diagnostics_json());
      }
    }
    std::string bytes = read_file(path);
    if (bytes != m.bytes(n)) fail(path + " is not exactly the writer's bytes (" + std::to_string(bytes.size()) + ")");
    bytes_checked += bytes.size();
    ++files_checked;
    if (m.g >= 1) {  // two behind the writer now: nobody should still need it (see second_reader)
      std::remove(file_path(dir.path(), m.g - 1).c_str());
      std::remove((file_path(dir.path(), m.g - 1) + ".lock").c_str());
    }
  };
  auto next_file = [&]() {
    ++current;
    model = std::make_unique<FileModel>(current);
    auto f = Session::open(fs, file_path(dir.path(), current), read_only());
    if (!f.ok()) return fail("open " + std::to_string(current) + ": " + f.status().message());
    follower = std::move(*f);
    Snapshot snap;
    std::string bad = check_snapshot(*model, *follower, &snap);
    if (!bad.empty()) fail("first open of file " + std::to_string(current) + ": " + bad);
    last_open = last_reload = snap.entries;
  };

  for (int idle = 0; done < opens && failures == 0;) {
    // In step with the writer, whatever their speeds: it appends entry k once this process made
    // 2k opens, and this process stays within 4 opens of that (so opens meet appends in progress).
    int32_t g = sh->file.load();
    if (g < 0 || done >= (sh->acked.load() + 2) * kOpensPerAppend) {
      if (++idle > 200000) fail("the writer made no progress for 20 s");
      usleep(100);
      continue;
    }
    idle = 0;
    while (current < g) {  // the writer closed `current` with all its entries (next_file() moves on)
      if (current >= 0) finish(*model, kEntriesPerFile);
      next_file();
    }
    if (failures) break;
    size_t acked = acked_in(sh->acked.load(), current);
    auto s = Session::open(fs, file_path(dir.path(), current), read_only());
    if (!s.ok()) {
      fail("open " + std::to_string(current) + ": " + s.status().message());
      break;
    }
    Snapshot snap;
    std::string bad = check_snapshot(*model, **s, &snap);
    if (!bad.empty()) fail("open of file " + std::to_string(current) + ": " + bad);
    if (snap.entries < last_open) fail("an open saw fewer entries than the one before");
    if (snap.entries < acked) fail("an open missed an acknowledged append");
    last_open = snap.entries;
    partial_opens += snap.partial;

    int64_t added = -1;
    Status st = follower->reload(&added);
    if (!st.ok()) fail("reload: " + st.message());
    Snapshot rs;
    bad = check_snapshot(*model, *follower, &rs);
    if (!bad.empty()) fail("reload of file " + std::to_string(current) + ": " + bad);
    if (rs.entries < last_reload || added != static_cast<int64_t>(rs.entries - last_reload)) {
      fail("reload said " + std::to_string(added) + " added, went from " + std::to_string(last_reload) + " to " +
           std::to_string(rs.entries));
    }
    if (rs.entries < acked) fail("a reload missed an acknowledged append");
    last_reload = rs.entries;
    partial_reloads += rs.partial;
    reload_added += static_cast<uint64_t>(std::max<int64_t>(added, 0));
    sh->opens.store(++done);
  }
  sh->stop.store(true);
  EXPECT_EQ(wait_child(writer), 0) << "10-13: the writer failed to open, append or close";
  EXPECT_EQ(wait_child(reader2), 0);
  ReaderReport r2;
  ASSERT_EQ(read(report.fd[0], &r2, sizeof r2), static_cast<ssize_t>(sizeof r2));
  EXPECT_EQ(r2.failures, 0u) << r2.first_failure;
  EXPECT_EQ(r2.mutating, 0u) << "the second reader tried to change the file system";
  EXPECT_GT(r2.opens, 0u);
  if (failures) return;

  // The writer stopped between two appends: every file it filled is exactly its bytes.
  const uint64_t acked = sh->acked.load();
  const int32_t last_file = sh->file.load();
  while (current < last_file) {  // next_file() moves `current` on
    finish(*model, kEntriesPerFile);
    next_file();
  }
  finish(*model, acked_in(acked, current));
  EXPECT_EQ(mutating_calls(*fs), 0u) << "a reader tried to change the file system";
  EXPECT_GE(fs->count(storage::FsOp::kReadFile) + fs->count(storage::FsOp::kReadRange), opens);
  // Nothing but the writer's files and their lock files (no temp files, no repairs).
  for (const std::string& name : list_dir(dir.path())) {
    size_t ext = name.find(".jsonl");
    EXPECT_TRUE(name[0] == 'f' && ext != std::string::npos && name.find_first_not_of("0123456789", 1) == ext &&
                (name.size() == ext + 6 || name.compare(ext, std::string::npos, ".jsonl.lock") == 0))
        << name;
  }
  EXPECT_EQ(done, opens);
  EXPECT_GE(files_checked, 1u);

  std::printf(
      "readers during appends: %llu opens + %llu reloads here (%llu saw the line being written, %llu reloads), "
      "%llu opens in a second reader (%llu saw it, %llu of a retired file), %llu appends acknowledged in %llu "
      "files (%llu bytes checked, %llu entries picked up by reloads), 0 mutating seam calls\n",
      (unsigned long long)done, (unsigned long long)done, (unsigned long long)partial_opens,
      (unsigned long long)partial_reloads, (unsigned long long)r2.opens, (unsigned long long)r2.partial,
      (unsigned long long)r2.retired, (unsigned long long)acked, (unsigned long long)files_checked,
      (unsigned long long)bytes_checked, (unsigned long long)reload_added);
  RecordProperty("opens", static_cast<int>(done));
  RecordProperty("opens_seeing_partial_line", static_cast<int>(partial_opens));
  RecordProperty("reloads_seeing_partial_line", static_cast<int>(partial_reloads));
  RecordProperty("second_reader_opens", static_cast<int>(r2.opens));
  RecordProperty("appends_acknowledged", static_cast<int>(acked));
  RecordProperty("files_checked", static_cast<int>(files_checked));
}

// ------------------------------------------------------------------------------------------------
// Reload, deterministically: this process plays the writer, byte by byte.

// Appends raw bytes to `path`, as a writer's write() in progress leaves them.
void raw_append(const std::string& path, const std::string& bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  close(fd);
}

TEST(Readers, ReloadPicksUpWholeLinesAndAwaitsAPartialOneWithoutRepairingIt) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  const std::string header = header_line("reload");
  std::vector<std::string> l;
  for (int i = 0; i < 4; ++i) {
    l.push_back(message_line("e" + std::to_string(i), i ? std::optional<std::string>("e" + std::to_string(i - 1))
                                                        : std::nullopt,
                             user_message("line " + std::to_string(i))));
  }
  std::string written = header + "\n" + l[0] + "\n" + l[1].substr(0, 20);
  write_file(path, written);
  auto fs = reader_fs();
  auto r = Session::open(fs, path, read_only());
  ASSERT_TRUE(r.ok());
  Session& s = **r;
  const uint64_t l1_at = header.size() + 1 + l[0].size() + 1;
  auto expect_like_a_fresh_open = [&](const std::string& entries) {
    EXPECT_EQ(s.entries_json(), entries);
    auto fresh = Session::open(fs, path, read_only());
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ((*fresh)->entries_json(), entries);
    EXPECT_EQ(s.diagnostics_json(), (*fresh)->diagnostics_json());
    EXPECT_EQ(s.verify_json(), (*fresh)->verify_json());
    EXPECT_EQ(read_file(path), written);  // the readers added nothing (no newline after the fragment)
  };
  EXPECT_EQ(s.diagnostics_json().substr(0, 60),
            "[{\"line\":3,\"offset\":" + std::to_string(l1_at) + ",\"length\":20,\"code\":\"incomplete_tail\"");
  expect_like_a_fresh_open("[" + l[0] + "]");

  int64_t added = -1;
  ASSERT_TRUE(s.reload(&added).ok());  // nothing new: the fragment is still awaited
  EXPECT_EQ(added, 0);
  expect_like_a_fresh_open("[" + l[0] + "]");

  // The line is complete but for its '\n' (a write() caught between its last two bytes).
  raw_append(path, l[1].substr(20));
  written += l[1].substr(20);
  ASSERT_TRUE(s.reload(&added).ok());
  EXPECT_EQ(added, 1);
  EXPECT_EQ(s.diagnostics_json(), "[]");
  expect_like_a_fresh_open("[" + l[0] + "," + l[1] + "]");

  // Its newline, a damaged line, a whole line and the start of the next one.
  const std::string more = "\nnot json\n" + l[2] + "\n" + l[3].substr(0, 10);
  raw_append(path, more);
  written += more;
  ASSERT_TRUE(s.reload(&added).ok());
  EXPECT_EQ(added, 1);
  const uint64_t junk_at = l1_at + l[1].size() + 1, l3_at = junk_at + 9 + l[2].size() + 1;
  std::string d = s.diagnostics_json();
  EXPECT_NE(d.find("{\"line\":4,\"offset\":" + std::to_string(junk_at) + ",\"length\":8,"), std::string::npos) << d;
  EXPECT_NE(d.find("{\"line\":6,\"offset\":" + std::to_string(l3_at) + ",\"length\":10,\"code\":\"incomplete_tail\""),
            std::string::npos)
      << d;
  expect_like_a_fresh_open("[" + l[0] + "," + l[1] + "," + l[2] + "]");

  raw_append(path, l[3].substr(10) + "\n");
  written += l[3].substr(10) + "\n";
  ASSERT_TRUE(s.reload(&added).ok());
  EXPECT_EQ(added, 1);
  expect_like_a_fresh_open("[" + l[0] + "," + l[1] + "," + l[2] + "," + l[3] + "]");
  EXPECT_EQ(s.diagnostic_count(), 1u) << s.diagnostics_json();  // only the damaged line
  EXPECT_EQ(mutating_calls(*fs), 0u);
  EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{"s.jsonl"});  // no lock file, no temp file
}

// ------------------------------------------------------------------------------------------------
// Reads during migration rewrites

constexpr uint64_t kMigrationSeed = 7;
constexpr size_t kLargeEntries = 2150;  // about 8.8 MB

std::vector<OldFile> old_files() {
  return {small_v1(seeded_entry_ids(kMigrationSeed, 4)), small_v2(), large_v2(kLargeEntries)};
}

session::SessionOptions seeded(bool reader) {
  session::SessionOptions o = reader ? read_only() : options(false, false);
  o.id_seed = kMigrationSeed;
  return o;
}

struct MigrationShared {
  std::atomic<uint64_t> rewrites[3] = {};
  std::atomic<bool> stop{false};
};

// The child: round after round, puts every old file back (a complete copy renamed into place, so
// only the engine's own rewrite is in question), then opens each writable, which migrates and
// rewrites it. It stops after a whole round, so every file ends rewritten.
int migrator(const std::string& dir, const std::vector<OldFile>& files, MigrationShared* sh) {
  auto fs = storage::make_posix_fs();
  for (;;) {
    for (const OldFile& f : files) {
      std::string path = dir + "/" + f.name, copy = path + ".copy";
      int fd = open(copy.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (fd < 0) return 20;
      bool written = write(fd, f.old_bytes.data(), f.old_bytes.size()) == static_cast<ssize_t>(f.old_bytes.size());
      close(fd);
      if (!written || std::rename(copy.c_str(), path.c_str()) != 0) return 21;
    }
    for (size_t i = 0; i < files.size(); ++i) {
      auto s = Session::open(fs, dir + "/" + files[i].name, seeded(false));
      if (!s.ok()) return 22;
      if (!(*s)->close().ok()) return 23;
      sh->rewrites[i].fetch_add(1);
    }
    if (sh->stop.load()) return 0;
  }
}

TEST(Readers, ReadsDuringMigrationRewritesSeeTheWholeMigratedSession) {
  const uint64_t reads = env_count("XS_READERS_MIGRATION_READS", 1000);
  TempDir dir;
  const std::vector<OldFile> files = old_files();
  auto fs = reader_fs();
  // Before any concurrency: a read-only open of each old file (same seed) is its migration, and
  // writes nothing.
  for (const OldFile& f : files) {
    write_file(dir.file(f.name), f.old_bytes);
    auto s = Session::open(fs, dir.file(f.name), seeded(true));
    ASSERT_TRUE(s.ok()) << s.status().message();
    bool old = false;
    EXPECT_EQ(check_migrated(f, **s, &old), "") << f.name;
    EXPECT_TRUE(old) << f.name;
    EXPECT_EQ(read_file(dir.file(f.name)), f.old_bytes) << f.name;
  }
  if (HasFailure()) return;

  Shared<MigrationShared> sh;
  pid_t child = spawn([&] { return migrator(dir.path(), files, &*sh); });
  ASSERT_GT(child, 0);
  // The 8.8 MB file takes far longer to load: it gets one read in ten.
  const size_t pattern[] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 2};
  uint64_t seen_old[3] = {}, seen_new[3] = {}, done = 0;
  int failures = 0;
  auto all_rewritten = [&] { return sh->rewrites[0] > 0 && sh->rewrites[1] > 0 && sh->rewrites[2] > 0; };
  for (; (done < reads || !all_rewritten()) && failures == 0; ++done) {
    size_t i = pattern[done % 10];
    auto s = Session::open(fs, dir.file(files[i].name), seeded(true));
    if (!s.ok()) {
      ++failures;
      ADD_FAILURE() << files[i].name << ": " << s.status().message();
      break;
    }
    bool old = false;
    std::string bad = check_migrated(files[i], **s, &old);
    if (!bad.empty() && ++failures) ADD_FAILURE() << files[i].name << ": " << bad;
    ++(old ? seen_old : seen_new)[i];
  }
  sh->stop.store(true);
  EXPECT_EQ(wait_child(child), 0) << "20-23: the migrating writer failed";
  EXPECT_EQ(mutating_calls(*fs), 0u) << "a reader tried to change the file system";
  std::vector<std::string> names;
  for (const OldFile& f : files) {
    EXPECT_EQ(read_file(dir.file(f.name)), f.new_bytes) << f.name;
    names.push_back(f.name);
    names.push_back(f.name + ".lock");
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(list_dir(dir.path()), names);  // no temp file, no copy, no preserved "corrupt" file

  uint64_t rewrites = sh->rewrites[0] + sh->rewrites[1] + sh->rewrites[2];
  std::printf(
      "readers during migration rewrites: %llu reads (small v1 %llu old / %llu rewritten, v2 %llu / %llu, 8.8 MB v2 "
      "%llu / %llu), %llu rewrites (%llu, %llu, %llu), 0 failed or partial reads\n",
      (unsigned long long)done, (unsigned long long)seen_old[0], (unsigned long long)seen_new[0],
      (unsigned long long)seen_old[1], (unsigned long long)seen_new[1], (unsigned long long)seen_old[2],
      (unsigned long long)seen_new[2], (unsigned long long)rewrites, (unsigned long long)sh->rewrites[0].load(),
      (unsigned long long)sh->rewrites[1].load(), (unsigned long long)sh->rewrites[2].load());
  RecordProperty("reads", static_cast<int>(done));
  RecordProperty("reads_of_old_files", static_cast<int>(seen_old[0] + seen_old[1] + seen_old[2]));
  RecordProperty("reads_of_rewritten_files", static_cast<int>(seen_new[0] + seen_new[1] + seen_new[2]));
  RecordProperty("rewrites", static_cast<int>(rewrites));
}

// With random ids (the default) a read-only open migrates in memory just as the rewrite does, up
// to the ids it hands out, and writes nothing: no rewrite, no lock file, no temp file.
TEST(Readers, AReadOnlyOpenMigratesInMemoryAsTheRewriteDoesAndWritesNothing) {
  TempDir dir;
  const OldFile f = small_v1({"", "", "", ""});
  std::string path = dir.file(f.name);
  write_file(path, f.old_bytes);
  auto fs = reader_fs();
  for (int round = 0; round < 2; ++round) {
    auto r = Session::open(fs, path, read_only());
    ASSERT_TRUE(r.ok()) << r.status().message();
    std::vector<std::string> ids = ids_in((*r)->entries_json());
    ASSERT_EQ(ids.size(), 4u);
    const OldFile want = small_v1(ids);
    bool old = false;
    EXPECT_EQ(check_migrated(want, **r, &old), "");
    EXPECT_TRUE(old);
    for (const std::string& id : ids) EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 4u);
    EXPECT_EQ(read_file(path), f.old_bytes);
    EXPECT_EQ(list_dir(dir.path()), std::vector<std::string>{f.name});
  }
  EXPECT_EQ(mutating_calls(*fs), 0u);

  auto w = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(w.ok()) << w.status().message();
  std::vector<std::string> ids = ids_in((*w)->entries_json());
  ASSERT_EQ(ids.size(), 4u);
  const OldFile want = small_v1(ids);
  EXPECT_EQ(read_file(path), want.new_bytes);
  EXPECT_EQ((*w)->entries_json(), want.entries);
  auto r = Session::open(fs, path, read_only());
  ASSERT_TRUE(r.ok());
  bool old = true;
  EXPECT_EQ(check_migrated(want, **r, &old), "");  // the same bytes the writer holds
  EXPECT_FALSE(old);
}

// A reader watching an old file that nobody changes: a reload finds nothing new and keeps the
// entries (and ids) the caller already has.
TEST(Readers, ReloadOfAnUnchangedOldFileKeepsItsEntries) {
  TempDir dir;
  const OldFile f = small_v1({"", "", "", ""});
  std::string path = dir.file(f.name);
  write_file(path, f.old_bytes);
  auto r = Session::open(reader_fs(), path, read_only());
  ASSERT_TRUE(r.ok());
  const std::string before = (*r)->entries_json();
  int64_t added = -1;
  ASSERT_TRUE((*r)->reload(&added).ok());
  EXPECT_EQ(added, 0);
  EXPECT_EQ((*r)->entries_json(), before) << "the entry ids the caller holds changed";
  EXPECT_EQ(read_file(path), f.old_bytes);
}

}  // namespace
}  // namespace xs::test
