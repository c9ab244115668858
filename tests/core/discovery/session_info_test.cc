// discovery/session_info: what a listing learns about one file. The cheap form reads a bounded
// prefix (omp's 4096 bytes) for the header and the first user prompt, growing the read when the
// header is longer (no blind spot: docs/decisions.md#4-discovery-has-no-blind-spot); the full form
// loads the file for pi's counts and session_info name (docs/format.md#finding-sessions). Also
// format/message_text, the text a listing shows for a message.
#include <gtest/gtest.h>

#include <string>

#include "discovery/session_info.h"
#include "format/message_text.h"
#include "test_util.h"

namespace xs::discovery {
namespace {

const std::string kPath = "/s/--w--/2026-02-16T10-20-30-000Z_s1.jsonl";

std::string header(const std::string& extra = "", const std::string& id = "s1") {
  return R"({"type":"session","version":3,"id":")" + id + R"(","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w")" +
         extra + "}";
}
std::string msg(const std::string& id, const std::string& message) {
  return R"({"type":"message","id":")" + id + R"(","parentId":null,"timestamp":"2026-02-16T10:20:31.000Z","message":)" +
         message + "}";
}
const std::string kAssistant =
    msg("a1", R"({"role":"assistant","content":[{"type":"text","text":"answer"}],"provider":"p","model":"m"})");

class SessionInfoTest : public ::testing::Test {
 protected:
  Result<SessionSummary> summary(const std::string& bytes, bool full = false, uint64_t max_line = 64ull << 20) {
    test::put_file(*fs_, kPath, bytes);
    return read_summary(fs_, kPath, full, max_line);
  }
  std::shared_ptr<storage::Fs> fs_ = storage::make_memory_fs();
};

TEST(MessageText, StringContentOrTextBlocksJoinedWithASpace) {
  EXPECT_EQ(format::message_text(R"({"role":"user","content":"plain \"quoted\""})"), "plain \"quoted\"");
  EXPECT_EQ(
      format::message_text(
          R"({"content":[{"type":"text","text":"a"},{"type":"image","data":"x"},{"type":"text","text":"b\u00e9"}]})"),
      "a b\xC3\xA9");
  // A text block without a string text still takes its place (JavaScript joins undefined as "").
  EXPECT_EQ(format::message_text(R"({"content":[{"type":"text"},{"type":"text","text":"z"}]})"), " z");
  EXPECT_EQ(format::message_text(R"({"content":[{"type":"image","data":"x"}]})"), "");
  EXPECT_EQ(format::message_text(R"({"content":[]})"), "");
  EXPECT_EQ(format::message_text(R"({"content":[1,"s",null,{"type":"text","text":"ok"}]})"), "ok");
  EXPECT_EQ(format::message_text(R"({"role":"user"})"), "");
  EXPECT_EQ(format::message_text(R"({"content":42})"), "");
  EXPECT_EQ(format::message_text("not json"), "");
}

TEST_F(SessionInfoTest, PrefixSummaryReadsTheHeaderAndTheFirstUserPrompt) {
  std::string file =
      header(R"(,"title":"My \"title\"","parentSession":"/old/file.jsonl")") + "\n" +
      msg("u0", R"({"role":"user","content":[{"type":"image","data":"x"}]})") + "\n" + kAssistant + "\n" +
      msg("u1", R"({"role":"user","content":[{"type":"text","text":"first"},{"type":"text","text":"prompt"}]})") +
      "\n" + msg("u2", R"({"role":"user","content":"second"})") + "\n";
  auto s = summary(file);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->path, kPath);
  EXPECT_EQ(s->id, "s1");
  EXPECT_EQ(s->cwd, "/w");
  EXPECT_EQ(s->timestamp, "2026-02-16T10:20:30.000Z");
  EXPECT_EQ(s->title, std::optional<std::string>("My \"title\""));
  EXPECT_EQ(s->parent_session, std::optional<std::string>("/old/file.jsonl"));
  EXPECT_EQ(s->version, 3);
  // The image-only prompt has no text; the assistant's text is not a prompt.
  EXPECT_EQ(s->first_message, std::optional<std::string>("first prompt"));
  EXPECT_EQ(s->size, file.size());
  auto st = fs_->stat(kPath);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(s->modified_ms, st->mtime_ms);
  EXPECT_FALSE(s->full);
  EXPECT_EQ(s->message_count, 0u);
  EXPECT_EQ(s->entry_count, 0u);
}

