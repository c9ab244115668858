// xs show: one session at a glance: header, counts by entry type, token usage, leaf, labels and
// what the loader skipped.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

void print_plain(const Session& s, const rapidjson::Value& info) {
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
  // The library counts types (in its type order) while loading: no entry is parsed here.
  std::string by_type;
  if (const rapidjson::Value* types = member(info, "entryTypes"); types && types->IsObject()) {
    for (const auto& m : types->GetObject()) {
      by_type += (by_type.empty() ? "" : ", ") + std::string(m.name.GetString()) + " " +
                 std::to_string(m.value.GetInt64());
    }
  }
  row("entries", std::to_string(num(info, "entryCount")) + (by_type.empty() ? "" : " (" + by_type + ")"));
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
  cmd->add_flag("--json", *json, "one JSON object {info, usage, labels, diagnostics} (counts: info.entryTypes)");
  cmd->callback([ref, json, &g] {
    Store store(g.root());
    Session s = open_read_only(store, *ref);
    std::string info_text = s.info();
    if (*json) {
      std::string out = "{\"info\":" + info_text + ",\"usage\":" + s.usage() + ",\"labels\":" + s.labels() + ",\"diagnostics\":" +
                        s.diagnostics() + "}\n";
      std::fwrite(out.data(), 1, out.size(), stdout);
      return;
    }
    print_plain(s, parse_json(info_text));
  });
}

}  // namespace xs::cli
