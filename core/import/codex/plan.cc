#include "import/codex/plan.h"

#include <utility>

#include "import/source_rows.h"
#include "json/member_scanner.h"

namespace xs::import::codex {

namespace {

// The members of `key`'s object value in `members` (empty when absent or not an object).
std::vector<json::Member> object_at(const std::vector<json::Member>& members, std::string_view key) {
  const json::Member* m = json::find_member(members, key);
  if (!m || m->kind != json::Kind::kObject) return {};
  return json::members_of(m->value);
}

bool is_model_output(const Row& r) {
  if (r.item == "message") return r.role == "assistant";
  return r.item == "reasoning" || r.item == "function_call" || r.item == "custom_tool_call" ||
         r.item == "local_shell_call";
}

// The reasoning effort a turn_context names: `effort`, else its collaboration mode's.
std::string effort_of(const std::vector<json::Member>& payload) {
  if (auto e = json::string_value(json::find_member(payload, "effort"))) return *e;
  auto settings = object_at(object_at(payload, "collaboration_mode"), "settings");
  return json::string_value(json::find_member(settings, "reasoning_effort")).value_or("");
}

class Planner {
 public:
  explicit Planner(const Rollout& r) : r_(r) {
    plan_.outcome.assign(r.rows.size(), RowOutcome::kCustom);
    plan_.provider = r.provider.empty() ? "openai" : r.provider;
  }

  Plan run() {
    for (const Row& row : r_.rows) {
      if (row.kind != RowKind::kResponseItem) continue;
      auto m = json::members_of(row.payload);
      auto id = json::string_value(json::find_member(m, "call_id"));
      if (!id) continue;
      if (row.item == "local_shell_call") {
        plan_.tool_names[*id] = "local_shell";
      } else if (row.item == "function_call" || row.item == "custom_tool_call") {
        plan_.tool_names[*id] = json::string_value(json::find_member(m, "name")).value_or("");
      }
    }
    for (size_t i = 0; i < r_.rows.size(); ++i) take(i);
    close();
    return std::move(plan_);
  }

 private:
  void take(size_t i) {
    const Row& row = r_.rows[i];
    switch (row.kind) {
      case RowKind::kResponseItem:
        if (is_model_output(row)) {
          if (!open_) {
            open_ = true;
            group_ = PlannedEntry{};
            group_.kind = EntryKind::kAssistant;
            group_.model = model_;
          }
          group_.rows.push_back(i);
          plan_.outcome[i] = RowOutcome::kImported;
        } else if (row.item == "message") {
          add_single(EntryKind::kMessage, i);
        } else if (row.item == "function_call_output" || row.item == "custom_tool_call_output") {
          add_single(EntryKind::kToolResult, i);
        } else {
          custom(i);
        }
        return;
      case RowKind::kEventMsg:
        if (row.item == "token_count" && take_usage(i)) return;
        custom(i);
        return;
      case RowKind::kTurnContext: return turn_context(i);
      case RowKind::kCompacted: {
        close();
        PlannedEntry e;
        e.kind = EntryKind::kCompaction;
        e.rows = {i};
        e.tokens_before = context_tokens_;
        plan_.entries.push_back(std::move(e));
        plan_.outcome[i] = RowOutcome::kImported;
        return;
      }
      case RowKind::kSessionMeta:
      case RowKind::kOther: custom(i); return;
    }
  }

  void add_single(EntryKind kind, size_t i) {
    close();
    PlannedEntry e;
    e.kind = kind;
    e.rows = {i};
    plan_.entries.push_back(std::move(e));
    plan_.outcome[i] = RowOutcome::kImported;
  }

  // A row kept verbatim; inside a model response (the UI's agent_message and agent_reasoning
  // events come between its items) it follows the response's message.
  void custom(size_t i) {
    PlannedEntry e;
    e.rows = {i};
    (open_ ? deferred_ : plan_.entries).push_back(std::move(e));
  }

  // A token_count ends the model response it follows and gives its usage. Codex repeats the same
  // count (only the rate limits change) after a tool's output; a repeat, or a count without
  // `info`, is kept as custom.
  bool take_usage(size_t i) {
    auto info = object_at(json::members_of(r_.rows[i].payload), "info");
    const json::Member* total = json::find_member(info, "total_token_usage");
    if (!total) total = json::find_member(info, "last_token_usage");
    if (!total || total->value == last_total_) return false;
    last_total_ = std::string(total->value);
    auto last = object_at(info, "last_token_usage");
    if (auto n = number_value(json::find_member(last, "total_tokens"))) context_tokens_ = static_cast<int64_t>(*n);
    PlannedEntry* target = open_ ? &group_ : nullptr;
    if (!target && last_assistant_ >= 0 && !plan_.entries[last_assistant_].has_usage) {
      target = &plan_.entries[last_assistant_];
    }
    if (!target) return false;
    target->rows.push_back(i);
    target->has_usage = true;
    plan_.outcome[i] = RowOutcome::kImported;
    close();
    return true;
  }

  // A turn starts (or a request of it is made): its model and effort, when they change, become
  // model_change and thinking_level_change entries; the row itself is kept as custom after them.
  void turn_context(size_t i) {
    close();
    auto payload = json::members_of(r_.rows[i].payload);
    std::string model = json::string_value(json::find_member(payload, "model")).value_or("");
    if (!model.empty() && model != model_) {
      model_ = model;
      PlannedEntry e;
      e.kind = EntryKind::kModelChange;
      e.rows = {i};
      e.model = model;
      plan_.entries.push_back(std::move(e));
      plan_.outcome[i] = RowOutcome::kImported;
    }
    std::string effort = effort_of(payload);
    if (!effort.empty() && effort != effort_) {
      effort_ = effort;
      PlannedEntry e;
      e.kind = EntryKind::kThinkingLevel;
      e.rows = {i};
      e.effort = effort == "none" ? "off" : effort;
      plan_.entries.push_back(std::move(e));
      plan_.outcome[i] = RowOutcome::kImported;
    }
    custom(i);
  }

  void close() {
    if (open_) {
      plan_.entries.push_back(std::move(group_));
      last_assistant_ = static_cast<int>(plan_.entries.size()) - 1;
      open_ = false;
    }
    for (PlannedEntry& e : deferred_) plan_.entries.push_back(std::move(e));
    deferred_.clear();
  }

  const Rollout& r_;
  Plan plan_;
  bool open_ = false;
  PlannedEntry group_;
  std::vector<PlannedEntry> deferred_;
  int last_assistant_ = -1;
  std::string model_, effort_;
  std::string last_total_;
  int64_t context_tokens_ = 0;
};

}  // namespace

Plan make_plan(const Rollout& rollout) { return Planner(rollout).run(); }

}  // namespace xs::import::codex
