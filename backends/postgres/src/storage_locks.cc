// Writer locks as session-level advisory locks (docs/postgres.md#locks): the server releases them
// when the connection that took them ends, so a crashed host leaves no stale lock.
#include <chrono>
#include <memory>
#include <thread>

#include "storage.h"

namespace xspg {

namespace {

// The key is the schema and the path, so that stores in two schemas of one database do not
// exclude each other.
const Statement kTryLock{"xs_try_lock", "SELECT pg_catalog.pg_try_advisory_lock(pg_catalog.hashtextextended($1, 0))"};
const Statement kUnlock{"xs_unlock", "SELECT pg_catalog.pg_advisory_unlock(pg_catalog.hashtextextended($1, 0))"};

struct HeldLock {
  std::unique_ptr<Conn> conn;  // dedicated: advisory locks are re-entrant within one connection
  std::string key;
};

}  // namespace

xs_status pg_lock(void* user, const char* path, uint32_t timeout_ms, void** lock) {
  Pool& pool = instance(user).lock_pool;
  auto held = std::make_unique<HeldLock>();
  held->key = pool.schema() + ":" + path;
  std::string error;
  held->conn = pool.take(&error);
  if (!held->conn) return fail_text(XS_EIO, "lock", path, "cannot connect: " + error);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    Result r = held->conn->run(kTryLock, {Param::text(held->key)});
    if (!r.ok()) return fail(r, "lock", path);  // the connection is closed, not pooled, if broken
    if (r.int64(0, 0) != 0) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      pool.give(std::move(held->conn));
      return fail_text(XS_ELOCKED, "lock", path, "held by another connection");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  *lock = held.release();
  return XS_OK;
}

void pg_unlock(void* user, void* lock) {
  std::unique_ptr<HeldLock> held(static_cast<HeldLock*>(lock));
  Result r = held->conn->run(kUnlock, {Param::text(held->key)});
  // Pooled only when the server confirms the lock is gone; otherwise closing the connection
  // releases it.
  if (r.ok() && r.rows() == 1 && r.int64(0, 0) == 1) instance(user).lock_pool.give(std::move(held->conn));
}

}  // namespace xspg