TEST_F(SessionInfoTest, SessionInfoNameIsATitleOnlyInTheFullSummary) {
  std::string file =
      header() + "\n" + msg("u1", R"({"role":"user","content":"hi"})") + "\n" +
      R"({"type":"session_info","id":"i1","parentId":"u1","timestamp":"2026-02-16T10:20:32.000Z","name":"old"})"
      "\n" +
      R"({"type":"session_info","id":"i2","parentId":"i1","timestamp":"2026-02-16T10:20:33.000Z","name":"  Named \u00e9 "})"
      "\n";
  auto prefix = summary(file);
  ASSERT_TRUE(prefix.ok());
  EXPECT_EQ(prefix->title, std::nullopt) << "the prefix form reads the header's title only";
  auto full = summary(file, true);
  ASSERT_TRUE(full.ok()) << full.status().message();
  EXPECT_EQ(full->title, std::optional<std::string>("Named \xC3\xA9")) << "pi: the last name, trimmed";
  // A header title wins over any session_info name.
  auto titled = summary(header(R"(,"title":"Header")") + "\n" + file.substr(file.find('\n') + 1), true);
  ASSERT_TRUE(titled.ok());
  EXPECT_EQ(titled->title, std::optional<std::string>("Header"));
}

TEST_F(SessionInfoTest, FullSummaryCountsMessagesEntriesAndDiagnostics) {
  std::string file =
      header() + "\n" + msg("u1", R"({"role":"user","content":"hi"})") + "\n" + "{broken\n" +
      R"({"type":"thinking_level_change","id":"t1","parentId":"u1","timestamp":"2026-02-16T10:20:32.000Z","thinkingLevel":"high"})"
      "\n" +
      msg("a1", R"({"role":"assistant","content":[],"provider":"p","model":"m"})") + "\n" +
      msg("x1", R"({"role":"toolResult","content":[]})") + "\n";
  auto s = summary(file, true);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(s->full);
  EXPECT_EQ(s->message_count, 3u) << "messages of any role (pi)";
  EXPECT_EQ(s->entry_count, 4u);
  EXPECT_EQ(s->diagnostics, 1u) << "the broken line";
  EXPECT_EQ(s->first_message, std::optional<std::string>("hi"));
  EXPECT_EQ(s->id, "s1");
  EXPECT_EQ(s->size, file.size());
}

// firstMessage is pi's (the first user text); firstPrompt skips what an agent injected and is cut
// short, the same in the prefix form and the full one.
TEST_F(SessionInfoTest, TheFirstPromptSkipsInjectedText) {
  std::string typed = "Make the parser " + std::string(300, 'x');
  std::string file = header() + "\n" + msg("u0", R"({"role":"user","content":"<command-name>/model</command-name>"})") +
                     "\n" + msg("u1", R"({"role":"user","content":"  <system-reminder>x</system-reminder>"})") + "\n" +
                     msg("u2", R"({"role":"user","content":")" + typed + R"("})") + "\n";
  for (bool full : {false, true}) {
    auto s = summary(file, full);
    ASSERT_TRUE(s.ok()) << s.status().message();
    EXPECT_EQ(s->first_message, std::optional<std::string>("<command-name>/model</command-name>"));
    EXPECT_EQ(s->first_prompt, std::optional<std::string>(typed.substr(0, 200) + "\xE2\x80\xA6")) << full;
  }
  auto only_injected = summary(header() + "\n" + msg("u0", R"({"role":"user","content":"<x>"})") + "\n");
  ASSERT_TRUE(only_injected.ok());
  EXPECT_EQ(only_injected->first_message, std::optional<std::string>("<x>"));
  EXPECT_EQ(only_injected->first_prompt, std::nullopt);
}

