#include "import/claude/importer.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "blobs/blob_store.h"
#include "format/clock.h"
#include "format/dialect.h"
#include "format/ids.h"
#include "import/claude/plan.h"
#include "import/claude/reader.h"
#include "import/claude/writer.h"

namespace xs::import::claude {
namespace {

// One conversation: a main transcript's main chain, an inline sidechain, or a subagent file.
struct Partition {
  size_t file = 0;
  bool main = false;
  std::string session_id;      // native
  std::string parent_session;  // native id of the session it was spawned from
  std::string cwd;
  std::string custom_title;
  std::vector<size_t> rows;  // indices into the file's rows, in file order
  std::vector<RowRef> labels;
  std::vector<Link> links;  // main transcripts: their subagents
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string file_stem(const std::string& rel) {
  std::string name = rel.substr(rel.rfind('/') + 1);
  return ends_with(name, ".jsonl") ? name.substr(0, name.size() - 6) : name;
}

// A project directory's own name (the encoded cwd), whatever path led to it.
std::string base_name(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path.substr(path.rfind('/') + 1);
}

// The partitions of one file: a main transcript's sidechain rows (1.0.x) split by their roots.
void partition_file(const ProjectScan& scan, size_t f, std::vector<Partition>* out) {
  const SourceFile& sf = scan.files[f];
  const std::vector<Row>& rows = sf.transcript.rows;
  bool main_file = sf.info.kind == FileKind::kSession;
  Partition main;
  main.file = f;
  main.main = main_file;
  std::string project = base_name(scan.dir);
  main.session_id = native_session_id(project + "/" + sf.info.file);
  if (!main_file) main.parent_session = native_session_id(project + "/" + sf.info.parent_session_id + ".jsonl");
  main.cwd = sf.info.cwd;
  main.custom_title = sf.info.title;
  std::unordered_map<std::string, size_t> side_of_uuid;  // sidechain uuid → index into `sides`
  std::vector<Partition> sides;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    if (r.type == "summary") continue;  // routed by the caller
    if (!main_file || !r.is_sidechain || !r.is_chain()) {
      main.rows.push_back(i);
      continue;
    }
    auto parent = side_of_uuid.find(r.parent_uuid);
    size_t s;
    if (r.has_parent && parent != side_of_uuid.end()) {
      s = parent->second;
    } else {
      Partition p;
      p.file = f;
      p.session_id = native_session_id(project + "/" + sf.info.file + "#" + r.uuid);
      p.parent_session = main.session_id;
      p.cwd = r.cwd.empty() ? sf.info.cwd : r.cwd;
      sides.push_back(std::move(p));
      s = sides.size() - 1;
    }
    side_of_uuid[r.uuid] = s;
    sides[s].rows.push_back(i);
  }
  out->push_back(std::move(main));
  for (Partition& p : sides) out->push_back(std::move(p));
}

class ProjectImporter {
 public:
  ProjectImporter(store::Store& store, const ImportOptions& options, ProgressMeter& progress, ImportReport* report)
      : store_(store), options_(options), progress_(progress), report_(*report) {}

  Status run(const ProjectScan& scan) {
    scan_ = &scan;
    for (const SkippedRow& s : scan.skipped) report_.skipped.push_back(s);
    for (const std::string& n : scan.notes) report_.notes.push_back(n);
    std::vector<Partition> parts;
    std::vector<size_t> main_of_file(scan.files.size());
    for (size_t f = 0; f < scan.files.size(); ++f) {
      main_of_file[f] = parts.size();
      partition_file(scan, f, &parts);
    }
    route_summaries(&parts, main_of_file);
    link_subagents(&parts);
    for (size_t f = 0; f < scan.files.size(); ++f) {
      const SourceFile& sf = scan.files[f];
      for (const BadRow& b : sf.transcript.bad) {
        ImportedSession& acc = account(sf.info.file, parts[main_of_file[f]].session_id);
        ++acc.rows_read;
        ++acc.skipped;
        (void)b;
      }
    }
    for (Partition& p : parts) XS_RETURN_IF_ERROR(import_partition(p));
    return Status::Ok();
  }

 private:
  ImportedSession& account(std::string_view file, const std::string& session_id) {
    return report_.sessions[account_index(file, session_id)];
  }
  size_t account_index(std::string_view file, const std::string& session_id) {
    auto key = std::make_pair(std::string(file), session_id);
    auto it = accounts_.find(key);
    if (it != accounts_.end()) return it->second;
    ImportedSession s;
    s.source_file = key.first;
    s.session_id = session_id;
    report_.sessions.push_back(s);
    accounts_[key] = report_.sessions.size() - 1;
    return report_.sessions.size() - 1;
  }

