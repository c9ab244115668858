// The "codex" kind through the C API (docs/import-codex.md): xs_import of a small sessions tree
// (the report, exact: dry run, import, re-import), the context xs_build_context gives of it,
// xs_foreign_list's listing, fallback_cwd, and bad input with exact statuses and messages. The
// source is never written (bytes and mtimes).
#include <sys/stat.h>

#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Fetch;
using xstest::ReadFile;
using xstest::TempDir;
using xstest::WriteFile;

constexpr const char* kId = "0199a000-0000-7000-8000-0000000000c1";
constexpr const char* kRel = "2026/03/01/rollout-2026-03-01T10-00-00-0199a000-0000-7000-8000-0000000000c1.jsonl";

std::string Row(const std::string& time, const std::string& type, const std::string& payload) {
  return "{\"timestamp\":\"2026-03-01T10:00:" + time + "Z\",\"type\":\"" + type + "\",\"payload\":" + payload + "}\n";
}

// A meta, a turn_context, a prompt, a response with a call and its usage, the call's output, a
// line that is not JSON, and the final answer (8 rows).
std::string Rollout() {
  return Row("00.000", "session_meta",
             R"({"id":"0199a000-0000-7000-8000-0000000000c1","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/tmp/demo","cli_version":"0.50.0","originator":"codex_cli_rs"})") +
         Row("01.000", "turn_context", R"({"cwd":"/tmp/demo","model":"gpt-5-codex","effort":"low"})") +
         Row("01.000", "response_item",
             R"({"type":"message","role":"user","content":[{"type":"input_text","text":"Show the date"}]})") +
         Row("02.000", "response_item",
             R"({"type":"function_call","name":"shell","arguments":"{\"command\":[\"date\"]}","call_id":"c1"})") +
         Row("02.000", "event_msg",
             R"({"type":"token_count","info":{"last_token_usage":{"input_tokens":10,"cached_input_tokens":0,"output_tokens":5,"total_tokens":15}}})") +
         Row("03.000", "response_item", R"({"type":"function_call_output","call_id":"c1","output":"Sun Mar 1"})") +
         "{\"truncated\n" +
         Row("04.000", "response_item",
             R"({"type":"message","role":"assistant","content":[{"type":"output_text","text":"It is Sunday."}]})");
}

void Picture(const std::string& dir, std::vector<std::pair<std::string, std::string>>* out) {
  for (const std::string& name : xstest::ListDir(dir)) {
    std::string path = dir + "/" + name;
    struct stat st;
    ASSERT_EQ(::lstat(path.c_str(), &st), 0) << path;
    if (S_ISDIR(st.st_mode)) {
      Picture(path, out);
      continue;
    }
    out->push_back({path, ReadFile(path) + "@" + std::to_string(st.st_mtim.tv_sec) + "." +
                              std::to_string(st.st_mtim.tv_nsec)});
  }
}

class ImportCodex : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    std::string dir = src_.path();
    for (const char* d : {"/2026", "/03", "/01"}) ASSERT_EQ(::mkdir((dir += d).c_str(), 0755), 0);
    WriteFile(src_ / kRel, Rollout());
    WriteFile(src_ / "history.jsonl", "{\"not\":\"a rollout\"}\n");  // beside the sessions: not read
    Picture(src_.path(), &before_);
  }
  void TearDown() override {
    std::vector<std::pair<std::string, std::string>> after;
    Picture(src_.path(), &after);
    EXPECT_EQ(after, before_) << "the source was written";
    CapiTest::TearDown();
  }
  static xs_import_options Opts(uint32_t flags = 0) {
    xs_import_options o;
    EXPECT_EQ(xs_import_options_init(&o, XS_IMPORT_OPTIONS_VERSION), XS_OK);
    o.flags = flags;
    return o;
  }
  std::string Run(const xs_import_options* o) {
    return Fetch([&](char* b, size_t c, size_t* n) { return xs_import(store_, "codex", src_.path().c_str(), o, b, c, n); });
  }
  std::string Report(bool dry, const std::string& file, bool created, int imported, int custom, int already) {
    return R"({"source":"codex","root":")" + src_.path() + R"(","dryRun":)" + (dry ? "true" : "false") +
           R"(,"rowsRead":8,"imported":)" + std::to_string(imported) + R"(,"keptAsCustom":)" + std::to_string(custom) +
           R"(,"alreadyImported":)" + std::to_string(already) + R"(,"skipped":1,"sessions":[{"sourceFile":")" + kRel +
           R"(","sessionId":")" + kId + R"(","sessionFile":")" + file + R"(","created":)" +
           (created ? "true" : "false") + R"(,"rowsRead":8,"imported":)" + std::to_string(imported) +
           R"(,"keptAsCustom":)" + std::to_string(custom) + R"(,"alreadyImported":)" + std::to_string(already) +
           R"(,"skipped":1}],"skippedRows":[{"file":")" + kRel +
           R"(","line":7,"reason":"not JSON: invalid JSON at byte 11: Missing a closing quotation mark in string."}],"notes":[]})";
  }
  TempDir src_;
  std::vector<std::pair<std::string, std::string>> before_;
};

