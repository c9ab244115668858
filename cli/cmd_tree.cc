// xs tree: the entry tree with box characters. A linear run stays at one indentation and only a
// branch point indents, so a 100k-entry session with few branches stays readable; long runs of
// plain messages fold to their ends unless --full.
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "commands.h"
#include "entry_text.h"
#include "json.h"
#include "style.h"
#include "text.h"

namespace xs::cli {

namespace {

constexpr size_t kPreviewChars = 72;
constexpr size_t kFoldAbove = 6;   // runs longer than this fold...
constexpr size_t kFoldKeep = 2;    // ...to this many entries at each end
constexpr size_t kMaxIndent = 24;  // branch levels drawn; deeper ones stay at this indentation

struct Node {
  Json v;
  std::vector<size_t> kids;
};

class TreePrinter {
 public:
  // `around`: an entry to show whatever folds (a search hit), marked; empty for none.
  TreePrinter(Json tree, std::string leaf, std::string around, bool full, const Style& style)
      : leaf_(std::move(leaf)), around_(std::move(around)), full_(full), style_(style) {
    std::unordered_map<std::string_view, size_t> at;
    for (Json n : items(tree)) {
      at.emplace(str(n, "id"), nodes_.size());
      nodes_.push_back({n, {}});
    }
    for (size_t i = 0; i < nodes_.size(); ++i) {
      if (num(nodes_[i].v, "depth", 0) == 0) roots_.push_back(i);
      for (Json k : items(nodes_[i].v, "children")) {
        auto it = at.find(text_of(k));
        if (it != at.end()) nodes_[i].kids.push_back(it->second);
      }
    }
  }

  bool has(std::string_view id) const {
    for (const Node& n : nodes_) {
      if (str(n.v, "id") == id) return true;
    }
    return false;
  }

  std::string print() {
    if (nodes_.empty()) return "(no entries)\n";
    struct Item {
      size_t node;
      std::string prefix;
      const char* connector;
      size_t level;
    };
    std::vector<Item> stack;
    push_children(stack, roots_, "", 0);
    while (!stack.empty()) {
      Item it = std::move(stack.back());
      stack.pop_back();
      line(it.node, it.prefix + it.connector);
      std::string_view c(it.connector);
      std::string child_prefix = it.prefix;
      size_t level = it.level;
      if (!c.empty() && level < kMaxIndent) {
        child_prefix += c == "└─ " ? "   " : "│  ";
        ++level;
      }
      size_t n = it.node;
      // Follow the linear run below n at this indentation, folding its middle.
      while (nodes_[n].kids.size() == 1) {
        size_t run_end = n;
        std::vector<size_t> run;
        for (size_t k = nodes_[n].kids[0];; k = nodes_[k].kids[0]) {
          run.push_back(k);
          run_end = k;
          if (nodes_[k].kids.size() != 1 || !plain(k)) break;
        }
        if (!full_ && run.size() > kFoldAbove + 1) {
          // The last node of the run may be a branch point or special: always shown.
          for (size_t i = 0; i < kFoldKeep; ++i) line(run[i], child_prefix);
          size_t hidden = run.size() - 1 - 2 * kFoldKeep;
          out_ += child_prefix + style_.dim("┆ " + std::to_string(hidden) + " more entries (--full shows them)") + "\n";
          for (size_t i = run.size() - 1 - kFoldKeep; i < run.size(); ++i) line(run[i], child_prefix);
        } else {
          for (size_t k : run) line(k, child_prefix);
        }
        n = run_end;
      }
      if (nodes_[n].kids.size() > 1) push_children(stack, nodes_[n].kids, child_prefix, level);
    }
    return std::move(out_);
  }

 private:
  template <typename Stack>
  static void push_children(Stack& stack, const std::vector<size_t>& kids, const std::string& prefix, size_t level) {
    if (kids.size() == 1) {
      stack.push_back({kids[0], prefix, "", level});
      return;
    }
    for (size_t i = kids.size(); i-- > 0;)
      stack.push_back({kids[i], prefix, i + 1 == kids.size() ? "└─ " : "├─ ", level});
  }

  // A message with no label, not the leaf and not the entry asked about: the kind of entry a fold
  // may hide.
  bool plain(size_t i) const {
    Json n = nodes_[i].v;
    std::optional<Json> e = member(n, "entry");
    std::string_view id = str(n, "id");
    return e && str(*e, "type") == "message" && !member(n, "label") && id != leaf_ && id != around_;
  }

  void line(size_t i, const std::string& prefix) {
    Json n = nodes_[i].v;
    std::optional<Json> e = member(n, "entry");
    std::string_view id = str(n, "id");
    std::string_view type = e ? str(*e, "type") : "";
    std::string preview = e ? entry_preview(*e, kPreviewChars) : "?";
    if (type == "compaction") preview = style_.magenta(preview);
    if (type == "branch_summary") preview = style_.cyan(preview);
    out_ += prefix + style_.dim(std::string(id)) + " " + preview;
    if (std::optional<Json> label = member(n, "label"); label && label->is_string()) {
      out_ += " " + style_.yellow("[" + one_line(text_of(*label), 40) + "]");
    }
    if (id == leaf_) out_ += " " + style_.green("◀ leaf");
    if (id == around_) out_ += " " + style_.bold("◀ here");
    out_ += '\n';
  }

  std::vector<Node> nodes_;
  std::vector<size_t> roots_;
  std::string leaf_;
  std::string around_;
  bool full_;
  const Style& style_;
  std::string out_;
};

}  // namespace

void add_tree(CLI::App& app, Globals& g) {
  auto ref = std::make_shared<std::string>();
  auto full = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  auto around = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("tree", "the entry tree: branches, labels, the leaf, compactions");
  cmd->add_option("SESSION", *ref, "file path, session id or id prefix")->required();
  cmd->add_flag("--full", *full, "show long linear runs whole instead of folding them");
  cmd->add_option("--around", *around, "mark this entry (an xs search hit) and keep it out of every fold");
  cmd->add_flag("--json", *json, "the library's flat tree: [{id, parentId, depth, children, label?, entry}]");
  cmd->callback([ref, full, json, around, &g] {
    Store store(g.store());
    Session s = open_read_only(store, *ref);
    std::string text = s.tree();
    if (*json) {
      std::fwrite(text.data(), 1, text.size(), stdout);
      std::fputc('\n', stdout);
      return;
    }
    JsonDoc tree = parse_json(text);
    Style style(g.color, 1);
    TreePrinter printer(tree.root(), s.leaf(), *around, *full, style);
    if (!around->empty() && !printer.has(*around)) {
      throw ApiError(XS_ENOTFOUND, "tree: no entry " + *around + " in the session");
    }
    std::string out = printer.print();
    std::fwrite(out.data(), 1, out.size(), stdout);
  });
}

}  // namespace xs::cli
