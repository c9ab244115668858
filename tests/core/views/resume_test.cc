// views/resume: orphans over the file and tool calls without a result on the path to a leaf
// (docs/context.md#resume-analysis).
#include "views/resume.h"

#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace xs::views {
namespace {

const std::string kHeader = R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"})";

std::string msg(const std::string& id, const char* parent, const std::string& message) {
  std::string p = parent ? "\"" + std::string(parent) + "\"" : "null";
  return R"({"type":"message","id":")" + id + R"(","parentId":)" + p + R"(,"timestamp":"t","message":)" + message + "}";
}

std::string call(const std::string& id, const std::string& name) {
  return R"({"type":"toolCall","id":")" + id + R"(","name":")" + name + R"(","arguments":{}})";
}

std::string assistant(const std::string& blocks) { return R"({"role":"assistant","content":[)" + blocks + "]}"; }

std::string result(const std::string& call_id) {
  return R"({"role":"toolResult","toolCallId":")" + call_id + R"(","content":[]})";
}

std::string check(std::initializer_list<std::string> lines, std::optional<std::string_view> leaf = std::nullopt) {
  std::string f = kHeader + "\n";
  for (const std::string& l : lines) f += l + "\n";
  auto l = test::load(f);
  if (!l->status.ok()) return "<" + l->status.message() + ">";
  auto r = resume_json(l->data, l->tree, leaf);
  return r.ok() ? *r : "<" + r.status().message() + ">";
}

const std::string kUser = R"({"role":"user","content":"go"})";

TEST(ResumeCheck, AnEmptySessionHasNothingToReport) {
  EXPECT_EQ(check({}), R"({"leafId":null,"orphans":[],"pendingToolCalls":[]})");
}

TEST(ResumeCheck, CallsWithoutResultsOnThePathInPathOrder) {
  std::string two = call("c1", "read") + "," + R"({"type":"text","text":"and"})" + "," + call("c2", "bash");
  EXPECT_EQ(check({msg("u", nullptr, kUser), msg("a1", "u", assistant(two)), msg("t1", "a1", result("c1")),
                   msg("a2", "t1", assistant(call("c3", "edit")))}),
            R"({"leafId":"a2","orphans":[],"pendingToolCalls":[{"entryId":"a1","toolCallId":"c2","name":"bash"},)"
            R"({"entryId":"a2","toolCallId":"c3","name":"edit"}]})");
}

TEST(ResumeCheck, AResultOnAnotherBranchDoesNotAnswer) {
  // t1 answers c1 on the branch a1 -> t1; the leaf b sits on a branch from a1 without it.
  auto lines = {msg("u", nullptr, kUser), msg("a1", "u", assistant(call("c1", "read"))),
                msg("t1", "a1", result("c1")), msg("b", "a1", R"({"role":"user","content":"other"})")};
  EXPECT_EQ(check(lines), R"({"leafId":"b","orphans":[],"pendingToolCalls":[{"entryId":"a1","toolCallId":"c1","name":"read"}]})");
  EXPECT_EQ(check(lines, "t1"), R"({"leafId":"t1","orphans":[],"pendingToolCalls":[]})");
  EXPECT_EQ(check(lines, "nope"), "<no entry nope>");
}

TEST(ResumeCheck, OrphansOfTheWholeFileWithTheirLines) {
  EXPECT_EQ(check({msg("u", nullptr, kUser), msg("x", "gone", kUser), msg("a", "u", assistant("")),
                   msg("y", "lost", kUser)},
                  "a"),
            R"({"leafId":"a","orphans":[{"id":"x","parentId":"gone","line":3},{"id":"y","parentId":"lost","line":5}],)"
            R"("pendingToolCalls":[]})");
}

TEST(ResumeCheck, MalformedBlocksAreNotCalls) {
  std::string odd = R"({"type":"toolCall","name":"no id"},"text",{"type":"toolCall","id":7},)" + call("ok", "");
  EXPECT_EQ(check({msg("a", nullptr, assistant(odd)), msg("b", "a", R"({"role":"assistant","content":"plain"})")}),
            R"({"leafId":"b","orphans":[],"pendingToolCalls":[{"entryId":"a","toolCallId":"ok","name":""}]})");
}

}  // namespace
}  // namespace xs::views
