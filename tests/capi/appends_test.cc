// The append family through the C API: the exact line each call writes (each entry type's key
// order, docs/format.md#entries), ids through id_out, caller JSON stored minified token for
// token, generated strings escaped the way JSON.stringify does.
#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Line;
using xstest::Ts;

// A session written at once, with a fixed clock: header at Ts(0), the k-th entry at Ts(k).
class Appends : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    s_ = Create(XS_SESSION_NO_DEFER);
    ASSERT_NE(s_, nullptr);
    path_ = xstest::PathOf(s_);
    ASSERT_FALSE(path_.empty());
  }

  // Checks a successful append: a fresh generated id, the stored entry, the file's last line.
  // `make` builds the expected line from the new id, the previous leaf and the timestamp.
  template <class Make>
  std::string Check(xs_status st, const char* id_out, Make make) {
    EXPECT_EQ(st, XS_OK) << xs_session_errmsg(s_);
    if (st != XS_OK) return std::string();
    std::string id(id_out);
    EXPECT_TRUE(xstest::IsGeneratedEntryId(id)) << id;
    ++tick_;
    std::string want = make(id, leaf_, Ts(tick_));
    EXPECT_EQ(xstest::Entry(s_, id), want);
    auto lines = xstest::SplitLines(xstest::ReadFile(path_));
    EXPECT_EQ(lines.size(), static_cast<size_t>(tick_) + 1);
    if (!lines.empty()) {
      EXPECT_EQ(lines.back(), want);
    }
    EXPECT_EQ(xstest::Leaf(s_), id) << "every append moves the leaf to the new entry";
    leaf_ = id;
    return id;
  }
  std::string Simple(xs_status st, const char* id_out, const std::string& type, const std::string& payload) {
    return Check(st, id_out, [&](const std::string& id, const std::string& parent, const std::string& ts) {
      return Line(type, id, parent, ts, payload);
    });
  }

  xs_session* s_ = nullptr;
  std::string path_;
  std::string leaf_;
  int tick_ = 0;
  char id_[XS_ID_BUFSIZE] = {0};
};

TEST_F(Appends, MessageIsStoredMinifiedTokenForToken) {
  std::string in =
      " { \"role\" : \"user\" ,\n\t\"content\" : \"a  b\\n\\u00e9\\/\" , \"n\" : 1.50 , \"e\" : 1E+2 ,"
      " \"neg\" : -0 , \"big\" : 123456789012345678901234567890 , \"arr\" : [ true , false , null ] } \n";
  std::string stored =
      R"({"role":"user","content":"a  b\n\u00e9\/","n":1.50,"e":1E+2,"neg":-0,"big":123456789012345678901234567890,"arr":[true,false,null]})";
  Check(xs_append_message(s_, in.data(), in.size(), id_), id_,
        [&](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::MsgLine(id, parent, ts, stored);
        });
  EXPECT_NE(xstest::Context(s_).find("\"messages\":[" + stored + "]"), std::string::npos);
}

TEST_F(Appends, MessageKeepsRawUnicodeAndLineSeparators) {
  // U+2028 and U+2029 are data, only '\n' separates lines; non-ASCII stays raw UTF-8.
  std::string in = "{\"role\":\"user\",\"content\":\"caf\xC3\xA9 \xE2\x80\xA8 \xE2\x80\xA9 \xF0\x9F\x98\x80\"}";
  Check(xs_append_message(s_, in.data(), in.size(), id_), id_,
        [&](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::MsgLine(id, parent, ts, in);
        });
}

TEST_F(Appends, MessagesChainThroughParentIds) {
  std::string u = Check(xs_append_message(s_, xstest::kUser1.data(), xstest::kUser1.size(), id_), id_,
                        [](const std::string& id, const std::string& parent, const std::string& ts) {
                          return xstest::MsgLine(id, parent, ts, xstest::kUser1);
                        });
  EXPECT_TRUE(leaf_ == u);
  Check(xs_append_message(s_, xstest::kAssistant1.data(), xstest::kAssistant1.size(), id_), id_,
        [&](const std::string& id, const std::string& parent, const std::string& ts) {
          EXPECT_EQ(parent, u);
          return xstest::MsgLine(id, parent, ts, xstest::kAssistant1);
        });
}

