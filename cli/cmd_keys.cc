// xs keys [ls] | show | set | patch | delete: the keyed session store (<root>/sessions.json: a
// host's session key -> its current session's record; docs/keyed-store.md). Writes go through the
// library's lock, so running these beside a live gateway loses none of its updates.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

struct KeysArgs {
  std::string key;
  std::string json;
  std::string prefix;
  bool as_json = false;
};

void list(const Store& store, const KeysArgs& a) {
  std::string text =
      read_text([&](char* b, size_t c, size_t* n) { return xs_keys_list(store.get(), a.prefix.c_str(), b, c, n); },
                [&] { return store.error(); });
  if (a.as_json) {
    std::printf("%s\n", text.c_str());
    return;
  }
  JsonDoc doc = parse_json(text);
  std::string out;
  int64_t now = now_ms();
  for (Json item : items(doc.root())) {
    std::optional<Json> record = member(item, "record");
    std::string line = std::string(str(item, "key")) + "  " + std::string(record ? str(*record, "sessionId") : "");
    if (record && num(*record, "updatedAt") > 0) line += "  " + relative_time(num(*record, "updatedAt"), now);
    std::string_view title = record ? str(*record, "title") : "";
    if (!title.empty()) line += "  " + one_line(title, 60);
    out += line + "\n";
  }
  out += counted(count(doc.root()), "key") + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void show(const Store& store, const KeysArgs& a) {
  std::string text =
      read_text([&](char* b, size_t c, size_t* n) { return xs_keys_get(store.get(), a.key.c_str(), b, c, n); },
                [&] { return a.key + ": " + xs_store_errmsg(store.get()); });
  std::printf("%s\n", text.c_str());
}

}  // namespace

void add_keys(CLI::App& app, Globals& g) {
  auto a = std::make_shared<KeysArgs>();
  CLI::App* cmd = app.add_subcommand("keys", "the keyed session store: session key -> current session record");
  cmd->add_option("--prefix", a->prefix, "only keys that start with this (ls)");
  cmd->add_flag("--json", a->as_json, "the library's listing (ls)");
  cmd->callback([a, &g, cmd] {
    if (cmd->get_subcommands().empty()) list(Store(g.store()), *a);
  });
  CLI::App* ls_cmd = cmd->add_subcommand("ls", "every key with its session id, age and title (the default)");
  ls_cmd->add_option("--prefix", a->prefix, "only keys that start with this");
  ls_cmd->add_flag("--json", a->as_json, "the library's listing: [{key, record}]");
  ls_cmd->callback([a, &g] { list(Store(g.store()), *a); });
  CLI::App* show_cmd = cmd->add_subcommand("show", "one key's record, as JSON");
  show_cmd->add_option("KEY", a->key, "the session key")->required();
  show_cmd->callback([a, &g] { show(Store(g.store()), *a); });
  CLI::App* set_cmd = cmd->add_subcommand("set", "replace a key's record (JSON, or - for stdin)");
  set_cmd->add_option("KEY", a->key, "the session key")->required();
  set_cmd->add_option("RECORD", a->json, "a JSON object with a string sessionId")->required();
  set_cmd->callback([a, &g] {
    Store store(g.store());
    std::string json = argument_or_stdin(a->json);
    store.check(xs_keys_put(store.get(), a->key.c_str(), json.data(), json.size()), a->key);
  });
  CLI::App* patch_cmd = cmd->add_subcommand("patch", "merge fields into a key's record (JSON merge patch)");
  patch_cmd->add_option("KEY", a->key, "the session key")->required();
  patch_cmd->add_option("PATCH", a->json, "a JSON object; null removes a field (or - for stdin)")->required();
  patch_cmd->callback([a, &g] {
    Store store(g.store());
    std::string json = argument_or_stdin(a->json);
    store.check(xs_keys_patch(store.get(), a->key.c_str(), json.data(), json.size()), a->key);
  });
  CLI::App* delete_cmd = cmd->add_subcommand("delete", "remove a key's record (its transcript stays)");
  delete_cmd->add_option("KEY", a->key, "the session key")->required();
  delete_cmd->callback([a, &g] {
    Store store(g.store());
    store.check(xs_keys_delete(store.get(), a->key.c_str()), a->key);
  });
}

}  // namespace xs::cli
