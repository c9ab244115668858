// Session: the pi dialect (docs/dialects.md). Lines written exactly as pi writes them, what pi has
// no form for refused with kDialect, the dialect detected from a file and continued, and the gaps
// found beside it (a fresh header's cwd, copies that continue the test clock).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "blobs/blob_store.h"
#include "session/forks.h"
#include "session_fixture.h"
#include "storage/path.h"

namespace xs::session {
namespace {

using format::Dialect;
using namespace fixture;

SessionOptions pi_options(bool defer = false) {
  SessionOptions o = options(defer);
  o.dialect = Dialect::kPi;
  return o;
}

TEST_P(SessionTest, PiTypedAppendsWritePiKeysInPiOrder) {
  auto s = create(pi_options());
  ASSERT_TRUE(s);
  EXPECT_EQ(s->dialect(), Dialect::kPi);
  std::string id[8];
  ASSERT_OK(s->append_message(kUser, &id[0]));
  ASSERT_OK(s->append_model_change("openrouter/anthropic/claude", std::nullopt, &id[1]));
  ASSERT_OK(s->append_compaction({"sum", std::nullopt, id[0], 12, R"({"a": 1})", true, std::nullopt}, &id[2]));
  ASSERT_OK(s->branch_with_summary(id[0], "went back", std::nullopt, false, &id[3]));
  ASSERT_OK(s->append_custom_message({"note", R"("text")", false, std::nullopt, std::nullopt}, &id[4]));
  ASSERT_OK(s->append_session_info(" \t My session\n", &id[5]));
  ASSERT_OK(s->set_title(std::nullopt));  // pi: an empty name, which clears the title
  EXPECT_EQ(content(), header_line() + "\n" +                                                                  //
                           line("message", ids_[0], "", 1, R"("message":)" + kUser) + "\n" +                   //
                           line("model_change", ids_[1], ids_[0], 2,
                                R"("provider":"openrouter","modelId":"anthropic/claude")") + "\n" +
                           line("compaction", ids_[2], ids_[1], 3,
                                R"("summary":"sum","firstKeptEntryId":")" + ids_[0] +
                                    R"(","tokensBefore":12,"details":{"a":1},"fromHook":true)") + "\n" +
                           line("branch_summary", ids_[3], ids_[0], 4,
                                R"("fromId":")" + ids_[0] + R"(","summary":"went back","fromHook":false)") + "\n" +
                           line("custom_message", ids_[4], ids_[3], 5,
                                R"("customType":"note","content":"text","display":false)") + "\n" +
                           line("session_info", ids_[5], ids_[4], 6, R"("name":"My session")") + "\n" +
                           line("session_info", ids_[6], ids_[5], 7, R"("name":"")") + "\n");
  EXPECT_FALSE(s->title().has_value());
}

TEST_P(SessionTest, PiRefusesWhatPiHasNoFormForAndChangesNothing) {
  auto s = create(pi_options());
  ASSERT_TRUE(s);
  std::string before = content(), id;
  EXPECT_EQ(s->append_ttsr_injection(R"(["r"])", &id).code(), Code::kDialect);
  EXPECT_EQ(s->append_session_init({"p", "t", "[]", std::nullopt}, &id).code(), Code::kDialect);
  EXPECT_EQ(s->append_mode_change("plan", std::nullopt, &id).code(), Code::kDialect);
  EXPECT_EQ(s->append_model_change("a/b", "smol", &id).code(), Code::kDialect);
  EXPECT_EQ(s->append_model_change("gpt", std::nullopt, &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_model_change("a/", std::nullopt, &id).code(), Code::kInvalid);
  EXPECT_EQ(s->append_compaction({"s", "short", "x", 1, std::nullopt, std::nullopt, std::nullopt}, &id).code(),
            Code::kDialect);
  EXPECT_EQ(s->append_compaction({"s", std::nullopt, "x", 1, std::nullopt, std::nullopt, "{}"}, &id).code(),
            Code::kDialect);
  EXPECT_EQ(s->append_custom_message({"t", R"("c")", true, std::nullopt, "user"}, &id).code(), Code::kDialect);
  for (const char* entry : {R"({"type":"mcp_tool_selection","selectedToolNames":[]})",
                            R"({"type":"model_change","model":"a/b"})",
                            R"({"type":"custom_message","customType":"t","content":"c","attribution":"agent"})",
                            R"({"type":"branch_summary","fromId":"root","summary":"s","fromExtension":true})"}) {
    Status st = s->append_entry(entry, &id);
    EXPECT_EQ(st.code(), Code::kDialect) << entry;
    EXPECT_NE(st.message().find("pi dialect"), std::string::npos) << st.message();
  }
  EXPECT_EQ(content(), before);
  EXPECT_EQ(s->entry_count(), 0u);
}

TEST_P(SessionTest, OmpRefusesSessionInfoAndKeepsItsTitleInTheHeader) {
  auto s = create(options(false));
  ASSERT_TRUE(s);
  std::string id;
  EXPECT_EQ(s->append_session_info("name", &id).code(), Code::kDialect);
  ASSERT_OK(s->set_title("T"));
  EXPECT_EQ(content(), header_line(R"(,"title":"T")") + "\n");
}

TEST_P(SessionTest, PiTitleOfANewSessionIsItsFirstEntry) {
  SessionOptions o = pi_options();
  o.title = "  Named ";
  auto s = create(std::move(o));
  ASSERT_TRUE(s);
  EXPECT_EQ(content(), header_line() + "\n" + line("session_info", ids_[0], "", 1, R"("name":"Named")") + "\n");
  EXPECT_EQ(s->title(), "Named");
}

TEST_P(SessionTest, PiKeepsImagesAndHugeStringsInline) {
  SessionOptions o = pi_options();
  o.blobs = std::make_shared<blobs::BlobStore>(fs_, root_);
  auto s = create(std::move(o));
  ASSERT_TRUE(s);
  std::string image(2048, 'A'), huge(600000, 'x');
  std::string msg = R"({"role":"user","content":[{"type":"image","data":")" + image +
                    R"(","mimeType":"image/png"},{"type":"text","text":")" + huge + R"("}]})";
  ASSERT_OK(s->append_message(msg, nullptr));
  EXPECT_EQ(content(), header_line() + "\n" + line("message", ids_[0], "", 1, R"("message":)" + msg) + "\n");
  EXPECT_FALSE(exists(root_ + "/blobs"));
}

