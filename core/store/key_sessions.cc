// Store::session_for_key: a session key's current session under its reset policy
// (docs/reset-policies.md). The decision, the session's open or creation and the record's new
// value all happen inside one KeyStore::update, under the document's lock, so two processes asking
// for the same key at once get the same session: the second sees the record the first wrote.
#include <cmath>
#include <cstdlib>

#include "format/ids.h"
#include "json/document_edit.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "json/object_edit.h"
#include "storage/path.h"
#include "store/key_stats.h"
#include "store/store.h"

namespace xs::store {

namespace {

// How many earlier session ids a record keeps (docs/reset-policies.md#the-record).
constexpr size_t kMaxPreviousSessionIds = 20;

// The counts of the session a record describes (docs/session-stats.md#binding-a-session-to-a-key), set to those
// of an empty session when a new one starts (when present): a bound session finds them current.
struct Counter {
  std::string_view name;
  std::string_view empty;
};
constexpr Counter kSessionCounters[] = {{"inputTokens", "0"}, {"outputTokens", "0"},    {"cacheRead", "0"},
                                        {"cacheWrite", "0"},  {"totalTokens", "0"},     {"contextTokens", "0"},
                                        {"cost", "0"},        {"compactionCount", "0"}, {"messageCounts", "{}"},
                                        {"toolCalls", "0"}};

// What session_for_key reads of a record.
struct Current {
  std::string id;
  std::optional<std::string> file;  // sessionFile
  std::optional<int64_t> updated;   // updatedAt
  std::optional<int64_t> last;      // last activity: updatedAt, else createdAt
  std::optional<std::string> cwd;
  std::vector<std::string_view> previous;  // previousSessionIds, as stored
  std::vector<const Counter*> counters;    // those of kSessionCounters it holds (not null)
};

std::optional<int64_t> epoch_ms(const json::Member* m) {
  if (!m || m->kind != json::Kind::kNumber) return std::nullopt;
  double v = std::strtod(std::string(m->value).c_str(), nullptr);
  if (!std::isfinite(v) || std::fabs(v) > 9.0e15) return std::nullopt;
  return static_cast<int64_t>(std::floor(v));
}

Current read_record(std::string_view record) {
  Current c;
  auto members = json::members_of(record);
  c.id = json::string_value(json::find_member(members, "sessionId")).value_or("");
  c.file = json::string_value(json::find_member(members, "sessionFile"));
  if (c.file && c.file->empty()) c.file.reset();
  c.updated = epoch_ms(json::find_member(members, "updatedAt"));
  c.last = c.updated ? c.updated : epoch_ms(json::find_member(members, "createdAt"));
  c.cwd = json::string_value(json::find_member(members, "cwd"));
  if (const json::Member* prev = json::find_member(members, "previousSessionIds");
      prev && prev->kind == json::Kind::kArray) {
    std::vector<json::Member> items;
    bool is_object = false;
    if (json::scan_members(prev->value, json::Limits{}, &items, &is_object).ok()) {
      for (const json::Member& item : items) c.previous.push_back(item.value);
    }
  }
  for (const Counter& counter : kSessionCounters) {
    const json::Member* m = json::find_member(members, counter.name);
    if (m && m->kind != json::Kind::kNull) c.counters.push_back(&counter);
  }
  return c;
}

void add_member(std::string& out, std::string_view key, std::string_view value_json) {
  out += out.size() > 1 ? "," : "";
  json::append_quoted(out, key);
  out += ':';
  out.append(value_json);
}

std::string json_quoted(std::string_view s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

}  // namespace

Result<KeySession> Store::session_for_key(std::string_view key, int64_t now_ms,
                                          const std::optional<ResetPolicy>& policy, bool force,
                                          session::SessionOptions options) {
  XS_RETURN_IF_ERROR(KeyStore::check_key(key));
  if (options.read_only) return Status::Invalid("session_for_key opens the key's session for writing");
  if (now_ms < 0) return Status::Invalid("now_ms must not be negative");
  std::optional<LoadedPolicy> call_policy;
  if (policy) {
    auto loaded = load_policy(*storage::make_posix_fs(), *policy);  // the host's zone database
    if (!loaded.ok()) return loaded.status();
    call_policy = std::move(*loaded);
  }
  const LoadedPolicy* rule = call_policy ? &*call_policy : default_policy_ ? &*default_policy_ : nullptr;
  if (options.key && *options.key != key) return Status::Invalid("session_for_key binds its session to its own key");
  // The session reports its stats to the key once the record names it (below, after the lock is
  // released: the sink writes through the same lock).
  options.key.reset();
  options.stats_sink.reset();
  options = with_store(std::move(options));
  options.create_if_missing = false;
  const std::string doc_dir = storage::dir_name(keys_.path());

  KeySession out;
  Status st = keys_.update(key, [&](std::optional<std::string_view> record) -> Result<std::optional<std::string>> {
    Current cur = record ? read_record(*record) : Current{};
    ResetReason reason = !record ? ResetReason::kNew
                         : force ? ResetReason::kForced
                         : rule  ? expiry(*rule, cur.last, now_ms)
                                 : ResetReason::kContinued;
    std::string cwd = !options.cwd.empty()           ? options.cwd
                      : cur.cwd && !cur.cwd->empty() ? *cur.cwd
                                                     : storage::current_directory();
    // Where the record's session is: its sessionFile (relative: to the document's directory),
    // else openclaw's <document dir>/<sessionId>.jsonl when that file exists.
    std::optional<std::string> old_path;
    if (cur.file) {
      old_path = cur.file->front() == '/' ? *cur.file : storage::join_path(doc_dir, *cur.file);
    } else if (record && format::is_valid_new_id(cur.id)) {
      std::string beside = storage::join_path(doc_dir, cur.id + ".jsonl");
      if (fs_->stat(beside).ok()) old_path = beside;
    }

    std::string patch = "{";
    if (reason == ResetReason::kContinued) {
      session::SessionOptions o = options;
      o.cwd = cwd;
      o.session_id = cur.id;  // a file that is missing starts again under the record's id
      Result<std::unique_ptr<session::Session>> s = Status::Internal("unset");
      if (old_path) {
        o.create_if_missing = true;
        s = session::Session::open(fs_, *old_path, std::move(o));
      } else {
        s = session::Session::create(fs_, session_dir(cwd), std::move(o));
        if (s.ok()) XS_RETURN_IF_ERROR((*s)->claim_file());
        if (s.ok()) add_member(patch, "sessionFile", json_quoted(json::to_valid_utf8((*s)->path())));
      }
      if (!s.ok()) return s.status().With("the session of key " + std::string(key));
      out.session = std::move(*s);
      if (!cur.updated || *cur.updated < now_ms) add_member(patch, "updatedAt", std::to_string(now_ms));
    } else {
      session::SessionOptions o = options;
      if (record) {
        format::Dialect d = o.dialect.value_or(o.default_dialect);
        // docs/dialects.md: pi names a session's source by path, omp by id.
        o.parent_session = d == format::Dialect::kPi && old_path ? json::to_valid_utf8(*old_path) : cur.id;
      }
      auto s = create_session(cwd, std::move(o));
      if (!s.ok()) return s.status();
      if (record && (*s)->header_info().id == cur.id) {  // a caller's session_id, or a seed used twice
        return Status::Exists("a new session for key " + std::string(key) + " needs an id other than its current " +
                              cur.id);
      }
      XS_RETURN_IF_ERROR((*s)->claim_file());
      out.session = std::move(*s);
      const format::Header& h = out.session->header_info();
      add_member(patch, "sessionId", json_quoted(h.id));
      add_member(patch, "sessionFile", json_quoted(json::to_valid_utf8(out.session->path())));
      add_member(patch, "createdAt", std::to_string(now_ms));
      add_member(patch, "updatedAt", std::to_string(now_ms));
      for (const Counter* counter : cur.counters) {
        // An object in a merge patch merges: {} would keep the old counts. Set after the merge.
        if (counter->empty != "{}") add_member(patch, counter->name, counter->empty);
      }
      if (record) {
        std::vector<std::string_view> ids = cur.previous;
        std::string old_id = json_quoted(cur.id);
        ids.push_back(old_id);
        size_t from = ids.size() > kMaxPreviousSessionIds ? ids.size() - kMaxPreviousSessionIds : 0;
        std::string list = "[";
        for (size_t i = from; i < ids.size(); ++i) list.append(i > from ? "," : "").append(ids[i]);
        add_member(patch, "previousSessionIds", list + "]");
      }
    }
    out.reason = reason;
    patch += "}";
    if (!record) return std::optional<std::string>(std::move(patch));
    auto merged = json::merge_patch(*record, patch);
    if (!merged.ok()) return merged.status();
    for (const Counter* counter : cur.counters) {
      if (reason == ResetReason::kContinued || counter->empty != "{}") continue;
      merged = json::set_member(*merged, counter->name, counter->empty);
      if (!merged.ok()) return merged.status();
    }
    return std::optional<std::string>(std::move(*merged));
  });
  if (!st.ok()) return st;
  out.session->bind_stats_sink(std::string(key), std::make_shared<KeyStatsSink>(fs_, keys_.path(), std::string(key)));
  return out;
}

}  // namespace xs::store
