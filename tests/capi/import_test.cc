// Import through the C API (docs/import.md): xs_import_options, xs_import of a small store of each
// kind (the report, exact), a dry run that writes nothing, a re-import that imports nothing, the
// EBUFS retry that copies the report instead of importing twice, xs_foreign_list, bad input with
// exact statuses and messages, and the source files never written (bytes and mtimes).
#include <sys/stat.h>

#include <cstddef>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Fetch;
using xstest::ReadFile;
using xstest::TempDir;
using xstest::WriteFile;

constexpr const char* kClaudeId = "11111111-2222-4333-8444-555555555555";
constexpr const char* kMyAgentsId = "3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90";
constexpr const char* kGatewayId = "4ab09157-4770-4cc8-a762-6e86a25cfa13";

// A Claude Code transcript: a prompt, its reply, a line that is not JSON, a snapshot row (kept as
// a custom entry).
std::string ClaudeRows() {
  std::string row = R"({"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/tmp/demo",)"
                    R"("sessionId":"11111111-2222-4333-8444-555555555555","version":"2.1.29","type":"user",)"
                    R"("message":{"role":"user","content":"Say hi"},)"
                    R"("uuid":"aaaaaaaa-0000-4000-8000-000000000001","timestamp":"2026-02-02T05:25:37.961Z"})";
  std::string reply = R"({"parentUuid":"aaaaaaaa-0000-4000-8000-000000000001","isSidechain":false,)"
                      R"("userType":"external","cwd":"/tmp/demo","sessionId":"11111111-2222-4333-8444-555555555555",)"
                      R"("version":"2.1.29","type":"assistant","message":{"id":"msg_1","type":"message",)"
                      R"("role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"hi"}],)"
                      R"("stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":1}},)"
                      R"("uuid":"aaaaaaaa-0000-4000-8000-000000000002","timestamp":"2026-02-02T05:25:39.000Z"})";
  std::string snapshot = R"({"type":"file-history-snapshot","messageId":"aaaaaaaa-0000-4000-8000-000000000001",)"
                         R"("snapshot":{"trackedFileBackups":{},"timestamp":"2026-02-02T05:25:37.961Z"},)"
                         R"("isSnapshotUpdate":false})";
  return row + "\n" + reply + "\n{\"type\":\"user\",\n" + snapshot + "\n";
}

std::string MyAgentsIndex() {
  return R"([{"id":"3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90","agentDir":"/tmp/demo","title":"Fix",)"
         R"("createdAt":"2026-02-10T09:00:00.000Z","lastActiveAt":"2026-02-10T09:05:00.000Z",)"
         R"("stats":{"messageCount":2}}])"
         "\n";
}
std::string MyAgentsRows() {
  return R"({"id":"m1","role":"user","content":"The build fails.","timestamp":"2026-02-10T09:00:01.000Z"})"
         "\n"
         R"({"id":"m2","role":"assistant","content":"Fixed.","timestamp":"2026-02-10T09:00:05.000Z"})"
         "\n";
}

std::string GatewayIndex() {
  return R"({"agent:main:main":{"sessionId":"4ab09157-4770-4cc8-a762-6e86a25cfa13","updatedAt":1772246597629,)"
         R"("sessionFile":"/home/u/.openclaw/agents/main/sessions/4ab09157-4770-4cc8-a762-6e86a25cfa13.jsonl"}})"
         "\n";
}
std::string GatewayRows() {
  return R"({"type":"session","version":3,"id":"4ab09157-4770-4cc8-a762-6e86a25cfa13",)"
         R"("timestamp":"2026-02-28T02:43:17.628Z","cwd":"/tmp/demo"})"
         "\n"
         R"({"type":"message","id":"5b24a573","parentId":null,"timestamp":"2026-02-28T02:43:18.000Z",)"
         R"("message":{"role":"user","content":"hello","timestamp":1772246598000}})"
         "\n";
}

