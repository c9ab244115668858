// model/tree: ids, parents, labels, leaf and pre-order (docs/format.md#reading-a-file).
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace xs::model {
namespace {

using test::diag_summary;

const std::string kHeader = R"({"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"})";

std::string ts(int sec) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "2025-01-01T00:%02d:%02d.000Z", sec / 60, sec % 60);
  return buf;
}

std::string entry(const std::string& id, const char* parent, int sec, const std::string& type = "custom") {
  std::string p = parent ? "\"" + std::string(parent) + "\"" : "null";
  return R"({"type":")" + type + R"(","id":")" + id + R"(","parentId":)" + p + R"(,"timestamp":")" + ts(sec) + "\"}";
}

std::string label(const std::string& id, const char* parent, int sec, const std::string& target, const char* value_json) {
  std::string p = parent ? "\"" + std::string(parent) + "\"" : "null";
  std::string s = R"({"type":"label","id":")" + id + R"(","parentId":)" + p + R"(,"timestamp":")" + ts(sec) +
                  R"(","targetId":")" + target + "\"";
  if (value_json) s += std::string(",\"label\":") + value_json;
  return s + "}";
}

std::string file(std::initializer_list<std::string> lines) {
  std::string f = kHeader + "\n";
  for (const std::string& l : lines) f += l + "\n";
  return f;
}

std::string ids(const test::Loaded& l, const std::vector<uint32_t>& idx) {
  std::string out;
  for (uint32_t i : idx) {
    if (!out.empty()) out += ',';
    out += std::string(l.data.entries[i].id);
  }
  return out;
}

std::string preorder(const test::Loaded& l) {
  std::string out;
  for (auto [i, depth] : l.tree.preorder()) {
    if (!out.empty()) out += ' ';
    out += std::string(l.data.entries[i].id) + ":" + std::to_string(depth);
  }
  return out;
}

TEST(Tree, ParentsPathsChildrenAndLeaf) {
  auto l = test::load(file({entry("a", nullptr, 1), entry("b", "a", 2), entry("c", "b", 3), entry("d", "a", 4)}));
  ASSERT_TRUE(l->status.ok());
  const Tree& t = l->tree;
  EXPECT_EQ(t.find("a"), 0u);
  EXPECT_EQ(t.find("d"), 3u);
  EXPECT_EQ(t.find("nope"), kNone);
  EXPECT_EQ(t.find(""), kNone);
  EXPECT_EQ(l->data.entries[0].parent, kNone);
  EXPECT_EQ(l->data.entries[2].parent, 1u);
  EXPECT_EQ(ids(*l, t.path_to(2)), "a,b,c");
  EXPECT_EQ(ids(*l, t.path_to(3)), "a,d");
  EXPECT_TRUE(t.path_to(kNone).empty());
  EXPECT_EQ(ids(*l, t.children(0)), "b,d");
  EXPECT_EQ(ids(*l, t.children(2)), "");
  // The leaf is the last entry in file order, as in the agents, whatever the tree looks like.
  EXPECT_EQ(t.leaf(), 3u);
}

TEST(Tree, EmptySessionHasNoLeaf) {
  auto l = test::load(file({}));
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(l->tree.leaf(), kNone);
  EXPECT_TRUE(l->tree.preorder().empty());
  EXPECT_TRUE(l->tree.labels().empty());
  EXPECT_FALSE(l->tree.has_assistant());
}

TEST(Tree, SetLeafMovesOnlyThePointer) {
  auto l = test::load(file({entry("a", nullptr, 1), entry("b", "a", 2)}));
  l->tree.set_leaf(0);
  EXPECT_EQ(l->tree.leaf(), 0u);
  l->tree.set_leaf(kNone);
  EXPECT_EQ(l->tree.leaf(), kNone);
  EXPECT_EQ(l->data.entries.size(), 2u);
}

TEST(Tree, PreorderSortsChildrenByTimestampStably) {
  auto l = test::load(file({entry("a", nullptr, 1), entry("b", "a", 2), entry("c", "a", 5), entry("d", "a", 3),
                            entry("e", "b", 4), entry("f", "a", 3), entry("g", "a", 3)}));
  ASSERT_TRUE(l->status.ok());
  // Children of a by time: b(2), d(3), f(3), g(3) (ties keep file order), c(5).
  EXPECT_EQ(preorder(*l), "a:0 b:1 e:2 d:1 f:1 g:1 c:1");
}

