#include "html/markdown.h"

#include <cmark.h>

#include <cstdlib>
#include <memory>
#include <vector>

namespace xs::html {

namespace {

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

struct NodeFree {
  void operator()(cmark_node* n) const { cmark_node_free(n); }
};

// Replaces `node` by its children (a link by its text, an image by its alt text) and frees it.
void unwrap(cmark_node* node) {
  while (cmark_node* child = cmark_node_first_child(node)) {
    cmark_node_unlink(child);
    cmark_node_insert_before(node, child);
  }
  cmark_node_unlink(node);
  cmark_node_free(node);
}

void apply_url_policy(cmark_node* doc) {
  std::vector<cmark_node*> refused;
  cmark_iter* it = cmark_iter_new(doc);
  for (cmark_event_type ev; (ev = cmark_iter_next(it)) != CMARK_EVENT_DONE;) {
    if (ev != CMARK_EVENT_ENTER) continue;
    cmark_node* n = cmark_iter_get_node(it);
    cmark_node_type t = cmark_node_get_type(n);
    if (t != CMARK_NODE_LINK && t != CMARK_NODE_IMAGE) continue;
    const char* url = cmark_node_get_url(n);
    std::string_view u = url ? url : "";
    if (t == CMARK_NODE_LINK ? !allowed_link_url(u) : !allowed_image_url(u)) refused.push_back(n);
  }
  cmark_iter_free(it);
  // Innermost last in document order: unwrapping an outer node first keeps the inner ones alive
  // (they move, they are not freed), so the order does not matter for correctness.
  for (cmark_node* n : refused) unwrap(n);
}

}  // namespace

bool allowed_link_url(std::string_view url) {
  if (!url.empty() && url[0] == '#') return true;
  return starts_with_nocase(url, "https://") || starts_with_nocase(url, "http://") ||
         starts_with_nocase(url, "mailto:");
}

bool allowed_image_url(std::string_view url) {
  for (std::string_view type :
       {"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/gif;base64,", "data:image/webp;base64,"}) {
    if (starts_with_nocase(url, type)) return true;
  }
  return false;
}

void append_markdown(std::string& out, std::string_view text) {
  // CMARK_OPT_DEFAULT is safe in cmark 0.30 (CMARK_OPT_SAFE is a no-op kept for old callers).
  const int options = CMARK_OPT_DEFAULT | CMARK_OPT_VALIDATE_UTF8;
  std::unique_ptr<cmark_node, NodeFree> doc(cmark_parse_document(text.data(), text.size(), options));
  if (!doc) throw std::bad_alloc();
  apply_url_policy(doc.get());
  char* rendered = cmark_render_html(doc.get(), options);
  if (!rendered) throw std::bad_alloc();
  out += rendered;
  std::free(rendered);
}

}  // namespace xs::html
