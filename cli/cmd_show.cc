// xs show: one session at a glance: header, counts by entry type, token usage, leaf, labels and
// what the loader skipped.
#include <cstdio>
#include <map>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

// Entry counts by type, in the order types first appear in the file.
std::vector<std::pair<std::string, int64_t>> count_types(const rapidjson::Value& entries) {
  std::vector<std::pair<std::string, int64_t>> counts;
  std::map<std::string, size_t> at;
  for (const rapidjson::Value& e : entries.GetArray()) {
    std::string type(str(e, "type", "?"));
    auto [it, fresh] = at.emplace(type, counts.size());
    if (fresh) counts.emplace_back(type, 0);
    ++counts[it->second].second;
  }
  return counts;
}

std::string counts_json(const std::vector<std::pair<std::string, int64_t>>& counts) {
  std::string out = "{";
  for (size_t i = 0; i < counts.size(); ++i) {
    if (i) out += ',';
    out += json_quoted(counts[i].first) + ":" + std::to_string(counts[i].second);
  }
  return out + "}";
}

void print_plain(const Session& s, const rapidjson::Value& info, const rapidjson::Value& entries) {
  rapidjson::Document d = parse_json(s.diagnostics());
  rapidjson::Document labels = parse_json(s.labels());
  rapidjson::Document usage = parse_json(s.usage());
  std::string out;
  auto row = [&](const char* name, std::string_view value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%-12s", name);
    out += buf;
    out += value;
    out += '\n';
  };
  row("session", str(info, "id"));
  row("file", str(info, "path"));
  row("cwd", str(info, "cwd"));
  row("created", str(info, "timestamp"));
  std::string_view title = str(info, "title");
  row("title", title.empty() ? "-" : title);
  std::string_view parent = str(info, "parentSession");
  if (!parent.empty()) row("parent", parent);
  row("version", std::to_string(num(info, "version")));
  auto counts = count_types(entries);
  std::string by_type;
  for (const auto& [type, n] : counts) by_type += (by_type.empty() ? "" : ", ") + type + " " + std::to_string(n);
  row("entries", std::to_string(entries.Size()) + (by_type.empty() ? "" : " (" + by_type + ")"));
  std::string_view leaf = str(info, "leafId");
  row("leaf", leaf.empty() ? "-" : leaf);
  char buf[256];
  std::snprintf(buf, sizeof buf, "input %lld, output %lld, cache read %lld, cache write %lld, cost $%.4f",
                static_cast<long long>(num(usage, "input")), static_cast<long long>(num(usage, "output")),
                static_cast<long long>(num(usage, "cacheRead")), static_cast<long long>(num(usage, "cacheWrite")),
                real(usage, "cost"));
  row("tokens", buf);
  row("labels", labels.Empty() ? "-" : std::to_string(labels.Size()));
  for (const rapidjson::Value& l : labels.GetArray()) {
    out += "  " + std::string(str(l, "targetId")) + "  " + one_line(str(l, "label"), 60) + "\n";
  }
  row("skipped", d.Empty() ? "-" : std::to_string(d.Size()));
  for (const rapidjson::Value& x : d.GetArray()) {
    out += "  line " + std::to_string(num(x, "line")) + " (byte " + std::to_string(num(x, "offset")) + "): " +
           std::string(str(x, "code")) + ": " + one_line(str(x, "reason"), 100) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_show(CLI::App& app, Globals& g) {
  auto ref = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("show", "a session at a glance: header, counts, tokens, leaf, labels, skipped lines");
  cmd->add_option("SESSION", *ref, "file path, session id or id prefix")->required();
  cmd->add_flag("--json", *json, "one JSON object {info, counts, usage, labels, diagnostics}");
  cmd->callback([ref, json, &g] {
    Store store(g.root());
    Session s = open_read_only(store, *ref);
    std::string info_text = s.info();
    std::string entries_text = s.entries();
    rapidjson::Document info = parse_json(info_text);
    rapidjson::Document entries = parse_json(entries_text);
    if (*json) {
      std::string out = "{\"info\":" + info_text + ",\"counts\":" + counts_json(count_types(entries)) +
                        ",\"usage\":" + s.usage() + ",\"labels\":" + s.labels() + ",\"diagnostics\":" +
                        s.diagnostics() + "}\n";
      std::fwrite(out.data(), 1, out.size(), stdout);
      return;
    }
    print_plain(s, info, entries);
  });
}

}  // namespace xs::cli
