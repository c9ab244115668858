// Session: moving the leaf (set_leaf to an entry or to none), labels, and the read views over the
// tree: entries, path, children, tree, context, info and diagnostics.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- navigation, labels, reading --------------------------------------------------------------

TEST_P(SessionTest, SetLeafAndTheReadViews) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));       // 0
  ASSERT_OK(s->append_message(kAssistant, &id));  // 1
  EXPECT_EQ(s->set_leaf("nope").code(), Code::kNotFound);
  EXPECT_EQ(s->leaf_id(), ids_[1]);
  uint64_t gen = s->generation();
  ASSERT_OK(s->set_leaf(ids_[0]));
  EXPECT_EQ(s->generation(), gen + 1);
  EXPECT_EQ(s->leaf_id(), ids_[0]);
  ASSERT_OK(s->append_message(R"({"role":"user","content":"again"})", &id));  // 2, child of 0
  ASSERT_OK(s->set_leaf(std::nullopt));
  EXPECT_FALSE(s->leaf_id().has_value());
  auto empty = s->context(std::nullopt);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, R"({"leafId":null,"messages":[],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  ASSERT_OK(s->append_custom("root2", std::nullopt, &id));  // 3, a new root
  std::string l0 = line("message", ids_[0], "", 1, "\"message\":" + kUser);
  std::string l1 = line("message", ids_[1], ids_[0], 2, "\"message\":" + kAssistant);
  std::string l2 = line("message", ids_[2], ids_[0], 3, R"("message":{"role":"user","content":"again"})");
  std::string l3 = line("custom", ids_[3], "", 4, R"("customType":"root2")");
  EXPECT_EQ(content(), header_line() + "\n" + l0 + "\n" + l1 + "\n" + l2 + "\n" + l3 + "\n");
  EXPECT_EQ(s->entries_json(), "[" + l0 + "," + l1 + "," + l2 + "," + l3 + "]");
  EXPECT_EQ(val(s->entry_json(ids_[2])), l2);
  EXPECT_EQ(s->entry_json("nope").status().code(), Code::kNotFound);
  EXPECT_EQ(val(s->path_json(std::nullopt)), "[" + l3 + "]");
  EXPECT_EQ(val(s->path_json(std::string_view(ids_[2]))), "[" + l0 + "," + l2 + "]");
  EXPECT_EQ(s->path_json(std::string_view("nope")).status().code(), Code::kNotFound);
  EXPECT_EQ(val(s->children_json(ids_[0])), "[" + l1 + "," + l2 + "]");
  EXPECT_EQ(val(s->children_json(ids_[3])), "[]");
  EXPECT_EQ(s->children_json("nope").status().code(), Code::kNotFound);
  EXPECT_EQ(s->tree_json(),
            R"([{"id":")" + ids_[0] + R"(","parentId":null,"depth":0,"children":[")" + ids_[1] + R"(",")" + ids_[2] +
                R"("],"entry":)" + l0 + R"(},{"id":")" + ids_[1] + R"(","parentId":")" + ids_[0] +
                R"(","depth":1,"children":[],"entry":)" + l1 + R"(},{"id":")" + ids_[2] + R"(","parentId":")" + ids_[0] +
                R"(","depth":1,"children":[],"entry":)" + l2 + R"(},{"id":")" + ids_[3] +
                R"(","parentId":null,"depth":0,"children":[],"entry":)" + l3 + "}]");
  auto ctx = s->context(std::string_view(ids_[2]));
  ASSERT_TRUE(ctx.ok());
  EXPECT_EQ(*ctx, R"({"leafId":")" + ids_[2] + R"(","messages":[{"role":"user","content":"hi"},{"role":"user","content":"again"}],"thinkingLevel":"off","models":{},"injectedTtsrRules":[],"mode":"none"})");
  // An explicit leaf that is not in the session is "not found", no fallback
  // (docs/decisions.md#9-an-unknown-leaf-is-not-found).
  EXPECT_EQ(s->context(std::string_view("nope")).status().code(), Code::kNotFound);
}

TEST_P(SessionTest, LabelsAreEntriesOnThePathAndLastWriteWins) {
  auto s = create(options(false));
  std::string id;
  ASSERT_OK(s->append_message(kUser, &id));       // 0
  ASSERT_OK(s->append_message(kAssistant, &id));  // 1
  ASSERT_OK(s->append_label(ids_[0], "first", &id));  // 2
  EXPECT_EQ(s->leaf_id(), ids_[2]);
  ASSERT_OK(s->append_label(ids_[1], "b", &id));      // 3, child of the label before it
  ASSERT_OK(s->append_label(ids_[0], std::nullopt, &id));  // 4 clears
  ASSERT_OK(s->append_label(ids_[1], "b2", &id));     // 5 updates in place
  EXPECT_EQ(s->labels_json(), R"([{"targetId":")" + ids_[1] + R"(","label":"b2","timestamp":")" + iso(6) + R"("}])");
  EXPECT_EQ(val(s->entry_json(ids_[3])), line("label", ids_[3], ids_[2], 4, R"("targetId":")" + ids_[1] + R"(","label":"b")"));
  // Labelling a label works too (any entry is a target).
  ASSERT_OK(s->append_label(ids_[5], "", &id));  // "" is falsy: nothing set
  EXPECT_EQ(s->labels_json(), R"([{"targetId":")" + ids_[1] + R"(","label":"b2","timestamp":")" + iso(6) + R"("}])");
  std::string tree = s->tree_json();
  std::string needle = R"("id":")" + ids_[1] + R"(","parentId":")" + ids_[0] + R"(","depth":1,"children":[")" + ids_[2] +
                       R"("],"label":"b2","labelTimestamp":")" + iso(6) + R"(","entry":)";
  EXPECT_NE(tree.find(needle), std::string::npos) << tree;
  // Labels are not part of the context.
  EXPECT_EQ(val(s->context(std::nullopt)), R"({"leafId":")" + ids_[6] + R"(","messages":[)" + kUser + "," + kAssistant +
                      R"(],"thinkingLevel":"off","models":{"default":"anthropic/claude"},"injectedTtsrRules":[],"mode":"none"})");
}

TEST_P(SessionTest, InfoAndDiagnosticsViews) {
  put(header_line() + "\n" + line("message", "m1", "", 1, "\"message\":" + kUser) + "\nnot json\n");
  auto r = open(read_only());
  ASSERT_TRUE(r.ok()) << r.status().message();
  auto& s = *r;
  EXPECT_EQ(s->info_json(), R"({"id":"sess1","path":")" + path_ + R"(","cwd":"/home/u/proj","timestamp":")" + iso(0) +
                                R"(","title":null,"parentSession":null,"version":3,"dialect":"omp","entryCount":1,"leafId":"m1","persisted":true,"readOnly":true,"archived":false,"diagnostics":1,"entryTypes":{"message":1}})");
  std::string offset = std::to_string(header_line().size() + 1 + line("message", "m1", "", 1, "\"message\":" + kUser).size() + 1);
  std::string diags = s->diagnostics_json();
  std::string prefix = R"([{"line":3,"offset":)" + offset + R"(,"length":8,"code":"invalid_json","reason":")";
  EXPECT_EQ(diags.substr(0, prefix.size()), prefix);
  EXPECT_EQ(diags.substr(diags.size() - 3), "\"}]");
}

}  // namespace
}  // namespace xs::session
