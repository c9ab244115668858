// One writer per session file (docs/decisions.md#one-writer-per-file; docs/guarantees.md#t6,
// guarantees #g1, #g4, #g5), with real processes wherever another process is what is guarded
// against:
//  - a second writable open is refused with kLocked, in another process as in this one, and writes
//    nothing, while readers are always allowed; the lock dies with its holder (SIGKILL), and a
//    writer in a new process then gets it;
//  - a foreign process that does not take the lock cannot make us erase its bytes or lose ours:
//    after it renames a new file into place our appends and rewrites fail with kConflict, its file
//    stays byte for byte and the old inode keeps exactly our acknowledged bytes; after it appends,
//    our appends land after its bytes (file = ours + theirs + our later appends) and our next
//    rewrite fails with kConflict; after it appends a torn fragment, our next line is not glued to it.
// Every file is compared with the exact bytes it must hold (fixed clock and id seeds).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "multiproc_util.h"

namespace xs::test {
namespace {

using session::Session;

// Ids the writers below hand out: seed 1 makes the session, later writers use 2, 3, ...
std::string id_of(uint64_t seed, size_t k = 0) { return seeded_entry_ids(seed, k + 1)[k]; }

// A session "writers" holding one entry, "first" (id_of(1)); returns its bytes.
std::string make_session(const std::string& path) {
  auto s = Session::open(storage::make_posix_fs(), path, exact_writer(true, 1, "writers"));
  EXPECT_TRUE(s.ok()) << s.status().message();
  if (!s.ok()) return "";
  std::string id;
  EXPECT_TRUE((*s)->append_message(user_message("first"), &id).ok());
  EXPECT_TRUE((*s)->close().ok());
  std::string bytes =
      header_line("writers") + "\n" + message_line(id_of(1), std::nullopt, user_message("first")) + "\n";
  EXPECT_EQ(read_file(path), bytes);
  return bytes;
}

// A foreign tool's entry (omp writes custom entries with the payload first).
std::string foreign_line(const std::string& id) {
  return "{\"type\":\"custom\",\"customType\":\"foreign\",\"id\":\"" + id +
         "\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:00.000Z\"}";
}

// Appends `bytes` with one O_APPEND write, as a process that never takes our lock does.
int foreign_append(const std::string& path, const std::string& bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return 40;
  bool ok = write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
  close(fd);
  return ok ? 0 : 41;
}

TEST(Writers, SecondWriterInAnotherProcessIsLockedUntilTheHolderIsKilled) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  std::string initial = make_session(path);
  ASSERT_FALSE(initial.empty());
  Pipe to_child, to_parent;
  ASSERT_TRUE(to_child.ok() && to_parent.ok());
  pid_t holder = spawn([&] {
    to_child.reading_only();
    to_parent.writing_only();
    auto s = Session::open(storage::make_posix_fs(), path, exact_writer(false, 2));
    if (!s.ok()) return 10;
    std::string id;
    if (!(*s)->append_message(user_message("held"), &id).ok()) return 11;
    to_parent.send('y');
    to_child.receive();  // holds the lock (with its log open) until killed
    return 12;
  });
  to_parent.reading_only();
  to_child.writing_only();
  ASSERT_EQ(to_parent.receive(), 'y');
  const std::string held_line = message_line(id_of(2), id_of(1), user_message("held"));
  const std::string held = initial + held_line + "\n";
  EXPECT_EQ(read_file(path), held);

  // A second writer is refused, in this process and in a third one, and writes nothing.
  EXPECT_EQ(Session::open(storage::make_posix_fs(), path, options(false, false)).status().code(), Code::kLocked);
  pid_t other = spawn([&] {
    auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
    return s.status().code() == Code::kLocked ? 0 : 20;
  });
  EXPECT_EQ(wait_child(other), 0);
  EXPECT_EQ(read_file(path), held);
  // Readers are always allowed, and see what the holder acknowledged.
  auto reader = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ((*reader)->entries_json(), "[" + message_line(id_of(1), std::nullopt, user_message("first")) + "," +
                                           held_line + "]");

