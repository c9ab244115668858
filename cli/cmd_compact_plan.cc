// xs compact-plan SESSION --window N: what a host would decide before its next turn — whether the
// context is due for compaction, and where a compaction would cut (docs/compaction-planning.md).
// Nothing is written: xs_append_compaction is the agent's, after its model wrote the summary.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "text.h"

namespace xs::cli {

namespace {

struct PlanArgs {
  std::string session;
  std::string leaf;
  int64_t window = 0;
  int64_t tokens = -1;  // -1: the plan's estimate of the context
  xs_compaction_settings settings{};
  bool as_json = false;
};

void run(const Store& store, PlanArgs& a) {
  Session s = open_read_only(store, a.session);
  a.settings.context_window = a.window;
  std::string plan_text = read_text(
      [&](char* b, size_t c, size_t* n) {
        return xs_compaction_plan(s.get(), a.leaf.empty() ? nullptr : a.leaf.c_str(), &a.settings, b, c, n);
      },
      [&] { return a.session + ": " + xs_session_errmsg(s.get()); });
  JsonDoc plan = parse_json(plan_text);
  bool estimated = a.tokens < 0;
  int64_t tokens = estimated ? num(plan.root(), "tokensBefore") : a.tokens;
  int due = 0;
  if (xs_should_compact(&a.settings, tokens, &due) != XS_OK) {
    throw ApiError(XS_EINVAL, "--window must be > 0 and every token count >= 0");
  }
  if (a.as_json) {
    std::printf("{\"contextTokens\":%lld,\"estimated\":%s,\"shouldCompact\":%s,\"plan\":%s}\n",
                static_cast<long long>(tokens), estimated ? "true" : "false", due ? "true" : "false",
                plan_text.c_str());
    return;
  }
  Json p = plan.root();
  std::string out = "context   " + std::to_string(tokens) + " tokens" + (estimated ? " (estimated)" : "") + " of a " +
                    std::to_string(a.window) + "-token window\n";
  out += std::string("compact   ") + (due ? "now" : "not yet") + "\n";
  if (flag(p, "needed")) {
    out += "cut at    " + std::string(str(p, "firstKeptEntryId")) + ": summarise " +
           std::to_string(count(p, "toSummarise")) + (count(p, "toSummarise") == 1 ? " entry" : " entries") +
           ", keep ~" + std::to_string(num(p, "keptTokens")) + " tokens\n";
  } else {
    out += "cut at    - (the path holds less than --keep tokens)\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_compact_plan(CLI::App& app, Globals& g) {
  auto a = std::make_shared<PlanArgs>();
  xs_compaction_settings_init(&a->settings, XS_COMPACTION_SETTINGS_VERSION);
  CLI::App* cmd = app.add_subcommand("compact-plan", "whether a session is due for compaction, and where to cut");
  cmd->add_option("SESSION", a->session, "file path, session id or id prefix")->required();
  cmd->add_option("--window", a->window, "the model's context window, in tokens")->required();
  cmd->add_option("--tokens", a->tokens, "the context's tokens from the last reply's usage (default: estimated)");
  cmd->add_option("--leaf", a->leaf, "plan at this entry instead of the session's leaf");
  cmd->add_option("--keep", a->settings.keep_recent_tokens, "tokens of the newest entries to keep")
      ->capture_default_str();
  cmd->add_option("--reserve", a->settings.reserve_tokens, "tokens kept free for the prompt and reply")
      ->capture_default_str();
  cmd->add_option("--floor", a->settings.reserve_floor, "the floor under --reserve (0: none)")->capture_default_str();
  cmd->add_flag("--json", a->as_json, "{contextTokens, estimated, shouldCompact, plan}");
  cmd->callback([a, &g] { run(Store(g.store()), *a); });
}

}  // namespace xs::cli
