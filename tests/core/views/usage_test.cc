// views/usage: omp's getUsageStatistics over every assistant message in the file.
#include <gtest/gtest.h>

#include <string>

#include "views/usage.h"
#include "test_util.h"

namespace xs::views {
namespace {

const std::string kHeader = R"({"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"})";

std::string msg(const std::string& id, const char* parent, const std::string& message) {
  std::string p = parent ? "\"" + std::string(parent) + "\"" : "null";
  return R"({"type":"message","id":")" + id + R"(","parentId":)" + p + R"(,"timestamp":"t","message":)" + message + "}";
}

std::string usage_of(std::initializer_list<std::string> lines) {
  std::string f = kHeader + "\n";
  for (const std::string& l : lines) f += l + "\n";
  auto l = test::load(f);
  if (!l->status.ok()) return "<" + l->status.message() + ">";
  return usage_json(l->data);
}

TEST(Usage, EmptySession) {
  EXPECT_EQ(usage_of({}),
            R"({"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"premiumRequests":0,"cost":0,"assistantMessages":0})");
}

TEST(Usage, SumsEveryAssistantOnEveryBranch) {
  std::string a1 =
      R"({"role":"assistant","usage":{"input":100,"output":20,"cacheRead":5,"cacheWrite":7,"premiumRequests":1,"cost":{"input":0.05,"total":0.1}}})";
  std::string a2 =
      R"({"role":"assistant","usage":{"input":50,"output":30,"cacheRead":0,"cacheWrite":3,"cost":{"total":0.2}}})";
  std::string user = R"({"role":"user","usage":{"input":1000000}})";
  std::string bare = R"({"role":"assistant","content":[]})";
  // a2 is on a branch off the user message: it still counts (omp adds while indexing the file).
  EXPECT_EQ(usage_of({msg("u", nullptr, user), msg("a1", "u", a1), msg("a2", "u", a2), msg("b", "a1", bare)}),
            R"({"input":150,"output":50,"cacheRead":5,"cacheWrite":10,"premiumRequests":1,"cost":0.30000000000000004,"assistantMessages":3})");
}

TEST(Usage, IgnoresMistypedFieldsAndNonMessages) {
  std::string weird =
      R"({"role":"assistant","usage":{"input":"12","output":null,"cacheRead":[1],"cost":5,"premiumRequests":2.5}})";
  std::string not_object = R"({"role":"assistant","usage":"lots"})";
  std::string fake =
      R"({"type":"custom","id":"c","parentId":null,"timestamp":"t","message":{"role":"assistant","usage":{"input":9}}})";
  EXPECT_EQ(usage_of({msg("a", nullptr, weird), msg("b", "a", not_object), fake}),
            R"({"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"premiumRequests":2.5,"cost":0,"assistantMessages":2})");
}

TEST(Usage, NumbersAreWrittenTheWayJavaScriptDoes) {
  std::string big = R"({"role":"assistant","usage":{"input":1e21,"output":1.5e-7,"cost":{"total":0.000001}}})";
  std::string more = R"({"role":"assistant","usage":{"input":1e21,"cost":{"total":1e-7}}})";
  EXPECT_EQ(usage_of({msg("a", nullptr, big), msg("b", "a", more)}),
            R"({"input":2e+21,"output":1.5e-7,"cacheRead":0,"cacheWrite":0,"premiumRequests":0,"cost":0.0000011,"assistantMessages":2})");
}

TEST(Usage, DuplicateUsageKeysLastWins) {
  std::string dup = R"({"role":"assistant","usage":{"input":1,"input":2},"usage":{"input":40}})";
  EXPECT_EQ(usage_of({msg("a", nullptr, dup)}),
            R"({"input":40,"output":0,"cacheRead":0,"cacheWrite":0,"premiumRequests":0,"cost":0,"assistantMessages":1})");
}

}  // namespace
}  // namespace xs::views
