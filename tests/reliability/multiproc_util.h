// Helpers for the multi-process reliability tests (writers_test.cc, readers_test.cc): child
// processes, memory shared with them, and the exact bytes the engine writes for an entry, so a
// test can compare a file with what it must hold without asking the engine.
#pragma once

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "format/clock.h"
#include "reliability_util.h"

namespace xs::test {

// 2026-01-01T00:00:00.000Z: the fixed clock of every session these tests write, so timestamps
// (and with a fixed id seed, ids) are known in advance.
constexpr int64_t kFixedMs = 1767225600000;

inline std::string fixed_iso() { return format::iso_from_ms(kFixedMs); }

// Options for a writer whose bytes are predictable: fixed clock (every timestamp kFixedMs), ids
// from `id_seed` (seeded_entry_ids gives them in order), header written at once.
inline session::SessionOptions exact_writer(bool create, uint64_t id_seed, const std::string& session_id = "") {
  session::SessionOptions o = options(create, true);
  o.clock = format::Clock::Fixed(kFixedMs, 0);
  o.id_seed = id_seed;
  if (!session_id.empty()) o.session_id = session_id;
  return o;
}

// The header line the engine writes for a new session made with exact_writer (type, version, id,
// timestamp, cwd: docs/format.md#the-header).
inline std::string header_line(const std::string& session_id) {
  return "{\"type\":\"session\",\"version\":3,\"id\":\"" + session_id + "\",\"timestamp\":\"" + fixed_iso() +
         "\",\"cwd\":\"/work\"}";
}

// The line append_message writes (without its '\n'): type, id, parentId, timestamp, then the
// caller's message JSON token for token (docs/format.md#entries).
inline std::string message_line(const std::string& id, const std::optional<std::string>& parent,
                                const std::string& message_json) {
  return "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":" + (parent ? "\"" + *parent + "\"" : "null") +
         ",\"timestamp\":\"" + fixed_iso() + "\",\"message\":" + message_json + "}";
}

// Runs `fn` in a forked child, which exits with fn's return value (never returning into the
// test). Buffered output is flushed first so the child does not print the parent's lines again;
// the child dies with the test process, so a failed or crashed test leaves no process behind.
template <class F>
pid_t spawn(F&& fn) {
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(99);
    _exit(fn());
  }
  return pid;
}

// The child's exit code, or 128 + the signal that ended it, or -1 when waiting failed.
inline int wait_child(pid_t pid) {
  int status = 0;
  if (pid <= 0 || waitpid(pid, &status, 0) != pid) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

// A T placed in memory that forked children share with the parent (MAP_SHARED): lock-free
// std::atomic members work across processes. T must be trivially destructible.
template <class T>
class Shared {
 public:
  Shared() {
    void* p = mmap(nullptr, sizeof(T), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    value_ = new (p) T();
  }
  ~Shared() { munmap(value_, sizeof(T)); }
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;
  T* operator->() { return value_; }
  T& operator*() { return *value_; }

 private:
  T* value_;
};

// A pipe whose ends are closed when it dies. After a fork each side closes the end it does not
// use, so a read returns end-of-file instead of waiting forever when the other side is gone.
struct Pipe {
  int fd[2] = {-1, -1};
  Pipe() {
    if (pipe(fd) != 0) fd[0] = fd[1] = -1;
  }
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) close(f);
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return fd[0] >= 0 && fd[1] >= 0; }
  void close_end(int which) {
    if (fd[which] >= 0) close(fd[which]);
    fd[which] = -1;
  }
  void reading_only() { close_end(1); }
  void writing_only() { close_end(0); }
  bool send(char c) { return write(fd[1], &c, 1) == 1; }
  // The next byte, or 0 when the other side is gone.
  char receive() {
    char c = 0;
    return read(fd[0], &c, 1) == 1 ? c : 0;
  }
};

}  // namespace xs::test
