#include "import/gateway/importer.h"

#include <map>
#include <set>

#include "format/clock.h"
#include "import/key_records.h"
#include "import/source_rows.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::import::gateway {

namespace {

constexpr size_t kMaxIdLength = 64;

struct Header {
  std::string id, cwd, timestamp;
  std::optional<std::string> parent_session;
  std::vector<std::string> extra;  // members the native header has no place for
};

std::optional<Header> header_of(const SourceFile& src) {
  if (src.rows.empty()) return std::nullopt;
  std::string reason;
  auto m = object_members(src.rows[0].text, &reason);
  if (!m || json::string_value(json::find_member(*m, "type")).value_or("") != "session") return std::nullopt;
  Header h;
  h.id = json::string_value(json::find_member(*m, "id")).value_or("");
  h.cwd = json::string_value(json::find_member(*m, "cwd")).value_or("");
  h.timestamp = json::string_value(json::find_member(*m, "timestamp")).value_or("");
  h.parent_session = json::string_value(json::find_member(*m, "parentSession"));
  for (const json::Member& x : *m) {
    std::string key;
    json::decode_string_token(x.key, key);
    if (key != "type" && key != "version" && key != "id" && key != "cwd" && key != "timestamp" &&
        key != "parentSession") {
      h.extra.push_back(key);
    }
  }
  return h;
}

// A header-less file (a live file continuing a rotated one) takes the cwd of another generation
// of its session id.
std::string sibling_cwd(storage::Fs& fs, const Agent& agent, const Transcript& t) {
  for (const Transcript& other : agent.transcripts) {
    if (&other == &t || other.name.session_id != t.name.session_id) continue;
    SourceFile src;
    if (!read_source_rows(fs, other.path, &src).ok()) continue;
    if (auto h = header_of(src); h && !h->cwd.empty()) return h->cwd;
  }
  return "";
}

class TranscriptImport {
 public:
  TranscriptImport(storage::Fs& source, const Agent& agent, store::Store& target, const ImportOptions& options,
                   ImportReport& report)
      : source_(source), agent_(agent), target_(target), options_(options), report_(report) {}

  // Imports one transcript; returns the native session's file ("" when none).
  std::string run(const Transcript& t, const std::map<std::string, std::string>& existing) {
    ImportedSession out;
    out.source_file = t.path;
    seen_.clear();
    auto id = native_session_id(t.name);
    SourceFile src;
    Status st = read_source_rows(source_, t.path, &src);
    if (!id) st = Status::Invalid("the file name gives no usable session id");
    if (!st.ok()) {
      report_.skipped.push_back({t.path, 0, st.message()});
      report_.sessions.push_back(std::move(out));
      return "";
    }
    out.session_id = *id;
    std::optional<Header> header = header_of(src);
    size_t first = header ? 1 : 0;
    if (header && !header->extra.empty()) note(t, "header members not carried: " + join(header->extra));
    std::string cwd = header ? header->cwd : sibling_cwd(source_, agent_, t);
    if (cwd.empty()) cwd = options_.fallback_cwd.empty() ? agent_.dir : options_.fallback_cwd;
    if (!header) note(t, "no session header: imported with cwd " + cwd);

    std::unique_ptr<session::Session> s;
    auto found = existing.find(*id);
    if (found != existing.end()) {
      session::SessionOptions so;
      so.read_only = options_.dry_run;
      auto opened = target_.open_session(found->second, std::move(so));
      if (!opened.ok()) return fail(t, std::move(out), opened.status());
      s = std::move(*opened);
      out.session_file = s->path();
    } else if (!options_.dry_run) {
      session::SessionOptions so = new_session_options(*id, header);
      // A header-less live file continues its rotated generation: that copy is its parent.
      auto previous = header ? rotated_.end() : rotated_.find(t.name.stem);
      if (previous != rotated_.end()) so.parent_session = previous->second;
      auto created = target_.create_session(cwd, std::move(so));
      if (!created.ok()) return fail(t, std::move(out), created.status());
      s = std::move(*created);
      out.created = true;
      out.session_file = s->path();
    } else {
      out.created = true;
    }
    for (size_t i = first; i < src.rows.size(); ++i) take_row(t, src.rows[i], s.get(), out);
    if (s) {
      Status closed = s->close();
      if (!closed.ok()) note(t, "closing the imported session: " + closed.message());
    }
    report_.sessions.push_back(std::move(out));
    if (s && t.name.generation != Generation::kLive) rotated_[t.name.stem] = s->path();
    return s ? s->path() : "";
  }

