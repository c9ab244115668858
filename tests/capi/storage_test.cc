// Storage a host supplies (xsession_storage.h): the table is checked when the store opens, every
// status and message of the host reaches the caller unchanged, the host's mistakes become clear
// errors, and release() runs exactly once, only when the store owns the table. The whole
// conformance suite over a table written in C is conformance.host_storage_c.
#include <atomic>
#include <cstring>
#include <string>

#include "capi_test_util.h"
#include "xsession_storage.h"

namespace {

using xstest::TempDir;

// The layout a host built against this header fills (LP64), field by field.
static_assert(sizeof(xs_storage) == 8 + 8 + 17 * 8, "xs_storage: version, user, 17 functions");
static_assert(offsetof(xs_storage, user) == 8 && offsetof(xs_storage, read) == 16, "");
static_assert(offsetof(xs_storage, release) == 16 + 15 * 8, "release is version 1's last function");
static_assert(offsetof(xs_storage, write_if) == 16 + 16 * 8, "write_if follows it (version 2)");
static_assert(sizeof(xs_storage_info) == 48 && offsetof(xs_storage_info, kind) == 40, "");

// The built-in in-memory table, wrapped: each function forwards to it unless the test set a
// failure for it. The wrapper's own release counts, then releases the inner table.
struct Wrapped {
  xs_storage inner{};
  xs_status fail_write = XS_OK;
  const char* write_message = nullptr;
  xs_status fail_lock = XS_OK;
  xs_status read_status = XS_OK;  // XS_OK: forward; else returned as is
  bool read_overfills = false;    // says it wrote one byte more than it asked for
  std::atomic<int> released{0};
  std::atomic<int> calls{0};
  // write_if: XS_OK forwards (a check with the inner table's stat and fstat, then its write),
  // anything else is returned as it is. Counted with stat and write.
  xs_status write_if_status = XS_OK;
  std::atomic<int> stats{0}, writes{0}, write_ifs{0};

  static Wrapped& of(void* user) {
    auto& w = *static_cast<Wrapped*>(user);
    ++w.calls;
    return w;
  }
  static xs_status read(void* u, const char* p, uint64_t off, uint64_t max, xs_storage_buffer* out, uint64_t* got,
                        xs_storage_info* info) {
    Wrapped& w = of(u);
    if (w.read_status != XS_OK) return w.read_status;
    xs_status rc = w.inner.read(w.inner.user, p, off, max, out, got, info);
    if (rc == XS_OK && w.read_overfills) *got += 1;
    return rc;
  }
  static xs_status stat(void* u, const char* p, xs_storage_info* i) {
    ++of(u).stats;
    return of(u).inner.stat(of(u).inner.user, p, i);
  }
  static xs_status open(void* u, const char* p, uint32_t f, void** file) {
    return of(u).inner.open(of(u).inner.user, p, f, file);
  }
  static xs_status write(void* u, void* file, const void* d, size_t n) {
    Wrapped& w = of(u);
    ++w.writes;
    if (w.fail_write != XS_OK) return xs_storage_error(w.fail_write, w.write_message);
    return w.inner.write(w.inner.user, file, d, n);
  }
  static xs_status write_if(void* u, void* file, const char* p, uint64_t expected, const void* d, size_t n) {
    Wrapped& w = of(u);
    ++w.write_ifs;
    if (w.write_if_status != XS_OK) return xs_storage_error(w.write_if_status, "write_if refused by the test");
    xs_storage_info named{}, mine{};
    xs_status rc = w.inner.stat(w.inner.user, p, &named);
    if (rc != XS_OK && rc != XS_ENOTFOUND) return rc;
    if ((rc = w.inner.fstat(w.inner.user, file, &mine)) != XS_OK) return rc;
    if (named.ino != mine.ino || named.dev != mine.dev || mine.size != expected) return XS_ECONFLICT;
    return w.inner.write(w.inner.user, file, d, n);
  }
  static xs_status sync(void* u, void* file) { return of(u).inner.sync(of(u).inner.user, file); }
  static xs_status fstat(void* u, void* file, xs_storage_info* i) {
    return of(u).inner.fstat(of(u).inner.user, file, i);
  }
  static xs_status close(void* u, void* file) { return of(u).inner.close(of(u).inner.user, file); }
  static xs_status rename(void* u, const char* a, const char* b, uint32_t f) {
    return of(u).inner.rename(of(u).inner.user, a, b, f);
  }
  static xs_status remove(void* u, const char* p) { return of(u).inner.remove(of(u).inner.user, p); }
  static xs_status make_dirs(void* u, const char* p) { return of(u).inner.make_dirs(of(u).inner.user, p); }
  static xs_status sync_dir(void* u, const char* p) { return of(u).inner.sync_dir(of(u).inner.user, p); }
  static xs_status touch(void* u, const char* p) { return of(u).inner.touch(of(u).inner.user, p); }
  static xs_status list(void* u, const char* p, xs_status (*name)(void*, const char*, size_t), void* ctx) {
    return of(u).inner.list(of(u).inner.user, p, name, ctx);
  }
  static xs_status lock(void* u, const char* p, uint32_t ms, void** l) {
    Wrapped& w = of(u);
    if (w.fail_lock != XS_OK) return w.fail_lock;  // no message: the engine makes one
    return w.inner.lock(w.inner.user, p, ms, l);
  }
  static void unlock(void* u, void* l) { of(u).inner.unlock(of(u).inner.user, l); }
  static void release(void* u) {
    Wrapped& w = *static_cast<Wrapped*>(u);
    ++w.released;
    w.inner.release(w.inner.user);
  }

