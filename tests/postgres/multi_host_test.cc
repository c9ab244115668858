// Several hosts on one PostgreSQL store (docs/postgres.md): processes with their own connections
// (each its own xs_postgres_storage table, as two machines would have) append to their own
// sessions and contend for one; a server killed in the middle of appends loses no acknowledged
// entry. Through the public headers only.
#include <fcntl.h>
#include <poll.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <simdjson.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "xsession.h"
#include "xsession_postgres.h"

namespace {

std::string conninfo_of(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string shared_conninfo() {
  const char* file = std::getenv("XS_TEST_POSTGRES_CONNINFO_FILE");
  return file ? conninfo_of(file) : "";
}

// A store at `root` in schema `schema` of the database, over a table of its own (own connections).
struct PgStore {
  xs_store* st = xs_store_new();
  xs_status rc = XS_ERROR;
  std::string err;
  PgStore(const std::string& conninfo, const std::string& schema, const std::string& root) {
    xs_storage table;
    char msg[512] = "";
    rc = xs_postgres_storage(conninfo.c_str(), schema.c_str(), &table, msg, sizeof msg);
    if (rc != XS_OK) {
      err = msg;
      return;
    }
    xs_store_options o;
    xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
    o.storage = &table;
    rc = xs_store_open(st, root.c_str(), &o);
    if (rc != XS_OK) {
      err = xs_store_errmsg(st);
      table.release(table.user);
    }
  }
  ~PgStore() { xs_store_free(st); }
};

xs_session_options options_for(const char* id, uint32_t flags) {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = flags;
  o.session_id = id;
  return o;
}

std::string message(int n) {
  return R"({"role":"user","content":"message )" + std::to_string(n) + R"(","timestamp":1})";
}

// The ids of a session's message entries, read back by a fresh read-only open.
std::vector<std::string> message_ids(xs_store* st, const char* id) {
  xs_session_options o = options_for(nullptr, XS_SESSION_READ_ONLY);
  xs_session* s = nullptr;
  EXPECT_EQ(xs_session_open(st, id, &o, &s), XS_OK) << xs_store_errmsg(st);
  std::vector<std::string> ids;
  if (!s) return ids;
  size_t n = 0;
  EXPECT_EQ(xs_session_entries(s, 0, nullptr, 0, &n), XS_EBUFS);
  std::string json(n, '\0');
  EXPECT_EQ(xs_session_entries(s, 0, &json[0], n, &n), XS_OK);
  xs_session_close(s);
  simdjson::dom::parser parser;
  for (simdjson::dom::element e : parser.parse(json).get_array()) {
    if (std::string_view(e["type"].get_string().value()) == "message") ids.emplace_back(e["id"].get_string().value());
  }
  return ids;
}

// One byte from `fd`, waiting at most 60 s (a host that died early must fail the test, not hang
// it); 0 when there is none.
char read_byte(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  char c = 0;
  if (poll(&p, 1, 60000) != 1 || read(fd, &c, 1) != 1) return 0;
  return c;
}

// Waits for a child and returns its exit status (-1 if it did not exit normally).
int exit_status(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

class PostgresHosts : public ::testing::Test {
 protected:
  void SetUp() override {
    conninfo_ = shared_conninfo();
    ASSERT_FALSE(conninfo_.empty()) << "XS_TEST_POSTGRES_CONNINFO_FILE names no conninfo (run through ctest)";
    schema_ = "xs_hosts_" + std::to_string(getpid());
  }
  std::string conninfo_, schema_;
};

TEST_F(PostgresHosts, TwoHostsAppendToTheirOwnSessionsAndContendForOne) {
  constexpr int kAppends = 300;
  PgStore parent(conninfo_, schema_, "/hosts");
  ASSERT_EQ(parent.rc, XS_OK) << parent.err;
  // The parent holds "shared" open for writing the whole time: no host may write it.
  xs_session_options create = options_for("shared", XS_SESSION_NO_DEFER);
  xs_session* shared = nullptr;
  ASSERT_EQ(xs_session_create(parent.st, "/w", &create, &shared), XS_OK) << xs_store_errmsg(parent.st);

  // go: one byte a host to start the race; done: one byte a host to let go of what it won.
  int to_parent[2], go[2], done[2];
  ASSERT_EQ(pipe(to_parent), 0);
  ASSERT_EQ(pipe(go), 0);
  ASSERT_EQ(pipe(done), 0);
  std::vector<pid_t> hosts;
  for (int h = 0; h < 2; ++h) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Exit codes: 0 all held; 10+ what failed.
      PgStore mine(conninfo_, schema_, "/hosts");
      if (mine.rc != XS_OK) _exit(10);
      std::string own = "own-" + std::to_string(h);
      xs_session_options o = options_for(own.c_str(), XS_SESSION_NO_DEFER);
      xs_session* s = nullptr;
      if (xs_session_create(mine.st, "/w", &o, &s) != XS_OK) _exit(11);
      for (int i = 0; i < kAppends; ++i) {
        std::string m = message(i);
        if (xs_append_message(s, m.data(), m.size(), nullptr) != XS_OK) _exit(12);
      }
      xs_session_close(s);
      xs_session_options w = options_for(nullptr, 0);
      xs_session* other = nullptr;
      if (xs_session_open(mine.st, "shared", &w, &other) != XS_ELOCKED) _exit(13);
      // Both hosts at once for "contended": one gets it, the other XS_ELOCKED; the winner holds
      // it until the parent says both have tried.
      char c;
      if (read(go[0], &c, 1) != 1) _exit(14);
      xs_session* contended = nullptr;
      xs_status rc = xs_session_open(mine.st, "contended", &w, &contended);
      char result = rc == XS_OK ? 'W' : rc == XS_ELOCKED ? 'L' : 'E';
      if (write(to_parent[1], &result, 1) != 1) _exit(15);
      if (read(done[0], &c, 1) != 1) _exit(16);
      xs_session_close(contended);
      _exit(0);
    }
    hosts.push_back(pid);
  }
  // "contended" exists before the hosts race for it.
  xs_session_options make = options_for("contended", XS_SESSION_NO_DEFER);
  xs_session* c = nullptr;
  ASSERT_EQ(xs_session_create(parent.st, "/w", &make, &c), XS_OK) << xs_store_errmsg(parent.st);
  xs_session_close(c);
  ASSERT_EQ(write(go[1], "gg", 2), 2);
  std::multiset<char> results;
  for (int h = 0; h < 2; ++h) results.insert(read_byte(to_parent[0]));
  ASSERT_EQ(write(done[1], "dd", 2), 2);
  for (pid_t pid : hosts) {
    if (results.count(0)) kill(pid, SIGKILL);  // one died early: the other may wait forever
    EXPECT_EQ(exit_status(pid), 0) << "host " << pid;
  }
  EXPECT_EQ(results, (std::multiset<char>{'L', 'W'}));

  // Every entry of both hosts is there, in order.
  for (int h = 0; h < 2; ++h) {
    std::string own = "own-" + std::to_string(h);
    EXPECT_EQ(message_ids(parent.st, own.c_str()).size(), static_cast<size_t>(kAppends)) << own;
  }
  xs_session_close(shared);
}

TEST(PostgresCrash, AServerKilledMidAppendLosesNothingAcknowledged) {
  // A server of its own: killing the one the other tests share would fail them.
  char tmpl[] = "/tmp/xs-pgcrash-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = std::string(tmpl) + "/server";
  const std::string script = XS_PG_TEST_SERVER;
  ASSERT_EQ(std::system((script + " start " + dir + " >/dev/null").c_str()), 0);
  const std::string conninfo = conninfo_of(dir + "/conninfo");

  int acks[2];
  ASSERT_EQ(pipe(acks), 0);
  pid_t writer = fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    close(acks[0]);
    PgStore mine(conninfo, "xsession", "/crash");
    if (mine.rc != XS_OK) _exit(10);
    xs_session_options o = options_for("victim", XS_SESSION_NO_DEFER | XS_SESSION_SYNC);
    xs_session* s = nullptr;
    if (xs_session_create(mine.st, "/w", &o, &s) != XS_OK) _exit(11);
    for (int i = 0;; ++i) {
      std::string m = message(i);
      char id[XS_ID_BUFSIZE];
      xs_status rc = xs_append_message(s, m.data(), m.size(), id);
      if (rc != XS_OK && rc != XS_EIO) std::fprintf(stderr, "append after the crash: %s\n", xs_session_errmsg(s));
      if (rc != XS_OK) _exit(rc == XS_EIO ? 0 : 20 - rc);  // the server is gone: the call fails (20+: another status)
      std::string line = std::string(id) + "\n";
      if (write(acks[1], line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(13);
    }
  }
  close(acks[1]);
  // Crash the server after a few hundred acknowledged appends, then read every acknowledgement.
  std::string acked;
  char buf[4096];
  size_t lines = 0;
  bool crashed = false;
  for (;;) {
    ssize_t n = read(acks[0], buf, sizeof buf);
    if (n <= 0) break;
    acked.append(buf, static_cast<size_t>(n));
    for (ssize_t i = 0; i < n; ++i) lines += buf[i] == '\n';
    if (!crashed && lines >= 300) {
      ASSERT_EQ(std::system((script + " crash " + dir).c_str()), 0);
      crashed = true;
    }
  }
  EXPECT_TRUE(crashed);
  EXPECT_EQ(exit_status(writer), 0) << "the writer's append after the crash did not fail with XS_EIO";
  ASSERT_EQ(std::system((script + " restart " + dir).c_str()), 0);

  {
    PgStore after(conninfo, "xsession", "/crash");
    ASSERT_EQ(after.rc, XS_OK) << after.err;
    std::vector<std::string> stored = message_ids(after.st, "victim");
    std::set<std::string> have(stored.begin(), stored.end());
    std::istringstream in(acked);
    size_t checked = 0;
    for (std::string id; std::getline(in, id);) {
      EXPECT_EQ(have.count(id), 1u) << "acknowledged entry " << id << " is gone";
      ++checked;
    }
    EXPECT_GE(checked, 300u);
    EXPECT_GE(stored.size(), checked);  // the append that failed may or may not have committed
    EXPECT_LE(stored.size(), checked + 1);
  }
  EXPECT_EQ(std::system((script + " stop " + dir).c_str()), 0);
  rmdir(tmpl);
}

}  // namespace
