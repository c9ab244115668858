// xs history [QUERY] [--cwd DIR] [--json]: the prompt history of the store (docs/history.md).
// Without QUERY the newest prompts; with one, the prompts that match it, best first. --add records
// a prompt (a shell hook's way in).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <vector>

#include "commands.h"
#include "json.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct HistoryArgs {
  std::string query;
  std::string cwd;
  std::string add;
  uint32_t limit = 0;
  bool fts = false;
  bool json = false;
};

// The store's history handle, closed (and flushed) when it goes.
class HistoryHandle {
 public:
  // A store on the disk keeps its history beside its sessions; a store in a database (--store)
  // has none of its own, and the prompts go to this machine's history (`path`).
  HistoryHandle(const Store& store, const std::string& path) {
    xs_history_options o;
    xs_history_options_init(&o, XS_HISTORY_OPTIONS_VERSION);
    o.path = path.c_str();
    store.check(xs_history_open(store.get(), store.storage() ? &o : nullptr, &h_), "history");
  }
  ~HistoryHandle() { xs_history_close(h_); }
  HistoryHandle(const HistoryHandle&) = delete;
  HistoryHandle& operator=(const HistoryHandle&) = delete;
  xs_history* get() const { return h_; }
  void check(xs_status st) const {
    if (st != XS_OK) throw ApiError(st, std::string("history: ") + xs_history_errmsg(h_));
  }
  // Closes now, so that the final flush's failure is reported.
  void close() {
    xs_status st = xs_history_flush(h_);
    check(st);
    xs_history_close(h_);
    h_ = nullptr;
  }

 private:
  xs_history* h_ = nullptr;
};

void print_table(Json rows, bool search, const Style& style) {
  int64_t now = now_ms();
  std::vector<std::vector<std::string>> table = {{"ID", "WHEN", "CWD", search ? "MATCH" : "PROMPT"}};
  for (Json row : items(rows)) {
    std::optional<Json> cwd = member(row, "cwd");
    std::string text = search ? marked_snippet(str(row, "snippet"), style) : one_line(str(row, "prompt"), 100);
    table.push_back({std::to_string(num(row, "id")), relative_time(num(row, "createdAt"), now),
                     cwd && cwd->is_string() ? std::string(text_of(*cwd)) : "-", text});
  }
  std::vector<size_t> width(3, 0);
  for (const auto& row : table) {
    for (size_t i = 0; i < 3; ++i) width[i] = std::max(width[i], display_width(row[i]));
  }
  std::string out;
  for (const auto& row : table) {
    for (size_t i = 0; i < 3; ++i) out += row[i] + std::string(width[i] - display_width(row[i]) + 2, ' ');
    out += row[3] + "\n";
  }
  out += counted(table.size() - 1, "prompt") + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_history(CLI::App& app, Globals& g) {
  auto a = std::make_shared<HistoryArgs>();
  CLI::App* cmd = app.add_subcommand("history", "the prompts typed in this store's agents: newest, or matching QUERY");
  cmd->add_option("QUERY", a->query, "words to find (the last one may be a prefix); with --fts, FTS5 query syntax");
  cmd->add_option("--cwd", a->cwd, "only prompts typed in this directory (--add: the prompt's directory)");
  cmd->add_option("--limit", a->limit, "at most this many (default 20, at most 10000)");
  cmd->add_flag("--fts", a->fts, "QUERY is FTS5 syntax: \"phrases\", prefix*, AND/OR/NOT, NEAR(...)");
  cmd->add_flag("--json", a->json, "the library's JSON: [{id, prompt, createdAt, cwd[, score, snippet]}]");
  cmd->add_option("--add", a->add, "record this prompt (in --cwd, else the current directory) and exit");
  cmd->footer(
      "The history is <root>/history.db (SQLite). Matches are ranked by bm25 and shown in bold on a\n"
      "terminal. A query FTS5 cannot parse exits with status 2 and SQLite's message.");
  cmd->callback([a, &g] {
    Store store(g.store());
    const std::string db = (store.storage() ? g.local_root() : store.root()) + "/history.db";
    if (!a->add.empty()) {
      std::string cwd = a->cwd.empty() ? std::filesystem::current_path().string() : absolute_cwd(a->cwd);
      HistoryHandle h(store, db);
      h.check(xs_history_add(h.get(), a->add.data(), a->add.size(), cwd.c_str(), now_ms()));
      h.close();
      return;
    }
    require_root(store);
    bool search = !a->query.empty();
    // Reading writes nothing: a store without a history shows an empty one (opening would create it).
    if (!std::filesystem::exists(db)) {
      if (a->json) {
        std::fputs("[]\n", stdout);
      } else {
        JsonDoc doc = parse_json("[]");
        print_table(doc.root(), search, Style(g.color, STDOUT_FILENO));
      }
      return;
    }
    HistoryHandle h(store, db);
    std::string cwd = absolute_cwd(a->cwd);
    const char* cwd_arg = cwd.empty() ? nullptr : cwd.c_str();
    auto error = [&] { return std::string("history: ") + xs_history_errmsg(h.get()); };
    std::string text =
        search ? read_text(
                     [&](char* b, size_t c, size_t* n) {
                       return xs_history_search(h.get(), a->query.c_str(), cwd_arg, a->fts ? 0 : XS_HISTORY_LITERAL,
                                                a->limit, b, c, n);
                     },
                     error)
               : read_text([&](char* b, size_t c,
                               size_t* n) { return xs_history_recent(h.get(), cwd_arg, a->limit, b, c, n); },
                           error);
    if (a->json) {
      text += "\n";
      std::fwrite(text.data(), 1, text.size(), stdout);
      return;
    }
    JsonDoc doc = parse_json(text);
    print_table(doc.root(), search, Style(g.color, STDOUT_FILENO));
  });
}

}  // namespace xs::cli