  Wrapped() { EXPECT_EQ(xs_storage_memory(&inner), XS_OK); }
  // The inner table is the wrapper's to let go of when no store took the wrapper (or a refused
  // one left it with the caller).
  ~Wrapped() {
    if (released.load() == 0) inner.release(inner.user);
  }
  // Without write_if (the engine checks with stat), or with it.
  xs_storage table(bool with_write_if = false) {
    return xs_storage{XS_STORAGE_VERSION,
                      this,
                      read,
                      stat,
                      open,
                      write,
                      sync,
                      fstat,
                      close,
                      rename,
                      remove,
                      make_dirs,
                      sync_dir,
                      touch,
                      list,
                      lock,
                      unlock,
                      release,
                      with_write_if ? write_if : nullptr};
  }
};

class HostStorage : public ::testing::Test {
 protected:
  // Opens a store at /mem over the table; XS_OK expected unless said.
  xs_status open_store(const xs_storage& table, uint32_t version = XS_STORE_OPTIONS_VERSION) {
    xs_store_options o;
    EXPECT_EQ(xs_store_options_init(&o, version), XS_OK);
    o.storage = &table;
    st_ = xs_store_new();
    return xs_store_open(st_, "/mem", &o);
  }
  void TearDown() override { xs_store_free(st_); }
  std::string entries(xs_session* s) {
    size_t n = 0;
    EXPECT_EQ(xs_session_entries(s, 0, nullptr, 0, &n), XS_EBUFS);
    std::string out(n, '\0');
    EXPECT_EQ(xs_session_entries(s, 0, &out[0], n, &n), XS_OK);
    return out;
  }
  xs_session_options fixed() {
    xs_session_options o;
    xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
    o.flags = XS_SESSION_FIXED_CLOCK | XS_SESSION_NO_DEFER;
    o.clock_start_ms = xstest::kT0;
    o.clock_step_ms = xstest::kStep;
    o.id_seed = xstest::kSeed;
    o.session_id = "s1";
    return o;
  }

  // A store over w_'s table holding one closed session, "s1" (fixed()'s id), in /w/app.
  void store_with_session() {
    table_ = w_.table();
    ASSERT_EQ(open_store(table_), XS_OK);
    xs_session_options o = fixed();
    xs_session* s = nullptr;
    ASSERT_EQ(xs_session_create(st_, "/w/app", &o, &s), XS_OK) << xs_store_errmsg(st_);
    xs_session_close(s);
  }