// Every file under `dir` with its bytes and mtime (ns): what "the source is never written" means.
void Picture(const std::string& dir, std::map<std::string, std::pair<std::string, int64_t>>* out) {
  for (const std::string& name : xstest::ListDir(dir)) {
    std::string path = dir + "/" + name;
    struct stat st;
    ASSERT_EQ(::lstat(path.c_str(), &st), 0) << path;
    if (S_ISDIR(st.st_mode)) {
      Picture(path, out);
      continue;
    }
    (*out)[path] = {ReadFile(path), int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec};
  }
}

class Import : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    ASSERT_EQ(::mkdir((src_ / "projects").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((src_ / "projects/-tmp-demo").c_str(), 0755), 0);
    WriteFile(src_ / ("projects/-tmp-demo/" + std::string(kClaudeId) + ".jsonl"), ClaudeRows());
    ASSERT_EQ(::mkdir((src_ / "myagents").c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((src_ / "myagents/sessions").c_str(), 0755), 0);
    WriteFile(src_ / "myagents/sessions.json", MyAgentsIndex());
    WriteFile(src_ / ("myagents/sessions/" + std::string(kMyAgentsId) + ".jsonl"), MyAgentsRows());
    for (const char* d : {"gateway", "gateway/agents", "gateway/agents/main", "gateway/agents/main/sessions"}) {
      ASSERT_EQ(::mkdir((src_ / d).c_str(), 0755), 0);
    }
    WriteFile(src_ / "gateway/agents/main/sessions/sessions.json", GatewayIndex());
    WriteFile(src_ / ("gateway/agents/main/sessions/" + std::string(kGatewayId) + ".jsonl"), GatewayRows());
    Picture(src_.path(), &before_);
  }
  void TearDown() override {
    std::map<std::string, std::pair<std::string, int64_t>> after;
    Picture(src_.path(), &after);
    EXPECT_EQ(after, before_) << "the source was written";
    CapiTest::TearDown();
  }
  static xs_import_options Opts(uint32_t flags = 0) {
    xs_import_options o;
    EXPECT_EQ(xs_import_options_init(&o, XS_IMPORT_OPTIONS_VERSION), XS_OK);
    o.flags = flags;
    o.now_ms = xstest::kT0;
    return o;
  }
  std::string Run(const char* kind, const std::string& path, const xs_import_options* o) {
    return Fetch([&](char* b, size_t c, size_t* n) { return xs_import(store_, kind, path.c_str(), o, b, c, n); });
  }
  std::string List(const char* kind, const std::string& path) {
    return Fetch(
        [&](char* b, size_t c, size_t* n) { return xs_foreign_list(store_, kind, path.c_str(), nullptr, b, c, n); });
  }
  // Expects `call` to fail with `want` and the store's message to be `msg`.
  void ExpectError(xs_status want, const std::string& msg, xs_status got) {
    EXPECT_EQ(got, want) << xs_status_str(got) << " / " << xs_store_errmsg(store_);
    EXPECT_EQ(xs_store_errmsg(store_), msg);
  }
  std::string SessionDir() const { return root_.path() + "/sessions/--tmp-demo--"; }

  TempDir src_;
  std::map<std::string, std::pair<std::string, int64_t>> before_;
};

