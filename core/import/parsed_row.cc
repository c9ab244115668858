#include "import/parsed_row.h"

#include <cstdlib>
#include <new>
#include <vector>

#include "json/json_string.h"
#include "json/limits.h"

namespace xs::import {

namespace {

// The parsers this thread's finished rows left: a converter holds a few rows at once at most.
// One that grew for a large row (over kKeptBytes) is not kept, so a thread holds little.
constexpr size_t kKept = 4;
constexpr size_t kKeptBytes = size_t{1} << 20;
thread_local std::vector<std::unique_ptr<ParsedRow::Parser>> kept_parsers;

// An object with no members that reads like any other (simdjson's default-made object points at
// no document: reading it crashes). Parsed once and only read afterwards, from any thread; its
// parser is kept for the process, since the objects handed out point into its document.
simdjson::dom::object empty_object() {
  static simdjson::dom::parser* const parser = new simdjson::dom::parser();
  static const simdjson::dom::object empty = [] {
    simdjson::dom::object o;
    if (parser->parse("{}", 2).get(o) != simdjson::SUCCESS) abort();
    return o;
  }();
  return empty;
}

}  // namespace

ParsedRow::ParsedRow(std::string_view text) {
  if (!kept_parsers.empty()) {
    p_ = std::move(kept_parsers.back());
    kept_parsers.pop_back();
  } else {
    p_ = std::make_unique<Parser>();
  }
  p_->padded.assign(text);
  p_->padded.append(json::kPadding, '\0');
  parsed_ = p_->parser.parse(p_->padded.data(), text.size(), false).get(root_) == simdjson::SUCCESS;
}

ParsedRow::~ParsedRow() {
  if (kept_parsers.size() < kKept && p_->parser.capacity() <= kKeptBytes && p_->padded.capacity() <= 2 * kKeptBytes) {
    try {
      kept_parsers.push_back(std::move(p_));
    } catch (const std::bad_alloc&) {
      // Not kept: it is freed with p_.
    }
  }
}

simdjson::dom::object ParsedRow::root() const {
  simdjson::dom::object o;
  if (!parsed_ || root_.get(o) != simdjson::SUCCESS) return empty_object();
  return o;
}

simdjson::dom::object ParsedRow::object_member(std::string_view key) const {
  simdjson::dom::object o;
  if (root()[key].get(o) != simdjson::SUCCESS) return empty_object();
  return o;
}

void append_minified(std::string& out, const simdjson::dom::element& e) {
  simdjson::dom::array items;
  simdjson::dom::object fields;
  std::string_view text;
  int64_t i = 0;
  uint64_t u = 0;
  bool b = false;
  if (e.get(items) == simdjson::SUCCESS) {
    out.push_back('[');
    bool first = true;
    for (simdjson::dom::element item : items) {
      if (!first) out.push_back(',');
      first = false;
      append_minified(out, item);
    }
    out.push_back(']');
  } else if (e.get(fields) == simdjson::SUCCESS) {
    out.push_back('{');
    bool first = true;
    for (simdjson::dom::key_value_pair field : fields) {
      if (!first) out.push_back(',');
      first = false;
      json::append_quoted(out, field.key);
      out.push_back(':');
      append_minified(out, field.value);
    }
    out.push_back('}');
  } else if (e.get(text) == simdjson::SUCCESS) {
    json::append_quoted(out, text);
  } else if (e.is_int64() && e.get(i) == simdjson::SUCCESS) {
    out += std::to_string(i);
  } else if (e.is_uint64() && e.get(u) == simdjson::SUCCESS) {
    out += std::to_string(u);
  } else if (e.get(b) == simdjson::SUCCESS) {
    out += b ? "true" : "false";
  } else if (e.is_null()) {
    out += "null";
  } else {
    out += simdjson::to_string(e);  // a double, in simdjson's own shortest form
  }
}

std::string str_member(const simdjson::dom::object& o, std::string_view key) {
  std::string_view v;
  return o[key].get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

int64_t int_member(const simdjson::dom::object& o, std::string_view key) {
  int64_t i = 0;
  double d = 0;
  if (o[key].get(i) == simdjson::SUCCESS) return i;
  if (o[key].get(d) == simdjson::SUCCESS) return static_cast<int64_t>(d);
  return 0;
}

}  // namespace xs::import