  // A subagent file's session is linked from its main transcript's Task call: the call named by
  // the parentToolUseID of the agent_progress rows that carry the subagent's agentId.
  void link_subagents(std::vector<Partition>* parts) {
    for (const Partition& sub : *parts) {
      const TranscriptInfo& info = scan_->files[sub.file].info;
      if (sub.main || info.kind == FileKind::kSession || info.agent_id.empty()) continue;
      for (Partition& main : *parts) {
        const SourceFile& mf = scan_->files[main.file];
        if (!main.main || file_stem(mf.info.file) != info.parent_session_id) continue;
        for (const Row& r : mf.transcript.rows) {
          if (r.progress_agent_id != info.agent_id || r.parent_tool_use_id.empty()) continue;
          main.links.push_back({r.parent_tool_use_id, sub.session_id, info.agent_id, info.file});
          break;
        }
      }
    }
  }

  // A summary row labels the conversation that holds its leaf, in whichever file; one whose leaf
  // is nowhere stays in its own file's conversation as a custom entry.
  void route_summaries(std::vector<Partition>* parts, const std::vector<size_t>& main_of_file) {
    std::unordered_map<std::string, size_t> part_of_uuid;
    for (size_t p = 0; p < parts->size(); ++p) {
      for (size_t i : (*parts)[p].rows) {
        const Row& r = scan_->files[(*parts)[p].file].transcript.rows[i];
        if (!r.uuid.empty()) part_of_uuid.emplace(r.uuid, p);
      }
    }
    for (size_t f = 0; f < scan_->files.size(); ++f) {
      const std::vector<Row>& rows = scan_->files[f].transcript.rows;
      for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].type != "summary") continue;
        auto target = part_of_uuid.find(rows[i].leaf_uuid);
        if (target != part_of_uuid.end()) {
          (*parts)[target->second].labels.push_back({&rows[i], scan_->files[f].info.file});
          continue;
        }
        Partition& own = (*parts)[main_of_file[f]];
        if (own.rows.empty()) {
          ImportedSession& acc = account(scan_->files[f].info.file, own.session_id);
          ++acc.rows_read;
          ++acc.skipped;
          report_.skipped.push_back({scan_->files[f].info.file, rows[i].line,
                                     "summary of a leaf that is in no transcript (" + rows[i].leaf_uuid + ")"});
        } else {
          own.rows.insert(std::upper_bound(own.rows.begin(), own.rows.end(), i), i);
        }
      }
    }
  }

  Result<std::unique_ptr<session::Session>> existing_session(const std::string& cwd, const std::string& id) {
    std::string dir = store_.session_dir(cwd);
    auto names = store_.fs()->list_dir(dir);
    if (!names.ok()) return names.status().code() == Code::kNotFound ? Status::NotFound(dir) : names.status();
    for (const std::string& n : *names) {
      if (!ends_with(n, "_" + id + ".jsonl")) continue;
      session::SessionOptions o;
      o.read_only = options_.dry_run;
      return store_.open_session(dir + "/" + n, o);
    }
    return Status::NotFound(id);
  }

  Status import_partition(const Partition& part) {
    if (part.rows.empty() && part.labels.empty()) return Status::Ok();
    const SourceFile& sf = scan_->files[part.file];
    std::vector<RowRef> rows;
    for (size_t i : part.rows) rows.push_back({&sf.transcript.rows[i], sf.info.file});
    Plan plan = make_plan(std::move(rows), part.labels);
    for (const std::string& n : plan.notes) report_.notes.push_back(n);
    std::string cwd = options_.target_cwd.value_or(part.cwd.empty() ? scan_->original_path : part.cwd);
    if (cwd.empty()) {
      for (size_t i = 0; i < plan.rows.size(); ++i) plan.outcome[i] = RowOutcome::kSkipped;
      for (size_t i = 0; i < plan.rows.size(); ++i) plan.skip_reason[i] = "no cwd to import into (give a target cwd)";
      count(part, plan, nullptr);
      return Status::Ok();
    }
    auto found = existing_session(cwd, part.session_id);
    if (!found.ok() && found.status().code() != Code::kNotFound) return found.status();
    std::unique_ptr<session::Session> s = found.ok() ? std::move(*found) : nullptr;
    bool created = !s;
    std::string title = part.custom_title.empty() ? plan.title : part.custom_title;
    if (!s && !options_.dry_run) {
      session::SessionOptions o;
      o.session_id = part.session_id;
      // Written whole when closed below: one write instead of one per entry, and an import that
      // fails half way leaves no file (docs/decisions.md#deferred-first-write).
      o.defer_until_persist = true;
      // The header's time is the conversation's start (and names the file), not the import's.
      for (const RowRef& r : plan.rows) {
        if (auto ms = format::parse_iso_ms(r.row->timestamp)) {
          o.clock = format::Clock::Fixed(*ms, 1);
          break;
        }
      }
      if (!title.empty()) o.title = title;
      if (!part.parent_session.empty()) o.parent_session = part.parent_session;
      auto made = store_.create_session(cwd, o);
      if (!made.ok()) return made.status();
      s = std::move(*made);
    }
    std::map<std::string, std::string> keys;
    if (s) keys = existing_keys(*s);
    Writer writer(plan, options_.dry_run ? nullptr : s.get(), keys, part.links, &progress_);
    XS_RETURN_IF_ERROR(writer.write());
    if (s && !options_.dry_run && !title.empty() && !s->title()) XS_RETURN_IF_ERROR(s->set_title(title));
    std::string path = s ? s->path() : "";
    if (s && !options_.dry_run) XS_RETURN_IF_ERROR(s->close());
    ImportedSession& acc = count(part, plan, &writer);
    acc.created = created;
    acc.session_file = path;
    return Status::Ok();
  }

  ImportedSession& count(const Partition& part, const Plan& plan, const Writer* writer) {
    const std::string& own = scan_->files[part.file].info.file;
    account(own, part.session_id);  // exists even when every row went elsewhere
    std::string_view counted_file;  // rows come file by file: one account lookup for each run
    size_t counted = 0;
    for (size_t i = 0; i < plan.rows.size(); ++i) {
      if (i == 0 || plan.rows[i].file != counted_file) {
        counted_file = plan.rows[i].file;
        counted = account_index(counted_file, part.session_id);
      }
      ImportedSession& acc = report_.sessions[counted];
      ++acc.rows_read;
      if (plan.outcome[i] == RowOutcome::kSkipped) {
        ++acc.skipped;
        report_.skipped.push_back({std::string(plan.rows[i].file), plan.rows[i].row->line, plan.skip_reason[i]});
      } else if (const std::string* why = writer ? writer->refused(i) : nullptr) {
        ++acc.skipped;
        report_.skipped.push_back({std::string(plan.rows[i].file), plan.rows[i].row->line, *why});
      } else if (writer && writer->row_is_old(i)) {
        ++acc.already_imported;
      } else if (plan.outcome[i] == RowOutcome::kCustom) {
        ++acc.kept_as_custom;
      } else {
        ++acc.imported;
      }
    }
    return account(own, part.session_id);
  }

  store::Store& store_;
  const ImportOptions& options_;
  ProgressMeter& progress_;
  ImportReport& report_;
  const ProjectScan* scan_ = nullptr;
  std::map<std::pair<std::string, std::string>, size_t> accounts_;
};

}  // namespace

