// Writing a plan into a session (docs/import-claude.md#re-imports-and-grown-files): only the
// entries whose rows the session does not hold yet, found by the row keys of its entries'
// `sourceRows`. Internal to the Claude Code importer.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "import/claude/plan.h"
#include "import/import_progress.h"
#include "session/session.h"
#include "util/status.h"

namespace xs::import::claude {

// A subagent's session, linked from the Task call that started it (found through the main file's
// agent_progress rows).
struct Link {
  std::string tool_use_id, session_id, agent_id, file;
};

// A row's key in `sourceRows`: "u:<uuid>", or "l:<file>:<line>" for a row without one.
std::string row_key(std::string_view file, const Row& r);

// Row keys already in a session (from its entries' sourceRows) → the entry each went into.
std::map<std::string, std::string> existing_keys(const session::Session& s);

// Writes a plan into `s` (null: a dry run, nothing written).
class Writer {
 public:
  // `progress` (may be null) counts each planned row's bytes as its entry is written or passed.
  Writer(const Plan& plan, session::Session* s, const std::map<std::string, std::string>& keys,
         const std::vector<Link>& links, ProgressMeter* progress = nullptr)
      : plan_(plan), s_(s), keys_(keys), links_(links), progress_(progress), native_(plan.entries.size()) {}

  bool row_is_old(size_t i) const;
  // Why the session refused the entry of row `i` (a line over its limits), or null.
  const std::string* refused(size_t i) const {
    auto it = refused_.find(i);
    return it == refused_.end() ? nullptr : &it->second;
  }

  // Writes the entries whose rows are new (all of them in a dry run: s_ is null, nothing written).
  Status write();

 private:
  void source_rows(std::string& out, const std::vector<size_t>& rows) const;

  // The entry's timestamp is its row's, else the last one a row before it had (summary and
  // snapshot rows have none), so an import stamps nothing with the time it ran.
  void envelope(std::string& out, const PlannedEntry& pe, const Row& first) const;

  std::string custom_json(const PlannedEntry& pe, const Row& r, const std::vector<size_t>& rows) const;

  std::string entry_json(const PlannedEntry& pe, const std::vector<size_t>& fresh) const;

  // A custom entry under each Task call whose subagent has a session: {sessionId, agentId, toolUseId}.
  // Its source is the subagent's file as a whole (line 0), so a re-import finds it.
  Status write_links(bool* linked);

  // Reopening puts the leaf at the last entry in the file: when that entry does not descend from
  // the entry Claude Code resumes from (a link entry never does), one marker entry under it makes
  // it the leaf again.
  Status mark_leaf(bool force);

  const Plan& plan_;
  session::Session* s_;
  const std::map<std::string, std::string>& keys_;
  const std::vector<Link>& links_;
  ProgressMeter* progress_;
  std::vector<std::string> native_;
  std::string carried_timestamp_;
  int last_written_ = -1;
  std::map<size_t, std::string> refused_;  // row → reason
};

}  // namespace xs::import::claude
