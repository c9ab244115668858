// Retention through the C API (docs/retention.md): xs_archive_options, xs_store_archive (report,
// dry run, progress, a live writer skipped, the EBUFS retry not archiving twice), archived sessions
// opened read-only by path and id with the same bytes, listed marked, and xs_store_prune.
#include <unistd.h>

#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

constexpr int64_t kDay = 86400000;

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

class Retention : public CapiTest {
 protected:
  std::string Make(const char* id) {
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.session_id = id;
    xs_session* s = nullptr;
    EXPECT_EQ(xs_session_create(store_, "/w", &o, &s), XS_OK) << xs_store_errmsg(store_);
    Msg(s, xstest::kUser1);
    Msg(s, xstest::kAssistant1);
    std::string path = xstest::PathOf(s);
    xs_session_close(s);
    return path;
  }
  static xs_archive_options Limit(int64_t older, uint32_t flags = 0) {
    xs_archive_options o;
    EXPECT_EQ(xs_archive_options_init(&o, XS_ARCHIVE_OPTIONS_VERSION), XS_OK);
    o.older_than_ms = older;
    o.now_ms = xstest::kT0 + 40 * kDay;
    o.flags = flags;
    return o;
  }
  std::string Archive(const xs_archive_options* o, xs_status* st = nullptr) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_store_archive(store_, o, b, c, n); }, st);
  }
  std::string Prune(const xs_archive_options* o, xs_status* st = nullptr) {
    return xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_store_prune(store_, o, b, c, n); }, st);
  }
};