TEST_F(Appends, IdOutMayBeNull) {
  XS_ASSERT_OK(s_, xs_append_message(s_, xstest::kUser1.data(), xstest::kUser1.size(), nullptr));
  std::string leaf = xstest::Leaf(s_);
  EXPECT_TRUE(xstest::IsGeneratedEntryId(leaf)) << leaf;
  EXPECT_EQ(xstest::Entry(s_, leaf), xstest::MsgLine(leaf, "", Ts(1), xstest::kUser1));
}

TEST_F(Appends, IdOutIsNulTerminatedWithinTheBuffer) {
  char buf[XS_ID_BUFSIZE];
  std::memset(buf, 'Z', sizeof buf);
  XS_ASSERT_OK(s_, xs_append_message(s_, xstest::kUser1.data(), xstest::kUser1.size(), buf));
  EXPECT_EQ(std::strlen(buf), 8u);
  EXPECT_TRUE(xstest::IsGeneratedEntryId(buf));
  EXPECT_EQ(buf[9], 'Z') << "nothing written after the terminator";
  // A caller-chosen id of the maximum length fills the buffer exactly.
  std::string id64(64, 'k');
  std::string e = "{\"type\":\"note\",\"id\":\"" + id64 + "\"}";
  std::memset(buf, 'Z', sizeof buf);
  XS_ASSERT_OK(s_, xs_append(s_, e.data(), e.size(), buf));
  EXPECT_EQ(std::string(buf), id64);
}

TEST_F(Appends, ThinkingLevel) {
  Simple(xs_append_thinking_level(s_, "high", id_), id_, "thinking_level_change", "\"thinkingLevel\":\"high\"");
  Simple(xs_append_thinking_level(s_, nullptr, id_), id_, "thinking_level_change", "\"thinkingLevel\":null");
}

TEST_F(Appends, ModelChange) {
  Simple(xs_append_model_change(s_, "anthropic/claude-x", "smol", id_), id_, "model_change",
         "\"model\":\"anthropic/claude-x\",\"role\":\"smol\"");
  Simple(xs_append_model_change(s_, "openai/gpt-5", nullptr, id_), id_, "model_change",
         "\"model\":\"openai/gpt-5\"");
}

TEST_F(Appends, CompactionAllFields) {
  std::string first = Msg(s_, xstest::kUser1);
  ++tick_;
  leaf_ = first;
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  std::string summary = "Summary of the work";
  std::string short_summary = "short";
  std::string details = R"({ "readFiles" : [ "a.c" ] })";
  std::string preserve = R"({"k": 1})";
  c.summary = summary.data();
  c.summary_len = summary.size();
  c.short_summary = short_summary.data();
  c.short_summary_len = short_summary.size();
  c.first_kept_entry_id = first.c_str();
  c.tokens_before = 123456;
  c.details_json = details.data();
  c.details_len = details.size();
  c.from_extension = 1;
  c.preserve_data_json = preserve.data();
  c.preserve_data_len = preserve.size();
  Simple(xs_append_compaction(s_, &c, id_), id_, "compaction",
         "\"summary\":\"Summary of the work\",\"shortSummary\":\"short\",\"firstKeptEntryId\":\"" + first +
             "\",\"tokensBefore\":123456,\"details\":{\"readFiles\":[\"a.c\"]},\"fromExtension\":true,"
             "\"preserveData\":{\"k\":1}");
}

TEST_F(Appends, CompactionMinimal) {
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = "S";
  c.summary_len = 1;
  c.first_kept_entry_id = "not-checked";  // "not checked against the tree"
  c.tokens_before = 0;
  Simple(xs_append_compaction(s_, &c, id_), id_, "compaction",
         "\"summary\":\"S\",\"firstKeptEntryId\":\"not-checked\",\"tokensBefore\":0");
  c.from_extension = 0;
  c.tokens_before = -5;
  Simple(xs_append_compaction(s_, &c, id_), id_, "compaction",
         "\"summary\":\"S\",\"firstKeptEntryId\":\"not-checked\",\"tokensBefore\":-5,\"fromExtension\":false");
}