  // The lock dies with its holder: after a SIGKILL a writer in a new process gets it at once.
  ASSERT_EQ(kill(holder, SIGKILL), 0);
  EXPECT_EQ(wait_child(holder), 128 + SIGKILL);
  pid_t next = spawn([&] {
    auto s = Session::open(storage::make_posix_fs(), path, exact_writer(false, 3));
    if (!s.ok()) return s.status().code() == Code::kLocked ? 30 : 31;
    std::string id;
    if (!(*s)->append_message(user_message("after"), &id).ok()) return 32;
    return (*s)->close().ok() ? 0 : 33;
  });
  EXPECT_EQ(wait_child(next), 0) << "30: the dead holder's lock was still held";
  EXPECT_EQ(read_file(path), held + message_line(id_of(3), id_of(2), user_message("after")) + "\n");
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
}

TEST(Writers, SecondWriterInThisProcessIsLocked) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  std::string initial = make_session(path);
  auto fs = storage::make_posix_fs();
  auto first = Session::open(fs, path, options(false, false));
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(Session::open(fs, path, options(false, false)).status().code(), Code::kLocked);
  EXPECT_EQ(Session::open(storage::make_posix_fs(), path, options(false, false)).status().code(), Code::kLocked);
  ASSERT_TRUE((*first)->close().ok());
  EXPECT_TRUE(Session::open(fs, path, options(false, false)).ok());
  EXPECT_EQ(read_file(path), initial);
}

// A foreign process (no lock) renames a new file over ours while our writer is open. `appended`:
// our writer already holds its log descriptor (on the old inode) when that happens.
void foreign_rename_case(bool appended) {
  SCOPED_TRACE(appended ? "log descriptor open" : "no append yet");
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  std::string ours = make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, exact_writer(false, 2));
  ASSERT_TRUE(s.ok());
  std::string id;
  if (appended) {
    ASSERT_TRUE((*s)->append_message(user_message("ours"), &id).ok());
    ours += message_line(id_of(2), id_of(1), user_message("ours")) + "\n";
  }
  ASSERT_EQ(read_file(path), ours);
  // A second name for the old inode, to show that nothing of ours went into it after the rename.
  ASSERT_EQ(link(path.c_str(), dir.file("old-inode").c_str()), 0);
  const std::string theirs = header_line("foreign") + "\n" + foreign_line("f1") + "\n";
  pid_t foreign = spawn([&] {
    std::string tmp = dir.file("foreign.tmp");
    int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return 50;
    bool ok = write(fd, theirs.data(), theirs.size()) == static_cast<ssize_t>(theirs.size()) && fsync(fd) == 0;
    close(fd);
    return ok && std::rename(tmp.c_str(), path.c_str()) == 0 ? 0 : 51;
  });
  ASSERT_EQ(wait_child(foreign), 0);

  Status st = (*s)->append_message(user_message("lost?"), &id);
  EXPECT_EQ(st.code(), Code::kConflict) << st.message();
  EXPECT_EQ(read_file(path), theirs);               // nothing written into their file
  EXPECT_EQ(read_file(dir.file("old-inode")), ours);  // nor into the unlinked old one
  st = (*s)->set_title(std::string_view("t"));
  EXPECT_EQ(st.code(), Code::kConflict) << st.message();
  EXPECT_EQ(read_file(path), theirs);  // the rewrite did not replace their file
  // The conflict stays: a later append does not quietly go into either file.
  EXPECT_EQ((*s)->append_message(user_message("still lost?"), &id).code(), Code::kConflict);
  EXPECT_EQ(read_file(path), theirs);
  EXPECT_EQ(read_file(dir.file("old-inode")), ours);
  // The refused rewrite left no temp file.
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"old-inode", "s.jsonl", "s.jsonl.lock"}));
  (*s)->close();

  // A new writer adopts the foreign file: its bytes stay, ours go after them.
  auto next = Session::open(storage::make_posix_fs(), path, exact_writer(false, 3));
  ASSERT_TRUE(next.ok()) << next.status().message();
  ASSERT_TRUE((*next)->append_message(user_message("after"), &id).ok());
  EXPECT_EQ(read_file(path), theirs + message_line(id_of(3), std::string("f1"), user_message("after")) + "\n");
}

TEST(Writers, ForeignRenameIntoPlaceIsAConflictAndErasesNothing) {
  foreign_rename_case(true);
  foreign_rename_case(false);
}