std::string native_session_id(const std::string& key) {
  std::string stem = file_stem(key);
  if (format::is_uuid_shaped(stem) && key.find('#') == std::string::npos) return stem;
  return blobs::sha256_hex(key).substr(0, 16);  // the same on every run and machine
}

namespace {

// The bytes of every transcript under the project directories `dirs`: the progress total.
uint64_t transcript_bytes(storage::Fs& fs, const std::vector<std::string>& dirs) {
  uint64_t total = 0;
  for (const std::string& dir : dirs) {
    auto files = find_transcripts(fs, dir);
    if (!files.ok()) continue;
    for (const TranscriptFile& f : *files) total += f.size;
  }
  return total;
}

Result<ImportReport> import_one(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                const std::string& dir, const ImportOptions& options, ProgressMeter& progress) {
  ImportReport report;
  report.source_kind = "claude";
  report.source_root = dir;
  report.dry_run = options.dry_run;
  auto scan = scan_project(source_fs, dir);
  if (!scan.ok()) return scan.status();
  XS_RETURN_IF_ERROR(ProjectImporter(store, options, progress, &report).run(*scan));
  return report;
}

}  // namespace

Result<ImportReport> import_project(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                    const std::string& dir, const ImportOptions& options) {
  ProgressMeter progress(options.progress);
  progress.start(transcript_bytes(*source_fs, {dir}));
  auto report = import_one(store, source_fs, dir, options, progress);
  if (report.ok()) progress.finish();
  return report;
}

Result<ImportReport> import_projects(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                     const std::string& root, const ImportOptions& options) {
  auto names = source_fs->list_dir(root);
  if (!names.ok()) return names.status();
  std::sort(names->begin(), names->end());
  std::vector<std::string> projects;
  for (const std::string& n : *names) {
    auto st = source_fs->stat(root + "/" + n);
    if (st.ok() && st->is_dir) projects.push_back(n);
  }
  std::vector<std::string> dirs;
  for (const std::string& n : projects) dirs.push_back(root + "/" + n);
  ProgressMeter progress(options.progress);
  progress.start(transcript_bytes(*source_fs, dirs));
  ImportReport all;
  all.source_kind = "claude";
  all.source_root = root;
  all.dry_run = options.dry_run;
  for (const std::string& n : projects) {
    auto one = import_one(store, source_fs, root + "/" + n, options, progress);
    if (!one.ok()) return one.status();
    for (ImportedSession& s : one->sessions) {
      s.source_file = n + "/" + s.source_file;
      all.sessions.push_back(std::move(s));
    }
    for (SkippedRow& s : one->skipped) {
      s.file = n + "/" + s.file;
      all.skipped.push_back(std::move(s));
    }
    for (std::string& note : one->notes) all.notes.push_back(n + ": " + note);
  }
  progress.finish();
  return all;
}

Result<ImportReport> import_path(store::Store& store, const std::shared_ptr<storage::Fs>& source_fs,
                                 const std::string& path, const ImportOptions& options) {
  auto project = is_project_dir(*source_fs, path);
  if (!project.ok()) return project.status();
  return *project ? import_project(store, source_fs, path, options) : import_projects(store, source_fs, path, options);
}

}  // namespace xs::import::claude
