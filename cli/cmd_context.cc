// xs context: what the model would see from a leaf. Readable by default (a heading per message,
// its text whole); --json prints the library's context exactly.
#include <cstdio>

#include "commands.h"
#include "entry_text.h"
#include "json.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

// The context's models map a role to "provider/id": ", model anthropic/claude-sonnet-4-5" for
// the default role, ", smol model openai/gpt-4o-mini" for another.
std::string models_text(Json ctx) {
  std::string out;
  std::optional<Json> models = member(ctx, "models");
  if (!models) return out;
  for (simdjson::dom::key_value_pair m : fields(*models)) {
    if (!m.value.is_string()) continue;
    out += ", ";
    if (m.key != "default") out += one_line(m.key, 40) + " ";
    out += "model " + std::string(text_of(m.value));
  }
  return out;
}

std::string readable(Json ctx, const Style& style) {
  std::string out;
  simdjson::dom::array messages = items(ctx, "messages");
  size_t n = count(ctx, "messages");
  out += "leaf " + std::string(str(ctx, "leafId", "-")) + ", " + counted(n, "message") + ", thinking " +
         std::string(str(ctx, "thinkingLevel", "off")) + models_text(ctx);
  std::string_view mode = str(ctx, "mode", "none");
  if (mode != "none") out += ", mode " + std::string(mode);
  out += "\n";
  for (Json m : messages) {
    out += "\n" + style.bold("── " + message_heading(m) + " ──") + "\n";
    std::string text = content_text(m);
    out += text.empty() ? style.dim("(no text)") : text;
    out += "\n";
  }
  return out;
}

}  // namespace

void add_context(CLI::App& app, Globals& g) {
  auto ref = std::make_shared<std::string>();
  auto leaf = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("context", "what the model would see from the leaf (or --leaf ID)");
  cmd->add_option("SESSION", *ref, "file path, session id or id prefix")->required();
  cmd->add_option("--leaf", *leaf, "build the context from this entry instead of the current leaf");
  cmd->add_flag("--json", *json, "the exact context JSON {leafId, messages, thinkingLevel, models, ...}");
  cmd->callback([ref, leaf, json, &g] {
    Store store(g.store());
    Session s = open_read_only(store, *ref);
    std::string text = s.context(leaf->empty() ? nullptr : leaf->c_str());
    if (*json) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fputc('\n', stdout);
      return;
    }
    JsonDoc ctx = parse_json(text);
    std::string out = readable(ctx.root(), Style(g.color, 1));
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
}

}  // namespace xs::cli