TEST_P(SessionTest, PiSessionIdsAreUuidV7WithTheHeaderTime) {
  SessionOptions o = pi_options();
  o.session_id.reset();
  auto s = create(std::move(o));
  ASSERT_TRUE(s);
  const std::string& id = s->header_info().id;
  ASSERT_TRUE(format::is_uuid_shaped(id)) << id;
  char hex_ms[16];
  std::snprintf(hex_ms, sizeof hex_ms, "%012llx", static_cast<unsigned long long>(kT0));
  EXPECT_EQ(id.substr(0, 8) + id.substr(9, 4), hex_ms);
  EXPECT_EQ(id[14], '7');                                     // version 7
  EXPECT_NE(std::string("89ab").find(id[19]), std::string::npos);  // variant 0b10
}

TEST_P(SessionTest, PiContextCarriesPisModel) {
  auto s = create(pi_options());
  ASSERT_TRUE(s);
  EXPECT_EQ(val(s->context(std::nullopt)),
            R"({"leafId":null,"messages":[],"thinkingLevel":"off","model":null,"models":{},)"
            R"("injectedTtsrRules":[],"mode":"none"})");
  std::string u;
  ASSERT_OK(s->append_message(kUser, &u));
  ASSERT_OK(s->append_model_change("openai/gpt-5", std::nullopt, nullptr));
  EXPECT_EQ(val(s->context(std::nullopt)),
            R"({"leafId":")" + ids_[1] + R"(","messages":[)" + kUser +
                R"(],"thinkingLevel":"off","model":{"provider":"openai","modelId":"gpt-5"},)"
                R"("models":{"default":"openai/gpt-5"},"injectedTtsrRules":[],"mode":"none"})");
  ASSERT_OK(s->append_message(kAssistant, nullptr));
  EXPECT_NE(val(s->context(std::nullopt)).find(R"("model":{"provider":"anthropic","modelId":"claude"})"),
            std::string::npos);
}

