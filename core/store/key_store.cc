#include "store/key_store.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <utility>

#include "format/clock.h"
#include "format/side_files.h"
#include "json/document_edit.h"
#include "json/input_json.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "json/object_reader.h"
#include "storage/atomic_file.h"
#include "storage/buffer.h"
#include "storage/path.h"

namespace xs::store {

namespace {

using json::Kind;

// The fields hosts read without checking (docs/keyed-store.md#records): a record that gives one of
// them the wrong type is refused, so no reader ever meets a string where it sums numbers.
struct FieldType {
  std::string_view name;
  Kind kind;
};
const FieldType kFieldTypes[] = {
    {"sessionId", Kind::kString},
    {"sessionFile", Kind::kString},
    {"title", Kind::kString},
    {"cwd", Kind::kString},
    {"chatType", Kind::kString},
    {"createdAt", Kind::kNumber},
    {"updatedAt", Kind::kNumber},
    {"inputTokens", Kind::kNumber},
    {"outputTokens", Kind::kNumber},
    {"cacheRead", Kind::kNumber},
    {"cacheWrite", Kind::kNumber},
    {"totalTokens", Kind::kNumber},
    {"contextTokens", Kind::kNumber},
    {"cost", Kind::kNumber},
    {"compactionCount", Kind::kNumber},
    {"memoryFlushAt", Kind::kNumber},
    {"memoryFlushCompactionCount", Kind::kNumber},
};

json::Limits document_limits() {
  json::Limits l;
  l.max_line_bytes = KeyStore::kMaxDocumentBytes;
  return l;
}

}  // namespace

struct KeyStore::Document {
  // What a member made after the read holds: a key decoded from escapes, an added member's key
  // and token, a new value. On the heap, so the member's views stay put when the vector moves it.
  struct Owned {
    std::string key, key_token, value;
  };
  struct Member {
    std::string_view key;        // decoded
    std::string_view key_token;  // as stored
    std::string_view value;      // minified
    std::string laid_out;        // its lines in the file ("  \"key\": {...}"); empty until needed
    std::unique_ptr<Owned> owned;
  };
  storage::PaddedBuffer text;      // the file's bytes this document was read from or written as
  storage::PaddedBuffer minified;  // the read's key tokens and minified values (json::read_object)
  std::vector<Member> members;
  // Decoded key -> position in members. Members point into `minified` or their own heap strings,
  // so the views stay valid whatever the vector does: a new process reading a document of a
  // thousand records allocates nothing per record but the index's node.
  std::unordered_map<std::string_view, size_t> index;

