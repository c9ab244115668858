#include "bundle/bundle_format.h"

#include <unordered_set>

#include "blobs/blob_store.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::bundle {

namespace {

constexpr std::string_view kSessionsDir = "sessions/";
constexpr std::string_view kBlobsDir = "blobs/";

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

bool is_session_file_name(std::string_view name) {
  if (name.empty() || name.size() > 200 || name.front() == '.') return false;
  for (char c : name) {
    if (!is_name_char(c)) return false;
  }
  return ends_with(name, ".jsonl") || ends_with(name, ".jsonl.gz");
}

Status bad(const std::string& what) { return Status::Corrupt("bad manifest: " + what); }

// A member's decoded string value, or a kCorrupt naming the field.
Status text_field(const std::vector<json::Member>& members, std::string_view key, std::string* out) {
  auto v = json::string_value(json::find_member(members, key));
  if (!v) return bad("\"" + std::string(key) + "\" is missing or not a string");
  *out = std::move(*v);
  return Status::Ok();
}

Status bool_field(const std::vector<json::Member>& members, std::string_view key, bool* out) {
  const json::Member* m = json::find_member(members, key);
  if (!m || (m->kind != json::Kind::kTrue && m->kind != json::Kind::kFalse)) {
    return bad("\"" + std::string(key) + "\" is missing or not a boolean");
  }
  *out = m->kind == json::Kind::kTrue;
  return Status::Ok();
}

// A whole number written as digits only (no sign, fraction or exponent), below 2^63.
Status count_field(const std::vector<json::Member>& members, std::string_view key, uint64_t* out) {
  const json::Member* m = json::find_member(members, key);
  bool digits = m && m->kind == json::Kind::kNumber && !m->value.empty() && m->value.size() <= 18;
  for (size_t i = 0; digits && i < m->value.size(); ++i) digits = m->value[i] >= '0' && m->value[i] <= '9';
  if (!digits) return bad("\"" + std::string(key) + "\" is missing or not a whole number");
  *out = std::stoull(std::string(m->value));
  return Status::Ok();
}

Status array_field(const std::vector<json::Member>& members, std::string_view key,
                   std::vector<std::vector<json::Member>>* out) {
  const json::Member* m = json::find_member(members, key);
  if (!m || m->kind != json::Kind::kArray) return bad("\"" + std::string(key) + "\" is missing or not an array");
  std::vector<json::Member> items;
  bool is_object = false;
  XS_RETURN_IF_ERROR(json::scan_members(m->value, json::internal_limits(), &items, &is_object));
  for (const json::Member& item : items) {
    if (item.kind != json::Kind::kObject) return bad("an item of \"" + std::string(key) + "\" is not an object");
    out->push_back(json::members_of(item.value));
  }
  return Status::Ok();
}

Status parse_session(const std::vector<json::Member>& o, SessionInfo* s) {
  XS_RETURN_IF_ERROR(text_field(o, "id", &s->id));
  XS_RETURN_IF_ERROR(text_field(o, "member", &s->member));
  XS_RETURN_IF_ERROR(text_field(o, "cwd", &s->cwd));
  XS_RETURN_IF_ERROR(bool_field(o, "archived", &s->archived));
  XS_RETURN_IF_ERROR(bool_field(o, "lineage", &s->lineage));
  const json::Member* parent = json::find_member(o, "parentSession");
  if (!parent || (parent->kind != json::Kind::kNull && parent->kind != json::Kind::kString)) {
    return bad("\"parentSession\" is missing or neither a string nor null");
  }
  s->parent_session = json::string_value(parent);
  if (!is_bundle_id(s->id)) return bad("session id \"" + json::to_valid_utf8(s->id) + "\" is not one a store writes");
  if (s->member.compare(0, kSessionsDir.size(), kSessionsDir) != 0 || !is_safe_member(s->member) ||
      s->archived != ends_with(s->member, ".gz")) {
    return bad("session " + s->id + " has member \"" + json::to_valid_utf8(s->member) + "\"");
  }
  return Status::Ok();
}

}  // namespace

bool is_bundle_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!is_name_char(c) || c == '.') return false;
  }
  return true;
}

