#include "html/session_page.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "html/entry_html.h"
#include "html/escape.h"
#include "views/summary.h"

namespace xs::html {

const char kContentSecurityPolicy[] =
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

namespace {

using model::kNone;

// A branch nested deeper than this is shown flat inside the deepest one: browsers stop nesting
// elements somewhere past 500 levels (Chromium at 512), and each level here is two elements.
constexpr uint32_t kMaxNesting = 100;

// content-visibility lets a browser skip the layout of entries off screen: a 100k-entry page then
// opens in a fraction of the time (docs/html-view.md#speed).
constexpr char kStyle[] = R"css(
:root{--fg:#1d1f23;--muted:#636a75;--line:#d8dce2;--bg:#fff;--soft:#f5f6f8;--user:#e9f1ff;--tool:#f7f3ea;
--mark:#fff5d6;--branch:#eef8ef}
*{box-sizing:border-box}
body{margin:0 auto;max-width:60rem;padding:1.5rem;font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.4rem;margin:0 0 .5rem}
header.session{border-bottom:1px solid var(--line);margin-bottom:1rem;padding-bottom:.5rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:0;font-size:.9rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
article.entry{content-visibility:auto;contain-intrinsic-size:auto 5rem;border:1px solid var(--line);border-radius:6px;margin:.6rem 0;padding:.4rem .7rem;background:var(--bg)}
article.entry>header{display:flex;flex-wrap:wrap;gap:.6rem;align-items:baseline;font-size:.8rem;color:var(--muted)}
article.entry>header .kind{font-weight:600;color:var(--fg)}
article.entry>header .id{margin-left:auto;color:var(--muted);text-decoration:none;font-family:monospace}
.label{background:#ffe08a;color:#3d2f00;border-radius:3px;padding:0 .35rem;font-size:.8rem}
article.user{background:var(--user)}
article.toolResult,article.bashExecution,article.pythonExecution{background:var(--tool)}
article.mark{background:var(--mark)}
article.state{padding:.15rem .7rem;font-size:.85rem}
article.state details summary{color:var(--muted)}
.md{overflow-wrap:anywhere}.md p{margin:.4rem 0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--soft);padding:.5rem;border-radius:4px;margin:.3rem 0;
font:13px/1.4 ui-monospace,monospace;max-height:40rem;overflow:auto}
code{font-family:ui-monospace,monospace}
details>summary{cursor:pointer}
details.thinking>summary,details.tool-call>summary,details.tool-result>summary{color:var(--muted);font-size:.9rem}
details.tool-result.error>summary{color:#a11}
dl.args dt{font-family:monospace;color:var(--muted)}dl.args dd{margin:0 0 .3rem 1rem}
img.image{max-width:100%;border:1px solid var(--line);border-radius:4px;margin:.3rem 0}
.missing,.stop{color:#a11;font-size:.9rem}
div.branch-point{border-left:3px solid #3c9a4f;padding-left:.6rem;margin:.6rem 0}
div.branch-point>p.branch-note{margin:.2rem 0;font-size:.85rem;color:#2d6b39;font-weight:600}
.branch{background:var(--branch);border-radius:6px;padding:.2rem .6rem;margin:.3rem 0}
.branch>summary{font-size:.9rem}
footer{margin-top:2rem;color:var(--muted);font-size:.8rem}
)css";

std::string number(double v) {
  if (std::isfinite(v) && std::fabs(v) < 9e15 && v == std::floor(v)) return std::to_string(static_cast<int64_t>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

// The session's tree as this page walks it: children in file order, subtree sizes, the next
// entry of the current path.
struct Shape {
  std::vector<uint32_t> first, kids;  // children of i: kids[first[i] .. first[i+1])
  std::vector<uint32_t> roots;
  std::vector<uint32_t> size;       // entries in the subtree
  std::vector<uint32_t> path_next;  // on the current path: the next entry on it (kNone at the leaf)
  std::vector<bool> on_path;

  explicit Shape(const model::SessionData& data, const model::Tree& tree) {
    const uint32_t n = static_cast<uint32_t>(data.entries.size());
    first.assign(n + 1, 0);
    for (const model::Entry& e : data.entries) {
      if (e.parent != kNone) ++first[e.parent + 1];
    }
    for (uint32_t i = 0; i < n; ++i) first[i + 1] += first[i];
    kids.resize(first[n]);
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t p = data.entries[i].parent;
      (p == kNone ? roots.push_back(i) : void(kids[fill[p]++] = i));
    }
    // Sizes: children are summed into parents in the reverse of a pre-order (no recursion: a
    // session can be 100k entries deep).
    std::vector<uint32_t> order, stack(roots.rbegin(), roots.rend());
    order.reserve(n);
    while (!stack.empty()) {
      uint32_t i = stack.back();
      stack.pop_back();
      order.push_back(i);
      for (uint32_t k = first[i]; k < first[i + 1]; ++k) stack.push_back(kids[k]);
    }
    size.assign(n, 1);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (data.entries[*it].parent != kNone) size[data.entries[*it].parent] += size[*it];
    }
    path_next.assign(n, kNone);
    on_path.assign(n, false);
    std::vector<uint32_t> path = tree.path_to(tree.leaf());
    for (size_t i = 0; i < path.size(); ++i) {
      on_path[path[i]] = true;
      if (i + 1 < path.size()) path_next[path[i]] = path[i + 1];
    }
  }

  uint32_t child_count(uint32_t i) const { return first[i + 1] - first[i]; }
  // The entry a spine goes on with: the path's next one on the current path, else the newest child.
  uint32_t next_of(uint32_t i) const {
    if (on_path[i]) return path_next[i];
    return child_count(i) ? kids[first[i + 1] - 1] : kNone;
  }
};

void fact(std::string& out, std::string_view name, std::string_view value) {
  out += "<dt>";
  append_escaped(out, name);
  out += "</dt><dd>";
  append_escaped(out, value);
  out += "</dd>";
}

void header_section(std::string& out, const session::Session& s, const PageFacts& f, uint32_t labels) {
  const format::Header& h = s.header_info();
  stats::SessionStats st = s.stats();
  out += "<header class=\"session\"><h1>";
  append_escaped(out, f.title.empty() ? "Session " + h.id : f.title);
  out += "</h1><dl class=\"facts\">";
  fact(out, "Session", h.id);
  fact(out, "Working directory", h.cwd);
  fact(out, "Created", h.timestamp);
  if (h.parent_session) fact(out, "Parent session", *h.parent_session);
  fact(out, "Entries", std::to_string(f.entries));
  std::string roles;
  for (const stats::RoleCount& r : st.counts.messages) {
    roles += (roles.empty() ? "" : ", ") + r.role + " " + std::to_string(r.count);
  }
  fact(out, "Messages", std::to_string(f.messages) + (roles.empty() ? "" : " (" + roles + ")"));
  fact(out, "Tool calls", std::to_string(st.counts.tool_calls));
  fact(out, "Tokens",
       "input " + number(st.counts.input_tokens) + ", output " + number(st.counts.output_tokens) + ", cache read " +
           number(st.counts.cache_read) + ", cache write " + number(st.counts.cache_write));
  fact(out, "Cost", "$" + number(st.counts.cost));
  fact(out, "Compactions", std::to_string(st.counts.compactions));
  fact(out, "Branch points",
       std::to_string(f.branch_points) + " (" + std::to_string(f.branches) +
           (f.branches == 1 ? " other branch)" : " other branches)"));
  fact(out, "Labels", std::to_string(labels));
  out += "</dl></header>";
}

// The walk, with an explicit stack: an item renders an entry and goes on along its spine, opens a
// branch, or closes an element a branch point or branch opened.
struct Item {
  enum Kind : uint8_t { kEntry, kBranch, kClose } kind;
  uint32_t entry;
  uint32_t depth;
  const char* close;
};

class Walker {
 public:
  Walker(const EntrySource& src, const Shape& shape, PageFile& page, PageFacts& facts)
      : src_(src), shape_(shape), page_(page), facts_(facts) {}

  Status run() {
    if (shape_.roots.empty()) return Status::Ok();
    uint32_t main_root = shape_.roots.back();
    for (uint32_t r : shape_.roots) {
      if (shape_.on_path[r]) main_root = r;
    }
    stack_.push_back({Item::kEntry, main_root, 0, nullptr});
    branch_point(shape_.roots, main_root, 0);
    while (!stack_.empty()) {
      Item it = stack_.back();
      stack_.pop_back();
      std::string& out = page_.buffer();
      if (it.kind == Item::kClose) {
        out += it.close;
      } else if (it.kind == Item::kBranch) {
        open_branch(it);
      } else {
        append_entry(out, src_, it.entry);
        ++facts_.entries;
        facts_.messages += src_.data.entries[it.entry].type == format::EntryType::kMessage;
        uint32_t next = shape_.next_of(it.entry);
        if (next != kNone) stack_.push_back({Item::kEntry, next, it.depth, nullptr});
        const uint32_t* k = shape_.kids.data() + shape_.first[it.entry];
        branch_point(std::vector<uint32_t>(k, k + shape_.child_count(it.entry)), next, it.depth);
      }
      XS_RETURN_IF_ERROR(page_.maybe_flush());
    }
    return Status::Ok();
  }

 private:
  // Marks a branch point when `choices` holds more than the one the spine goes on with, and queues
  // the others (first in file order on top), to be shown before the spine goes on.
  void branch_point(const std::vector<uint32_t>& choices, uint32_t next, uint32_t depth) {
    if (choices.size() < 2) return;
    std::string& out = page_.buffer();
    size_t others = choices.size() - (next == kNone ? 0 : 1);
    ++facts_.branch_points;
    facts_.branches += others;
    bool nest = depth < kMaxNesting;
    out += nest ? "<div class=\"branch-point\" id=\"bp-" : "<div class=\"branch-point flat\" id=\"bp-";
    out += std::to_string(facts_.branch_points) + "\"><p class=\"branch-note\">";
    out += others == 1 ? "Branch point: 1 other branch" : "Branch point: " + std::to_string(others) + " other branches";
    out += nest ? "</p>" : "</p></div>";
    if (nest) stack_.push_back({Item::kClose, 0, 0, "</div>"});
    for (auto c = choices.rbegin(); c != choices.rend(); ++c) {
      if (*c != next) stack_.push_back({Item::kBranch, *c, depth + 1, nullptr});
    }
  }

  void open_branch(const Item& it) {
    std::string& out = page_.buffer();
    std::string what = std::to_string(shape_.size[it.entry]) + (shape_.size[it.entry] == 1 ? " entry" : " entries");
    what += " \xC2\xB7 " + entry_preview(src_.data.entries[it.entry]);
    if (it.depth <= kMaxNesting) {
      out += "<details class=\"branch\"><summary>Branch: ";
      append_escaped(out, what);
      out += "</summary>";
      stack_.push_back({Item::kClose, 0, 0, "</details>"});
    } else {
      out += "<p class=\"branch flat\">Branch: ";
      append_escaped(out, what);
      out += "</p>";
    }
    stack_.push_back({Item::kEntry, it.entry, it.depth, nullptr});
  }

  const EntrySource& src_;
  const Shape& shape_;
  PageFile& page_;
  PageFacts& facts_;
  std::vector<Item> stack_;
};

}  // namespace

void append_page_head(std::string& out, std::string_view title) {
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" "
      "content=\"";
  out += kContentSecurityPolicy;
  out +=
      "\">\n<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";
  append_escaped(out, title);
  out += "</title>\n<style>";
  out += kStyle;
  out += "</style></head>\n<body>\n";
}

Status write_session_page(const session::Session& s, blobs::BlobStore* blobs, PageFile& page, PageFacts* facts) {
  const model::SessionData& data = s.data();
  const model::Tree& tree = s.tree();
  PageFacts f;
  f.session_id = s.header_info().id;
  f.timestamp = s.header_info().timestamp;
  f.cwd = s.header_info().cwd;
  if (auto t = views::title(data)) {
    f.title = shortened(*t, 200);
  } else if (auto u = views::first_user_text(data)) {
    f.title = shortened(*u, 100);
  }
  Shape shape(data, tree);
  // The header's counts come before the walk that counts them: they are the same numbers, taken
  // from the shape (the walk checks them against its own below).
  PageFacts expected = f;
  expected.entries = data.entries.size();
  expected.messages = views::message_count(data);
  auto count_point = [&](size_t choices, bool has_next) {
    if (choices < 2) return;
    ++expected.branch_points;
    expected.branches += choices - (has_next ? 1 : 0);
  };
  count_point(shape.roots.size(), true);
  for (uint32_t i = 0; i < data.entries.size(); ++i) count_point(shape.child_count(i), shape.next_of(i) != kNone);

  std::string& out = page.buffer();
  append_page_head(out, f.title.empty() ? "Session " + f.session_id : f.title);
  header_section(out, s, expected, static_cast<uint32_t>(tree.labels().size()));
  out += "\n<main class=\"conversation\">\n";
  EntrySource src{data, tree, blobs};
  XS_RETURN_IF_ERROR(Walker(src, shape, page, f).run());
  out +=
      "\n</main>\n<footer>Written by xsession (<code>xs export --html</code>): the current path, root to leaf; "
      "other branches are collapsed where they leave it.</footer>\n</body></html>\n";
  if (f.entries != expected.entries || f.messages != expected.messages || f.branch_points != expected.branch_points ||
      f.branches != expected.branches) {
    return Status::Internal("the page's walk did not meet every entry of the session once");
  }
  *facts = std::move(f);
  return Status::Ok();
}

}  // namespace xs::html