// The prefix form only sees prompts inside the prefix; the full form sees them all.
TEST_F(SessionInfoTest, APromptBeyondThePrefixIsFoundOnlyByTheFullSummary) {
  std::string big = msg("a0", R"({"role":"assistant","content":[{"type":"text","text":")" + std::string(5000, 'x') +
                                  R"("}],"provider":"p","model":"m"})");
  std::string file = header() + "\n" + big + "\n" + msg("u1", R"({"role":"user","content":"late"})") + "\n";
  auto prefix = summary(file);
  ASSERT_TRUE(prefix.ok());
  EXPECT_EQ(prefix->first_message, std::nullopt);
  auto full = summary(file, true);
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->first_message, std::optional<std::string>("late"));
}

TEST_F(SessionInfoTest, HeadersLongerThanThePrefixAreStillRead) {
  for (size_t len : {size_t{4090}, size_t{4096}, size_t{5000}, size_t{70000}}) {
    std::string title(len, 't');
    std::string file =
        header(R"(,"title":")" + title + "\"") + "\n" + msg("u1", R"({"role":"user","content":"hi"})") + "\n";
    auto s = summary(file);
    ASSERT_TRUE(s.ok()) << len << ": " << s.status().message();
    EXPECT_EQ(s->title, std::optional<std::string>(title)) << len;
    EXPECT_EQ(s->first_message, std::optional<std::string>("hi")) << len;
  }
  // A header without a final newline (a file that is only a header) is whole too.
  auto s = summary(header(R"(,"title":")" + std::string(9000, 'u') + "\""));
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->title->size(), 9000u);
}

// The loader accepts blank lines before the header; so must discovery, however long the header.
TEST_F(SessionInfoTest, ALongHeaderAfterABlankLineIsStillRead) {
  std::string file = "\n" + header(R"(,"title":")" + std::string(5000, 't') + "\"") + "\n" +
                     msg("u1", R"({"role":"user","content":"hi"})") + "\n";
  ASSERT_TRUE(test::load(file)->status.ok()) << "a valid session for the loader";
  auto s = summary(file);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->id, "s1");
  EXPECT_EQ(s->first_message, std::optional<std::string>("hi"));
}

TEST_F(SessionInfoTest, ALongHeaderAfterGarbageLongerThanThePrefixIsStillRead) {
  // Garbage before the header is skipped, as the loader skips it, even when it or the header
  // runs past the first 4096 bytes.
  std::string file = "not json " + std::string(6000, 'g') + "\n" +
                     header(R"(,"title":")" + std::string(5000, 't') + "\"") + "\n" +
                     msg("u1", R"({"role":"user","content":"hi"})") + "\n";
  ASSERT_TRUE(test::load(file)->status.ok()) << "a valid session for the loader";
  auto s = summary(file);
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->id, "s1");
  EXPECT_EQ(s->title->size(), 5000u);
  EXPECT_EQ(s->first_message, std::optional<std::string>("hi"));
}

TEST_F(SessionInfoTest, ByteOrderMarkAndGarbageBeforeTheHeader) {
  auto bom = summary("\xEF\xBB\xBF" + header() + "\n" + msg("u1", R"({"role":"user","content":"hi"})") + "\n");
  ASSERT_TRUE(bom.ok()) << bom.status().message();
  EXPECT_EQ(bom->id, "s1");
  EXPECT_EQ(bom->first_message, std::optional<std::string>("hi"));
  auto garbage = summary("\n  \nnot json {\n" + header() + "\n");
  ASSERT_TRUE(garbage.ok()) << garbage.status().message();
  EXPECT_EQ(garbage->id, "s1");
  EXPECT_EQ(garbage->first_message, std::nullopt);
}