TEST_F(Import, OptionsInit) {
  xs_import_options o;
  EXPECT_EQ(xs_import_options_init(nullptr, XS_IMPORT_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_import_options_init(&o, 0), XS_EVERSION);
  EXPECT_EQ(xs_import_options_init(&o, 3), XS_EVERSION);
  ASSERT_EQ(xs_import_options_init(&o, XS_IMPORT_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, 2u);
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.target_cwd, nullptr);
  EXPECT_EQ(o.fallback_cwd, nullptr);
  EXPECT_EQ(o.lock_wait_ms, 2000);
  EXPECT_EQ(o.now_ms, 0);
  EXPECT_EQ(o.progress, nullptr);
  EXPECT_EQ(o.progress_user, nullptr);
}

// A caller built against version 1 has a 40-byte struct: init writes only that much, and the
// import reads nothing past it.
TEST_F(Import, AVersionOneStructIsStillAccepted) {
  static_assert(offsetof(xs_import_options, progress) == 40, "version 1 ended at 40 bytes");
  unsigned char raw[sizeof(xs_import_options)];
  std::memset(raw, 0xAB, sizeof raw);
  auto* o = reinterpret_cast<xs_import_options*>(raw);
  ASSERT_EQ(xs_import_options_init(o, 1), XS_OK);
  EXPECT_EQ(o->version, 1u);
  EXPECT_EQ(o->lock_wait_ms, 2000);
  for (size_t i = 40; i < sizeof raw; ++i) EXPECT_EQ(raw[i], 0xAB) << "byte " << i << " written";
  o->now_ms = xstest::kT0;
  // The bytes past the version 1 struct are garbage here: a progress pointer read from them would crash.
  std::string report = Run("claude", src_ / "projects/-tmp-demo", o);
  EXPECT_NE(report.find(R"("imported":2,)"), std::string::npos) << report;
}

// Version 2's progress: 0 of the transcripts' bytes first, all of them last, on this thread.
TEST_F(Import, ProgressCountsTheSourceBytes) {
  std::string dir = src_ / "projects/-tmp-demo";
  uint64_t total = ReadFile(dir + "/" + std::string(kClaudeId) + ".jsonl").size();
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  xs_import_options o = Opts(XS_IMPORT_DRY_RUN);
  o.progress_user = &calls;
  o.progress = [](uint64_t done, uint64_t all, void* user) {
    static_cast<std::vector<std::pair<uint64_t, uint64_t>>*>(user)->push_back({done, all});
  };
  Run("claude", dir, &o);
  ASSERT_GE(calls.size(), 2u);
  EXPECT_EQ(calls.front(), std::make_pair(uint64_t{0}, total));
  EXPECT_EQ(calls.back(), std::make_pair(total, total));
  calls.clear();
  Fetch([&](char* b, size_t c, size_t* n) { return xs_foreign_list(store_, "claude", dir.c_str(), &o, b, c, n); });
  EXPECT_TRUE(calls.empty()) << "a listing does not call progress";
}

// The store is busy with the import while progress runs: a call on it from there is XS_EMISUSE
// (never a wait for the lock the import holds), and the import goes on.
TEST_F(Import, AProgressCallbackThatCallsItsStoreIsRefused) {
  struct Seen {
    xs_store* store;
    std::vector<xs_status> statuses;
  } seen{store_, {}};
  xs_import_options o = Opts(XS_IMPORT_DRY_RUN);
  o.progress_user = &seen;
  o.progress = [](uint64_t, uint64_t, void* user) {
    auto* s = static_cast<Seen*>(user);
    size_t n = 0;
    s->statuses.push_back(xs_keys_list(s->store, "", nullptr, 0, &n));
  };
  std::string report = Run("claude", src_ / "projects/-tmp-demo", &o);
  EXPECT_NE(report.find(R"("imported":2,)"), std::string::npos) << report;
  ASSERT_GE(seen.statuses.size(), 2u);
  for (xs_status st : seen.statuses) EXPECT_EQ(st, XS_EMISUSE);
}

// The report of one session (docs/import.md#the-report), members in the documented order.
std::string SessionJson(const std::string& source_file, const std::string& id, const std::string& file, bool created,
                        int read, int imported, int custom, int already, int skipped) {
  return R"({"sourceFile":")" + source_file + R"(","sessionId":")" + id + R"(","sessionFile":")" + file +
         R"(","created":)" + (created ? "true" : "false") + R"(,"rowsRead":)" + std::to_string(read) +
         R"(,"imported":)" + std::to_string(imported) + R"(,"keptAsCustom":)" + std::to_string(custom) +
         R"(,"alreadyImported":)" + std::to_string(already) + R"(,"skipped":)" + std::to_string(skipped) + "}";
}
std::string Totals(const char* kind, const std::string& root, bool dry, int read, int imported, int custom, int already,
                   int skipped) {
  return R"({"source":")" + std::string(kind) + R"(","root":")" + root + R"(","dryRun":)" + (dry ? "true" : "false") +
         R"(,"rowsRead":)" + std::to_string(read) + R"(,"imported":)" + std::to_string(imported) +
         R"(,"keptAsCustom":)" + std::to_string(custom) + R"(,"alreadyImported":)" + std::to_string(already) +
         R"(,"skipped":)" + std::to_string(skipped) + R"(,"sessions":[)";
}

