#include "json/document_edit.h"

#include <simdjson.h>

#include <new>
#include <vector>

#include "json/json_string.h"
#include "json/limits.h"
#include "json/member_scanner.h"

namespace xs::json {

namespace {

std::string decoded_key(std::string_view token) {
  std::string s;
  decode_string_token(token, s);
  return s;
}

}  // namespace

Result<std::string> merge_patch(std::string_view target, std::string_view patch) {
  std::vector<Member> pm;
  bool patch_is_object = false;
  XS_RETURN_IF_ERROR(scan_members(patch, internal_limits(), &pm, &patch_is_object));
  if (!patch_is_object || patch.front() != '{') return std::string(patch);
  std::vector<Member> tm;
  bool target_is_object = false;
  if (!target.empty()) XS_RETURN_IF_ERROR(scan_members(target, internal_limits(), &tm, &target_is_object));
  if (!target_is_object || target.empty() || target.front() != '{') tm.clear();

  // The result's members in order: the target's (later duplicates win, as JSON.parse), then new ones.
  std::vector<std::pair<std::string, std::string>> out;  // decoded key, raw value
  std::vector<std::string> key_tokens;
  auto index_of = [&](const std::string& k) -> size_t {
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i].first == k) return i;
    }
    return SIZE_MAX;
  };
  for (const Member& m : tm) {
    std::string k = decoded_key(m.key);
    size_t at = index_of(k);
    if (at == SIZE_MAX) {
      out.emplace_back(std::move(k), std::string(m.value));
      key_tokens.emplace_back(m.key);
    } else {
      out[at].second = std::string(m.value);
    }
  }
  std::vector<bool> removed(out.size(), false);
  for (const Member& m : pm) {
    std::string k = decoded_key(m.key);
    size_t at = index_of(k);
    if (m.kind == Kind::kNull) {
      if (at != SIZE_MAX) removed[at] = true;
      continue;
    }
    if (at == SIZE_MAX) {
      std::string value(m.value);
      if (m.kind == Kind::kObject) {  // a new object is patched onto nothing: its nulls vanish too
        auto merged = merge_patch({}, m.value);
        if (!merged.ok()) return merged.status();
        value = std::move(*merged);
      }
      out.emplace_back(std::move(k), std::move(value));
      key_tokens.emplace_back(m.key);
      removed.push_back(false);
      continue;
    }
    removed[at] = false;
    if (m.kind == Kind::kObject) {
      auto merged = merge_patch(out[at].second, m.value);
      if (!merged.ok()) return merged.status();
      out[at].second = std::move(*merged);
    } else {
      out[at].second = std::string(m.value);
    }
  }
  std::string result = "{";
  bool first = true;
  for (size_t i = 0; i < out.size(); ++i) {
    if (removed[i]) continue;
    if (!first) result += ',';
    first = false;
    result += key_tokens[i];
    result += ':';
    result += out[i].second;
  }
  result += '}';
  return result;
}

Result<std::vector<Member>> split_minified_object(std::string_view object) {
  std::vector<Member> out;
  if (object == "{}") return out;
  auto broken = [](simdjson::error_code e) {
    if (e == simdjson::MEMALLOC) throw std::bad_alloc();
    return Status::Internal(std::string("splitting a validated object: ") + simdjson::error_message(e));
  };
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::object root;
  auto e = parser.iterate(object.data(), object.size(), object.size() + kPadding).get(doc);
  if (!e) e = doc.get_object().get(root);
  if (e) return broken(e);
  for (auto member : root) {
    simdjson::ondemand::field field;
    simdjson::ondemand::json_type type;
    if ((e = std::move(member).get(field))) return broken(e);
    const char* key_start = field.key().raw() - 1;  // the key token's opening quote
    simdjson::ondemand::value& value = field.value();
    if ((e = value.type().get(type))) return broken(e);
    std::string_view text;
    Kind kind = Kind::kNull;
    if (type == simdjson::ondemand::json_type::object) {
      simdjson::ondemand::object inner;
      if (!(e = value.get_object().get(inner))) e = inner.raw_json().get(text);
      kind = Kind::kObject;
    } else if (type == simdjson::ondemand::json_type::array) {
      simdjson::ondemand::array inner;
      if (!(e = value.get_array().get(inner))) e = inner.raw_json().get(text);
      kind = Kind::kArray;
    } else {
      text = value.raw_json_token();  // minified: nothing trails the token
      kind = kind_of_first(text.empty() ? 'n' : text.front());
    }
    if (e) return broken(e);
    // Minified: the key token ends at the ':' just before its value.
    out.push_back({std::string_view(key_start, static_cast<size_t>(text.data() - 1 - key_start)), text, kind});
  }
  return out;
}

namespace {

// Where the string token that starts at s[open] (a quote) ends: one past its closing quote.
size_t string_end(std::string_view s, size_t open) {
  for (size_t i = open + 1; i < s.size(); ++i) {
    if (s[i] == '"') return i + 1;
    if (s[i] == '\\') ++i;  // an escape: skip the escaped character
  }
  return s.size();
}

}  // namespace

std::string indent_2(std::string_view s, int depth) {
  std::string out;
  out.reserve(s.size() * 2);  // records sit two levels deep: indentation about doubles them
  auto newline = [&] {
    out += '\n';
    out.append(static_cast<size_t>(depth) * 2, ' ');
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    switch (c) {
      case '"': {
        size_t end = string_end(s, i);  // a string token is copied whole
        out.append(s.substr(i, end - i));
        i = end - 1;
        break;
      }
      case '{':
      case '[':
        out += c;
        if (i + 1 < s.size() && (s[i + 1] == '}' || s[i + 1] == ']')) {
          out += s[++i];  // an empty container stays on its line
        } else {
          ++depth;
          newline();
        }
        break;
      case '}':
      case ']':
        --depth;
        newline();
        out += c;
        break;
      case ',':
        out += c;
        newline();
        break;
      case ':': out += ": "; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace xs::json
