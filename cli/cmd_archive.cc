// xs archive / xs prune: retention without silent loss (docs/retention.md). archive compresses
// sessions idle for longer than --older to "<file>.jsonl.gz" (verified before the original goes);
// prune deletes only such archives, older than --older. Both take --dry-run and --json.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "commands.h"
#include "json.h"
#include "progress.h"
#include "text.h"

namespace xs::cli {

namespace {

struct RetentionArgs {
  std::string older;
  bool dry_run = false;
  bool json = false;
};

xs_archive_options options(const RetentionArgs& a) {
  xs_archive_options o;
  xs_archive_options_init(&o, XS_ARCHIVE_OPTIONS_VERSION);
  o.older_than_ms = parse_age(a.older, "--older");
  o.now_ms = now_ms();
  o.flags = a.dry_run ? XS_ARCHIVE_DRY_RUN : 0;
  return o;
}

using RetentionCall = xs_status (*)(xs_store*, const xs_archive_options*, char*, size_t, size_t*);

// The library's report of `call` (xs_store_archive, xs_store_prune).
std::string run(const Store& store, RetentionCall call, const xs_archive_options& o) {
  return read_text([&](char* b, size_t c, size_t* n) { return call(store.get(), &o, b, c, n); },
                   [&] { return store.error(); });
}

void archive(const Store& store, const RetentionArgs& a) {
  require_root(store);
  xs_archive_options o = options(a);
  std::unique_ptr<Progress> bar;
  o.progress_user = &bar;
  o.progress = [](uint64_t done, uint64_t total, void* user) {
    auto& b = *static_cast<std::unique_ptr<Progress>*>(user);
    if (!b) b = std::make_unique<Progress>("archive", total);
    b->update(done, "");
  };
  std::string text = run(store, xs_store_archive, o);
  bar.reset();
  if (a.json) return (void)std::printf("%s\n", text.c_str());
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  std::string out;
  uint64_t bytes = 0, gz = 0, n = 0;
  for (Json s : items(d, "archived")) {
    out += std::string(a.dry_run ? "would archive " : "archived ") + shown_path(store, std::string(str(s, "path")));
    if (!a.dry_run) out += " (" + human_size(num(s, "bytes")) + " -> " + human_size(num(s, "gzBytes")) + ")";
    out += "\n";
    bytes += num(s, "bytes");
    gz += num(s, "gzBytes");
    ++n;
  }
  uint64_t skipped = 0;
  for (Json s : items(d, "skipped")) {
    out += "skipped " + shown_path(store, std::string(str(s, "path"))) + ": " + std::string(str(s, "reason")) + " (" +
           std::string(str(s, "detail")) + ")\n";
    ++skipped;
  }
  out += std::string(a.dry_run ? "would archive " : "archived ") + counted(n, "session") + ", " + human_size(bytes);
  if (!a.dry_run) out += " -> " + human_size(gz);
  if (skipped) out += "; skipped " + std::to_string(skipped);
  out += "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void prune(const Store& store, const RetentionArgs& a) {
  require_root(store);
  std::string text = run(store, xs_store_prune, options(a));
  if (a.json) return (void)std::printf("%s\n", text.c_str());
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  std::string out;
  uint64_t bytes = 0, n = 0;
  for (Json s : items(d, "pruned")) {
    out += std::string(a.dry_run ? "would delete " : "deleted ") + shown_path(store, std::string(str(s, "path"))) +
           " (" + human_size(num(s, "gzBytes")) + ")\n";
    bytes += num(s, "gzBytes");
    ++n;
  }
  out +=
      std::string(a.dry_run ? "would delete " : "deleted ") + counted(n, "archive") + ", " + human_size(bytes) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void add_common(CLI::App* cmd, RetentionArgs& a, const char* older_help) {
  cmd->add_option("--older", a.older, older_help)->required();
  cmd->add_flag("--dry-run", a.dry_run, "say what would be done; change nothing");
  cmd->add_flag("--json", a.json, "the library's report");
}

}  // namespace

void add_archive(CLI::App& app, Globals& g) {
  auto a = std::make_shared<RetentionArgs>();
  CLI::App* cmd = app.add_subcommand("archive", "compress sessions idle for longer than --older to .jsonl.gz");
  add_common(cmd, *a, "idle for longer than this (30d, 12h, 45m, 90s)");
  cmd->callback([a, &g] { archive(Store(g.store()), *a); });
}

void add_prune(CLI::App& app, Globals& g) {
  auto a = std::make_shared<RetentionArgs>();
  CLI::App* cmd = app.add_subcommand("prune", "delete archived sessions archived longer ago than --older");
  add_common(cmd, *a, "archived longer ago than this (90d, ...)");
  cmd->callback([a, &g] { prune(Store(g.store()), *a); });
}

}  // namespace xs::cli