  Wrapped w_;  // outlives st_ (freed in TearDown), which may still hold its table
  xs_storage table_{};
  xs_store* st_ = nullptr;
};

TEST_F(HostStorage, TheMemoryTableKeepsSessionsAcrossReopensAndIsReleasedOnceWhenAllIsClosed) {
  Wrapped& w = w_;
  xs_storage t = w.table();
  ASSERT_EQ(open_store(t), XS_OK) << xs_store_errmsg(st_);
  xs_session_options o = fixed();
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(st_, "/w/app", &o, &s), XS_OK) << xs_store_errmsg(st_);
  const std::string msg = R"({"role":"user","content":"hi","timestamp":1})";
  char id[XS_ID_BUFSIZE];
  ASSERT_EQ(xs_append_message(s, msg.data(), msg.size(), id), XS_OK) << xs_session_errmsg(s);
  std::string before = entries(s);
  const std::string path = "s1";  // reopened by id: found by listing the storage
  xs_session_close(s);

  xs_session* again = nullptr;
  ASSERT_EQ(xs_session_open(st_, path.c_str(), &o, &again), XS_OK) << xs_store_errmsg(st_);
  EXPECT_EQ(entries(again), before);
  EXPECT_NE(before.find(std::string("\"id\":\"") + id + "\""), std::string::npos) << before;
  EXPECT_GT(w.calls.load(), 0);

  xs_store_free(st_);  // the session keeps the store, and so the table, alive
  st_ = nullptr;
  EXPECT_EQ(w.released.load(), 0);
  xs_session_close(again);
  EXPECT_EQ(w.released.load(), 1);
}

TEST_F(HostStorage, AFailedWriteReturnsTheHostsStatusAndMessageAndPoisonsTheSession) {
  Wrapped& w = w_;
  xs_storage t = w.table();
  ASSERT_EQ(open_store(t), XS_OK);
  xs_session_options o = fixed();
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(st_, "/w/app", &o, &s), XS_OK) << xs_store_errmsg(st_);
  w.fail_write = XS_ENOSPC;
  w.write_message = "quota of tenant 7 exceeded";
  const std::string msg = R"({"role":"user","content":"hi","timestamp":1})";
  EXPECT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_ENOSPC);
  EXPECT_NE(std::string(xs_session_errmsg(s)).find("quota of tenant 7 exceeded"), std::string::npos)
      << xs_session_errmsg(s);
  w.fail_write = XS_OK;  // the disk has room again, but an unknown tail stays unknown
  EXPECT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_EPOISONED);
  xs_session_close(s);
}

TEST_F(HostStorage, WithWriteIfAnAppendIsOneCallAndWithoutItAStatAndAWrite) {
  const std::string msg = R"({"role":"user","content":"hi","timestamp":1})";
  std::string bytes[2];
  for (bool with : {false, true}) {
    SCOPED_TRACE(with ? "with write_if" : "without");
    Wrapped w;  // the store below is freed before it
    xs_storage t = w.table(with);
    ASSERT_EQ(open_store(t), XS_OK);
    xs_session_options o = fixed();
    xs_session* s = nullptr;
    ASSERT_EQ(xs_session_create(st_, "/w/app", &o, &s), XS_OK) << xs_store_errmsg(st_);
    ASSERT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_OK);  // the first write
    w.stats = w.writes = w.write_ifs = 0;
    ASSERT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_OK) << xs_session_errmsg(s);
    EXPECT_EQ(w.write_ifs.load(), with ? 1 : 0);
    EXPECT_EQ(w.stats.load(), with ? 0 : 1);
    EXPECT_EQ(w.writes.load(), with ? 0 : 1);
    bytes[with] = entries(s);
    xs_session_close(s);
    xs_store_free(st_);
    st_ = nullptr;
  }
  EXPECT_EQ(bytes[0], bytes[1]);  // the same entries, byte for byte
  EXPECT_NE(bytes[1].find(R"("content":"hi")"), std::string::npos);
}