const char kNotJson[] =
    R"(not JSON (The JSON document has an improper structure: missing or superfluous commas, braces, missing keys, etc.)"
    R"())";

TEST_F(Import, ClaudeProjectDryRunThenImportThenReimport) {
  std::string dir = src_ / "projects/-tmp-demo";
  std::string file = std::string(kClaudeId) + ".jsonl";
  std::string target = SessionDir() + "/" + xstest::FileName("2026-02-02T05:25:37.961Z", kClaudeId);
  std::string skipped =
      R"(],"skippedRows":[{"file":")" + file + R"(","line":3,"reason":")" + kNotJson + R"("}],"notes":[]})";
  // Two messages, the snapshot kept as custom, the line that is not JSON skipped.
  xs_import_options dry = Opts(XS_IMPORT_DRY_RUN);
  EXPECT_EQ(Run("claude", dir, &dry), Totals("claude", dir, true, 4, 2, 1, 0, 1) +
                                          SessionJson(file, kClaudeId, "", true, 4, 2, 1, 0, 1) + skipped);
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{}) << "a dry run writes nothing";

  xs_import_options o = Opts();
  EXPECT_EQ(Run("claude", dir, &o), Totals("claude", dir, false, 4, 2, 1, 0, 1) +
                                        SessionJson(file, kClaudeId, target, true, 4, 2, 1, 0, 1) + skipped);
  std::string bytes = ReadFile(target);
  // The header, two messages, the snapshot, and the custom entry that puts the leaf back on the reply
  // (docs/import-claude.md#the-tree).
  std::vector<std::string> lines = xstest::SplitLines(bytes);
  ASSERT_EQ(lines.size(), 5u) << bytes;
  EXPECT_EQ(lines[0], xstest::HeaderLine(kClaudeId, "2026-02-02T05:25:37.961Z", "/tmp/demo"));
  EXPECT_EQ(
      lines[4].rfind(
          R"({"type":"custom","customType":"claude-code/resume-leaf","data":{"leafUuid":"aaaaaaaa-0000-4000-8000-000000000002"})",
          0),
      0u)
      << lines[4];
  // Again: nothing new, the bad line is still reported, the session file is unchanged.
  EXPECT_EQ(Run("claude", dir, &o), Totals("claude", dir, false, 4, 0, 0, 3, 1) +
                                        SessionJson(file, kClaudeId, target, false, 4, 0, 0, 3, 1) + skipped);
  EXPECT_EQ(ReadFile(target), bytes);
}

TEST_F(Import, ClaudeProjectsRootImportsEveryProject) {
  // The root holds no *.jsonl itself: it is the projects root, and files are named under it.
  std::string root = src_ / "projects";
  std::string file = "-tmp-demo/" + std::string(kClaudeId) + ".jsonl";
  std::string target = SessionDir() + "/" + xstest::FileName("2026-02-02T05:25:37.961Z", kClaudeId);
  xs_import_options o = Opts();
  EXPECT_EQ(Run("claude", root + "/", &o),
            Totals("claude", root, false, 4, 2, 1, 0, 1) + SessionJson(file, kClaudeId, target, true, 4, 2, 1, 0, 1) +
                R"(],"skippedRows":[{"file":")" + file + R"(","line":3,"reason":")" + kNotJson + R"("}],"notes":[]})");
}