TEST_F(Appends, CustomPutsEnvelopeAfterPayload) {
  std::string data = R"({ "a" : 1 })";
  Check(xs_append_custom(s_, "ext-state", data.data(), data.size(), id_), id_,
        [](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::TailLine("custom", "\"customType\":\"ext-state\",\"data\":{\"a\":1}", id, parent, ts);
        });
  Check(xs_append_custom(s_, "ext-state", nullptr, 0, id_), id_,
        [](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::TailLine("custom", "\"customType\":\"ext-state\"", id, parent, ts);
        });
}

TEST_F(Appends, CustomMessage) {
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  std::string content = R"("hello")";
  std::string details = R"({"x": true})";
  m.custom_type = "note";
  m.content_json = content.data();
  m.content_len = content.size();
  m.display = 0;
  m.details_json = details.data();
  m.details_len = details.size();
  Check(xs_append_custom_message(s_, &m, id_), id_,
        [](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::TailLine("custom_message",
                                  "\"customType\":\"note\",\"content\":\"hello\",\"display\":false,"
                                  "\"details\":{\"x\":true},\"attribution\":\"agent\"",
                                  id, parent, ts);
        });
  std::string blocks = R"([ {"type":"text","text":"t"} ])";
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "note";
  m.content_json = blocks.data();
  m.content_len = blocks.size();
  m.attribution = "user";
  Check(xs_append_custom_message(s_, &m, id_), id_,
        [](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::TailLine("custom_message",
                                  "\"customType\":\"note\",\"content\":[{\"type\":\"text\",\"text\":\"t\"}],"
                                  "\"display\":true,\"attribution\":\"user\"",
                                  id, parent, ts);
        });
}

TEST_F(Appends, CustomMessageContentMustBeStringOrArray) {
  xs_custom_message m;
  ASSERT_EQ(xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION), XS_OK);
  m.custom_type = "note";
  m.content_json = "{}";
  m.content_len = 2;
  XS_EXPECT_S(XS_EINVAL, s_, xs_append_custom_message(s_, &m, id_));
  m.content_json = "42";
  XS_EXPECT_S(XS_EINVAL, s_, xs_append_custom_message(s_, &m, id_));
  EXPECT_EQ(xstest::Entries(s_), "[]");
}

TEST_F(Appends, LabelSetAndClear) {
  std::string target = Msg(s_, xstest::kUser1);
  ++tick_;
  leaf_ = target;
  Simple(xs_append_label(s_, target.c_str(), "checkpoint", id_), id_, "label",
         "\"targetId\":\"" + target + "\",\"label\":\"checkpoint\"");
  EXPECT_EQ(xstest::Labels(s_), "[{\"targetId\":\"" + target + "\",\"label\":\"checkpoint\",\"timestamp\":\"" +
                                    Ts(2) + "\"}]");
  Simple(xs_append_label(s_, target.c_str(), nullptr, id_), id_, "label", "\"targetId\":\"" + target + "\"");
  EXPECT_EQ(xstest::Labels(s_), "[]");
}

TEST_F(Appends, TtsrInjection) {
  std::string rules = R"([ "rule-a" , "rule-b" ])";
  Simple(xs_append_ttsr_injection(s_, rules.data(), rules.size(), id_), id_, "ttsr_injection",
         "\"injectedRules\":[\"rule-a\",\"rule-b\"]");
  std::string not_strings = R"(["a", 1])";
  XS_EXPECT_S(XS_EINVAL, s_, xs_append_ttsr_injection(s_, not_strings.data(), not_strings.size(), id_));
  std::string not_array = R"({"a":1})";
  XS_EXPECT_S(XS_EINVAL, s_, xs_append_ttsr_injection(s_, not_array.data(), not_array.size(), id_));
}

TEST_F(Appends, SessionInit) {
  xs_session_init_entry si;
  ASSERT_EQ(xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION), XS_OK);
  std::string prompt = "You are\nhelpful";
  std::string task = "do it";
  std::string tools = R"(["read", "bash"])";
  std::string schema = R"({"type": "object"})";
  si.system_prompt = prompt.data();
  si.system_prompt_len = prompt.size();
  si.task = task.data();
  si.task_len = task.size();
  si.tools_json = tools.data();
  si.tools_len = tools.size();
  si.output_schema_json = schema.data();
  si.output_schema_len = schema.size();
  Simple(xs_append_session_init(s_, &si, id_), id_, "session_init",
         "\"systemPrompt\":\"You are\\nhelpful\",\"task\":\"do it\",\"tools\":[\"read\",\"bash\"],"
         "\"outputSchema\":{\"type\":\"object\"}");
  si.output_schema_json = nullptr;
  si.output_schema_len = 0;
  Simple(xs_append_session_init(s_, &si, id_), id_, "session_init",
         "\"systemPrompt\":\"You are\\nhelpful\",\"task\":\"do it\",\"tools\":[\"read\",\"bash\"]");
}

