// The imported context against Claude Code's own resume walk, computed here from the raw rows:
// from the last non-sidechain user/assistant row up the parentUuid chain to a root.
#include <gtest/gtest.h>

#include <map>

#include "claude_test_util.h"
#include "import/claude/importer.h"

namespace xs::import::claude {
namespace {

using testing::corpus;

struct Walk {
  std::vector<std::string> replies;  // distinct message.ids, in order
  std::vector<std::string> prompts;  // "U:" tokens of user rows that are not tool results
  std::vector<std::string> results;  // "R:" tokens
  bool from_compaction = false;
};

Walk claude_walk(const std::string& bytes) {
  simdjson::dom::parser parser;
  std::vector<std::string> lines;
  std::istringstream in(bytes);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::map<std::string, size_t> by_uuid;
  std::vector<std::string> docs;
  std::string leaf, side_leaf;
  for (const std::string& l : lines) {
    simdjson::dom::object o;
    if (parser.parse(l).get(o) != simdjson::SUCCESS) continue;
    std::string_view uuid, type;
    bool side = false;
    if (o["uuid"].get(uuid) != simdjson::SUCCESS) continue;
    by_uuid[std::string(uuid)] = docs.size();
    docs.push_back(l);
    if (o["isSidechain"].get(side) != simdjson::SUCCESS) side = false;
    if (o["type"].get(type) == simdjson::SUCCESS && (type == "user" || type == "assistant") &&
        o["message"].is_object()) {
      (side ? side_leaf : leaf) = std::string(uuid);
    }
  }
  if (leaf.empty()) leaf = side_leaf;  // a subagent file: its rows are all sidechain rows
  std::vector<std::string> path;
  for (std::string u = leaf; by_uuid.count(u);) {
    path.insert(path.begin(), docs[by_uuid[u]]);
    simdjson::dom::object o = parser.parse(docs[by_uuid[u]]).get_object();
    std::string_view p;
    u = o["parentUuid"].get(p) == simdjson::SUCCESS ? std::string(p) : "";
  }
  Walk w;
  for (const std::string& d : path) {
    simdjson::dom::object o = parser.parse(d).get_object();
    std::string_view type = o["type"].get_string(), sub;
    bool compact = false;
    if (type == "system" && o["subtype"].get(sub) == simdjson::SUCCESS && sub == "compact_boundary") {
      w.from_compaction = true;
    }
    if (type == "assistant") {
      std::string id(std::string_view(o["message"]["id"].get_string()));
      if (std::find(w.replies.begin(), w.replies.end(), "A:" + id) == w.replies.end()) w.replies.push_back("A:" + id);
    }
    if (type != "user" || (o["isCompactSummary"].get(compact) == simdjson::SUCCESS && compact)) continue;
    simdjson::dom::element c = o["message"]["content"];
    std::string_view s;
    if (c.get(s) == simdjson::SUCCESS) {
      w.prompts.push_back("U:" + std::string(s.substr(0, 30)));
      continue;
    }
    for (simdjson::dom::element b : c.get_array()) {
      std::string_view bt = b["type"].get_string();
      if (bt == "tool_result") w.results.push_back("R:" + std::string(std::string_view(b["tool_use_id"].get_string())));
      if (bt == "text") w.prompts.push_back("U:" + std::string(std::string_view(b["text"].get_string()).substr(0, 30)));
    }
  }
  return w;
}

TEST(ClaudeResume, TheImportedContextHoldsWhatClaudeCodeResumesInItsOrder) {
  const char* files[] = {"claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
                         "claudeless-v2.1.29/clear-command/5bd47723-950c-4c20-917e-77acb15dc4ea.jsonl",
                         "claudeless-v2.1.29/clear-command/5c91b750-86c7-44d8-bb93-e5046ff2c302.jsonl",
                         "claudeless-v2.1.29/compact-command/8aa54c1d-5030-4491-be42-e0c416424b8a.jsonl",
                         "marot-spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
                         "marot-spotter/short.jsonl",
                         "marot-spotter/tool_heavy.jsonl",
                         "sniffly/ba79134d-b6e9-4867-af0c-6941038c9e4b.jsonl",
                         "sniffly/fed8ce56-bc79-401f-a83e-af084253362f.jsonl",
                         "claude-code-viewer/agent-test-hash-123.jsonl",
                         ("claudeless-v2.1.29/compact-command/8aa54c1d-5030-4491-be42-e0c416424b8a/subagents/"
                          "agent-aprompt_suggestion-029c25.jsonl"),
                         "marot-spotter/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl"};
  for (const char* rel : files) {
    SCOPED_TRACE(rel);
    std::string path = corpus(rel);
    // The project directory is the corpus folder; a subagent file sits two levels below it.
    std::string rel_path(rel);
    size_t sub = rel_path.find("/subagents/");
    size_t project_end = sub == std::string::npos ? rel_path.rfind('/') : rel_path.rfind('/', sub - 1);
    std::string dir = corpus(rel_path.substr(0, project_end)), name = rel_path.substr(project_end + 1);
    auto st = testing::memory_store();
    auto report = import_project(*st, storage::make_posix_fs(), dir);
    ASSERT_TRUE(report.ok());
    const ImportedSession* imported = nullptr;
    for (const ImportedSession& s : report->sessions) {
      if (s.source_file == name && !s.session_file.empty() && !imported) imported = &s;
    }
    ASSERT_NE(imported, nullptr);
    auto session = testing::open_imported(*st, *imported);
    ASSERT_NE(session, nullptr);
    std::vector<std::string> tokens = testing::context_tokens(*session);
    Walk want = claude_walk(testing::slurp(path));
    Walk got;
    for (const std::string& t : tokens) {
      if (t[0] == 'A') got.replies.push_back(t);
      if (t[0] == 'U') got.prompts.push_back(t);
      if (t[0] == 'R') got.results.push_back(t);
    }
    EXPECT_EQ(got.replies, want.replies);
    EXPECT_EQ(got.prompts, want.prompts);
    // Every result Claude Code resumes is there, in its order; the import may hold more (the
    // parallel calls' results Claude's walk drops), never fewer.
    size_t k = 0;
    for (const std::string& r : got.results) k += k < want.results.size() && r == want.results[k];
    EXPECT_EQ(k, want.results.size());
    EXPECT_EQ(!tokens.empty() && tokens[0] == "C", want.from_compaction);
  }
}

}  // namespace
}  // namespace xs::import::claude