TEST(Tree, TimestampsAreComparedAsInstantsNotText) {
  std::string early = R"({"type":"custom","id":"late-text","parentId":"r","timestamp":"2025-01-01T01:30:00.000+02:00"})";
  std::string later = R"({"type":"custom","id":"early-text","parentId":"r","timestamp":"2025-01-01T00:00:00.000Z"})";
  auto l = test::load(file({entry("r", nullptr, 0), later, early}));
  ASSERT_TRUE(l->status.ok());
  // 01:30+02:00 is 2024-12-31T23:30Z, earlier than 2025-01-01T00:00Z.
  EXPECT_EQ(preorder(*l), "r:0 late-text:1 early-text:1");
}

TEST(Tree, RootsOrphansAndSeveralRootsStayInFileOrder) {
  auto l = test::load(file({entry("r1", nullptr, 9), entry("x", "r1", 10), entry("orphan", "missing", 1),
                            entry("r2", nullptr, 0)}));
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(preorder(*l), "r1:0 x:1 orphan:0 r2:0");
  EXPECT_EQ(ids(*l, l->tree.path_to(2)), "orphan");
  EXPECT_EQ(l->data.entries[2].parent, kNone);
  EXPECT_TRUE(l->data.entries[2].has_parent_id);
  EXPECT_EQ(diag_summary(*l), "");
}

// As in the agents, a later duplicate id overwrites the earlier one in byId; we also report it.
TEST(Tree, DuplicateIdsLaterWinsAndIsReported) {
  auto l = test::load(file({entry("a", nullptr, 1), entry("x", "a", 2), entry("b", "x", 3), entry("x", "a", 4),
                            entry("c", "x", 5)}));
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(diag_summary(*l), "duplicate_id@5");
  EXPECT_EQ(l->tree.find("x"), 3u);
  // Parents resolve against the final map: both children of "x" hang under the later one.
  EXPECT_EQ(l->data.entries[2].parent, 3u);
  EXPECT_EQ(l->data.entries[4].parent, 3u);
  EXPECT_EQ(ids(*l, l->tree.children(3)), "b,c");
  EXPECT_TRUE(l->tree.children(1).empty());
  EXPECT_EQ(ids(*l, l->tree.path_to(2)), "a,x,b");
  EXPECT_EQ(l->tree.path_to(2)[1], 3u);
  const Diagnostic d = test::all_diagnostics(*l)[0];
  EXPECT_EQ(d.offset, l->data.lines[4].offset);
  EXPECT_EQ(d.length, l->data.lines[4].bytes.size());
}

TEST(Tree, ParentCyclesAreCutAndReported) {
  auto l = test::load(file({entry("p", "q", 1), entry("q", "p", 2), entry("s", "s", 3), entry("k", "p", 4)}));
  ASSERT_TRUE(l->status.ok());
  const SessionData& d = l->data;
  auto diags = test::all_diagnostics(*l);
  int cycles = 0;
  for (const Diagnostic& diag : diags) cycles += diag.code == "parent_cycle";
  EXPECT_EQ(cycles, 2);
  EXPECT_EQ(diags.size(), 2u);
  // Exactly one entry of the p <-> q loop becomes a root; the self-parent is a root.
  EXPECT_EQ((d.entries[0].parent == kNone) + (d.entries[1].parent == kNone), 1);
  EXPECT_EQ(d.entries[2].parent, kNone);
  // Every path terminates and nothing is lost from the tree.
  EXPECT_EQ(l->tree.path_to(0).size() + l->tree.path_to(1).size(), 3u);
  EXPECT_EQ(l->tree.path_to(2).size(), 1u);
  EXPECT_EQ(l->tree.preorder().size(), 4u);
  EXPECT_EQ(l->tree.path_to(3).size(), l->tree.path_to(0).size() + 1);
}

TEST(Tree, LongerCycleReachedFromATail) {
  auto l = test::load(file({entry("t", "a", 0), entry("a", "b", 1), entry("b", "c", 2), entry("c", "a", 3)}));
  ASSERT_TRUE(l->status.ok());
  auto diags = test::all_diagnostics(*l);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].code, "parent_cycle");
  EXPECT_LE(l->tree.path_to(0).size(), 4u);
  EXPECT_EQ(l->tree.preorder().size(), 4u);
}