 private:
  session::SessionOptions new_session_options(const std::string& id, const std::optional<Header>& header) const {
    session::SessionOptions so;
    so.session_id = id;
    so.dialect = format::Dialect::kPi;  // the gateway's transcripts are pi's
    so.defer_until_assistant = false;
    if (header) {
      so.parent_session = header->parent_session;
      // The header keeps its creation time: the clock answers it (entries carry their own).
      if (auto ms = format::parse_iso_ms(header->timestamp)) so.clock = format::Clock::Fixed(*ms, 0);
    }
    return so;
  }

  void take_row(const Transcript& t, const SourceRow& row, session::Session* s, ImportedSession& out) {
    ++out.rows_read;
    auto skip = [&](std::string reason) { skip_row(report_, out, t.path, row, std::move(reason)); };
    std::string reason;
    auto m = object_members(row.text, &reason);
    if (!m) return skip(reason);
    auto type = json::string_value(json::find_member(*m, "type"));
    auto id = json::string_value(json::find_member(*m, "id"));
    if (!type) return skip("no string type");
    if (*type == "session") return skip("a second session header");
    if (!id) return skip("no string id (not a version 3 entry)");
    bool custom = *type == "custom";
    if ((s && s->tree().find(*id) != model::kNone) || seen_.count(*id)) {
      ++out.already_imported;
      return;
    }
    const json::Member* parent_m = json::find_member(*m, "parentId");
    std::optional<std::string> parent = json::string_value(parent_m);
    bool known_parent = parent && ((s && s->tree().find(*parent) != model::kNone) || seen_.count(*parent));
    if (parent && !known_parent) {
      note(t, "line " + std::to_string(row.line) + ": parent " + *parent +
                  " is not in this file; the entry starts a root (as the gateway's loader reads it)");
    }
    if (s && !options_.dry_run) {
      Status st = s->set_leaf(known_parent ? std::optional<std::string_view>(*parent) : std::nullopt);
      if (st.ok()) st = s->append_entry(without_members(*m, {"parentId"}), nullptr);
      if (!st.ok()) return skip("refused: " + st.message());
    } else {
      seen_.insert(*id);
    }
    ++(custom ? out.kept_as_custom : out.imported);
  }

  std::string fail(const Transcript& t, ImportedSession out, const Status& st) {
    report_.skipped.push_back({t.path, 0, "not imported: " + st.message()});
    report_.sessions.push_back(std::move(out));
    return "";
  }
  void note(const Transcript& t, const std::string& what) { report_.notes.push_back(t.path + ": " + what); }
  static std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  }

  storage::Fs& source_;
  const Agent& agent_;
  store::Store& target_;
  const ImportOptions& options_;
  ImportReport& report_;
  std::set<std::string> seen_;                  // a dry run's ids, standing in for the session it does not write
  std::map<std::string, std::string> rotated_;  // stem -> our copy of its last rotated generation
};

}  // namespace

std::optional<std::string> native_session_id(const TranscriptName& name) {
  std::string id = name.stem;
  if (name.generation != Generation::kLive) {
    id += '-';
    id += generation_name(name.generation);
    std::string stamp;
    for (char c : name.stamp) {
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) stamp += c;
    }
    if (!stamp.empty()) id += "-" + stamp;
  }
  if (id.size() > kMaxIdLength) id.resize(kMaxIdLength);
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return std::nullopt;
  }
  if (id.empty()) return std::nullopt;
  return id;
}

Result<ImportReport> import_store(storage::Fs& source, const std::string& root, store::Store& target,
                                  const ImportOptions& options) {
  auto listing = list(source, root, options.read);
  if (!listing.ok()) return listing.status();
  ImportReport report = start_report("gateway", root, options.dry_run);
  auto existing = existing_sessions(target);
  if (!existing.ok()) return existing.status();
  KeyImport keys(target.keys(), options.dry_run, report);
  ProgressMeter progress(options.progress);
  uint64_t total = 0;
  for (const Agent& agent : listing->agents) {
    for (const Transcript& t : agent.transcripts) total += t.size;
  }
  progress.start(total);
  for (const Agent& agent : listing->agents) {
    for (const std::string& n : agent.notes) report.notes.push_back(agent.dir + ": " + n);
    TranscriptImport transcripts(source, agent, target, options, report);
    std::vector<std::string> copies(agent.transcripts.size());
    // Rotated generations first (in name order, so the latest stamp last): a live file may continue one.
    for (bool live : {false, true}) {
      for (size_t i = 0; i < agent.transcripts.size(); ++i) {
        if ((agent.transcripts[i].name.generation == Generation::kLive) != live) continue;
        copies[i] = transcripts.run(agent.transcripts[i], *existing);
        progress.add(agent.transcripts[i].size);
      }
    }
    if (agent.has_index) keys.run(agent, copies);
  }
  progress.finish();
  return report;
}

}  // namespace xs::import::gateway
