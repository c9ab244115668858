// xs search QUERY: every transcript of the store searched through the session index
// (docs/search.md), refreshed first so that what agents wrote since is found. xs index
// rebuild|refresh|verify|info: the index itself, which is derived data (deleting it loses nothing).
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <memory>
#include <vector>

#include "commands.h"
#include "json.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

struct SearchArgs {
  std::string query;
  std::string cwd;
  std::string role;
  std::string since;
  std::string session;
  uint32_t limit = 0;
  bool fts = false;
  bool no_refresh = false;
  bool json = false;
};

// The store's index handle, closed when it goes.
class IndexHandle {
 public:
  // A store on the disk keeps its index beside its sessions; a store in a database (--store) has
  // no directory for a SQLite file, and this machine's root keeps one for it (`path`).
  IndexHandle(const Store& store, const std::string& path) {
    xs_index_options o;
    xs_index_options_init(&o, XS_INDEX_OPTIONS_VERSION);
    o.path = path.c_str();
    store.check(xs_index_open(store.get(), store.storage() ? &o : nullptr, &ix_), "index");
  }
  ~IndexHandle() { xs_index_close(ix_); }
  IndexHandle(const IndexHandle&) = delete;
  IndexHandle& operator=(const IndexHandle&) = delete;
  // The JSON a reader of the index writes into a caller's buffer.
  template <class F>
  std::string read(F&& fill) const {
    return read_text(fill, [&] { return std::string("index: ") + xs_index_errmsg(ix_); });
  }
  xs_index* get() const { return ix_; }

 private:
  xs_index* ix_ = nullptr;
};

std::string index_path(const Globals& g, const Store& store) {
  return (store.storage() ? g.local_root() : store.root()) + "/index.db";
}

// One block per hit: "<session id> <entry id>  <when>  <role>  <title or cwd>", then the snippet
// indented; a hit off the current branch says so (xs context SESSION --leaf ENTRY opens it).
void print_hits(Json hits, const Style& style) {
  int64_t now = now_ms();
  std::string out;
  size_t n = 0;
  for (Json h : items(hits)) {
    ++n;
    constexpr int64_t kNoTime = INT64_MIN;
    int64_t ts = num(h, "timestamp", kNoTime);
    std::string_view title = str(h, "sessionTitle");
    out += style.dim(std::string(str(h, "sessionId"))) + " " + std::string(str(h, "entryId")) + "  ";
    out += (ts == kNoTime ? std::string("-") : relative_time(ts, now)) + "  ";
    out += std::string(str(h, "role", "-")) + "  ";
    out += title.empty() ? std::string(str(h, "cwd")) : one_line(title, 60);
    if (!flag(h, "onPath")) out += "  " + style.yellow("(other branch)");
    out += "\n    " + marked_snippet(str(h, "snippet"), style) + "\n";
  }
  out += counted(n, "hit") + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

void print_json(std::string text) {
  text += "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
}

// The index's counts on one line: "3 files: 1 added, 2 unchanged; 40 entries indexed".
void print_report(Json r) {
  std::string out = counted(static_cast<uint64_t>(num(r, "files")), "file") + ":";
  const char* parts[] = {"added", "appended", "reindexed", "unchanged", "removed", "unreadable", "raced"};
  bool first = true;
  for (const char* p : parts) {
    int64_t v = num(r, p);
    if (v == 0) continue;
    out += std::string(first ? " " : ", ") + std::to_string(v) + " " + p;
    first = false;
  }
  if (first) out += " none";
  out += "; " + entries_text(num(r, "entries")) + " indexed\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
}

}  // namespace