TEST_F(Retention, OptionsInitAndValidation) {
  xs_archive_options o;
  EXPECT_EQ(xs_archive_options_init(nullptr, XS_ARCHIVE_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_archive_options_init(&o, 99), XS_EVERSION);
  ASSERT_EQ(xs_archive_options_init(&o, XS_ARCHIVE_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, static_cast<uint32_t>(XS_ARCHIVE_OPTIONS_VERSION));
  EXPECT_EQ(o.older_than_ms, -1);
  EXPECT_EQ(o.now_ms, 0);
  EXPECT_EQ(o.progress, nullptr);
  size_t n = 0;
  EXPECT_EQ(xs_store_archive(store_, &o, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "xs_archive_options.older_than_ms is not set (or negative)");
  EXPECT_EQ(xs_store_archive(store_, nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(xs_store_prune(store_, &o, nullptr, 0, &n), XS_EINVAL);
  o.older_than_ms = 0;
  o.flags = 0x80;
  EXPECT_EQ(xs_store_archive(store_, &o, nullptr, 0, &n), XS_EINVAL);
  o.flags = 0;
  o.version = 7;
  EXPECT_EQ(xs_store_prune(store_, &o, nullptr, 0, &n), XS_EVERSION);
  EXPECT_EQ(xs_store_archive(nullptr, &o, nullptr, 0, &n), XS_EMISUSE);
}

// The store is busy with the archive while progress runs: a call on it from there is XS_EMISUSE,
// never a wait for the lock the archive holds.
TEST_F(Retention, AProgressCallbackThatCallsItsStoreIsRefused) {
  Make("arch-busy");
  struct Seen {
    xs_store* store;
    std::vector<xs_status> statuses;
  } seen{store_, {}};
  xs_archive_options o = Limit(30 * kDay, XS_ARCHIVE_DRY_RUN);
  o.progress_user = &seen;
  o.progress = [](uint64_t, uint64_t, void* user) {
    auto* s = static_cast<Seen*>(user);
    size_t n = 0;
    s->statuses.push_back(xs_keys_list(s->store, "", nullptr, 0, &n));
  };
  Archive(&o);
  EXPECT_EQ(seen.statuses, (std::vector<xs_status>{XS_EMISUSE, XS_EMISUSE}));
}

TEST_F(Retention, ArchivesReportsAndOpensReadOnly) {
  std::string path = Make("arch-1");
  xs_session* before = Open(path, XS_SESSION_READ_ONLY);
  std::string entries = xstest::Entries(before), context = xstest::Context(before);
  Close(before);
  size_t size = xstest::ReadFile(path).size();

  std::vector<std::pair<uint64_t, uint64_t>> calls;
  xs_archive_options o = Limit(30 * kDay, XS_ARCHIVE_DRY_RUN);
  o.progress_user = &calls;
  o.progress = [](uint64_t done, uint64_t total, void* user) {
    static_cast<std::vector<std::pair<uint64_t, uint64_t>>*>(user)->emplace_back(done, total);
  };
  EXPECT_EQ(Archive(&o), R"({"dryRun":true,"archived":[{"path":")" + path + R"(","bytes":)" + std::to_string(size) +
                             R"(,"gzBytes":0}],"skipped":[]})");
  EXPECT_EQ(calls, (std::vector<std::pair<uint64_t, uint64_t>>{{0, 1}, {1, 1}}));
  o.flags = 0;
  std::string report = Archive(&o);  // Fetch: a size query, then the copy of the kept report
  EXPECT_EQ(report.rfind(R"({"dryRun":false,"archived":[{"path":")" + path + R"(","bytes":)" + std::to_string(size) +
                             R"(,"gzBytes":)",
                         0),
            0u)
      << report;
  EXPECT_EQ(calls.size(), 4u);  // the retry after XS_EBUFS copied the report: no second run
  EXPECT_FALSE(Exists(path));

  for (const std::string& what : {path + ".gz", std::string("arch-1"), std::string("arch")}) {
    xs_session* s = Open(what);  // no read-only flag: an archive is read-only anyway
    ASSERT_NE(s, nullptr) << what;
    EXPECT_EQ(xstest::Entries(s), entries);
    EXPECT_EQ(xstest::Context(s), context);
    std::string info = xstest::Info(s);
    EXPECT_NE(info.find(R"("readOnly":true,"archived":true)"), std::string::npos) << info;
    EXPECT_EQ(xs_append_message(s, xstest::kUser1.data(), xstest::kUser1.size(), nullptr), XS_EREADONLY);
    EXPECT_EQ(std::string(xs_session_errmsg(s)), path + ".gz is an archived session (read-only; docs/retention.md)");
    EXPECT_EQ(xs_session_set_title(s, "t", 1), XS_EREADONLY);
    Close(s);
  }
  std::string listed =
      xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_store_list(store_, nullptr, b, c, n); });
  EXPECT_NE(listed.find(R"("corruptCopies":0,"archived":true,)"), std::string::npos) << listed;
}

TEST_F(Retention, SkipsALiveWriter) {
  std::string path = Make("busy");
  xs_session* w = Open(path);
  ASSERT_NE(w, nullptr);
  xs_archive_options o = Limit(30 * kDay);
  EXPECT_EQ(Archive(&o), R"({"dryRun":false,"archived":[],"skipped":[{"path":")" + path +
                             R"(","reason":"writer","detail":"another process has it open for writing"}]})");
  EXPECT_TRUE(Exists(path));
  Close(w);
}

TEST_F(Retention, PrunesOnlyArchives) {
  std::string a = Make("a");
  xs_archive_options o = Limit(30 * kDay);
  Archive(&o);
  std::string live = Make("live");  // as idle, but not archived: never pruned
  xs_archive_options p = Limit(kDay, XS_ARCHIVE_DRY_RUN);
  p.now_ms = 4102444800000;  // 2100: every archive is older than a day
  std::string dry = Prune(&p);
  EXPECT_EQ(dry.rfind(R"({"dryRun":true,"pruned":[{"path":")" + a + R"(.gz","gzBytes":)", 0), 0u) << dry;
  EXPECT_TRUE(Exists(a + ".gz"));
  p.flags = 0;
  std::string real = Prune(&p);
  EXPECT_EQ(real.substr(15), dry.substr(14)) << real;  // the same list after {"dryRun":false
  EXPECT_FALSE(Exists(a + ".gz"));
  EXPECT_TRUE(Exists(live));
}

}  // namespace