TEST_F(HostStorage, AConflictFromWriteIfWritesThroughTheChecksAndAnotherFailurePoisons) {
  Wrapped& w = w_;
  xs_storage t = w.table(true);
  ASSERT_EQ(open_store(t), XS_OK);
  xs_session_options o = fixed();
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(st_, "/w/app", &o, &s), XS_OK) << xs_store_errmsg(st_);
  const std::string msg = R"({"role":"user","content":"hi","timestamp":1})";
  ASSERT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_OK);

  // XS_ECONFLICT wrote nothing: the engine looks (the file is the one it holds, at its size: a
  // storage that refused for no reason) and appends with write().
  w.write_if_status = XS_ECONFLICT;
  w.stats = w.writes = w.write_ifs = 0;
  EXPECT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_OK) << xs_session_errmsg(s);
  EXPECT_EQ(w.write_ifs.load(), 1);
  EXPECT_EQ(w.stats.load(), 1);
  EXPECT_EQ(w.writes.load(), 1);
  const std::string two = entries(s);
  size_t messages = 0;
  for (size_t at = 0; (at = two.find(R"("content":"hi")", at)) != std::string::npos; ++at) ++messages;
  EXPECT_EQ(messages, 2u);

  // Any other status is a failed write: the session is poisoned.
  w.write_if_status = XS_EIO;
  EXPECT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_EIO);
  EXPECT_NE(std::string(xs_session_errmsg(s)).find("write_if refused by the test"), std::string::npos)
      << xs_session_errmsg(s);
  w.write_if_status = XS_OK;
  EXPECT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_EPOISONED);
  xs_session_close(s);
}

TEST_F(HostStorage, AVersion1TableIsAcceptedAndNothingPastItsSixteenFunctionsIsRead) {
  Wrapped& w = w_;
  // A host built against the version 1 header: its struct ends after release. What follows it in
  // memory here is garbage where write_if would be; were it read and called, the append would crash.
  xs_storage v2 = w.table();
  alignas(xs_storage) unsigned char memory[sizeof(xs_storage)];
  std::memset(memory, 0xAB, sizeof memory);
  std::memcpy(memory, &v2, offsetof(xs_storage, write_if));
  auto* v1 = reinterpret_cast<xs_storage*>(memory);
  v1->version = 1;
  ASSERT_EQ(open_store(*v1), XS_OK) << xs_store_errmsg(st_);
  xs_session_options o = fixed();
  xs_session* s = nullptr;
  ASSERT_EQ(xs_session_create(st_, "/w/app", &o, &s), XS_OK) << xs_store_errmsg(st_);
  const std::string msg = R"({"role":"user","content":"hi","timestamp":1})";
  ASSERT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_OK);
  w.stats = w.writes = 0;
  ASSERT_EQ(xs_append_message(s, msg.data(), msg.size(), nullptr), XS_OK) << xs_session_errmsg(s);
  EXPECT_EQ(w.stats.load(), 1);
  EXPECT_EQ(w.writes.load(), 1);
  xs_session_close(s);
}

TEST_F(HostStorage, AHeldLockIsXS_ELOCKEDNamingTheSession) {
  Wrapped& w = w_;
  ASSERT_NO_FATAL_FAILURE(store_with_session());
  xs_session_options o = fixed();
  const std::string path = "s1";  // reopened by id: found by listing the storage

  w.fail_lock = XS_ELOCKED;
  xs_session* again = nullptr;
  EXPECT_EQ(xs_session_open(st_, path.c_str(), &o, &again), XS_ELOCKED);
  EXPECT_EQ(again, nullptr);
  // The engine says what the lock protects, as it does for its own locks.
  EXPECT_STREQ(xs_store_errmsg(st_),
               "/mem/sessions/--w-app--/2026-02-16T10-20-30-000Z_s1.jsonl is open for writing by another handle or "
               "process");
}

TEST_F(HostStorage, AStatusNoStorageFunctionMayReturnIsAnIOErrorThatSaysSo) {
  Wrapped& w = w_;
  ASSERT_NO_FATAL_FAILURE(store_with_session());
  xs_session_options o = fixed();
  xs_session* s = nullptr;
  const std::string path = "s1";  // reopened by id: found by listing the storage

  w.read_status = XS_EPOISONED;
  EXPECT_EQ(xs_session_open(st_, path.c_str(), &o, &s), XS_EIO);
  EXPECT_NE(std::string(xs_store_errmsg(st_)).find("the storage returned status -17"), std::string::npos)
      << xs_store_errmsg(st_);

  w.read_status = XS_OK;
  w.read_overfills = true;
  EXPECT_EQ(xs_session_open(st_, path.c_str(), &o, &s), XS_EIO);
  EXPECT_NE(std::string(xs_store_errmsg(st_)).find("bytes where it asked for"), std::string::npos)
      << xs_store_errmsg(st_);
}

