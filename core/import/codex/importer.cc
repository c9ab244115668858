#include "import/codex/importer.h"

#include <simdjson.h>

#include <map>
#include <memory>
#include <set>

#include "blobs/blob_store.h"
#include "format/clock.h"
#include "format/ids.h"
#include "import/codex/convert.h"
#include "import/codex/plan.h"
#include "import/key_records.h"
#include "json/json_string.h"
#include "json/limits.h"

namespace xs::import::codex {

namespace {

// The source lines an earlier import wrote into `s` (its entries' sourceRows).
std::set<uint64_t> imported_lines(const session::Session& s) {
  std::set<uint64_t> lines;
  simdjson::dom::parser parser;
  std::string padded;
  for (const model::Entry& e : s.data().entries) {
    if (e.line.find("\"sourceRows\"") == std::string_view::npos) continue;
    padded.assign(e.line);
    padded.append(json::kPadding, '\0');
    simdjson::dom::array rows;
    if (parser.parse(padded.data(), e.line.size(), false)["sourceRows"].get(rows) != simdjson::SUCCESS) continue;
    for (simdjson::dom::element r : rows) {
      uint64_t line = 0;
      if (r["line"].get(line) == simdjson::SUCCESS) lines.insert(line);
    }
  }
  return lines;
}

// Writes one rollout's plan into its session (null: a dry run) and counts every row.
class Writer {
 public:
  Writer(const Rollout& r, const Plan& plan, session::Session* s, const std::set<uint64_t>& old)
      : r_(r), plan_(plan), s_(s), old_(old) {}

  Status write() {
    for (const PlannedEntry& e : plan_.entries) {
      std::vector<size_t> fresh;
      for (size_t i : e.rows) {
        if (!old_.count(r_.rows[i].line)) fresh.push_back(i);
      }
      if (fresh.empty() || !s_) continue;
      std::string entry = entry_json(e, fresh);
      Status st = s_->append_entry(entry, nullptr);
      if (st.code() == Code::kLimit || st.code() == Code::kInvalid) {
        // The session refuses this entry (a line over its limits): its rows are reported.
        for (size_t i : fresh) refused_[i] = "not importable: " + st.message();
        continue;
      }
      XS_RETURN_IF_ERROR(st);
    }
    return Status::Ok();
  }

  void count(ImportReport& report, ImportedSession& out) const {
    for (size_t i = 0; i < r_.bad.size(); ++i) {
      ++out.rows_read;
      skip_row(report, out, r_.file.rel, r_.bad[i], r_.bad_reasons[i]);
    }
    for (size_t i = 0; i < r_.rows.size(); ++i) {
      ++out.rows_read;
      auto refused = refused_.find(i);
      if (old_.count(r_.rows[i].line)) {
        ++out.already_imported;
      } else if (refused != refused_.end()) {
        SourceRow row{r_.rows[i].line, r_.rows[i].text, r_.rows[i].terminated};
        skip_row(report, out, r_.file.rel, row, refused->second);
      } else if (plan_.outcome[i] == RowOutcome::kCustom) {
        ++out.kept_as_custom;
      } else {
        ++out.imported;
      }
    }
  }

 private:
  std::string entry_json(const PlannedEntry& e, const std::vector<size_t>& fresh) {
    const Row& first = r_.rows[fresh.front()];
    std::string out;
    switch (e.kind) {
      case EntryKind::kAssistant: {
        std::vector<const Row*> items;
        const Row* usage = nullptr;
        for (size_t i : fresh) {
          if (e.has_usage && i == e.rows.back()) {
            usage = &r_.rows[i];
          } else {
            items.push_back(&r_.rows[i]);
          }
        }
        // A count whose response an earlier import took (the rollout grew in between) stays as it is.
        out = items.empty() ? "{\"type\":\"custom\"," + custom_members(*usage)
                            : "{\"type\":\"message\"," + assistant_members(items, usage, plan_.provider, e.model);
        break;
      }
      case EntryKind::kMessage: out = "{\"type\":\"message\"," + message_members(first); break;
      case EntryKind::kToolResult: out = "{\"type\":\"message\"," + tool_result_members(first, plan_.tool_names); break;
      case EntryKind::kModelChange:
        out = "{\"type\":\"model_change\",\"model\":";
        json::append_quoted_lossy(out, plan_.provider + "/" + e.model);
        break;
      case EntryKind::kThinkingLevel:
        out = "{\"type\":\"thinking_level_change\",\"thinkingLevel\":";
        json::append_quoted_lossy(out, e.effort);
        break;
      case EntryKind::kCompaction:
        out = "{\"type\":\"compaction\"," + compaction_members(first, e.tokens_before, plan_.provider);
        break;
      case EntryKind::kCustom: out = "{\"type\":\"custom\"," + custom_members(first); break;
    }
    // The entry's time is its row's, else the last one a row before it had: an import stamps
    // nothing with the time it ran.
    if (!first.timestamp.empty()) carried_ = first.timestamp;
    if (!carried_.empty()) {
      out += ",\"timestamp\":";
      json::append_quoted_lossy(out, carried_);
    }
    out += ",\"sourceRows\":[";
    for (size_t k = 0; k < fresh.size(); ++k) {
      out += k ? ",{\"file\":" : "{\"file\":";
      json::append_quoted_lossy(out, r_.file.rel);
      out += ",\"line\":" + std::to_string(r_.rows[fresh[k]].line) + "}";
    }
    return out + "]}";
  }

