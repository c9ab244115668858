#include "json/line_scanner.h"

#include <cstring>
#include <new>

#include "json/json_string.h"

namespace xs::json {

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

Field dom_field(simdjson::dom::element v) {
  Field out;
  switch (v.type()) {
    case simdjson::dom::element_type::STRING:
      out.kind = Kind::kString;
      out.str = v.get_string().value_unsafe();
      break;
    case simdjson::dom::element_type::INT64:
      out.kind = Kind::kNumber;
      out.num = static_cast<double>(v.get_int64().value_unsafe());
      break;
    case simdjson::dom::element_type::UINT64:
      out.kind = Kind::kNumber;
      out.num = static_cast<double>(v.get_uint64().value_unsafe());
      break;
    case simdjson::dom::element_type::DOUBLE:
      out.kind = Kind::kNumber;
      out.num = v.get_double().value_unsafe();
      break;
    case simdjson::dom::element_type::BOOL: out.kind = v.get_bool().value_unsafe() ? Kind::kTrue : Kind::kFalse; break;
    case simdjson::dom::element_type::NULL_VALUE: out.kind = Kind::kNull; break;
    case simdjson::dom::element_type::ARRAY: out.kind = Kind::kArray; break;
    case simdjson::dom::element_type::OBJECT: out.kind = Kind::kObject; break;
  }
  return out;
}

bool is_container(Kind k) { return k == Kind::kObject || k == Kind::kArray; }

// Locates the value of a top-level "message" member that is the object's last member, given that
// no container value precedes it. Inside a JSON string every '"' byte is escaped, so a '"message"'
// preceded by '{' or ',' and followed by ':' can only be a key token; with no container before
// it, the first such key is the top-level one. Returns false when the shape is not found.
bool fast_message_span(std::string_view line, uint32_t* off, uint32_t* len) {
  static constexpr std::string_view kKey = "\"message\"";
  size_t from = 0;
  for (;;) {
    size_t p = line.find(kKey, from);
    if (p == std::string_view::npos) return false;
    from = p + 1;
    size_t b = p;
    while (b > 0 && is_ws(line[b - 1])) --b;
    if (b == 0 || (line[b - 1] != '{' && line[b - 1] != ',')) continue;
    size_t a = p + kKey.size();
    while (a < line.size() && is_ws(line[a])) ++a;
    if (a >= line.size() || line[a] != ':') continue;
    ++a;
    while (a < line.size() && is_ws(line[a])) ++a;
    size_t e = line.size();
    while (e > a && is_ws(line[e - 1])) --e;  // e - 1: the root's closing brace
    if (e <= a || line[e - 1] != '}') return false;
    --e;
    while (e > a && is_ws(line[e - 1])) --e;  // e - 1: the message's closing brace
    if (e <= a || line[a] != '{' || line[e - 1] != '}') return false;
    *off = static_cast<uint32_t>(a);
    *len = static_cast<uint32_t>(e - a);
    return true;
  }
}

}  // namespace

bool LineScanner::bad(std::string_view code, std::string reason) {
  code_ = code;
  reason_ = std::move(reason);
  return false;
}

LineScanner::Parsed LineScanner::parse(std::string_view text, simdjson::dom::element* root) {
  parsed_ = false;
  size_t i = 0;
  while (i < text.size() && is_ws(text[i])) ++i;
  if (i == text.size()) return Parsed::kBlank;
  if (text.size() > limits_.max_line_bytes) {
    bad("too_long",
        std::to_string(text.size()) + " bytes exceed the limit of " + std::to_string(limits_.max_line_bytes));
    return Parsed::kBad;
  }
  if (const void* nul = std::memchr(text.data(), 0, text.size())) {
    bad("nul_byte", "NUL byte at column " + std::to_string(static_cast<const char*>(nul) - text.data() + 1));
    return Parsed::kBad;
  }
  // Out of memory says nothing about the line: it must fail the whole operation (the C API gives
  // XS_ENOMEM), never report a good line as damaged and skip it. simdjson reports allocation
  // failures as error codes (it allocates with nothrow new), so they are turned back into bad_alloc.
  if (!parser_ready_) {
    if (parser_.allocate(64 * 1024, limits_.max_depth) != simdjson::SUCCESS) throw std::bad_alloc();
    parser_ready_ = true;
  }
  simdjson::error_code err = parser_.parse(text.data(), text.size(), false).get(*root);
  switch (err) {
    case simdjson::MEMALLOC:  // growing the parser for a longer line failed
      throw std::bad_alloc();
    case simdjson::SUCCESS: parsed_ = true; return Parsed::kDom;
    case simdjson::STRING_ERROR:  // lone surrogate escapes: valid for JSON.parse
    case simdjson::NUMBER_ERROR:  // 1e400, 2^64 and friends: valid JSON text
    case simdjson::NUMBER_OUT_OF_RANGE: {
      bool is_object = false;
      Status st = scan_members(text, limits_, &members_, &is_object);
      if (!st.ok()) {
        bad(st.code() == Code::kLimit ? "too_deep" : "invalid_json", st.message());
        return Parsed::kBad;
      }
      parsed_ = true;
      lenient_object_ = is_object;
      return Parsed::kLenient;
    }
    case simdjson::UTF8_ERROR: bad("invalid_utf8", "invalid UTF-8"); return Parsed::kBad;
    case simdjson::DEPTH_ERROR:
      bad("too_deep", "nesting deeper than " + std::to_string(limits_.max_depth));
      return Parsed::kBad;
    default: bad("invalid_json", std::string("invalid JSON: ") + simdjson::error_message(err)); return Parsed::kBad;
  }
}

