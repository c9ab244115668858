// xs blobs ls | verify | gc: upkeep of the store's content-addressed blobs (<root>/blobs).
// gc marks over every file under the root and never deletes anything younger than the grace
// period (1 hour by default), so an agent's put-then-append cannot lose its blob.
#include <cstdio>

#include "commands.h"
#include "json.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct BlobsArgs {
  bool json = false;
  bool dry_run = false;
  int64_t grace_s = 3600;
};

std::string blob_list(const Store& store, uint32_t flags) {
  return read_text([&](char* b, size_t c, size_t* n) { return xs_blob_list(store.get(), flags, b, c, n); },
                   [&] { return store.error(); });
}

std::string file_row(Json f, std::string_view key, int64_t now) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-64s  %-5s  %s\n", std::string(str(f, key)).c_str(),
                human_size(num(f, "size")).c_str(), relative_time(num(f, "mtimeMs"), now).c_str());
  return buf;
}

void ls(const Store& store, bool json) {
  std::string text = blob_list(store, 0);
  if (json) {
    std::printf("%s\n", text.c_str());
    return;
  }
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  int64_t now = now_ms();
  std::string out;
  for (Json b : items(d, "blobs")) out += file_row(b, "hash", now);
  out += counted(num(d, "count"), "blob") + ", " + human_size(num(d, "bytes")) + "\n";
  for (Json f : items(d, "others")) {
    out += "not a blob: " + std::string(str(f, "name")) + " (" + human_size(num(f, "size")) + ")\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
}

int verify(const Store& store, bool json, const Style& style) {
  std::string text = blob_list(store, XS_BLOB_LIST_VERIFY);
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  size_t bad = 0;
  std::string out;
  for (Json b : items(d, "blobs")) {
    if (str(b, "problem").empty()) continue;
    ++bad;
    out += style.red("damaged") + ": " + std::string(str(b, "problem")) + "\n";
  }
  if (json) {
    std::printf("%s\n", text.c_str());
  } else {
    out += counted(num(d, "count"), "blob") + ": " + std::to_string(num(d, "count") - static_cast<int64_t>(bad)) +
           " ok, " + std::to_string(bad) + " damaged\n";
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  return bad ? kExitProblems : 0;
}

void gc(const Store& store, const BlobsArgs& a) {
  if (a.grace_s < 0) throw CLI::ValidationError("--grace", "must not be negative");
  xs_gc_options o;
  xs_gc_options_init(&o, XS_GC_OPTIONS_VERSION);
  o.flags = a.dry_run ? XS_GC_DRY_RUN : 0;
  o.grace_ms = a.grace_s * 1000;
  o.now_ms = now_ms();
  std::string text = read_text([&](char* b, size_t c, size_t* n) { return xs_blob_gc(store.get(), &o, b, c, n); },
                               [&] { return store.error(); });
  if (a.json) {
    std::printf("%s\n", text.c_str());
    return;
  }
  JsonDoc doc = parse_json(text);
  Json d = doc.root();
  std::string out =
      "scanned " + counted(num(d, "filesScanned"), "file") + ": " + counted(num(d, "referenced"), "blob") + " in use\n";
  const char* verb = a.dry_run ? "would delete" : "deleted";
  for (Json f : items(d, "deleted")) {
    out += std::string(verb) + " " + std::string(str(f, "name")) + " (" + human_size(num(f, "size")) + ")\n";
  }
  for (Json f : items(d, "young")) {
    out += "kept " + std::string(str(f, "name")) + " (unused, but younger than the grace period)\n";
  }
  for (Json h : items(d, "missing")) {
    out += "missing " + std::string(text_of(h)) + " (referenced, not in the store)\n";
  }
  out += std::string(a.dry_run ? "would free " : "freed ") + human_size(num(d, "bytesFreed")) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_blobs(CLI::App& app, Globals& g) {
  auto a = std::make_shared<BlobsArgs>();
  CLI::App* cmd = app.add_subcommand("blobs", "blob store upkeep: ls, verify, gc");
  cmd->require_subcommand(1);
  CLI::App* ls_cmd = cmd->add_subcommand("ls", "the blobs: hash, size, age");
  ls_cmd->add_flag("--json", a->json, "the library's listing");
  ls_cmd->callback([a, &g] { ls(Store(g.store()), a->json); });
  CLI::App* verify_cmd = cmd->add_subcommand("verify", "read and hash every blob (exit 1 if one is damaged)");
  verify_cmd->add_flag("--json", a->json, "the library's listing with a problem per blob");
  verify_cmd->callback([a, &g] { g.exit_code = verify(Store(g.store()), a->json, Style(g.color, 1)); });
  CLI::App* gc_cmd = cmd->add_subcommand("gc", "delete blobs no file under the root mentions (older than --grace)");
  gc_cmd->add_flag("--dry-run", a->dry_run, "say what would be deleted; delete nothing");
  gc_cmd->add_option("--grace", a->grace_s, "never delete anything younger than this many seconds")
      ->capture_default_str();
  gc_cmd->add_flag("--json", a->json, "the library's report");
  gc_cmd->callback([a, &g] { gc(Store(g.store()), *a); });
}

}  // namespace xs::cli
