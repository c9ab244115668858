// xs stats [KEY_PREFIX]: each key's session stats as the keyed store holds them (messages, tool
// calls, tokens, context, cost, compactions; docs/session-stats.md). Reads sessions.json only,
// never a transcript: what a host's session list shows, as fast as one document read.
#include <cstdio>
#include <vector>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

struct StatsArgs {
  std::string prefix;
  bool json = false;
};

// The record fields a bound session writes (docs/session-stats.md#binding-a-session-to-a-key).
constexpr const char* kFields[] = {"sessionId", "updatedAt",       "inputTokens",   "outputTokens",
                                   "cacheRead", "cacheWrite",      "totalTokens",   "contextTokens",
                                   "cost",      "compactionCount", "messageCounts", "toolCalls"};

// A field as the record holds it ("-" when absent): numbers keep their spelling.
std::string cell(Json record, const char* name) {
  std::optional<Json> v = member(record, name);
  if (!v || v->is_null()) return "-";
  if (v->is_string()) return std::string(text_of(*v));
  return to_json(*v);
}

std::string messages_cell(Json record) {
  std::optional<Json> counts = member(record, "messageCounts");
  if (!counts || !counts->is_object()) return "-";
  int64_t total = 0;
  for (auto field : fields(*counts)) total += int_of(field.value);
  return std::to_string(total);
}

void print_json(Json list) {
  std::string out = "[";
  for (Json item : items(list)) {
    std::optional<Json> record = member(item, "record");
    out += (out.size() > 1 ? ",{\"key\":" : "{\"key\":") + json_quoted(str(item, "key"));
    for (const char* name : kFields) {
      std::optional<Json> v = record ? member(*record, name) : std::nullopt;
      out += ",\"" + std::string(name) + "\":" + (v ? to_json(*v) : "null");
    }
    out += "}";
  }
  out += "]\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void print_table(Json list) {
  int64_t now = now_ms();
  std::vector<std::vector<std::string>> rows = {
      {"KEY", "SESSION", "MSGS", "TOOLS", "TOKENS", "CONTEXT", "COST", "COMPACT", "UPDATED"}};
  for (Json item : items(list)) {
    std::optional<Json> r = member(item, "record");
    if (!r) continue;
    int64_t updated = num(*r, "updatedAt");
    rows.push_back({std::string(str(item, "key")), cell(*r, "sessionId"), messages_cell(*r), cell(*r, "toolCalls"),
                    cell(*r, "totalTokens"), cell(*r, "contextTokens"), cell(*r, "cost"), cell(*r, "compactionCount"),
                    updated > 0 ? relative_time(updated, now) : "-"});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], display_width(row[i]));
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      // Key and session id read left to right; the numbers line up on the right.
      std::string pad(width[i] - display_width(row[i]), ' ');
      bool left = i < 2 || i + 1 == row.size();
      line += (i ? "  " : "") + (left ? row[i] + (i + 1 == row.size() ? "" : pad) : pad + row[i]);
    }
    out += line + "\n";
  }
  out += counted(rows.size() - 1, "key") + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_stats(CLI::App& app, Globals& g) {
  auto a = std::make_shared<StatsArgs>();
  CLI::App* cmd =
      app.add_subcommand("stats", "each key's session stats, from the keyed store only (no transcript read)");
  cmd->add_option("KEY_PREFIX", a->prefix, "only keys that start with this");
  cmd->add_flag("--json", a->json, "[{key, sessionId, updatedAt, inputTokens, ..., messageCounts, toolCalls}]");
  cmd->footer(
      "MSGS adds up messageCounts; TOKENS is totalTokens (input + output + cache), CONTEXT the last\n"
      "reply's context size; '-' marks a field the record lacks (a key no session was bound to).\n"
      "`xs verify --fix-stats` recounts the transcripts and repairs records that disagree.");
  cmd->callback([a, &g] {
    Store store(g.store());
    std::string text =
        read_text([&](char* b, size_t c, size_t* n) { return xs_keys_list(store.get(), a->prefix.c_str(), b, c, n); },
                  [&] { return store.error(); });
    JsonDoc doc = parse_json(text);
    if (a->json) {
      print_json(doc.root());
    } else {
      print_table(doc.root());
    }
  });
}

}  // namespace xs::cli
