#include "import/myagents/importer.h"

#include <map>
#include <numeric>
#include <set>

#include "format/clock.h"
#include "format/ids.h"
#include "import/key_records.h"
#include "import/myagents/messages.h"
#include "json/input_json.h"
#include "json/js_number.h"
#include "json/json_string.h"
#include "json/object_edit.h"
#include "store/key_stats.h"

namespace xs::import::myagents {

namespace {

// Where an earlier import of this id went: the key's record names it; without one (removed since),
// a session of the same id.
std::optional<std::string> earlier_copy(const store::KeyStore& keys, const std::map<std::string, std::string>& existing,
                                        const std::string& id) {
  auto record = keys.get(key_for(id));
  if (record.ok()) {
    auto m = json::members_of(*record);
    if (json::find_member(m, "importedFrom")) {
      if (auto file = json::string_value(json::find_member(m, "sessionFile"))) return file;
    }
  }
  auto found = existing.find(id);
  if (found != existing.end()) return found->second;
  return std::nullopt;
}

std::string json_text(std::string_view s) {
  std::string out;
  json::append_quoted_lossy(out, s);
  return out;
}

class SessionImport {
 public:
  SessionImport(storage::Fs& source, const Listing& listing, store::Store& target, const ImportOptions& options,
                std::map<std::string, std::string> existing, ImportReport& report, ImportedSession& index)
      : source_(source),
        listing_(listing),
        target_(target),
        options_(options),
        existing_(std::move(existing)),
        report_(report),
        index_(index) {}

  void run(const SessionFiles& files) {
    const IndexEntry* entry = files.entry ? &listing_.entries[*files.entry] : nullptr;
    if (!files.messages_file()) {
      report_.skipped.push_back({listing_.index_path, entry->line, "session " + files.id + ": no messages file"});
      ++index_.skipped;
      return;
    }
    ImportedSession out;
    out.source_file = *files.messages_file();
    out.session_id = format::is_valid_new_id(files.id) ? files.id : "";
    Messages messages;
    Status st = read_messages(source_, files, &messages);
    std::unique_ptr<session::Session> s;
    if (st.ok()) st = open_or_create(files, entry, out, &s);
    if (!st.ok()) {
      report_.skipped.push_back({out.source_file, 0, "not imported: " + st.message()});
      report_.sessions.push_back(std::move(out));
      if (entry) {
        report_.skipped.push_back(
            {listing_.index_path, entry->line, "session " + files.id + ": its messages were not imported"});
        ++index_.skipped;
      }
      return;
    }
    std::set<std::string> have;
    if (s) {
      for (const model::Entry& e : s->data().entries) {
        if (auto id = source_id_of(e.line)) have.insert(*id);
      }
    }
    for (const SourceRow& row : messages.source.rows) take_row(messages, row, s.get(), have, out);
    if (s) {
      Status closed = s->close();
      if (!closed.ok())
        report_.notes.push_back(out.source_file + ": closing the imported session: " + closed.message());
    }
    write_record(files, entry, s.get(), out);
    report_.sessions.push_back(std::move(out));
  }

 private:
  Status open_or_create(const SessionFiles& files, const IndexEntry* entry, ImportedSession& out,
                        std::unique_ptr<session::Session>* s) {
    session::SessionOptions so;
    if (auto earlier = earlier_copy(target_.keys(), existing_, files.id)) {
      so.read_only = options_.dry_run;
      auto opened = target_.open_session(*earlier, std::move(so));
      if (opened.ok()) {
        *s = std::move(*opened);
        out.session_file = (*s)->path();
        out.session_id = (*s)->header_info().id;
        return Status::Ok();
      }
      report_.notes.push_back(key_for(files.id) + " names " + *earlier + ", which is gone: imported again");
    }
    out.created = true;
    if (options_.dry_run) return Status::Ok();
    if (!out.session_id.empty()) so.session_id = out.session_id;
    so.defer_until_assistant = false;
    if (entry && entry->title) so.title = entry->title;
    if (entry && entry->created_at) {
      if (auto ms = format::parse_iso_ms(*entry->created_at)) so.clock = format::Clock::Fixed(*ms, 0);
    }
    std::string cwd = entry && entry->agent_dir && !entry->agent_dir->empty() ? *entry->agent_dir
                      : options_.fallback_cwd.empty()                         ? listing_.root
                                                                              : options_.fallback_cwd;
    auto created = target_.create_session(cwd, std::move(so));
    if (!created.ok()) return created.status();
    *s = std::move(*created);
    out.session_file = (*s)->path();
    out.session_id = (*s)->header_info().id;
    return Status::Ok();
  }

