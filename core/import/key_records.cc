#include "import/key_records.h"

#include <unordered_map>

#include "import/source_rows.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "json/object_edit.h"

namespace xs::import {

namespace {

constexpr std::string_view kMark = "importedFrom";

}  // namespace

KeyDecision decide_key(std::optional<std::string_view> current, const std::string& fresh, std::string* out) {
  if (!current) {
    *out = fresh;
    return KeyDecision::kWrite;
  }
  std::vector<json::Member> have = json::members_of(*current);
  if (!json::find_member(have, kMark)) return KeyDecision::kOwn;
  std::vector<json::Member> want = json::members_of(fresh);
  auto have_id = json::string_value(json::find_member(have, "sessionId"));
  auto want_id = json::string_value(json::find_member(want, "sessionId"));
  auto have_at = number_value(json::find_member(have, "updatedAt")).value_or(0);
  auto want_at = number_value(json::find_member(want, "updatedAt")).value_or(0);
  if (have_id != want_id && have_at > want_at) return KeyDecision::kMovedOn;
  // The source's members set one by one, as JavaScript assignment sets them (in place, new ones
  // last): fields a host of ours added since stay, and a null of the source stays a null (a merge
  // patch would take it for "remove", and so rewrite, and lose, it on every re-import).
  std::string merged(*current);
  for (const json::Member& m : want) {
    std::string key;
    json::decode_string_token(m.key, key);
    auto next = json::set_member(merged, key, m.value);
    if (!next.ok()) return KeyDecision::kSame;
    merged = std::move(*next);
  }
  if (merged == *current) return KeyDecision::kSame;
  *out = std::move(merged);
  return KeyDecision::kWrite;
}

const char* decision_reason(KeyDecision d) {
  switch (d) {
    case KeyDecision::kOwn: return "the key is this store's own (not from an import): left as it is";
    case KeyDecision::kMovedOn: return "the key names another session, updated later than the source's: left as it is";
    default: return "";
  }
}

namespace {

// Counts one key's outcome in `index`, reporting a skip with its reason.
void account_key(KeyDecision decision, const Status& st, const std::string& key, const std::string& file, uint64_t line,
                 ImportedSession& index, ImportReport& report) {
  if (!st.ok()) {
    report.skipped.push_back({file, line, key + ": not written: " + st.message()});
    ++index.skipped;
  } else if (decision == KeyDecision::kWrite) {
    ++index.imported;
  } else if (decision == KeyDecision::kSame) {
    ++index.already_imported;
  } else {
    report.skipped.push_back({file, line, key + ": " + decision_reason(decision)});
    ++index.skipped;
  }
}

// What update()'s function returns for a key decided as `decision`: the current record as it is
// (nothing written), or the merged one.
Result<std::optional<std::string>> decided(KeyDecision decision, std::optional<std::string_view> current,
                                           std::string merged) {
  if (decision != KeyDecision::kWrite) return std::optional<std::string>(current ? std::string(*current) : "");
  return std::optional<std::string>(std::move(merged));
}

}  // namespace

void import_key(const store::KeyStore& keys, bool dry_run, const std::string& key, const std::string& fresh,
                const std::string& file, uint64_t line, ImportedSession& index, ImportReport& report) {
  KeyDecision decision = KeyDecision::kSame;
  Status st;
  if (dry_run) {
    auto current = keys.get(key);
    if (!current.ok() && current.status().code() != Code::kNotFound) {
      st = current.status();
    } else {
      std::string out;
      decision = decide_key(current.ok() ? std::optional<std::string_view>(*current) : std::nullopt, fresh, &out);
    }
  } else {
    st = keys.update(key, [&](std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
      std::string out;
      decision = decide_key(current, fresh, &out);
      return decided(decision, current, std::move(out));
    });
  }
  account_key(decision, st, key, file, line, index, report);
}

void import_keys(const store::KeyStore& keys, bool dry_run, const std::vector<KeyToImport>& batch,
                 const std::string& file, ImportedSession& index, ImportReport& report) {
  if (dry_run) {
    for (const KeyToImport& k : batch) import_key(keys, true, k.key, k.record, file, k.line, index, report);
    return;
  }
  std::vector<std::string> names;
  std::unordered_map<std::string_view, size_t> place;  // the batch's keys are distinct
  for (size_t i = 0; i < batch.size(); ++i) {
    names.push_back(batch[i].key);
    place.emplace(batch[i].key, i);
  }
  std::vector<KeyDecision> decisions(batch.size(), KeyDecision::kSame);
  std::vector<Status> results;
  (void)keys.update_many(
      names,
      [&](std::string_view key, std::optional<std::string_view> current) -> Result<std::optional<std::string>> {
        size_t i = place.at(key);
        std::string out;
        decisions[i] = decide_key(current, batch[i].record, &out);
        return decided(decisions[i], current, std::move(out));
      },
      &results);  // a failure of the whole call is every key's status too
  for (size_t i = 0; i < batch.size(); ++i) {
    account_key(decisions[i], results[i], batch[i].key, file, batch[i].line, index, report);
  }
}

ImportedSession index_session(const std::string& index_path, const store::KeyStore& keys, uint64_t rows,
                              const std::vector<SkippedRow>& problems, ImportReport& report) {
  ImportedSession index;
  index.source_file = index_path;
  index.session_file = keys.path();
  index.rows_read = rows;
  for (const SkippedRow& p : problems) {
    report.skipped.push_back(p);
    if (p.line > 0) ++index.skipped;  // a refused row; line 0 is the index as a whole, read as no rows
  }
  return index;
}

Result<std::map<std::string, std::string>> existing_sessions(store::Store& target) {
  discovery::ListQuery q;
  q.archived = false;
  auto all = target.list(q);
  std::map<std::string, std::string> by_id;
  if (!all.ok()) {
    if (all.status().code() == Code::kNotFound) return by_id;  // no sessions yet
    return all.status();
  }
  for (const discovery::SessionSummary& s : *all) by_id.emplace(s.id, s.path);
  return by_id;
}

}  // namespace xs::import

