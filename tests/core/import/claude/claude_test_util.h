// Helpers of the Claude Code import tests: the corpus, copies of it to damage, and a context read
// back as one short token per message.
#pragma once

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "import/claude/importer.h"
#include "session/session.h"
#include "storage/fs.h"
#include "store/store.h"

namespace xs::import::claude::testing {

inline std::string corpus(const std::string& rel) { return std::string(XS_CLAUDE_CORPUS_DIR) + "/" + rel; }

// Every project directory of the corpus (a folder holding transcripts or an index).
inline std::vector<std::string> corpus_projects() {
  return {"claude-code-viewer", "claudeless-v2.1.12", "claudeless-v2.1.29/clear-command",
          "claudeless-v2.1.29/compact-command", "marot-spotter", "sniffly"};
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const std::string& path, const std::string& bytes) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

// Non-blank lines: what the importer must account for, counted here without its code.
inline uint64_t count_rows(const std::string& bytes) {
  uint64_t n = 0;
  std::istringstream in(bytes);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++n;
  }
  return n;
}

// Every *.jsonl under `dir`, relative to it, sorted.
inline std::vector<std::string> transcripts(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() == ".jsonl") {
      out.push_back(std::filesystem::relative(e.path(), dir).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::shared_ptr<store::Store> memory_store() {
  store::StoreOptions o;
  o.in_memory = true;
  return *store::Store::open("", o);
}

// One token per context message: "U:<first 30 chars of text>", "A:<responseId>", "R:<toolCallId>",
// "C" for a compaction summary.
inline std::vector<std::string> context_tokens(const session::Session& session) {
  auto ctx = session.context(std::nullopt);
  std::vector<std::string> out;
  if (!ctx.ok()) return {"context failed: " + ctx.status().message()};
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(*ctx);
  for (simdjson::dom::element m : doc["messages"].get_array()) {
    std::string_view role = m["role"].get_string();
    if (role == "compactionSummary") {
      out.push_back("C");
    } else if (role == "assistant") {
      std::string_view id;
      out.push_back("A:" + std::string(m["responseId"].get(id) == simdjson::SUCCESS ? id : ""));
    } else if (role == "toolResult") {
      out.push_back("R:" + std::string(std::string_view(m["toolCallId"].get_string())));
    } else {
      std::string text;
      std::string_view s;
      if (m["content"].get(s) == simdjson::SUCCESS) {
        text = std::string(s);
      } else {
        for (simdjson::dom::element b : m["content"].get_array()) {
          if (b["text"].get(s) == simdjson::SUCCESS) {
            text = std::string(s);
            break;
          }
        }
      }
      out.push_back(std::string(role == "user" ? "U:" : std::string(role) + ":") + text.substr(0, 30));
    }
  }
  return out;
}

inline std::unique_ptr<session::Session> open_imported(store::Store& st, const ImportedSession& s) {
  session::SessionOptions o;
  o.read_only = true;
  auto r = st.open_session(s.session_file, o);
  return r.ok() ? std::move(*r) : nullptr;
}

}  // namespace xs::import::claude::testing