TEST_P(SessionTest, OpenDetectsTheDialectAndKeepsWritingInIt) {
  std::string pi_change = R"({"type":"model_change","id":"m1","parentId":null,"timestamp":"t","provider":"a","modelId":"b"})";
  put(header_line() + "\n" + pi_change + "\n");
  {
    auto r = open(options());
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ((*r)->dialect(), Dialect::kPi);
    ASSERT_OK((*r)->append_model_change("c/d", std::nullopt, nullptr));
    EXPECT_EQ(content(), header_line() + "\n" + pi_change + "\n" +
                             line("model_change", ids_[0], "m1", 0, R"("provider":"c","modelId":"d")") + "\n");
  }
  // A forced dialect wins over the file's; a read-only open only reports.
  SessionOptions omp = options();
  omp.dialect = Dialect::kOmp;
  auto forced = open(omp);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ((*forced)->dialect(), Dialect::kOmp);
  forced->reset();
  // Nothing marked, a 16-hex header id absent: the default decides.
  put(header_line() + "\n");
  SessionOptions by_default = read_only();
  by_default.default_dialect = Dialect::kPi;
  auto plain = open(by_default);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->dialect(), Dialect::kPi);
  EXPECT_NE((*plain)->info_json().find(R"("version":3,"dialect":"pi",)"), std::string::npos);
}

TEST_P(SessionTest, AFreshHeaderWithoutACwdTakesTheProcesss) {
  put("");
  SessionOptions o = options();
  o.cwd.clear();
  auto r = open(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string cwd = storage::current_directory();
  ASSERT_FALSE(cwd.empty());
  EXPECT_EQ((*r)->header_info().cwd, cwd);
  EXPECT_NE(content().find(",\"cwd\":\"" + cwd + "\"}"), std::string::npos) << content();
}

TEST_P(SessionTest, ABranchedCopyContinuesTheClockAndTheIdSequence) {
  for (Dialect d : {Dialect::kOmp, Dialect::kPi}) {
    SessionOptions o = options(false);
    o.dialect = d;
    auto s = create(o);
    ASSERT_TRUE(s);
    std::string u;
    ASSERT_OK(s->append_message(kAssistant, &u));
    SessionOptions copy = options(false);
    copy.session_id.reset();
    auto b = create_branched(*s, u, copy);
    ASSERT_TRUE(b.ok()) << b.status().message();
    std::string next;
    ASSERT_OK((*b)->append_message(kUser, &next));
    const std::string& header_time = (*b)->header_info().timestamp;
    EXPECT_EQ(header_time, iso(0));  // the copy's own clock starts again at kT0 ...
    EXPECT_EQ((*b)->data().entries.back().timestamp, iso(1));  // ... and goes on from there
    EXPECT_NE(next, (*b)->header_info().id.substr(0, 8));
    EXPECT_EQ((*b)->dialect(), d);
    // pi names the source by path, as pi's createBranchedSession does; so does omp for this copy.
    EXPECT_EQ((*b)->header_info().parent_session, s->path());
    ASSERT_OK(s->close());
    ASSERT_OK((*b)->close());
    for (const std::string& n : names()) ASSERT_OK(base_->unlink(dir_ + "/" + n));
  }
}

}  // namespace
}  // namespace xs::session
