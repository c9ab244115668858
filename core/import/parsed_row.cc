#include "import/parsed_row.h"

#include "json/limits.h"

namespace xs::import {

ParsedRow::ParsedRow(std::string_view text) : padded_(text) {
  padded_.append(json::kPadding, '\0');
  if (parser_.parse(padded_.data(), text.size(), false).get(root_) != simdjson::SUCCESS) root_ = {};
}

simdjson::dom::object ParsedRow::root() const {
  simdjson::dom::object o;
  if (root_.get(o) != simdjson::SUCCESS) return {};
  return o;
}

simdjson::dom::object ParsedRow::object_member(std::string_view key) const {
  simdjson::dom::object o;
  if (root()[key].get(o) != simdjson::SUCCESS) return {};
  return o;
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
