// The keyed session store under real processes (docs/keyed-store.md; docs/guarantees.md#t6):
//  - four processes patch and update the same document at once, each to a key of its own and to one
//    key they share: every update is present afterwards, none lost (the lock serialises the
//    read-modify-writes; without it the last rename would win and drop the others' changes);
//  - a process killed with SIGKILL while it holds the lock does not stop the next writer: the kernel
//    drops the lock with its holder, so the next writer goes on at once instead of waiting out a
//    stale-lock timeout.
// XS_KEYS_UPDATES sets the updates per process (default 10000, as the issue asks).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "json/document_edit.h"
#include "json/member_scanner.h"
#include "multiproc_util.h"
#include "store/key_store.h"

namespace xs::test {
namespace {

using store::KeyStore;

int updates_per_process() {
  const char* n = std::getenv("XS_KEYS_UPDATES");
  return n ? std::atoi(n) : 10000;
}

int64_t number(const std::string& record, std::string_view field) {
  auto members = json::members_of(record);  // kept: m points into it
  const json::Member* m = json::find_member(members, field);
  return m ? std::stoll(std::string(m->value)) : -1;
}

TEST(KeyStoreProcesses, FourWritersLoseNoUpdate) {
  TempDir dir;
  const std::string path = dir.path() + "/sessions.json";
  const int n = updates_per_process();
  constexpr int kProcesses = 4;
  pid_t pids[kProcesses];
  for (int p = 0; p < kProcesses; ++p) {
    pids[p] = spawn([&, p] {
      KeyStore keys(storage::make_posix_fs(), path);
      std::string own = "agent:p" + std::to_string(p) + ":main";
      for (int i = 1; i <= n; ++i) {
        // Its own key: a patch whose value counts up; the shared key: a counter only a serialised
        // read-modify-write keeps exact, and a field per process.
        Status own_st = keys.patch(own, "{\"sessionId\":\"s" + std::to_string(p) + "\",\"n\":" + std::to_string(i) + "}");
        if (!own_st.ok()) {
          std::fprintf(stderr, "process %d, update %d: %s\n", p, i, own_st.message().c_str());
          return 10;
        }
        Status st = keys.update("agent:shared:main", [&](std::optional<std::string_view> cur)
                                                         -> Result<std::optional<std::string>> {
          int64_t total = cur ? number(std::string(*cur), "total") : 0;
          auto merged = json::merge_patch(cur.value_or(R"({"sessionId":"shared"})"),
                                          "{\"total\":" + std::to_string(total + 1) + "}");
          if (!merged.ok()) return merged.status();
          return std::optional<std::string>(std::move(*merged));
        });
        if (!st.ok()) {
          std::fprintf(stderr, "process %d, update %d: %s\n", p, i, st.message().c_str());
          return 11;
        }
        if (!keys.patch("agent:shared:main", "{\"p" + std::to_string(p) + "\":" + std::to_string(i) + "}").ok()) {
          return 12;
        }
      }
      return 0;
    });
  }
  for (pid_t pid : pids) EXPECT_EQ(wait_child(pid), 0);
  KeyStore keys(storage::make_posix_fs(), path);
  for (int p = 0; p < kProcesses; ++p) {
    auto own = keys.get("agent:p" + std::to_string(p) + ":main");
    ASSERT_TRUE(own.ok()) << own.status().message();
    EXPECT_EQ(number(*own, "n"), n);
  }
  auto shared = keys.get("agent:shared:main");
  ASSERT_TRUE(shared.ok());
  // The counter saw every update, and every process's last patch of the shared record is there.
  EXPECT_EQ(number(*shared, "total"), int64_t{kProcesses} * n);
  for (int p = 0; p < kProcesses; ++p) EXPECT_EQ(number(*shared, "p" + std::to_string(p)), n) << p;
}

TEST(KeyStoreProcesses, AHolderKilledWithTheLockDoesNotStopTheNextWriter) {
  TempDir dir;
  const std::string path = dir.path() + "/sessions.json";
  Pipe ready;
  ASSERT_TRUE(ready.ok());
  pid_t holder = spawn([&] {
    ready.writing_only();
    KeyStore keys(storage::make_posix_fs(), path);
    Status st = keys.update("k", [&](std::optional<std::string_view>) -> Result<std::optional<std::string>> {
      ready.send('L');  // holding the lock now
      for (;;) pause();
    });
    return st.ok() ? 0 : 1;
  });
  ready.reading_only();
  ASSERT_EQ(ready.receive(), 'L');
  KeyStore keys(storage::make_posix_fs(), path);
  auto busy = storage::make_posix_fs()->try_lock(path + ".lock");
  EXPECT_EQ(busy.status().code(), Code::kLocked);  // it really holds it
  ASSERT_EQ(kill(holder, SIGKILL), 0);
  EXPECT_EQ(wait_child(holder), 128 + SIGKILL);
  auto start = std::chrono::steady_clock::now();
  ASSERT_OK(keys.put("k", R"({"sessionId":"after"})"));
  auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_LT(waited, std::chrono::seconds(2));  // not KeyStore::kLockTimeout (10 s)
  EXPECT_EQ(*keys.get("k"), R"({"sessionId":"after"})");
}

}  // namespace
}  // namespace xs::test