namespace xs::import::gateway {

Result<std::string> KeyImport::record_of(const Agent& agent, const IndexEntry& e,
                                         const std::vector<std::string>& copies) const {
  std::string record;
  XS_RETURN_IF_ERROR(store::KeyStore::check_record(e.record, &record));
  std::string mark = "{\"kind\":\"gateway\",\"agentId\":";
  json::append_quoted(mark, agent.id);
  mark += ",\"sessionFile\":";
  if (e.session_file) {
    json::append_quoted(mark, *e.session_file);
  } else {
    mark += "null";
  }
  mark += '}';
  if (e.transcript && !copies[*e.transcript].empty()) {
    std::string ours;
    json::append_quoted(ours, copies[*e.transcript]);
    auto with_file = json::set_member(record, "sessionFile", ours);
    if (!with_file.ok()) return with_file.status();
    record = std::move(*with_file);
  }
  return json::set_member(record, kMark, mark);
}

void KeyImport::run(const Agent& agent, const std::vector<std::string>& copies) {
  ImportedSession index = index_session(agent.index_path, keys_, agent.index_rows, agent.problems, report_);
  std::vector<KeyToImport> batch;  // written in one update of the keyed store
  for (const IndexEntry& e : agent.entries) {
    auto skip = [&](const std::string& why) {
      report_.skipped.push_back({agent.index_path, e.line, e.key + ": " + why});
      ++index.skipped;
    };
    if (Status st = store::KeyStore::check_key(e.key); !st.ok()) {
      skip("not a key of ours: " + st.message());
      continue;
    }
    if (taken_.count(e.key)) {
      skip("the key was imported already by this run (listed twice, or by another agent's index)");
      continue;
    }
    auto record = record_of(agent, e, copies);
    if (!record.ok()) {
      skip("record refused: " + record.status().message());
      continue;
    }
    taken_.insert(e.key);
    batch.push_back({e.key, std::move(*record), e.line});
  }
  import_keys(keys_, dry_run_, batch, agent.index_path, index, report_);
  report_.sessions.push_back(std::move(index));
}

}  // namespace xs::import::gateway