  Member* find(std::string_view key) {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &members[it->second];
  }
  // A member as read: `key` points into the token, or is `decoded` when the token has escapes.
  void add_read(std::string_view key_token, std::string_view value, std::string_view key, std::string decoded) {
    Member& m = members.emplace_back();
    m.key_token = key_token;
    m.value = value;
    m.key = key;
    if (!decoded.empty()) {
      m.owned = std::make_unique<Owned>();
      m.owned->key = std::move(decoded);
      m.key = m.owned->key;
    }
    index.emplace(m.key, members.size() - 1);
  }
  void add(std::string key, std::string key_token, std::string value) {
    Member& m = members.emplace_back();
    m.owned = std::make_unique<Owned>(Owned{std::move(key), std::move(key_token), std::move(value)});
    m.key = m.owned->key;
    m.key_token = m.owned->key_token;
    m.value = m.owned->value;
    index.emplace(m.key, members.size() - 1);
  }
  void set(Member* m, std::string value) {
    if (!m->owned) m->owned = std::make_unique<Owned>();
    m->owned->value = std::move(value);
    m->value = m->owned->value;
    m->laid_out.clear();
  }
  void erase(const Member* m) {
    members.erase(members.begin() + (m - members.data()));
    index.clear();  // the positions after it moved down
    for (size_t i = 0; i < members.size(); ++i) index.emplace(members[i].key, i);
  }
};

Status KeyStore::check_key(std::string_view key) {
  if (key.empty() || key.size() > 256) return Status::Invalid("a session key is 1-256 bytes");
  if (!json::is_valid_utf8(key)) return Status::Invalid("a session key must be UTF-8");
  for (unsigned char c : key) {
    if (c < 0x20 || c == 0x7F) return Status::Invalid("a session key must be printable (no control characters)");
    if (c == '/' || c == '\\') return Status::Invalid("a session key may not hold '/' or '\\'");
  }
  return Status::Ok();
}

Status KeyStore::check_record(std::string_view record_json, std::string* minified) {
  json::InputJson input{json::Limits{}};
  Kind kind;
  Status st = input.prepare(record_json, minified, &kind);
  if (!st.ok()) return Status(st.code(), "record: " + st.message());
  if (kind != Kind::kObject) return Status::Invalid("a record must be a JSON object");
  auto members = json::members_of(*minified);
  for (const FieldType& f : kFieldTypes) {
    const json::Member* m = json::find_member(members, f.name);
    if (m && m->kind != f.kind && m->kind != Kind::kNull) {
      return Status::Invalid("record field \"" + std::string(f.name) + "\" must be a " +
                             (f.kind == Kind::kString ? "string" : "number"));
    }
  }
  const json::Member* id = json::find_member(members, "sessionId");
  if (!id || id->kind != Kind::kString) return Status::Invalid("a record needs a string \"sessionId\"");
  return Status::Ok();
}

KeyStore::KeyStore(std::shared_ptr<storage::Fs> fs, std::string path) : fs_(std::move(fs)), path_(std::move(path)) {}

KeyStore::~KeyStore() = default;

Result<KeyStore::Document*> KeyStore::document(storage::Expected* seen) const {
  storage::PaddedBuffer bytes;
  storage::FileInfo info;
  Status st = fs_->read_file(path_, kMaxDocumentBytes + 1, &bytes, &info);
  if (st.code() == Code::kNotFound) {
    if (seen) *seen = storage::Expected::None();
    doc_ = std::make_unique<Document>();
    return doc_.get();
  }
  XS_RETURN_IF_ERROR(st);
  if (seen) *seen = storage::Expected::Of(info);
  if (doc_ && doc_->text.size() != 0 && doc_->text.view() == bytes.view()) return doc_.get();
  doc_.reset();
  if (bytes.size() > kMaxDocumentBytes) {
    return Status::Limit(path_ + " is over " + std::to_string(kMaxDocumentBytes >> 20) + " MiB");
  }
  // Validated, split and minified in one walk over the read buffer (it carries simdjson's padding);
  // the members point into the minified text. A new process reading a gateway's 1,000 records pays
  // for little more than that walk (bench/session_stats_bench.cc, docs/keyed-store.md#reading).
  auto doc = std::make_unique<Document>();
  doc->minified = storage::PaddedBuffer(bytes.size());
  std::vector<json::Member> members;
  Kind kind;
  st = json::read_object(bytes.view(), document_limits(), doc->minified.data(), &members, &kind);
  if (!st.ok()) return Status::Corrupt(path_ + " is not a JSON document (" + st.message() + ")");
  if (kind != Kind::kObject) return Status::Corrupt(path_ + " is not a JSON object");
  doc->members.reserve(members.size());
  doc->index.reserve(members.size());
  for (const json::Member& m : members) {
    std::string_view key = m.key.substr(1, m.key.size() - 2);
    std::string decoded;
    if (key.find('\\') != std::string_view::npos) {
      json::decode_string_token(m.key, decoded);
      key = decoded;
    }
    if (Document::Member* earlier = doc->find(key)) {
      doc->set(earlier, std::string(m.value));  // JSON.parse: the last value, at the first place
    } else {
      doc->add_read(m.key, m.value, key, std::move(decoded));
    }
  }
  doc->text = std::move(bytes);
  doc_ = std::move(doc);
  return doc_.get();
}

Status KeyStore::set_aside(const Status& why) const {
  std::string stem = path_ + std::string(format::kCorruptInfix) + format::file_stamp(format::Clock::Real().now_ms());
  for (int n = 0; n < 100; ++n) {
    std::string name = n == 0 ? stem : stem + "-" + std::to_string(n);
    Status st = fs_->rename_noreplace(path_, name);
    if (st.code() == Code::kExists) continue;
    XS_RETURN_IF_ERROR(st.With("moving the damaged " + path_ + " aside"));
    return Status::Corrupt(why.message() + "; its bytes were moved to " + name +
                           " and the next write starts an empty document");
  }
  return Status::Exists("could not name a copy of " + path_);
}

Status KeyStore::publish(Document& doc, const storage::Expected& seen) const {
  // JSON.stringify(doc, null, 2) + "\n", from each member's lines (laid out once, kept after).
  static constexpr std::string_view kEmpty = "{}\n", kOpen = "{\n", kBetween = ",\n", kClose = "\n}\n";
  size_t size = kEmpty.size();
  if (!doc.members.empty()) {
    size = kOpen.size() + kClose.size() + kBetween.size() * (doc.members.size() - 1);
    for (Document::Member& m : doc.members) {
      if (m.laid_out.empty()) m.laid_out = "  " + std::string(m.key_token) + ": " + json::indent_2(m.value, 1);
      size += m.laid_out.size();
    }
  }
  storage::PaddedBuffer text(size);  // kept as the document's bytes: the next read compares them
  char* at = text.data();
  auto put = [&at](std::string_view piece) { at = std::copy(piece.begin(), piece.end(), at); };
  if (doc.members.empty()) put(kEmpty);
  for (size_t i = 0; i < doc.members.size(); ++i) {
    put(i == 0 ? kOpen : kBetween);
    put(doc.members[i].laid_out);
  }
  if (!doc.members.empty()) put(kClose);
  Status st = storage::atomic_replace(*fs_, path_, {text.view()}, seen);
  if (st.ok()) {
    doc.text = std::move(text);
  } else {
    doc_.reset();  // the file may hold either version now: read it again next time
  }
  return st;
}

Result<std::string> KeyStore::get(std::string_view key) const {
  XS_RETURN_IF_ERROR(check_key(key));
  std::lock_guard<std::mutex> hold(mu_);
  auto doc = document(nullptr);
  if (!doc.ok()) return doc.status();
  if (const Document::Member* m = (*doc)->find(key)) return std::string(m->value);
  return Status::NotFound("no record for key " + std::string(key));
}

Result<std::vector<KeyRecord>> KeyStore::list(std::string_view prefix) const {
  std::lock_guard<std::mutex> hold(mu_);
  auto doc = document(nullptr);
  if (!doc.ok()) return doc.status();
  std::vector<KeyRecord> out;
  for (const Document::Member& m : (*doc)->members) {
    if (m.key.substr(0, prefix.size()) == prefix) out.push_back({std::string(m.key), std::string(m.value)});
  }
  return out;
}

Result<std::string> KeyStore::list_json(std::string_view prefix) const {
  std::lock_guard<std::mutex> hold(mu_);
  auto doc = document(nullptr);
  if (!doc.ok()) return doc.status();
  // Straight from the document: no record copied on the way (what xs_keys_list and `xs stats` read).
  std::string out = "[";
  out.reserve((*doc)->minified.size() + 32 * (*doc)->members.size());
  for (const Document::Member& m : (*doc)->members) {
    if (m.key.substr(0, prefix.size()) != prefix) continue;
    if (out.size() > 1) out += ',';
    out += "{\"key\":";
    json::append_quoted(out, m.key);
    out += ",\"record\":";
    out += m.value;
    out += '}';
  }
  out += ']';
  return out;  // not out + "]": a copy of the whole listing into fresh pages
}

Status KeyStore::update(std::string_view key, const UpdateFn& fn) const {
  XS_RETURN_IF_ERROR(check_key(key));
  std::vector<Status> results;
  XS_RETURN_IF_ERROR(update_many(
      {std::string(key)}, [&](std::string_view, std::optional<std::string_view> current) { return fn(current); },
      &results));
  return results.front();
}

Status KeyStore::update_many(const std::vector<std::string>& keys, const KeyedUpdateFn& fn,
                             std::vector<Status>* results) const {
  results->assign(keys.size(), Status::Ok());
  auto fail_all = [&](Status st) {
    results->assign(keys.size(), st);
    return st;
  };
  if (Status made = fs_->make_dirs(storage::dir_name(path_)); !made.ok()) return fail_all(made);
  std::lock_guard<std::mutex> hold(mu_);
  auto lock = fs_->lock(path_ + ".lock", kLockTimeout);
  if (!lock.ok()) return fail_all(lock.status().With("locking " + path_));
  storage::Expected seen;
  auto loaded = document(&seen);
  if (!loaded.ok()) {
    return fail_all(loaded.status().code() == Code::kCorrupt ? set_aside(loaded.status()) : loaded.status());
  }
  Document* doc = *loaded;
  bool changed = false;
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string& key = keys[i];
    Status& result = (*results)[i];
    if (result = check_key(key); !result.ok()) continue;
    Document::Member* current = doc->find(key);
    auto next = fn(key, current ? std::optional<std::string_view>(current->value) : std::nullopt);
    if (!next.ok()) {
      result = next.status();
      continue;
    }
    if (!*next) {
      if (!current) continue;
      doc->erase(current);
    } else {
      std::string record;
      if (result = check_record(**next, &record); !result.ok()) continue;
      if (current && current->value == record) continue;  // nothing changes: nothing is written
      if (current) {
        doc->set(current, std::move(record));
      } else {
        std::string token;
        json::append_quoted(token, key);
        doc->add(key, std::move(token), std::move(record));
      }
    }
    changed = true;
  }
  if (!changed) return Status::Ok();
  Status published = publish(*doc, seen);
  if (!published.ok()) return fail_all(published);
  return Status::Ok();
}

Status KeyStore::put(std::string_view key, std::string_view record_json) const {
  XS_RETURN_IF_ERROR(check_key(key));
  std::string record;
  XS_RETURN_IF_ERROR(check_record(record_json, &record));  // refused before any lock or read
  return update(key, [&](std::optional<std::string_view>) -> Result<std::optional<std::string>> {
    return std::optional<std::string>(record);
  });
}

Status KeyStore::patch(std::string_view key, std::string_view patch_json) const {
  XS_RETURN_IF_ERROR(check_key(key));
  json::InputJson input{json::Limits{}};
  std::string patch;
  Kind kind;
  Status st = input.prepare(patch_json, &patch, &kind);
  if (!st.ok()) return Status(st.code(), "patch: " + st.message());
  if (kind != Kind::kObject) return Status::Invalid("a patch must be a JSON object");
  return update(key, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
    auto merged = json::merge_patch(current.value_or("{}"), patch);
    if (!merged.ok()) return merged.status();
    return std::optional<std::string>(std::move(*merged));
  });
}

Status KeyStore::remove(std::string_view key) const {
  return update(key, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
    if (!current) return Status::NotFound("no record for key " + std::string(key));
    return std::optional<std::string>();
  });
}

}  // namespace xs::store