TEST(Tree, LabelsLastWriteWinsFalsyClearsInsertionOrder) {
  auto l = test::load(file({entry("a", nullptr, 1), entry("b", "a", 2),
                            label("l1", "b", 3, "a", R"("first")"),   // a
                            label("l2", "l1", 4, "b", R"("bee")"),    // a, b
                            label("l3", "l2", 5, "a", R"("")"),       // b        (cleared)
                            label("l4", "l3", 6, "a", R"("again")"),  // b, a     (re-inserted at the end)
                            label("l5", "l4", 7, "zz", R"("ghost")"), // b, a, zz (target need not exist)
                            label("l6", "l5", 8, "b", "null"),        // a, zz
                            label("l7", "l6", 9, "zz", R"("boo")"),   // a, zz    (updated in place)
                            label("l8", "l7", 10, "a", nullptr),      // zz       (missing label clears)
                            label("l9", "l8", 11, "b", R"("b2")")})); // zz, b
  ASSERT_TRUE(l->status.ok());
  const Tree& t = l->tree;
  auto all = t.labels();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->target_id, "zz");
  EXPECT_EQ(all[0]->label, "boo");
  EXPECT_EQ(all[0]->timestamp, ts(9));
  EXPECT_EQ(all[1]->target_id, "b");
  EXPECT_EQ(all[1]->label, "b2");
  EXPECT_EQ(all[1]->timestamp, ts(11));
  EXPECT_EQ(t.label_of("a"), nullptr);
  ASSERT_NE(t.label_of("b"), nullptr);
  EXPECT_EQ(t.label_of("b")->label, "b2");
  // Label entries are ordinary entries on the path: the leaf is the last one.
  EXPECT_EQ(t.leaf(), 10u);
  EXPECT_EQ(t.path_to(10).size(), 11u);
}

TEST(Tree, HasAssistant) {
  std::string user = R"({"type":"message","id":"u","parentId":null,"timestamp":"t","message":{"role":"user"}})";
  std::string asst = R"({"type":"message","id":"a","parentId":"u","timestamp":"t","message":{"role":"assistant"}})";
  std::string fake = R"({"type":"custom","id":"f","parentId":null,"timestamp":"t","message":{"role":"assistant"}})";
  auto no = test::load(file({user, fake}));
  EXPECT_FALSE(no->tree.has_assistant());
  auto yes = test::load(file({user, asst}));
  EXPECT_TRUE(yes->tree.has_assistant());
}

TEST(Tree, HundredThousandDeepChainWithoutRecursion) {
  const int n = 100000;
  std::string f = kHeader + "\n";
  f.reserve(static_cast<size_t>(n) * 90);
  for (int i = 0; i < n; ++i) {
    std::string id = "e" + std::to_string(i);
    std::string parent = i ? "\"e" + std::to_string(i - 1) + "\"" : "null";
    f += R"({"type":"custom","id":")" + id + R"(","parentId":)" + parent + R"(,"timestamp":"2025-01-01T00:00:00.000Z"})" "\n";
  }
  auto l = test::load(f);
  ASSERT_TRUE(l->status.ok());
  EXPECT_EQ(l->tree.path_to(n - 1).size(), static_cast<size_t>(n));
  auto order = l->tree.preorder();
  ASSERT_EQ(order.size(), static_cast<size_t>(n));
  EXPECT_EQ(order.back().first, static_cast<uint32_t>(n - 1));
  EXPECT_EQ(order.back().second, static_cast<uint32_t>(n - 1));
}

TEST(Tree, AddIndexesAnAppendedEntryAndMovesTheLeaf) {
  auto l = test::load(file({entry("a", nullptr, 1), entry("b", "a", 2)}));
  ASSERT_TRUE(l->status.ok());
  l->tree.set_leaf(0);
  Entry e;
  e.line = l->data.arena.store(label("n", "a", 3, "a", R"("tag")"));
  e.id = "n";
  e.type = format::EntryType::kLabel;
  e.target_id = "a";
  e.label = "tag";
  e.label_set = true;
  e.parent = 0;
  e.has_parent_id = true;
  e.parent_id = "a";
  l->data.entries.push_back(e);
  l->tree.add(2);
  EXPECT_EQ(l->tree.find("n"), 2u);
  EXPECT_EQ(l->tree.leaf(), 2u);
  ASSERT_NE(l->tree.label_of("a"), nullptr);
  EXPECT_EQ(l->tree.label_of("a")->label, "tag");
  EXPECT_EQ(ids(*l, l->tree.children(0)), "b,n");
}

}  // namespace
}  // namespace xs::model