  const Rollout& r_;
  const Plan& plan_;
  session::Session* s_;
  const std::set<uint64_t>& old_;
  std::string carried_;
  std::map<size_t, std::string> refused_;  // row → reason
};

class SessionsImport {
 public:
  SessionsImport(storage::Fs& source, const std::string& root, store::Store& target, const ImportOptions& options,
                 std::map<std::string, std::string> existing, ImportReport& report)
      : source_(source),
        root_(root),
        target_(target),
        options_(options),
        existing_(std::move(existing)),
        report_(report) {}

  Status run(const RolloutFile& f) {
    ImportedSession out;
    out.source_file = f.rel;
    Rollout r;
    Status read = read_rollout(source_, f, &r);
    if (!read.ok()) {
      report_.skipped.push_back({f.rel, 0, "not read: " + read.message()});
      report_.sessions.push_back(std::move(out));
      return Status::Ok();
    }
    out.session_id = native_session_id(r);
    if (!used_.insert(out.session_id).second) {
      report_.notes.push_back(f.rel + ": session " + out.session_id +
                              " is also an earlier file's: imported as its own");
      r.session_id.clear();
      out.session_id = native_session_id(r);
      used_.insert(out.session_id);
    }
    Plan plan = make_plan(r);
    std::unique_ptr<session::Session> s;
    Status st = open_or_create(r, out, &s);
    if (!st.ok()) {
      report_.skipped.push_back({f.rel, 0, "not imported: " + st.message()});
      report_.sessions.push_back(std::move(out));
      return Status::Ok();
    }
    std::set<uint64_t> old = s ? imported_lines(*s) : std::set<uint64_t>();
    Writer writer(r, plan, options_.dry_run ? nullptr : s.get(), old);
    XS_RETURN_IF_ERROR(writer.write());
    if (s && !options_.dry_run) XS_RETURN_IF_ERROR(s->close());
    writer.count(report_, out);
    report_.sessions.push_back(std::move(out));
    return Status::Ok();
  }

 private:
  Status open_or_create(const Rollout& r, ImportedSession& out, std::unique_ptr<session::Session>* s) {
    auto earlier = existing_.find(out.session_id);
    if (earlier != existing_.end()) {
      session::SessionOptions o;
      o.read_only = options_.dry_run;
      auto opened = target_.open_session(earlier->second, std::move(o));
      if (!opened.ok()) return opened.status();
      *s = std::move(*opened);
      out.session_file = (*s)->path();
      return Status::Ok();
    }
    out.created = true;
    if (options_.dry_run) return Status::Ok();
    session::SessionOptions o;
    o.session_id = out.session_id;
    o.defer_until_persist = true;  // written whole when closed (docs/decisions.md#deferred-first-write)
    // The header's time is the session's start (and names the file), not the import's.
    std::string started = r.started;
    if (started.empty() && !r.rows.empty()) started = r.rows.front().timestamp;
    if (auto ms = format::parse_iso_ms(started)) o.clock = format::Clock::Fixed(*ms, 1);
    if (!r.forked_from.empty() && format::is_valid_new_id(r.forked_from)) o.parent_session = r.forked_from;
    std::string cwd = !r.cwd.empty() ? r.cwd : options_.fallback_cwd.empty() ? root_ : options_.fallback_cwd;
    auto made = target_.create_session(cwd, std::move(o));
    if (!made.ok()) return made.status();
    *s = std::move(*made);
    out.session_file = (*s)->path();
    existing_[out.session_id] = out.session_file;
    return Status::Ok();
  }

  storage::Fs& source_;
  const std::string& root_;
  store::Store& target_;
  const ImportOptions& options_;
  std::map<std::string, std::string> existing_;  // our sessions by id
  ImportReport& report_;
  std::set<std::string> used_;  // ids of this import's files
};

}  // namespace

std::string native_session_id(const Rollout& rollout) {
  if (format::is_valid_new_id(rollout.session_id)) return rollout.session_id;
  return "codex-" + blobs::sha256_hex("codex/" + rollout.file.rel).substr(0, 16);
}

Result<ImportReport> import_sessions(storage::Fs& source, const std::string& root, store::Store& target,
                                     const ImportOptions& options) {
  auto files = find_rollouts(source, root);
  if (!files.ok()) return files.status();
  ImportReport report = start_report("codex", root, options.dry_run);
  auto existing = existing_sessions(target);
  if (!existing.ok()) return existing.status();
  SessionsImport sessions(source, root, target, options, std::move(*existing), report);
  uint64_t total = 0;
  for (const RolloutFile& f : *files) total += f.size;
  ProgressMeter progress(options.progress);
  progress.start(total);
  for (const RolloutFile& f : *files) {
    XS_RETURN_IF_ERROR(sessions.run(f));
    progress.add(f.size);
  }
  progress.finish();
  return report;
}

}  // namespace xs::import::codex