TEST_F(HostStorage, ATableWithAMissingFunctionOrAnUnknownVersionIsRefusedAndNotReleased) {
  Wrapped& w = w_;
  xs_storage t = w.table();
  t.touch = nullptr;
  EXPECT_EQ(open_store(t), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(st_), "xs_storage.touch is NULL (only release and write_if may be)");
  xs_store_free(st_);

  t = w.table();
  t.version = 3;
  EXPECT_EQ(open_store(t), XS_EVERSION);
  EXPECT_STREQ(xs_store_errmsg(st_), "xs_storage version 3 is not supported");
  xs_store_free(st_);

  t = w.table();
  xs_store_options o;
  ASSERT_EQ(xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION), XS_OK);
  o.flags = XS_STORE_IN_MEMORY;
  o.storage = &t;
  st_ = xs_store_new();
  EXPECT_EQ(xs_store_open(st_, "/mem", &o), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(st_), "XS_STORE_IN_MEMORY and a storage table exclude each other");
  EXPECT_EQ(w.released.load(), 0);  // the caller still owns it
}

TEST_F(HostStorage, WhenOpeningFailsAfterTheTableWasTakenTheCallerStillOwnsIt) {
  Wrapped& w = w_;
  xs_storage t = w.table();
  ASSERT_EQ(w.inner.make_dirs(w.inner.user, "/mem"), XS_OK);
  void* file = nullptr;
  ASSERT_EQ(w.inner.open(w.inner.user, "/mem/root", XS_STORAGE_CREATE, &file), XS_OK);
  ASSERT_EQ(w.inner.close(w.inner.user, file), XS_OK);
  xs_store_options o;
  ASSERT_EQ(xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION), XS_OK);
  o.storage = &t;
  st_ = xs_store_new();
  EXPECT_EQ(xs_store_open(st_, "/mem/root", &o), XS_EINVAL);  // the storage says it is a file
  EXPECT_STREQ(xs_store_errmsg(st_), "/mem/root is not a directory");
  EXPECT_EQ(w.released.load(), 0);
}

TEST_F(HostStorage, AVersion3OptionsStructHasNoStorageField) {
  // xs_store_options_init(3) leaves the storage field alone: a caller built against the older
  // header has no such field, and whatever follows its struct is not read.
  xs_store_options o;
  std::memset(&o, 0xAB, sizeof o);
  ASSERT_EQ(xs_store_options_init(&o, 3), XS_OK);
  const unsigned char* tail = reinterpret_cast<const unsigned char*>(&o.storage);
  for (size_t i = 0; i < sizeof o.storage; ++i) EXPECT_EQ(tail[i], 0xAB);
  TempDir dir;  // opened on the disk, the garbage pointer never read
  st_ = xs_store_new();
  EXPECT_EQ(xs_store_open(st_, dir.path().c_str(), &o), XS_OK);
}

TEST_F(HostStorage, TheMessageHelperReturnsItsCodeAndAcceptsNull) {
  EXPECT_EQ(xs_storage_error(XS_EIO, "x"), XS_EIO);
  EXPECT_EQ(xs_storage_error(XS_ENOTFOUND, nullptr), XS_ENOTFOUND);
  xs_storage t;
  EXPECT_EQ(xs_storage_posix(nullptr), XS_EINVAL);
  EXPECT_EQ(xs_storage_memory(nullptr), XS_EINVAL);
  ASSERT_EQ(xs_storage_posix(&t), XS_OK);
  EXPECT_EQ(t.version, static_cast<uint32_t>(XS_STORAGE_VERSION));
  xs_storage_info info{};
  EXPECT_EQ(t.stat(t.user, "/definitely/not/here", &info), XS_ENOTFOUND);
  t.release(t.user);
}

}  // namespace