TEST_F(Appends, ModeChange) {
  std::string data = R"({"step": 1})";
  Simple(xs_append_mode_change(s_, "plan", data.data(), data.size(), id_), id_, "mode_change",
         "\"mode\":\"plan\",\"data\":{\"step\":1}");
  Simple(xs_append_mode_change(s_, "none", nullptr, 0, id_), id_, "mode_change", "\"mode\":\"none\"");
}

TEST_F(Appends, BranchWithSummary) {
  std::string u1 = Msg(s_, xstest::kUser1);
  std::string a1 = Msg(s_, xstest::kAssistant1);
  tick_ += 2;
  leaf_ = a1;
  std::string details = R"({"files": []})";
  // Branches from u1: the summary's parent is u1, not the leaf a1.
  Check(xs_session_branch_with_summary(s_, u1.c_str(), "went elsewhere", 14, details.data(), details.size(), 0, id_),
        id_, [&](const std::string& id, const std::string&, const std::string& ts) {
          return Line("branch_summary", id, u1, ts,
                      "\"fromId\":\"" + u1 + "\",\"summary\":\"went elsewhere\",\"details\":{\"files\":[]},"
                      "\"fromExtension\":false");
        });
  // NULL: a new root, fromId "root".
  Check(xs_session_branch_with_summary(s_, nullptr, "fresh", 5, nullptr, 0, XS_UNSET, id_), id_,
        [&](const std::string& id, const std::string&, const std::string& ts) {
          return Line("branch_summary", id, "", ts, "\"fromId\":\"root\",\"summary\":\"fresh\"");
        });
}

TEST_F(Appends, GeneratedStringsAreEscapedLikeJsonStringify) {
  // summary is taken as raw text and written by the session.
  std::string summary = std::string("q\"b\\s/\b\f\n\r\t") + '\x01' + '\x1f' + '\x7f' +
                        "\xC3\xA9\xE2\x80\xA8";
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = summary.data();
  c.summary_len = summary.size();
  c.first_kept_entry_id = "x";
  Simple(xs_append_compaction(s_, &c, id_), id_, "compaction",
         std::string("\"summary\":\"q\\\"b\\\\s/\\b\\f\\n\\r\\t\\u0001\\u001f") + '\x7f' +
             "\xC3\xA9\xE2\x80\xA8\",\"firstKeptEntryId\":\"x\",\"tokensBefore\":0");
}

TEST_F(Appends, SummaryWithEmbeddedNulIsLengthDelimited) {
  // (pointer, length) text may hold a NUL; JSON.stringify writes it as \u0000.
  std::string summary("a\0b", 3);
  xs_compaction c;
  ASSERT_EQ(xs_compaction_init(&c, XS_COMPACTION_VERSION), XS_OK);
  c.summary = summary.data();
  c.summary_len = summary.size();
  c.first_kept_entry_id = "x";
  Simple(xs_append_compaction(s_, &c, id_), id_, "compaction",
         "\"summary\":\"a\\u0000b\",\"firstKeptEntryId\":\"x\",\"tokensBefore\":0");
}

TEST_F(Appends, GenericEntryUnknownTypeStoredAsGiven) {
  std::string e = R"({ "type" : "x-ext" , "z" : 1 , "a" : [ 1 , 2 ] , "nested" : { "k" : "v" } })";
  Simple(xs_append(s_, e.data(), e.size(), id_), id_, "x-ext", R"("z":1,"a":[1,2],"nested":{"k":"v"})");
}

TEST_F(Appends, GenericEntryKnownTypeInOmpKeyOrder) {
  // Members given in another order come out in the type's own order: type, id, parentId,
  // timestamp, payload.
  std::string e = R"({"thinkingLevel":"low","type":"thinking_level_change"})";
  Simple(xs_append(s_, e.data(), e.size(), id_), id_, "thinking_level_change", R"("thinkingLevel":"low")");
  // custom: the envelope after the payload.
  std::string c = R"({"data":[1],"customType":"c","type":"custom"})";
  Check(xs_append(s_, c.data(), c.size(), id_), id_,
        [](const std::string& id, const std::string& parent, const std::string& ts) {
          return xstest::TailLine("custom", R"("data":[1],"customType":"c")", id, parent, ts);
        });
}

