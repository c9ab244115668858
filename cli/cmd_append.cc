// xs append / xs branch / xs label: add one entry to a session (opened as its only writer) and
// print the new entry's id.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

struct AppendArgs {
  std::string session;
  std::string entry_json;
  std::vector<std::string> message;  // ROLE TEXT
};

struct BranchArgs {
  std::string session;
  std::string id;
  std::string summary;
};

struct LabelArgs {
  std::string session;
  std::string id;
  std::string text;
  bool clear = false;
};

// The message `xs append --message ROLE TEXT` writes: a user's content is the text itself, an
// assistant's a single text block (the shapes agents write).
std::string message_json(const std::string& role, const std::string& text) {
  std::string content = role == "user" ? json_quoted(text) : "[{\"type\":\"text\",\"text\":" + json_quoted(text) + "}]";
  return "{\"role\":" + json_quoted(role) + ",\"content\":" + content + ",\"timestamp\":" + std::to_string(now_ms()) +
         "}";
}

void print_id(const char* id) { std::printf("%s\n", id); }

}  // namespace

void add_append(CLI::App& app, Globals& g) {
  auto a = std::make_shared<AppendArgs>();
  CLI::App* cmd = app.add_subcommand("append", "append an entry (at the last entry) and print its id");
  cmd->add_option("SESSION", a->session, "a session file, id or id prefix")->required();
  auto* entry = cmd->add_option("--json", a->entry_json, "a whole entry as JSON (- reads it from stdin)");
  cmd->add_option("--message", a->message, "a message: ROLE (user or assistant) and TEXT")
      ->expected(2)
      ->excludes(entry);
  cmd->callback([a, &g] {
    std::string json;
    if (a->message.empty() && a->entry_json.empty()) {
      throw CLI::ValidationError("append", "give the entry: --json ENTRY or --message ROLE TEXT");
    }
    if (!a->message.empty()) {
      const std::string& role = a->message[0];
      if (role != "user" && role != "assistant") {
        throw CLI::ValidationError("--message", "ROLE must be user or assistant (other entries: --json)");
      }
      json = message_json(role, a->message[1]);
    } else {
      json = argument_or_stdin(a->entry_json);
    }
    Store store(g.store());
    Session s = open_writable(store, a->session);
    char id[XS_ID_BUFSIZE];
    if (!a->message.empty())
      s.check(xs_append_message(s.get(), json.data(), json.size(), id), "append");
    else
      s.check(xs_append(s.get(), json.data(), json.size(), id), "append");
    s.check(xs_session_flush(s.get()), "append");
    print_id(id);
  });
}

void add_branch(CLI::App& app, Globals& g) {
  auto a = std::make_shared<BranchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "branch", "branch at entry ID: appends a branch_summary there, so later appends continue from it");
  cmd->add_option("SESSION", a->session, "a session file, id or id prefix")->required();
  cmd->add_option("ID", a->id, "the entry to branch from")->required();
  cmd->add_option("--summary", a->summary, "what the abandoned branch did (shown to the model)");
  cmd->footer(
      "The leaf itself is not stored in the file; the branch_summary entry is the durable\n"
      "record of the branch. Without --summary its summary is empty (not shown to the model).");
  cmd->callback([a, &g] {
    Store store(g.store());
    Session s = open_writable(store, a->session);
    char id[XS_ID_BUFSIZE];
    s.check(xs_session_branch_with_summary(s.get(), a->id.c_str(), a->summary.data(), a->summary.size(), nullptr, 0,
                                           XS_UNSET, id),
            "branch");
    s.check(xs_session_flush(s.get()), "branch");
    print_id(id);
  });
}

void add_label(CLI::App& app, Globals& g) {
  auto a = std::make_shared<LabelArgs>();
  CLI::App* cmd = app.add_subcommand("label", "label entry ID (or --clear its label); prints the label entry's id");
  cmd->add_option("SESSION", a->session, "a session file, id or id prefix")->required();
  cmd->add_option("ID", a->id, "the entry to label")->required();
  auto* text = cmd->add_option("TEXT", a->text, "the label");
  cmd->add_flag("--clear", a->clear, "remove the entry's label")->excludes(text);
  cmd->callback([a, &g] {
    if (!a->clear && a->text.empty()) throw CLI::ValidationError("TEXT", "give a label, or --clear");
    Store store(g.store());
    Session s = open_writable(store, a->session);
    char id[XS_ID_BUFSIZE];
    s.check(xs_append_label(s.get(), a->id.c_str(), a->clear ? nullptr : a->text.c_str(), id), "label");
    s.check(xs_session_flush(s.get()), "label");
    print_id(id);
  });
}

}  // namespace xs::cli
