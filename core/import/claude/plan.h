// How the rows of one Claude Code conversation become native entries (docs/import-claude.md#the-tree):
// the plan is made over every row each time, so a re-import and a continued import make the same
// entries; the importer then writes only the entries whose rows are new.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "import/claude/rows.h"

namespace xs::import::claude {

// A row and the file it came from (relative to the project directory): summary rows may label a
// conversation of another file.
struct RowRef {
  const Row* row = nullptr;
  std::string_view file;  // the scan's name of it, which outlives the plan
};

enum class PlanKind { kAssistant, kUser, kToolResult, kCompaction, kCustom, kLabel };

struct PlannedEntry {
  PlanKind kind = PlanKind::kCustom;
  std::vector<size_t> rows;  // indices into Plan::rows (several for a merged assistant reply)
  int parent = -1;           // index into Plan::entries, -1: a root
  uint32_t part = 0;         // kUser/kToolResult: which message of the row (a row of several results)
  int first_kept = -1;       // kCompaction: the first entry after the summary
  int target = -1;           // kLabel: the entry labelled
  std::string wanted_id;     // the source uuid (plus "-<part>"), when a native id can be that
};

enum class RowOutcome { kImported, kCustom, kSkipped };

struct Plan {
  std::vector<RowRef> rows;  // the conversation's rows in file order, then the summaries labelling it
  std::vector<PlannedEntry> entries;
  std::vector<int> row_entry;                               // per row: the entry it went into (-1: skipped)
  std::vector<RowOutcome> outcome;                          // per row
  std::vector<std::string> skip_reason;                     // per row, for kSkipped
  std::unordered_map<std::string, std::string> tool_names;  // tool_use id → name
  std::unordered_map<std::string, int> tool_entry;          // tool_use id → the entry holding the call
  int leaf = -1;                                            // the entry Claude Code resumes from, -1: none
  std::string leaf_uuid;
  std::string title;  // a summary row whose leaf is on the resumed path
  std::vector<std::string> notes;
};

// `rows`: one conversation (a main file's main chain with its side rows, one inline sidechain,
// or a subagent file), in file order. `labels`: the summary rows whose leafUuid is in it.
Plan make_plan(std::vector<RowRef> rows, const std::vector<RowRef>& labels);

}  // namespace xs::import::claude