TEST_F(Import, TargetCwdPlacesEverySession) {
  xs_import_options o = Opts();
  o.target_cwd = "/elsewhere/app";
  std::string report = Run("claude", src_ / "projects/-tmp-demo", &o);
  std::string target =
      root_.path() + "/sessions/--elsewhere-app--/" + xstest::FileName("2026-02-02T05:25:37.961Z", kClaudeId);
  EXPECT_NE(report.find(R"("sessionFile":")" + target + "\""), std::string::npos) << report;
  EXPECT_NE(ReadFile(target).find(R"("cwd":"/elsewhere/app")"), std::string::npos);
}

TEST_F(Import, MyAgentsStoreAndItsRecord) {
  std::string root = src_ / "myagents";
  std::string rows = root + "/sessions/" + kMyAgentsId + ".jsonl";
  std::string target = SessionDir() + "/" + xstest::FileName("2026-02-10T09:00:00.000Z", kMyAgentsId);
  std::string tail = R"(],"skippedRows":[],"notes":[]})";
  xs_import_options o = Opts();
  EXPECT_EQ(Run("myagents", root, &o),
            Totals("myagents", root, false, 3, 3, 0, 0, 0) +
                SessionJson(rows, kMyAgentsId, target, true, 2, 2, 0, 0, 0) + "," +
                SessionJson(root + "/sessions.json", "", root_ / "sessions.json", false, 1, 1, 0, 0, 0) + tail);
  EXPECT_NE(ReadFile(root_ / "sessions.json").find(R"("myagents:3f1c2a4e-8b7d-4e21-9a35-0c6f1d2b7e90")"),
            std::string::npos);
  EXPECT_EQ(Run("myagents", root, &o),
            Totals("myagents", root, false, 3, 0, 0, 3, 0) +
                SessionJson(rows, kMyAgentsId, target, false, 2, 0, 0, 2, 0) + "," +
                SessionJson(root + "/sessions.json", "", root_ / "sessions.json", false, 1, 0, 0, 1, 0) + tail);
}

TEST_F(Import, GatewayStoreAndItsKeys) {
  std::string root = src_ / "gateway";
  std::string dir = root + "/agents/main/sessions";
  std::string target = SessionDir() + "/" + xstest::FileName("2026-02-28T02:43:17.628Z", kGatewayId);
  std::string tail = R"(],"skippedRows":[],"notes":[]})";
  xs_import_options o = Opts();
  EXPECT_EQ(Run("gateway", root, &o),
            Totals("gateway", root, false, 2, 2, 0, 0, 0) +
                SessionJson(dir + "/" + kGatewayId + ".jsonl", kGatewayId, target, true, 1, 1, 0, 0, 0) + "," +
                SessionJson(dir + "/sessions.json", "", root_ / "sessions.json", false, 1, 1, 0, 0, 0) + tail);
  // The transcript is a native session already: its lines are copied as they are.
  EXPECT_EQ(ReadFile(target), GatewayRows());
  EXPECT_EQ(Run("gateway", root, &o),
            Totals("gateway", root, false, 2, 0, 0, 2, 0) +
                SessionJson(dir + "/" + kGatewayId + ".jsonl", kGatewayId, target, false, 1, 0, 0, 1, 0) + "," +
                SessionJson(dir + "/sessions.json", "", root_ / "sessions.json", false, 1, 0, 0, 1, 0) + tail);
}