bool is_safe_member(std::string_view name) {
  if (name == kKeysName) return true;
  if (name.compare(0, kBlobsDir.size(), kBlobsDir) == 0) return blobs::is_blob_hash(name.substr(kBlobsDir.size()));
  if (name.compare(0, kSessionsDir.size(), kSessionsDir) == 0) {
    return is_session_file_name(name.substr(kSessionsDir.size()));
  }
  return false;
}

std::optional<std::string> session_member(std::string_view file_name) {
  if (!is_session_file_name(file_name)) return std::nullopt;
  return std::string(kSessionsDir) + std::string(file_name);
}

std::string manifest_json(const Manifest& m) {
  std::string out = "{\"format\":";
  json::append_quoted(out, kFormatName);
  out += ",\"version\":" + std::to_string(m.version) + ",\"sourceRoot\":";
  json::append_quoted_lossy(out, m.source_root);
  out += ",\"sessions\":[";
  for (size_t i = 0; i < m.sessions.size(); ++i) {
    const SessionInfo& s = m.sessions[i];
    out += i ? ",{\"id\":" : "{\"id\":";
    json::append_quoted(out, s.id);
    out += ",\"member\":";
    json::append_quoted(out, s.member);
    out += ",\"cwd\":";
    json::append_quoted_lossy(out, s.cwd);
    out += s.archived ? ",\"archived\":true" : ",\"archived\":false";
    out += ",\"parentSession\":";
    if (s.parent_session) {
      json::append_quoted_lossy(out, *s.parent_session);
    } else {
      out += "null";
    }
    out += s.lineage ? ",\"lineage\":true}" : ",\"lineage\":false}";
  }
  out += "],\"members\":[";
  for (size_t i = 0; i < m.members.size(); ++i) {
    const MemberInfo& f = m.members[i];
    out += i ? ",{\"path\":" : "{\"path\":";
    json::append_quoted(out, f.path);
    out += ",\"sha256\":\"" + f.sha256 + "\",\"size\":" + std::to_string(f.size) + "}";
  }
  out += "]}\n";
  return out;
}

Result<Manifest> parse_manifest(std::string_view text) {
  std::vector<json::Member> top;
  bool is_object = false;
  Status scanned = json::scan_members(text, json::internal_limits(), &top, &is_object);
  if (!scanned.ok()) return bad("not JSON (" + scanned.message() + ")");
  if (!is_object) return bad("not a JSON object");
  Manifest m;
  std::string format;
  XS_RETURN_IF_ERROR(text_field(top, "format", &format));
  if (format != kFormatName) return bad("\"format\" is not \"" + std::string(kFormatName) + "\"");
  uint64_t version = 0;
  XS_RETURN_IF_ERROR(count_field(top, "version", &version));
  if (version != kFormatVersion) {
    return Status(Code::kVersion, "bundle format version " + std::to_string(version) + " is not supported (this " +
                                      "library reads version " + std::to_string(kFormatVersion) + ")");
  }
  XS_RETURN_IF_ERROR(text_field(top, "sourceRoot", &m.source_root));
  std::vector<std::vector<json::Member>> sessions, members;
  XS_RETURN_IF_ERROR(array_field(top, "members", &members));
  XS_RETURN_IF_ERROR(array_field(top, "sessions", &sessions));
  if (members.size() > kMaxMembers) return bad("more than " + std::to_string(kMaxMembers) + " members");
  std::unordered_set<std::string> names;
  uint64_t total = 0, session_bytes = 0;
  for (const auto& o : members) {
    MemberInfo f;
    XS_RETURN_IF_ERROR(text_field(o, "path", &f.path));
    XS_RETURN_IF_ERROR(text_field(o, "sha256", &f.sha256));
    XS_RETURN_IF_ERROR(count_field(o, "size", &f.size));
    if (!is_safe_member(f.path)) return bad("member name \"" + json::to_valid_utf8(f.path) + "\" is not allowed");
    if (!blobs::is_blob_hash(f.sha256)) return bad("member " + f.path + " has no SHA-256");
    if (!names.insert(f.path).second) return bad("member " + f.path + " is listed twice");
    if (f.path.compare(0, kBlobsDir.size(), kBlobsDir) == 0 && f.path.substr(kBlobsDir.size()) != f.sha256) {
      return bad("blob " + f.path + " is listed with another SHA-256");
    }
    total += f.size;
    if (f.path.compare(0, kBlobsDir.size(), kBlobsDir) != 0) session_bytes += f.size;
    if (total > kMaxBundleBytes) {
      return bad("the members hold more than the " + std::to_string(kMaxBundleBytes >> 30) + " GiB a bundle may hold");
    }
    if (session_bytes > kMaxSessionBytes || (f.path == kKeysName && f.size > kMaxKeysBytes)) {
      return bad("the sessions and key records hold more than an import keeps in memory (" +
                 std::to_string(kMaxSessionBytes >> 30) + " GiB)");
    }
    m.members.push_back(std::move(f));
  }
  std::unordered_set<std::string> ids, session_members;
  for (const auto& o : sessions) {
    SessionInfo s;
    XS_RETURN_IF_ERROR(parse_session(o, &s));
    if (!ids.insert(s.id).second) return bad("session " + s.id + " is listed twice");
    if (!names.count(s.member) || !session_members.insert(s.member).second) {
      return bad("session " + s.id + " names member " + s.member + ", which is not listed once");
    }
    m.sessions.push_back(std::move(s));
  }
  for (const MemberInfo& f : m.members) {
    if (f.path.compare(0, kSessionsDir.size(), kSessionsDir) == 0 && !session_members.count(f.path)) {
      return bad("member " + f.path + " is no session's");
    }
  }
  return m;
}