// A foreign process appends a whole line while our writer is open. `appended`: our writer
// already holds its O_APPEND descriptor when that happens.
void foreign_append_case(bool appended) {
  SCOPED_TRACE(appended ? "log descriptor open" : "no append yet");
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  std::string expected = make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, exact_writer(false, 2));
  ASSERT_TRUE(s.ok());
  std::vector<std::string> entries = {message_line(id_of(1), std::nullopt, user_message("first"))};
  std::string id, leaf = id_of(1);
  size_t k = 0;  // ids our writer has handed out
  auto ours = [&](const std::string& text) {
    ASSERT_TRUE((*s)->append_message(user_message(text), &id).ok());
    entries.push_back(message_line(id_of(2, k), leaf, user_message(text)));
    expected += entries.back() + "\n";
    leaf = id_of(2, k++);
  };
  if (appended) ours("ours before");
  pid_t foreign = spawn([&] { return foreign_append(path, foreign_line("f1") + "\n"); });
  ASSERT_EQ(wait_child(foreign), 0);
  expected += foreign_line("f1") + "\n";
  entries.push_back(foreign_line("f1"));

  ours("ours after theirs");
  EXPECT_EQ(read_file(path), expected);  // ours, then theirs, then ours: in that order
  Status st = (*s)->set_title(std::string_view("t"));
  EXPECT_EQ(st.code(), Code::kConflict) << st.message();
  EXPECT_EQ(read_file(path), expected);  // the rewrite did not replace their bytes
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"s.jsonl", "s.jsonl.lock"}));
  // A conflict is not a write failure: appends go on, still after their bytes.
  ours("ours after the conflict");
  EXPECT_EQ(read_file(path), expected);

  auto reader = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(reader.ok());
  std::string all = "[";
  for (const std::string& e : entries) all += (all.size() > 1 ? "," : "") + e;
  EXPECT_EQ((*reader)->entries_json(), all + "]");
  EXPECT_EQ((*reader)->diagnostics_json(), "[]");
}

TEST(Writers, ForeignAppendLandsBeforeOurLaterAppendsAndMakesTheNextRewriteAConflict) {
  foreign_append_case(true);
  foreign_append_case(false);
}

// G4 (docs/guarantees.md#g4) for a foreign writer: omp appends to the same files without our lock,
// and a foreign process killed mid-append leaves a fragment without '\n'. Our next acknowledged
// line must not be glued onto it (that would make both unreadable): the fragment stays and is
// reported, ours loads.
TEST(Writers, ForeignTornAppendIsNotGluedToOurNextAppend) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  std::string expected = make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, exact_writer(false, 2));
  ASSERT_TRUE(s.ok());
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("ours before"), &id).ok());
  const std::string before = message_line(id_of(2, 0), id_of(1), user_message("ours before"));
  expected += before + "\n";
  const std::string fragment = foreign_line("f1").substr(0, 40);
  pid_t foreign = spawn([&] { return foreign_append(path, fragment); });
  ASSERT_EQ(wait_child(foreign), 0);
  ASSERT_TRUE((*s)->append_message(user_message("ours after"), &id).ok());
  const std::string after = message_line(id_of(2, 1), id_of(2, 0), user_message("ours after"));
  EXPECT_EQ(read_file(path), expected + fragment + "\n" + after + "\n");

  auto reader = Session::open(storage::make_posix_fs(), path, read_only());
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->entries_json(),
            "[" + message_line(id_of(1), std::nullopt, user_message("first")) + "," + before + "," + after + "]");
  EXPECT_EQ((*reader)->diagnostic_count(), 1u) << (*reader)->diagnostics_json();
}

// Only a writable, locked open removes leftovers, and only ours (docs/decisions.md#temp-files):
// omp's ".<name>.<snowflake>.tmp" may belong to a live omp process.
TEST(Writers, OnlyAWritableOpenRemovesOurLeftoverTempFiles) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  std::string ours = dir.file(".s.jsonl.xs-tmp-0123abcd"), omps = dir.file(".s.jsonl.1234567890.tmp");
  write_file(ours, "half a rewrite");
  write_file(omps, "someone else's");
  ASSERT_TRUE(Session::open(storage::make_posix_fs(), path, read_only()).ok());
  EXPECT_TRUE(std::ifstream(ours).good());
  auto w = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(w.ok());
  EXPECT_FALSE(std::ifstream(ours).good());
  EXPECT_EQ(read_file(omps), "someone else's");
}

// Agents fork tools constantly: no descriptor of ours (the log, the lock) may leak into a child.
TEST(Writers, EveryDescriptorIsCloseOnExec) {
  TempDir dir;
  std::string path = dir.file("s.jsonl");
  make_session(path);
  auto s = Session::open(storage::make_posix_fs(), path, options(false, false));
  ASSERT_TRUE(s.ok());
  std::string id;
  ASSERT_TRUE((*s)->append_message(user_message("opens the log for appending"), &id).ok());
  int ours = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    if (std::string(target).rfind(dir.path(), 0) != 0) continue;
    ++ours;
    EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC) << target << " is inherited by children";
  }
  EXPECT_EQ(ours, 2);  // the session log and its lock file
}

}  // namespace
}  // namespace xs::test