TEST_F(Import, AGatewayRecordWithNullsIsImportedOnceAndKeepsThem) {
  // No sessionFile (so importedFrom.sessionFile is null) and a member the gateway left null: a
  // re-import finds the record as written, changes nothing and says so.
  std::string dir = src_ / "gateway/agents/main/sessions";
  WriteFile(dir + "/sessions.json",
            R"({"agent:main:main":{"sessionId":"4ab09157-4770-4cc8-a762-6e86a25cfa13","updatedAt":1772246597629,)"
            R"("abortedLastRun":null}})");
  Picture(src_.path(), &before_);
  xs_import_options o = Opts();
  std::string first = Run("gateway", src_ / "gateway", &o);
  EXPECT_NE(first.find(R"(,"created":false,"rowsRead":1,"imported":1,"keptAsCustom":0,"alreadyImported":0,)"),
            std::string::npos)
      << first;
  std::string document = ReadFile(root_ / "sessions.json");
  EXPECT_NE(document.find(R"("abortedLastRun": null)"), std::string::npos) << document;
  EXPECT_NE(document.find(R"("sessionFile": null)"), std::string::npos) << document;
  std::string again = Run("gateway", src_ / "gateway", &o);
  EXPECT_NE(again.find(R"(,"created":false,"rowsRead":1,"imported":0,"keptAsCustom":0,"alreadyImported":1,)"),
            std::string::npos)
      << again;
  EXPECT_EQ(ReadFile(root_ / "sessions.json"), document);
}

TEST_F(Import, TheRetryAfterEbufsCopiesTheReportAndImportsNothingTwice) {
  std::string dir = src_ / "gateway";
  xs_import_options o = Opts();
  size_t need = 0;
  ASSERT_EQ(xs_import(store_, "gateway", dir.c_str(), &o, nullptr, 0, &need), XS_EBUFS);
  std::string first(need, '\0');
  size_t got = 0;
  ASSERT_EQ(xs_import(store_, "gateway", dir.c_str(), &o, &first[0], first.size(), &got), XS_OK);
  EXPECT_EQ(got, need);
  EXPECT_NE(first.find(R"("created":true,"rowsRead":1,"imported":1)"), std::string::npos) << first;
  // A call that is not the retry runs the import again: everything is already there.
  std::string again(4096, '\0');
  ASSERT_EQ(xs_import(store_, "gateway", dir.c_str(), &o, &again[0], again.size(), &got), XS_OK);
  again.resize(got);
  EXPECT_NE(again.find(R"("created":false,"rowsRead":1,"imported":0,"keptAsCustom":0,"alreadyImported":1)"),
            std::string::npos)
      << again;
}

int64_t MtimeMs(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
}

TEST_F(Import, ForeignListingsReadOnly) {
  std::string m = src_ / "myagents";
  std::string rows = m + "/sessions/" + kMyAgentsId + ".jsonl";
  EXPECT_EQ(List("myagents", m),
            R"({"source":"myagents","root":")" + m + R"(","index":")" + m +
                R"(/sessions.json","indexLock":"free","indexRows":1,"sessions":[{"id":")" + kMyAgentsId +
                R"(","messagesFile":")" + rows +
                R"(","legacyFile":null,"legacyBeside":false,"inIndex":true,"line":1,"title":"Fix",)"
                R"("agentDir":"/tmp/demo","createdAt":"2026-02-10T09:00:00.000Z",)"
                R"("lastActiveAt":"2026-02-10T09:05:00.000Z","stats":{"messageCount":2}}],"problems":[],"notes":[]})");
  std::string g = src_ / "gateway";
  std::string dir = g + "/agents/main/sessions";
  std::string t = dir + "/" + kGatewayId + ".jsonl";
  EXPECT_EQ(List("gateway", g),
            R"({"source":"gateway","root":")" + g + R"(","agents":[{"id":"main","dir":")" + dir + R"(","index":")" +
                dir + R"(/sessions.json","indexRows":1,"keys":[{"key":"agent:main:main","sessionId":")" + kGatewayId +
                R"(","line":1,"transcript":")" + kGatewayId + R"(.jsonl"}],"transcripts":[{"file":")" + kGatewayId +
                R"(.jsonl","path":")" + t + R"(","sessionId":")" + kGatewayId +
                R"(","threadId":null,"generation":"live","stamp":null,"size":)" + std::to_string(GatewayRows().size()) +
                R"(,"mtimeMs":)" + std::to_string(MtimeMs(t)) +
                R"(,"writeLock":false,"keys":["agent:main:main"]}],"problems":[],"notes":[]}]})");
  // A project directory and the projects root give the same one project.
  std::string p = src_ / "projects";
  std::string c = p + "/-tmp-demo/" + kClaudeId + ".jsonl";
  std::string project =
      R"({"dir":")" + p + R"(/-tmp-demo","hasIndex":false,"originalPath":"","transcripts":[{"file":")" + kClaudeId +
      R"(.jsonl","kind":"session","sessionId":")" + kClaudeId +
      R"(","parentSessionId":"","agentId":"","cwd":"/tmp/demo","firstPrompt":"Say hi","summary":"",)"
      R"("title":"","rows":4,"badRows":1,"size":)" +
      std::to_string(ClaudeRows().size()) + R"(,"mtime":)" + std::to_string(MtimeMs(c)) +
      R"(,"leafUuid":"aaaaaaaa-0000-4000-8000-000000000002","inIndex":false}],"skippedRows":[{"file":")" + kClaudeId +
      R"(.jsonl","line":3,"reason":")" + kNotJson + R"("}],"notes":[]})";
  EXPECT_EQ(List("claude", p), R"({"source":"claude","root":")" + p + R"(","projects":[)" + project + "]}");
  EXPECT_EQ(List("claude", p + "/-tmp-demo"),
            R"({"source":"claude","root":")" + p + R"(/-tmp-demo","projects":[)" + project + "]}");
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{}) << "a listing writes nothing";
}