TEST_F(ImportCodex, DryRunThenImportThenReimport) {
  xs_import_options dry = Opts(XS_IMPORT_DRY_RUN);
  // Imported: the turn_context (model and effort), the prompt, the call and its count, the output,
  // the answer; kept: the meta.
  EXPECT_EQ(Run(&dry), Report(true, "", true, 6, 1, 0));
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{}) << "a dry run writes nothing";
  xs_import_options o = Opts();
  std::string file =
      root_.path() + "/sessions/--tmp-demo--/" + xstest::FileName("2026-03-01T10:00:00.000Z", kId);
  EXPECT_EQ(Run(&o), Report(false, file, true, 6, 1, 0));
  std::string bytes = ReadFile(file);
  std::vector<std::string> lines = xstest::SplitLines(bytes);
  // The header, the meta, model, thinking level, the turn_context, prompt, response, result, answer.
  ASSERT_EQ(lines.size(), 9u) << bytes;
  EXPECT_EQ(lines[0], xstest::HeaderLine(kId, "2026-03-01T10:00:00.000Z", "/tmp/demo"));
  EXPECT_EQ(Run(&o), Report(false, file, false, 0, 0, 7));
  EXPECT_EQ(ReadFile(file), bytes) << "a re-import writes nothing";

  xs_session* s = Open(file);
  ASSERT_NE(s, nullptr);
  std::string context = Fetch([&](char* b, size_t c, size_t* n) { return xs_build_context(s, nullptr, b, c, n); });
  size_t messages = context.find(",\"messages\":");
  ASSERT_NE(messages, std::string::npos);
  EXPECT_EQ(context.substr(messages),
            R"(,"messages":[{"role":"user","content":[{"type":"text","text":"Show the date"}],"timestamp":1772359201000},)"
            R"({"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"shell","arguments":{"command":["date"]}}],)"
            R"("api":"openai-responses","provider":"openai","model":"gpt-5-codex","usage":{"input":10,"output":5,)"
            R"("cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,)"
            R"("total":0}},"stopReason":"toolUse","timestamp":1772359202000},)"
            R"({"role":"toolResult","toolCallId":"c1","toolName":"shell","content":[{"type":"text","text":"Sun Mar 1"}],)"
            R"("isError":false,"timestamp":1772359203000},)"
            R"({"role":"assistant","content":[{"type":"text","text":"It is Sunday."}],"api":"openai-responses",)"
            R"("provider":"openai","model":"gpt-5-codex","stopReason":"stop","timestamp":1772359204000}],)"
            R"("thinkingLevel":"low","models":{"default":"openai/gpt-5-codex"},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_F(ImportCodex, ForeignListReadsOnly) {
  std::string path = src_ / kRel;
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  int64_t mtime = int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
  EXPECT_EQ(Fetch([&](char* b, size_t c, size_t* n) {
              return xs_foreign_list(store_, "codex", src_.path().c_str(), nullptr, b, c, n);
            }),
            R"({"source":"codex","root":")" + src_.path() + R"(","sessions":[{"file":")" + kRel + R"(","sessionId":")" +
                kId + R"(","cwd":"/tmp/demo","started":"2026-03-01T10:00:00.000Z","cliVersion":"0.50.0",)"
                R"("originator":"codex_cli_rs","model":"gpt-5-codex","firstPrompt":"","rows":8,"badRows":1,"size":)" +
                std::to_string(Rollout().size()) + R"(,"mtime":)" + std::to_string(mtime) +
                R"(}],"problems":[{"file":")" + kRel +
                R"(","line":7,"reason":"not JSON: invalid JSON at byte 11: Missing a closing quotation mark in string."}],"notes":[]})");
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{}) << "a listing writes nothing";
}

TEST_F(ImportCodex, FallbackCwdIsForRolloutsThatNameNone) {
  WriteFile(src_ / "rollout-bare.jsonl",
            Row("00.000", "response_item",
                R"({"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]})"));
  before_.clear();
  Picture(src_.path(), &before_);
  xs_import_options o = Opts();
  o.fallback_cwd = "/srv/elsewhere";
  std::string report = Run(&o);
  EXPECT_NE(report.find(root_.path() + "/sessions/--srv-elsewhere--/"), std::string::npos) << report;
  EXPECT_NE(report.find(root_.path() + "/sessions/--tmp-demo--/"), std::string::npos) << report;
}

TEST_F(ImportCodex, BadInputGivesAStatusAndAMessage) {
  size_t n = 0;
  xs_import_options o = Opts();
  o.target_cwd = "/a";
  EXPECT_EQ(xs_import(store_, "codex", src_.path().c_str(), &o, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "xs_import_options.target_cwd is for \"claude\" (use fallback_cwd)");
  o = Opts();
  o.fallback_cwd = "/a/./b";
  EXPECT_EQ(xs_import(store_, "codex", src_.path().c_str(), &o, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "xs_import_options.fallback_cwd must not have \".\" or \"..\" components");
  std::string missing = src_ / "nowhere";
  EXPECT_EQ(xs_foreign_list(store_, "codex", missing.c_str(), nullptr, nullptr, 0, &n), XS_ENOTFOUND);
  EXPECT_EQ(xs_store_errmsg(store_), "import source " + missing + " does not exist");
  std::string file = src_ / kRel;
  EXPECT_EQ(xs_import(store_, "codex", file.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(xs_store_errmsg(store_), "import source " + file + " is not a directory");
  EXPECT_EQ(xstest::ListDir(root_.path()), std::vector<std::string>{}) << "a refused call writes nothing";
}

}  // namespace