TEST_F(Appends, GenericMessageEntryJoinsTheContext) {
  std::string e = "{\"type\":\"message\",\"message\":" + xstest::kUser1 + "}";
  std::string id = Simple(xs_append(s_, e.data(), e.size(), id_), id_, "message", "\"message\":" + xstest::kUser1);
  EXPECT_EQ(xstest::Context(s_), "{\"leafId\":\"" + id + "\",\"messages\":[" + xstest::kUser1 +
                                     "],\"thinkingLevel\":\"off\",\"models\":{},\"injectedTtsrRules\":[],"
                                     "\"mode\":\"none\"}");
}

TEST_F(Appends, GenericEntryWithCallerIdAndTimestamp) {
  std::string e = R"({"timestamp":"2020-01-01T00:00:00.000Z","id":"My_id-1","type":"x","b":2})";
  char id[XS_ID_BUFSIZE];
  XS_ASSERT_OK(s_, xs_append(s_, e.data(), e.size(), id));
  EXPECT_STREQ(id, "My_id-1");
  EXPECT_EQ(xstest::Entry(s_, "My_id-1"),
            R"({"type":"x","id":"My_id-1","parentId":null,"timestamp":"2020-01-01T00:00:00.000Z","b":2})");
  EXPECT_EQ(xstest::SplitLines(xstest::ReadFile(path_)).back(),
            R"({"type":"x","id":"My_id-1","parentId":null,"timestamp":"2020-01-01T00:00:00.000Z","b":2})");
}

TEST_F(Appends, GenericEntryMayNotCarryParentId) {
  std::string e = R"({"type":"x","parentId":null})";
  XS_EXPECT_S(XS_EINVAL, s_, xs_append(s_, e.data(), e.size(), id_));
  e = R"({"type":"x","parentId":"abc"})";
  XS_EXPECT_S(XS_EINVAL, s_, xs_append(s_, e.data(), e.size(), id_));
  EXPECT_EQ(xstest::Entries(s_), "[]");
}

TEST_F(Appends, GenericEntryChecksKnownTypesRequiredFields) {
  for (const char* e : {
           R"({"type":"message"})",                                  // no message
           R"({"type":"compaction","summary":"s","tokensBefore":1})",  // no firstKeptEntryId
           R"({"type":"custom_message","customType":"c"})",          // no content
           R"({"type":"label"})",                                    // no targetId
           R"({"type":"mode_change"})",                              // no mode
       }) {
    XS_EXPECT_S(XS_EINVAL, s_, xs_append(s_, e, std::strlen(e), id_));
  }
  EXPECT_EQ(xstest::Entries(s_), "[]");
}

TEST_F(Appends, GenericLabelOnUnknownTargetIsNotFound) {
  std::string e = R"({"type":"label","targetId":"nope","label":"x"})";
  XS_EXPECT_S(XS_ENOTFOUND, s_, xs_append(s_, e.data(), e.size(), id_));
  EXPECT_EQ(xstest::Entries(s_), "[]");
}

TEST_F(Appends, CallerIdBoundaries) {
  std::string ok64(64, 'a');
  std::string e = "{\"type\":\"x\",\"id\":\"" + ok64 + "\"}";
  XS_EXPECT_S(XS_OK, s_, xs_append(s_, e.data(), e.size(), id_));
  EXPECT_EQ(std::string(id_), ok64);
  std::string chars = "AZaz09_-";
  e = "{\"type\":\"x\",\"id\":\"" + chars + "\"}";
  XS_EXPECT_S(XS_OK, s_, xs_append(s_, e.data(), e.size(), id_));
  EXPECT_EQ(std::string(id_), chars);
  std::string one = "{\"type\":\"x\",\"id\":\"z\"}";
  XS_EXPECT_S(XS_OK, s_, xs_append(s_, one.data(), one.size(), id_));
  EXPECT_EQ(std::string(id_), "z");
}

}  // namespace