TEST_F(Import, ForeignListNeedsNoOpenStore) {
  xs_store* fresh = xs_store_new();
  ASSERT_NE(fresh, nullptr);
  std::string m = src_ / "myagents";
  std::string text = Fetch(
      [&](char* b, size_t c, size_t* n) { return xs_foreign_list(fresh, "myagents", m.c_str(), nullptr, b, c, n); });
  EXPECT_EQ(text.rfind(R"({"source":"myagents","root":")" + m + "\"", 0), 0u) << text;
  size_t n = 0;
  EXPECT_EQ(xs_import(fresh, "myagents", m.c_str(), nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_STREQ(xs_store_errmsg(fresh), "the store is not open (call xs_store_open first)");
  xs_store_free(fresh);
}

TEST_F(Import, BadInputGivesAStatusAndAMessage) {
  size_t n = 0;
  std::string dir = src_ / "myagents";
  xs_import_options o = Opts();
  EXPECT_EQ(xs_import(nullptr, "claude", dir.c_str(), &o, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_foreign_list(nullptr, "claude", dir.c_str(), &o, nullptr, 0, &n), XS_EMISUSE);
  ExpectError(XS_EINVAL, "kind is NULL", xs_import(store_, nullptr, dir.c_str(), &o, nullptr, 0, &n));
  ExpectError(XS_EINVAL,
              "unknown import kind \"opencode\" (expected \"claude\", \"myagents\", \"gateway\" or \"codex\")",
              xs_import(store_, "opencode", dir.c_str(), &o, nullptr, 0, &n));
  ExpectError(XS_EINVAL, "source_path is NULL", xs_foreign_list(store_, "claude", nullptr, &o, nullptr, 0, &n));
  ExpectError(XS_EINVAL, "source_path is empty", xs_import(store_, "claude", "", &o, nullptr, 0, &n));
  ExpectError(XS_EINVAL, "out_len is NULL", xs_import(store_, "myagents", dir.c_str(), &o, nullptr, 0, nullptr));
  std::string missing = src_ / "nowhere";
  ExpectError(XS_ENOTFOUND, "import source " + missing + " does not exist",
              xs_import(store_, "claude", missing.c_str(), &o, nullptr, 0, &n));
  std::string file = dir + "/sessions.json";
  ExpectError(XS_EINVAL, "import source " + file + " is not a directory",
              xs_foreign_list(store_, "myagents", file.c_str(), &o, nullptr, 0, &n));
  // A directory without sessions.json or sessions/ is not a MyAgents store.
  EXPECT_EQ(xs_import(store_, "myagents", (src_ / "gateway").c_str(), &o, nullptr, 0, &n), XS_ENOTFOUND);

  o.target_cwd = "relative/dir";
  ExpectError(XS_EINVAL, "xs_import_options.target_cwd must be an absolute path",
              xs_import(store_, "claude", dir.c_str(), &o, nullptr, 0, &n));
  o.target_cwd = "/a/../etc";
  ExpectError(XS_EINVAL, "xs_import_options.target_cwd must not have \".\" or \"..\" components",
              xs_import(store_, "claude", dir.c_str(), &o, nullptr, 0, &n));
  o.target_cwd = "/a";
  ExpectError(XS_EINVAL, "xs_import_options.target_cwd is for \"claude\" (use fallback_cwd)",
              xs_import(store_, "gateway", dir.c_str(), &o, nullptr, 0, &n));
  o = Opts();
  o.fallback_cwd = "/a";
  ExpectError(XS_EINVAL,
              "xs_import_options.fallback_cwd is for \"gateway\", \"myagents\" and \"codex\" (use target_cwd)",
              xs_import(store_, "claude", dir.c_str(), &o, nullptr, 0, &n));
  o = Opts(0x2);
  ExpectError(XS_EINVAL, "unknown bits in xs_import_options.flags",
              xs_import(store_, "claude", dir.c_str(), &o, nullptr, 0, &n));
  o = Opts();
  o.lock_wait_ms = -1;
  ExpectError(XS_EINVAL, "xs_import_options.lock_wait_ms is negative",
              xs_import(store_, "claude", dir.c_str(), &o, nullptr, 0, &n));
  o = Opts();
  o.version = 3;
  ExpectError(XS_EVERSION, "xs_import_options version 3 is not supported",
              xs_foreign_list(store_, "claude", dir.c_str(), &o, nullptr, 0, &n));
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{}) << "a refused call writes nothing";
}

TEST_F(Import, DotDotInASourcePathIsOnlyAPath) {
  // The source is only read, so "a/../b" names b like any other path.
  std::string via = src_ / "projects/../myagents";
  xs_import_options o = Opts(XS_IMPORT_DRY_RUN);
  std::string report = Run("myagents", via, &o);
  EXPECT_EQ(report.rfind(R"({"source":"myagents","root":")" + via + R"(","dryRun":true,"rowsRead":3)", 0), 0u)
      << report;
}

TEST_F(Import, BinaryAndTruncatedSourcesAreReportedNotFatal) {
  std::string dir = src_ / "bad/-tmp-bad";
  ASSERT_EQ(::mkdir((src_ / "bad").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
  WriteFile(dir + "/bin.jsonl", std::string("\x00\x01\x02", 3));
  WriteFile(dir + "/cut.jsonl", ClaudeRows().substr(0, 40));
  WriteFile(dir + "/sessions-index.json", "[]");
  Picture(src_ / "bad", &before_);
  xs_import_options o = Opts();
  std::string report = Run("claude", dir, &o);
  // Claude's reader reads a binary file as rows: its one line is not JSON.
  EXPECT_NE(
      report.find(R"(,"skippedRows":[{"file":"bin.jsonl","line":1,"reason":")" + std::string(kNotJson) +
                  R"x("},{"file":"cut.jsonl","line":1,"reason":"not JSON (A string is opened, but never closed.)"}])x"),
      std::string::npos)
      << report;
  EXPECT_EQ(report.rfind(Totals("claude", dir, false, 2, 0, 0, 0, 2), 0), 0u) << report;
  EXPECT_NE(report.find("sessions-index.json is not an object; ignored"), std::string::npos) << report;
}

}  // namespace