void add_search(CLI::App& app, Globals& g) {
  auto a = std::make_shared<SearchArgs>();
  CLI::App* cmd = app.add_subcommand("search", "find QUERY in every transcript of the store (the session index)");
  cmd->add_option("QUERY", a->query, "words to find (the last one may be a prefix); with --fts, FTS5 query syntax")
      ->required();
  cmd->add_option("--cwd", a->cwd, "only sessions of this working directory");
  cmd->add_option("--role", a->role, "only what this role said: user, assistant, tool, summary, label");
  cmd->add_option("--since", a->since, "only entries since an age (7d, 12h) or a UTC date (2026-11-01)");
  cmd->add_option("--session", a->session, "only this session (its id)");
  cmd->add_option("--limit", a->limit, "at most this many hits (default 20, at most 10000)");
  cmd->add_flag("--fts", a->fts, "QUERY is FTS5 syntax: \"phrases\", prefix*, AND/OR/NOT, NEAR(...)");
  cmd->add_flag("--no-refresh", a->no_refresh, "search the index as it is, without reading what changed first");
  cmd->add_flag("--json", a->json,
                "the library's JSON: [{sessionId, sessionTitle, sessionPath, cwd, entryId, role, onPath, "
                "timestamp, score, snippet}]");
  cmd->footer(
      "The index is <root>/index.db (SQLite, derived from the transcripts: `xs index rebuild` makes it\n"
      "again). Hits are ranked by bm25, matches shown in bold on a terminal. `xs context SESSION --leaf\n"
      "ENTRY` and `xs tree SESSION --around ENTRY` open the place a hit points at. A query FTS5 cannot\n"
      "parse exits with status 2 and SQLite's message.");
  cmd->callback([a, &g] {
    Store store(g.store());
    require_root(store);
    xs_search_options o;
    xs_search_options_init(&o, XS_SEARCH_OPTIONS_VERSION);
    std::string cwd = absolute_cwd(a->cwd);
    o.flags = a->fts ? 0 : XS_SEARCH_LITERAL;
    o.cwd = cwd.empty() ? nullptr : cwd.c_str();
    o.role = a->role.empty() ? nullptr : a->role.c_str();
    o.session_id = a->session.empty() ? nullptr : a->session.c_str();
    o.since_ms = a->since.empty() ? 0 : parse_moment(a->since, "--since");
    o.limit = a->limit;
    IndexHandle ix(store, index_path(g, store));
    if (!a->no_refresh) {
      ix.read([&](char* b, size_t c, size_t* n) { return xs_index_refresh(ix.get(), b, c, n); });
    }
    std::string text =
        ix.read([&](char* b, size_t c, size_t* n) { return xs_search(ix.get(), a->query.c_str(), &o, b, c, n); });
    if (a->json) return print_json(std::move(text));
    JsonDoc doc = parse_json(text);
    print_hits(doc.root(), Style(g.color, STDOUT_FILENO));
  });
}

void add_index(CLI::App& app, Globals& g) {
  CLI::App* cmd = app.add_subcommand("index", "the session index behind xs search: rebuild, refresh, verify, info");
  cmd->require_subcommand(1);
  auto json = std::make_shared<bool>(false);
  struct Verb {
    const char* name;
    const char* help;
    xs_status (*call)(xs_index*, char*, size_t, size_t*);
  };
  static const Verb verbs[] = {
      {"rebuild", "make the index again from every transcript (live and archived)", xs_index_rebuild},
      {"refresh", "bring the index up to date: read only the files that changed", xs_index_refresh},
      {"verify", "report every difference between the index and the files (exit 1 if any)", xs_index_verify},
      {"info", "where the index is and what it holds", xs_index_info},
  };
  for (const Verb& v : verbs) {
    CLI::App* sub = cmd->add_subcommand(v.name, v.help);
    sub->add_flag("--json", *json, "the library's JSON report");
    sub->callback([&v, json, &g] {
      Store store(g.store());
      require_root(store);
      IndexHandle ix(store, index_path(g, store));
      std::string text = ix.read([&](char* b, size_t c, size_t* n) { return v.call(ix.get(), b, c, n); });
      JsonDoc doc = parse_json(text);
      Json r = doc.root();
      std::string_view name = v.name;
      if (name == "verify" && !flag(r, "ok")) g.exit_code = kExitProblems;
      if (*json) return print_json(std::move(text));
      if (name == "rebuild" || name == "refresh") return print_report(r);
      std::string out;
      if (name == "info") {
        out = std::string(str(r, "path")) + ": " + counted(static_cast<uint64_t>(num(r, "sessions")), "session") +
              ", " + entries_text(num(r, "entries")) + "\n";
        std::optional<Json> damaged = member(r, "damaged");
        if (damaged && damaged->is_object()) {
          out += "a damaged index was kept aside: " + std::string(str(*damaged, "path")) + " (" +
                 std::string(str(*damaged, "reason")) + ")\n";
        }
      } else {
        for (const char* list : {"missing", "extra", "stale"}) {
          for (Json p : items(r, list))
            out += std::string(list) + ": " + shown_path(store, std::string(text_of(p))) + "\n";
        }
        out += counted(static_cast<uint64_t>(num(r, "files")), "file") + ", " +
               counted(static_cast<uint64_t>(num(r, "indexed")), "indexed session") + ": " +
               (g.exit_code == kExitProblems ? "the index differs from the files (xs index refresh)" : "in step") +
               "\n";
      }
      std::fwrite(out.data(), 1, out.size(), stdout);
    });
  }
}

}  // namespace xs::cli