  void take_row(const Messages& messages, const SourceRow& row, session::Session* s, std::set<std::string>& have,
                ImportedSession& out) {
    ++out.rows_read;
    auto skip = [&](std::string reason) { skip_row(report_, out, messages.file, row, std::move(reason)); };
    std::string reason;
    auto members = object_members(row.text, &reason);
    if (!members) return skip(reason);
    MappedRow mapped = map_message_row(*members, row.line);
    if (have.count(mapped.source_id)) {
      ++out.already_imported;
      return;
    }
    if (s && !options_.dry_run) {
      Status st = s->append_entry(mapped.entry, nullptr);
      if (!st.ok()) return skip("refused: " + st.message());
    }
    have.insert(mapped.source_id);
    ++(mapped.custom ? out.kept_as_custom : out.imported);
  }

  // The key's record: the session's stats (docs/session-stats.md) and identity, the metadata's
  // title, cwd and creation time, and importedFrom holding the metadata element verbatim.
  void write_record(const SessionFiles& files, const IndexEntry* entry, session::Session* s,
                    const ImportedSession& out) {
    ImportedSession unlisted;  // a session the index lacks: its record counts in no index row
    ImportedSession& counter = entry ? index_ : unlisted;
    uint64_t line = entry ? entry->line : 0;
    const std::string key = key_for(files.id);
    auto fail = [&](const Status& st) {
      report_.skipped.push_back({listing_.index_path, line, key + ": not written: " + st.message()});
      ++counter.skipped;
    };
    if (!s) {  // a dry run of a new session: its record would be new
      ++(target_.keys().get(key).ok() ? counter.already_imported : counter.imported);
      return;
    }
    stats::Snapshot snap;
    snap.stats = s->stats();
    snap.session_id = s->header_info().id;
    snap.session_file = out.session_file;
    std::optional<int64_t> at;
    if (!s->data().entries.empty()) at = format::parse_iso_ms(s->data().entries.back().timestamp);
    if (!at) at = format::parse_iso_ms(s->header_info().timestamp);
    snap.updated_at_ms = at.value_or(0);
    auto record = store::with_stats("{}", snap, true);
    if (!record.ok()) return fail(record.status());
    std::string r = *record;
    auto set = [&](std::string_view k, const std::string& v) {
      if (auto next = json::set_member(r, k, v); next.ok()) r = std::move(*next);
    };
    if (entry && entry->title) set("title", json_text(*entry->title));
    set("cwd", json_text(s->header_info().cwd));
    if (entry && entry->created_at) {
      if (auto ms = format::parse_iso_ms(*entry->created_at)) {
        std::string n;
        json::append_js_number(n, static_cast<double>(*ms));
        set("createdAt", n);
      }
    }
    std::string metadata = "null";
    if (entry) {
      json::InputJson input(json::internal_limits());
      json::Kind kind;
      if (!input.prepare(entry->metadata, &metadata, &kind).ok()) metadata = "null";
    }
    set("importedFrom", "{\"kind\":\"myagents\",\"id\":" + json_text(files.id) + ",\"metadata\":" + metadata + "}");
    import_key(target_.keys(), options_.dry_run, key, r, listing_.index_path, line, counter, report_);
  }

  storage::Fs& source_;
  const Listing& listing_;
  store::Store& target_;
  const ImportOptions& options_;
  std::map<std::string, std::string> existing_;  // our sessions by id
  ImportReport& report_;
  ImportedSession& index_;
};

}  // namespace

std::string key_for(std::string_view myagents_id) { return "myagents:" + std::string(myagents_id); }

Result<ImportReport> import_store(storage::Fs& source, const std::string& root, store::Store& target,
                                  const ImportOptions& options) {
  auto listing = list(source, root, options.read);
  if (!listing.ok()) return listing.status();
  ImportReport report = start_report("myagents", root, options.dry_run);
  for (const std::string& n : listing->notes) report.notes.push_back(n);
  ImportedSession index =
      index_session(listing->index_path, target.keys(), listing->index_rows, listing->problems, report);
  auto existing = existing_sessions(target);
  if (!existing.ok()) return existing.status();
  SessionImport sessions(source, *listing, target, options, std::move(*existing), report, index);
  // The total is what the message files hold now (an index entry without one counts 0): a file that
  // changes under us moves the bar only.
  std::vector<uint64_t> sizes;
  for (const SessionFiles& files : listing->sessions) {
    auto info = files.messages_file() ? source.stat(*files.messages_file()) : Status::NotFound("no messages file");
    sizes.push_back(info.ok() ? info->size : 0);
  }
  ProgressMeter progress(options.progress);
  progress.start(std::accumulate(sizes.begin(), sizes.end(), uint64_t{0}));
  for (size_t i = 0; i < listing->sessions.size(); ++i) {
    sessions.run(listing->sessions[i]);
    progress.add(sizes[i]);
  }
  progress.finish();
  if (listing->has_index) report.sessions.push_back(std::move(index));
  return report;
}

}  // namespace xs::import::myagents
