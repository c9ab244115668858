#include "store/key_stats.h"

#include <algorithm>
#include <cstdlib>
#include <utility>
#include <vector>

#include "json/js_number.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "json/object_edit.h"

namespace xs::store {

namespace {

std::string json_text(std::string_view s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

std::optional<std::string> session_id_of(std::string_view record) {
  return json::string_value(json::find_member(json::members_of(record), "sessionId"));
}

// Where the record's session is: its sessionFile when that file exists, else its id resolved.
Result<std::string> session_path(Store& store, std::string_view record, const std::string& id) {
  auto file = json::string_value(json::find_member(json::members_of(record), "sessionFile"));
  if (file && store.fs()->stat(*file).ok()) return *file;
  return store.resolve(id, std::nullopt);
}

}  // namespace

Result<std::string> with_stats(std::string_view record, const stats::Snapshot& snapshot, bool identity) {
  std::string out(record);
  std::vector<std::pair<std::string, std::string>> fields;
  if (identity) {
    // Last activity only moves forward: a host's session_for_key stamps the time of the message
    // (docs/reset-policies.md), which may be later than the session's own last entry.
    double updated_at = static_cast<double>(snapshot.updated_at_ms);
    auto members = json::members_of(record);  // kept: `known` points into it
    const json::Member* known = json::find_member(members, "updatedAt");
    if (known && known->kind == json::Kind::kNumber) {
      updated_at = std::max(updated_at, std::strtod(std::string(known->value).c_str(), nullptr));
    }
    std::string updated;
    json::append_js_number(updated, updated_at);
    fields.emplace_back("sessionId", json_text(snapshot.session_id));
    fields.emplace_back("sessionFile", json_text(snapshot.session_file));
    fields.emplace_back("updatedAt", std::move(updated));
  }
  for (auto& f : stats::stat_fields(snapshot.stats)) fields.push_back(std::move(f));
  for (const auto& [name, value] : fields) {
    auto set = json::set_member(out, name, value);
    if (!set.ok()) return set.status();
    out = std::move(*set);
  }
  return out;
}

KeyStatsSink::KeyStatsSink(std::shared_ptr<storage::Fs> fs, std::string document, std::string key)
    : keys_(std::move(fs), std::move(document)), key_(std::move(key)) {}

Result<bool> KeyStatsSink::holds_stats_of(std::string_view session_id) const {
  auto record = keys_.get(key_);
  if (record.status().code() == Code::kNotFound) return false;
  if (!record.ok()) return record.status();
  auto members = json::members_of(*record);
  auto id = json::string_value(json::find_member(members, "sessionId"));
  return id && *id == session_id && json::find_member(members, "messageCounts") != nullptr;
}

Status KeyStatsSink::publish(const stats::Snapshot& snapshot) {
  return keys_.update(key_, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
    // After the handle's first write, a key that has moved on to another session (a reset by
    // another process) is not pulled back by the session it left (docs/session-stats.md#binding-a-session-to-a-key).
    if (current && !snapshot.claim) {
      auto id = session_id_of(*current);
      if (id && *id != snapshot.session_id) return std::optional<std::string>(std::string(*current));
    }
    auto record = with_stats(current.value_or("{}"), snapshot, true);
    if (!record.ok()) return record.status();
    return std::optional<std::string>(std::move(*record));
  });
}

Result<std::string> fix_key_stats(Store& store, std::string_view prefix) {
  auto records = store.keys().list(prefix);
  if (!records.ok()) return records.status();
  std::string fixed, skipped;
  auto skip = [&](const std::string& key, const std::string& reason) {
    skipped += skipped.empty() ? "{\"key\":" : ",{\"key\":";
    skipped += json_text(key) + ",\"reason\":" + json_text(reason) + "}";
  };
  for (const KeyRecord& kr : *records) {
    auto id = session_id_of(kr.record);
    if (!id) {
      skip(kr.key, "the record has no sessionId");
      continue;
    }
    auto path = session_path(store, kr.record, *id);
    if (!path.ok()) {
      skip(kr.key, path.status().message());
      continue;
    }
    session::SessionOptions read_only;
    read_only.read_only = true;
    auto s = store.open_session(*path, read_only);
    if (!s.ok()) {
      skip(kr.key, s.status().message());
      continue;
    }
    stats::Snapshot snap;
    snap.stats = (*s)->stats();
    auto want = with_stats(kr.record, snap, false);
    if (!want.ok()) return want.status();
    if (*want == kr.record) continue;
    Status st =
        store.keys().update(kr.key, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
          if (!current || session_id_of(*current) != id) {
            return Status(Code::kConflict, "the record changed to another session while it was recounted");
          }
          auto next = with_stats(*current, snap, false);
          if (!next.ok()) return next.status();
          return std::optional<std::string>(std::move(*next));
        });
    if (st.code() == Code::kConflict) {
      skip(kr.key, st.message());
      continue;
    }
    XS_RETURN_IF_ERROR(st);
    // What changed, field by field: the old token (null when missing) and the new one.
    auto old_members = json::members_of(kr.record);
    std::string before, after;
    for (const auto& [name, value] : stats::stat_fields(snap.stats)) {
      const json::Member* m = json::find_member(old_members, name);
      if (m && m->value == value) continue;
      before += (before.empty() ? "" : ",") + json_text(name) + ":" + (m ? std::string(m->value) : "null");
      after += (after.empty() ? "" : ",") + json_text(name) + ":" + value;
    }
    fixed += fixed.empty() ? "{\"key\":" : ",{\"key\":";
    fixed += json_text(kr.key) + ",\"sessionId\":" + json_text(*id) + ",\"before\":{" + before + "},\"after\":{" +
             after + "}}";
  }
  return "{\"checked\":" + std::to_string(records->size()) + ",\"fixed\":[" + fixed + "],\"skipped\":[" + skipped +
         "]}";
}

}  // namespace xs::store
