// xs show: one session at a glance: header, counts by entry type, token usage, leaf, labels and
// what the loader skipped.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "problem_text.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

void print_plain(const Session& s, Json info, const Style& style) {
  JsonDoc diagnostics_doc = parse_json(s.diagnostics());
  JsonDoc labels_doc = parse_json(s.labels());
  JsonDoc usage_doc = parse_json(s.usage());
  Json d = diagnostics_doc.root(), labels = labels_doc.root(), usage = usage_doc.root();
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
  row("dialect", str(info, "dialect"));
  // The library counts types (in its type order) while loading: no entry is parsed here.
  std::string by_type;
  if (std::optional<Json> types = member(info, "entryTypes")) {
    for (simdjson::dom::key_value_pair m : fields(*types)) {
      by_type += (by_type.empty() ? "" : ", ") + std::string(m.key) + " " + std::to_string(int_of(m.value));
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
  size_t label_count = count(labels);
  row("labels", label_count ? std::to_string(label_count) : "-");
  for (Json l : items(labels)) {
    out += "  " + std::string(str(l, "targetId")) + "  " + one_line(str(l, "label"), 60) + "\n";
  }
  size_t skipped = count(d);
  row("skipped", skipped ? std::to_string(skipped) : "-");
  for (Json x : items(d)) out += problem_line(x, style, false);
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_show(CLI::App& app, Globals& g) {
  auto ref = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd =
      app.add_subcommand("show", "a session at a glance: header, counts, tokens, leaf, labels, skipped lines");
  cmd->add_option("SESSION", *ref, "file path, session id or id prefix")->required();
  cmd->add_flag("--json", *json, "one JSON object {info, usage, labels, diagnostics} (counts: info.entryTypes)");
  cmd->callback([ref, json, &g] {
    Store store(g.store());
    Session s = open_read_only(store, *ref);
    std::string info_text = s.info();
    if (*json) {
      std::string out = "{\"info\":" + info_text + ",\"usage\":" + s.usage() + ",\"labels\":" + s.labels() +
                        ",\"diagnostics\":" + s.diagnostics() + "}\n";
      std::fwrite(out.data(), 1, out.size(), stdout);
      return;
    }
    JsonDoc info = parse_json(info_text);
    print_plain(s, info.root(), Style(g.color, 1));
  });
}

}  // namespace xs::cli