LineVerdict LineScanner::scan(std::string_view line, LineFacts* f) {
  *f = LineFacts{};
  simdjson::dom::element root;
  bool ok;
  switch (parse(line, &root)) {
    case Parsed::kBlank: return LineVerdict::kBlank;
    case Parsed::kBad: return LineVerdict::kBad;
    case Parsed::kDom:
      ok = root.is_object() ? extract_dom(line, root, f) : bad("not_object", "not a JSON object");
      break;
    case Parsed::kLenient:
    default: ok = lenient_object_ ? extract_lenient(line, f) : bad("not_object", "not a JSON object"); break;
  }
  return ok ? LineVerdict::kObject : LineVerdict::kBad;
}

LineVerdict LineScanner::scan_value(std::string_view text, Kind* kind, LineFacts* f) {
  *f = LineFacts{};
  simdjson::dom::element root;
  switch (parse(text, &root)) {
    case Parsed::kBlank: bad("empty", "empty JSON text"); return LineVerdict::kBad;
    case Parsed::kBad: return LineVerdict::kBad;
    case Parsed::kDom:
      *kind = dom_field(root).kind;
      if (*kind == Kind::kObject) {
        simdjson::dom::object object = root.get_object().value_unsafe();
        for (auto member : object) {
          std::string_view key = member.key;
          if (key == "role")
            f->role = dom_field(member.value);
          else if (key == "provider")
            f->provider = dom_field(member.value);
          else if (key == "model")
            f->model = dom_field(member.value);
        }
      }
      return LineVerdict::kObject;
    case Parsed::kLenient:
    default: {
      size_t i = 0;
      while (is_ws(text[i])) ++i;
      *kind = kind_of_first(text[i]);
      if (*kind == Kind::kObject) message_facts_lenient(members_, f);
      return LineVerdict::kObject;
    }
  }
}

bool LineScanner::extract_dom(std::string_view line, simdjson::dom::element root, LineFacts* f) {
  bool container_seen = false;
  bool message_last = false;
  bool message_fast = false;
  simdjson::dom::element message;
  simdjson::dom::object object = root.get_object().value_unsafe();
  for (auto member : object) {
    std::string_view key = member.key;
    Field value = dom_field(member.value);
    message_last = false;
    if (key == "type")
      f->type = value;
    else if (key == "id")
      f->id = value;
    else if (key == "parentId")
      f->parent_id = value;
    else if (key == "timestamp")
      f->timestamp = value;
    else if (key == "version")
      f->version = value;
    else if (key == "targetId")
      f->target_id = value;
    else if (key == "label")
      f->label = value;
    else if (key == "message") {
      f->message_kind = value.kind;
      message = member.value;
      message_last = true;
      message_fast = !container_seen;
    }
    if (is_container(value.kind)) container_seen = true;
  }
  if (f->message_kind != Kind::kObject) return true;
  simdjson::dom::object message_object = message.get_object().value_unsafe();
  for (auto member : message_object) {
    std::string_view key = member.key;
    if (key == "role")
      f->role = dom_field(member.value);
    else if (key == "provider")
      f->provider = dom_field(member.value);
    else if (key == "model")
      f->model = dom_field(member.value);
  }
  if (!(message_last && message_fast && fast_message_span(line, &f->message_offset, &f->message_length))) {
    message_span_from_members(line, f);
  }
  return true;
}

void LineScanner::message_span_from_members(std::string_view line, LineFacts* f) {
  bool is_object = false;
  if (!scan_members(line, limits_, &members_, &is_object).ok()) return;
  if (const Member* m = find_member(members_, "message"); m && m->kind == Kind::kObject) {
    f->message_offset = static_cast<uint32_t>(m->value.data() - line.data());
    f->message_length = static_cast<uint32_t>(m->value.size());
  }
}

Field LineScanner::lenient_field(const Member* m, Slot slot) {
  Field out;
  if (!m) return out;
  out.kind = m->kind;
  if (m->kind == Kind::kString && decode_string_token(m->value, scratch_[slot])) {
    out.str = scratch_[slot];
  } else if (m->kind == Kind::kNumber) {
    out.num = std::strtod(std::string(m->value).c_str(), nullptr);
  }
  return out;
}

void LineScanner::message_facts_lenient(const std::vector<Member>& members, LineFacts* f) {
  f->role = lenient_field(find_member(members, "role"), kRole);
  f->provider = lenient_field(find_member(members, "provider"), kProvider);
  f->model = lenient_field(find_member(members, "model"), kModel);
}

// parse() already validated the line and left its members in members_.
bool LineScanner::extract_lenient(std::string_view line, LineFacts* f) {
  f->type = lenient_field(find_member(members_, "type"), kType);
  f->id = lenient_field(find_member(members_, "id"), kId);
  f->parent_id = lenient_field(find_member(members_, "parentId"), kParentId);
  f->timestamp = lenient_field(find_member(members_, "timestamp"), kTimestamp);
  f->version = lenient_field(find_member(members_, "version"), kVersion);
  f->target_id = lenient_field(find_member(members_, "targetId"), kTargetId);
  f->label = lenient_field(find_member(members_, "label"), kLabel);
  const Member* msg = find_member(members_, "message");
  if (!msg) return true;
  f->message_kind = msg->kind;
  if (msg->kind != Kind::kObject) return true;
  f->message_offset = static_cast<uint32_t>(msg->value.data() - line.data());
  f->message_length = static_cast<uint32_t>(msg->value.size());
  bool inner_is_object = false;
  if (scan_members(msg->value, limits_, &inner_, &inner_is_object).ok()) message_facts_lenient(inner_, f);
  return true;
}

}  // namespace xs::json