std::string renamed_id(std::string_view old_id, std::string_view bytes_sha256) {
  std::string h =
      blobs::sha256_hex("xsession-bundle rename\n" + std::string(old_id) + "\n" + std::string(bytes_sha256));
  bool uuid = old_id.size() == 36 && old_id[8] == '-' && old_id[13] == '-' && old_id[18] == '-' && old_id[23] == '-';
  if (!uuid) return h.substr(0, 16);
  // 8-4-4-4-12 hex digits; version 8 in the 13th digit, variant 0b10 in the 17th.
  std::string u = h.substr(0, 8) + "-" + h.substr(8, 4) + "-8" + h.substr(13, 3) + "-";
  u += "89ab"[h[16] % 4];
  u += h.substr(17, 3) + "-" + h.substr(20, 12);
  return u;
}

std::string renamed_file(std::string_view file_name, std::string_view old_id, std::string_view new_id) {
  std::string_view ext = ends_with(file_name, ".jsonl.gz") ? ".jsonl.gz" : ".jsonl";
  std::string_view stem = file_name.substr(0, file_name.size() - ext.size());
  std::string tail = "_" + std::string(old_id);
  if (ends_with(stem, tail)) {
    return std::string(stem.substr(0, stem.size() - old_id.size())) + std::string(new_id) + std::string(ext);
  }
  return std::string(new_id) + std::string(ext);
}

std::optional<std::string> map_cwd(const CwdMap& map, std::string_view cwd) {
  for (const auto& [from, to] : map) {
    if (cwd == from) return to;
    if (cwd.size() > from.size() && cwd.compare(0, from.size(), from) == 0 &&
        (from == "/" || cwd[from.size()] == '/')) {
      std::string rest(cwd.substr(from == "/" ? 0 : from.size()));
      return to == "/" ? rest : to + rest;
    }
  }
  return std::nullopt;
}

Status check_cwd_map(const CwdMap& map) {
  auto check = [](const std::string& p) -> Status {
    std::string shown = "\"" + json::to_valid_utf8(p) + "\"";
    if (p.empty() || p.front() != '/') return Status::Invalid("cwd map path " + shown + " is not absolute");
    if (p.size() > 1 && p.back() == '/') return Status::Invalid("cwd map path " + shown + " ends with '/'");
    if (!json::is_valid_utf8(p)) return Status::Invalid("cwd map path " + shown + " is not UTF-8");
    for (size_t start = 1; start < p.size();) {
      size_t end = p.find('/', start);
      if (end == std::string::npos) end = p.size();
      std::string_view part(p.data() + start, end - start);
      if (part.empty() || part == "." || part == "..") {
        return Status::Invalid("cwd map path " + shown + " has an empty, \".\" or \"..\" component");
      }
      start = end + 1;
    }
    return Status::Ok();
  };
  for (const auto& [from, to] : map) {
    XS_RETURN_IF_ERROR(check(from));
    XS_RETURN_IF_ERROR(check(to));
  }
  return Status::Ok();
}

}  // namespace xs::bundle