TEST_F(SessionInfoTest, FilesThatAreNotSessions) {
  EXPECT_EQ(summary("").status().code(), Code::kNoHeader);
  EXPECT_EQ(summary("\n\n").status().code(), Code::kNoHeader);
  EXPECT_EQ(summary("garbage only\n").status().code(), Code::kNoHeader);
  // The first JSON value decides: an entry before the header means no header.
  EXPECT_EQ(summary(msg("u1", R"({"role":"user","content":"hi"})") + "\n" + header() + "\n").status().code(),
            Code::kNoHeader);
  EXPECT_EQ(summary(R"({"type":"session","version":3})"
                    "\n")
                .status()
                .code(),
            Code::kNoHeader)
      << "no string id";
  EXPECT_EQ(summary("[1,2]\n").status().code(), Code::kNoHeader);
  // A header over the line limit is not readable as one.
  EXPECT_EQ(summary(header(R"(,"title":")" + std::string(5000, 't') + "\"") + "\n", false, 4096).status().code(),
            Code::kNoHeader);
  EXPECT_EQ(read_summary(fs_, "/s/missing.jsonl", false, 1 << 20).status().code(), Code::kNotFound);
}

TEST(SummaryJson, FieldsInOrderWithNullsAndEscapes) {
  SessionSummary s;
  s.path = "/r/\"q\".jsonl";
  s.id = "s1";
  s.cwd = "/w\\x";
  s.timestamp = "2026-02-16T10:20:30.000Z";
  s.modified_ms = 1700000000123;
  s.size = 42;
  s.version = 2;
  EXPECT_EQ(summary_json(s),
            R"({"path":"/r/\"q\".jsonl","id":"s1","cwd":"/w\\x","timestamp":"2026-02-16T10:20:30.000Z",)"
            R"("modified":1700000000123,"size":42,"title":null,"parentSession":null,"version":2,)"
            R"("needsMigration":true,"corruptCopies":0,"archived":false,"firstMessage":null,"firstPrompt":null})");
  s.title = "T\n";
  s.parent_session = "p";
  s.version = 3;
  s.first_message = "hi\x01";
  s.first_prompt = "hi";
  s.full = true;
  s.message_count = 2;
  s.entry_count = 5;
  s.diagnostics = 1;
  s.corrupt_copies = 2;
  EXPECT_EQ(summary_json(s),
            R"({"path":"/r/\"q\".jsonl","id":"s1","cwd":"/w\\x","timestamp":"2026-02-16T10:20:30.000Z",)"
            R"("modified":1700000000123,"size":42,"title":"T\n","parentSession":"p","version":3,)"
            R"("needsMigration":false,"corruptCopies":2,"archived":false,"firstMessage":"hi\u0001","firstPrompt":"hi",)"
            R"("messageCount":2,"entryCount":5,"diagnostics":1})");
}

TEST(SummaryJson, ReadsBackToTheSameText) {
  SessionSummary s;
  s.path = "/r/a.jsonl";
  s.id = "s1";
  s.cwd = "/w";
  s.timestamp = "2026-02-16T10:20:30.000Z";
  s.modified_ms = 1700000000123;
  s.size = 42;
  s.title = "T\n\"x\"";
  s.first_message = "hi\x01";
  s.archived = true;
  s.corrupt_copies = 3;
  for (bool full : {false, true}) {
    s.full = full;
    s.message_count = full ? 2 : 0;
    s.entry_count = full ? 5 : 0;
    auto back = parse_summary_json(summary_json(s));
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(summary_json(*back), summary_json(s));
    EXPECT_EQ(back->full, full);
  }
  for (const char* bad : {"", "[]", "{\"path\":1}", R"({"path":"/a","id":"s","cwd":"/w","timestamp":"t"})"}) {
    EXPECT_EQ(parse_summary_json(bad).status().code(), Code::kCorrupt) << bad;
  }
}

}  // namespace
}  // namespace xs::discovery
