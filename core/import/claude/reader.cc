#include "import/claude/reader.h"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>

#include "format/prompt_text.h"
#include "json/json_string.h"
#include "json/limits.h"

namespace xs::import::claude {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string stem(std::string_view name) {
  size_t slash = name.rfind('/');
  if (slash != std::string_view::npos) name = name.substr(slash + 1);
  return std::string(ends_with(name, ".jsonl") ? name.substr(0, name.size() - 6) : name);
}

std::string string_member(const simdjson::dom::object& o, std::string_view key) {
  std::string_view v;
  return o[key].get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

// sessions-index.json: an object with an `entries` array; anything else is a note, not a failure.
void read_index(storage::Fs& fs, const std::string& dir, ProjectScan* scan) {
  storage::PaddedBuffer bytes;
  Status st = fs.read_file(dir + "/sessions-index.json", json::Limits().max_line_bytes, &bytes);
  if (st.code() == Code::kNotFound) return;
  scan->has_index = true;
  if (!st.ok()) {
    scan->notes.push_back("sessions-index.json could not be read: " + st.message());
    return;
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(bytes.data(), bytes.size(), false).get(doc) != simdjson::SUCCESS) {
    scan->notes.push_back("sessions-index.json is not JSON; ignored");
    return;
  }
  simdjson::dom::object root;
  if (doc.get(root) != simdjson::SUCCESS) {
    scan->notes.push_back("sessions-index.json is not an object; ignored");
    return;
  }
  scan->original_path = string_member(root, "originalPath");
  simdjson::dom::array entries;
  if (root["entries"].get(entries) != simdjson::SUCCESS) {
    scan->notes.push_back("sessions-index.json has no \"entries\" array; ignored");
    return;
  }
  size_t n = 0;
  for (simdjson::dom::element e : entries) {
    simdjson::dom::object o;
    IndexEntry entry;
    if (e.get(o) != simdjson::SUCCESS || (entry.session_id = string_member(o, "sessionId")).empty()) {
      scan->notes.push_back("sessions-index.json entry " + std::to_string(n) + " has no string sessionId; ignored");
    } else {
      entry.first_prompt = string_member(o, "firstPrompt");
      entry.summary = string_member(o, "summary");
      entry.custom_title = string_member(o, "customTitle");
      entry.project_path = string_member(o, "projectPath");
      scan->index.push_back(std::move(entry));
    }
    ++n;
  }
}

std::string first_prompt(const std::vector<Row>& rows, bool sidechain_file) {
  for (const Row& r : rows) {
    if (r.type != "user" || r.is_meta || r.is_compact_summary || (r.is_sidechain && !sidechain_file)) continue;
    if (r.prompt_text.empty() || !r.tool_result_for.empty() || format::is_injected_prompt(r.prompt_text)) continue;
    return format::listing_text(r.prompt_text);
  }
  return "";
}

void add_file(storage::Fs& fs, const std::string& dir, std::string rel, FileKind kind, ProjectScan* scan) {
  SourceFile f;
  f.info.file = rel;
  f.info.kind = kind;
  Status st = read_transcript(fs, dir + "/" + rel, &f.transcript);
  if (!st.ok()) {
    scan->skipped.push_back({rel, 0, "could not be read: " + st.message()});
    return;
  }
  for (const BadRow& b : f.transcript.bad) scan->skipped.push_back({rel, b.line, b.reason});
  for (const std::string& n : f.transcript.notes) scan->notes.push_back(rel + " " + n);
  for (const Row& r : f.transcript.rows) {
    for (const std::string& p : r.type_problems) {
      scan->notes.push_back(rel + " line " + std::to_string(r.line) + ": " + p + "; read as absent");
    }
  }
  const std::vector<Row>& rows = f.transcript.rows;
  TranscriptInfo& info = f.info;
  info.rows = f.transcript.row_count();
  info.bad_rows = f.transcript.bad.size();
  info.size = f.transcript.info.size;
  info.mtime_ms = f.transcript.info.mtime_ms;
  info.session_id = stem(rel);
  for (const Row& r : rows) {
    if (!r.session_id.empty()) {
      info.session_id = r.session_id;
      break;
    }
  }
  for (const Row& r : rows) {
    if (info.cwd.empty()) info.cwd = r.cwd;
    if (info.agent_id.empty()) info.agent_id = r.agent_id;
    if (!r.custom_title.empty()) info.title = r.custom_title;
  }
  if (kind == FileKind::kSubagent) info.parent_session_id = rel.substr(0, rel.find('/'));
  if (kind == FileKind::kAgent) info.parent_session_id = info.session_id;
  bool sidechain_file = kind != FileKind::kSession;
  info.first_prompt = first_prompt(rows, sidechain_file);
  if (auto leaf = resume_leaf(rows)) info.leaf_uuid = rows[*leaf].uuid;
  scan->files.push_back(std::move(f));
}

// Summaries and titles once every file is read: a summary row may name a leaf in another file.
void attach_summaries(ProjectScan* scan) {
  std::map<std::string, size_t> file_of_uuid;
  for (size_t i = 0; i < scan->files.size(); ++i) {
    for (const Row& r : scan->files[i].transcript.rows) {
      if (!r.uuid.empty()) file_of_uuid.emplace(r.uuid, i);
    }
  }
  for (const SourceFile& f : scan->files) {
    for (const Row& r : f.transcript.rows) {
      if (r.type != "summary" || r.summary.empty()) continue;
      auto it = file_of_uuid.find(r.leaf_uuid);
      if (it == file_of_uuid.end()) continue;
      TranscriptInfo& target = scan->files[it->second].info;
      if (target.summary.empty() || r.leaf_uuid == target.leaf_uuid) target.summary = r.summary;
    }
  }
  std::set<std::string> listed;
  for (SourceFile& f : scan->files) {
    if (f.info.kind != FileKind::kSession) continue;
    listed.insert(stem(f.info.file));
    for (const IndexEntry& e : scan->index) {
      if (e.session_id != stem(f.info.file)) continue;
      f.info.in_index = true;
      if (f.info.title.empty()) f.info.title = e.custom_title;
      if (f.info.summary.empty()) f.info.summary = e.summary;
    }
    if (scan->has_index && !f.info.in_index) scan->notes.push_back(f.info.file + " is not in sessions-index.json");
  }
  for (const IndexEntry& e : scan->index) {
    if (!listed.count(e.session_id)) {
      scan->notes.push_back("sessions-index.json lists " + e.session_id + ", whose file " + e.session_id +
                            ".jsonl is not there");
    }
  }
}

}  // namespace

const char* file_kind_name(FileKind k) {
  switch (k) {
    case FileKind::kSession: return "session";
    case FileKind::kSubagent: return "subagent";
    case FileKind::kAgent: return "agent";
  }
  return "session";
}

std::optional<size_t> resume_leaf(const std::vector<Row>& rows) {
  bool all_sidechain = true;
  for (const Row& r : rows) all_sidechain = all_sidechain && (!r.is_conversation() || r.is_sidechain);
  for (size_t i = rows.size(); i-- > 0;) {
    const Row& r = rows[i];
    if (r.is_conversation() && r.is_chain() && (all_sidechain || !r.is_sidechain)) return i;
  }
  return std::nullopt;
}

Result<std::vector<TranscriptFile>> find_transcripts(storage::Fs& fs, const std::string& dir) {
  auto names = fs.list_dir(dir);
  if (!names.ok()) return names.status();
  std::sort(names->begin(), names->end());
  std::vector<TranscriptFile> sessions, agents, subagents;
  std::vector<std::string> subdirs;
  for (const std::string& name : *names) {
    auto st = fs.stat(dir + "/" + name);
    if (!st.ok()) continue;
    if (st->is_dir) subdirs.push_back(name);
    if (!st->is_regular || !ends_with(name, ".jsonl")) continue;
    bool agent = name.rfind("agent-", 0) == 0;
    (agent ? agents : sessions).push_back({name, agent ? FileKind::kAgent : FileKind::kSession, st->size});
  }
  for (const std::string& d : subdirs) {
    auto subs = fs.list_dir(dir + "/" + d + "/subagents");
    if (!subs.ok()) continue;
    std::sort(subs->begin(), subs->end());
    for (const std::string& n : *subs) {
      std::string rel = d + "/subagents/" + n;
      auto st = fs.stat(dir + "/" + rel);
      if (st.ok() && st->is_regular && ends_with(n, ".jsonl"))
        subagents.push_back({rel, FileKind::kSubagent, st->size});
    }
  }
  sessions.insert(sessions.end(), agents.begin(), agents.end());
  sessions.insert(sessions.end(), subagents.begin(), subagents.end());
  return sessions;
}

Result<ProjectScan> scan_project(const std::shared_ptr<storage::Fs>& fs, const std::string& dir) {
  auto files = find_transcripts(*fs, dir);
  if (!files.ok()) return files.status();
  ProjectScan scan;
  scan.dir = dir;
  read_index(*fs, dir, &scan);
  for (const TranscriptFile& f : *files) add_file(*fs, dir, f.rel, f.kind, &scan);
  attach_summaries(&scan);
  return scan;
}

std::string listing_json(const ProjectScan& scan) {
  std::string out = "{\"dir\":";
  json::append_quoted_lossy(out, scan.dir);
  out += ",\"hasIndex\":";
  out += scan.has_index ? "true" : "false";
  out += ",\"originalPath\":";
  json::append_quoted_lossy(out, scan.original_path);
  out += ",\"transcripts\":[";
  for (size_t i = 0; i < scan.files.size(); ++i) {
    const TranscriptInfo& t = scan.files[i].info;
    if (i) out += ',';
    auto field = [&](const char* key, const std::string& v, bool first = false) {
      out += first ? "{\"" : ",\"";
      out += key;
      out += "\":";
      json::append_quoted_lossy(out, v);
    };
    field("file", t.file, true);
    field("kind", file_kind_name(t.kind));
    field("sessionId", t.session_id);
    field("parentSessionId", t.parent_session_id);
    field("agentId", t.agent_id);
    field("cwd", t.cwd);
    field("firstPrompt", t.first_prompt);
    field("summary", t.summary);
    field("title", t.title);
    out += ",\"rows\":" + std::to_string(t.rows) + ",\"badRows\":" + std::to_string(t.bad_rows) +
           ",\"size\":" + std::to_string(t.size) + ",\"mtime\":" + std::to_string(t.mtime_ms);
    field("leafUuid", t.leaf_uuid);
    out += ",\"inIndex\":";
    out += t.in_index ? "true}" : "false}";
  }
  out += "],\"skippedRows\":[";
  for (size_t i = 0; i < scan.skipped.size(); ++i) {
    if (i) out += ',';
    out += "{\"file\":";
    json::append_quoted_lossy(out, scan.skipped[i].file);
    out += ",\"line\":" + std::to_string(scan.skipped[i].line) + ",\"reason\":";
    json::append_quoted_lossy(out, scan.skipped[i].reason);
    out += '}';
  }
  out += "],\"notes\":[";
  for (size_t i = 0; i < scan.notes.size(); ++i) {
    if (i) out += ',';
    json::append_quoted_lossy(out, scan.notes[i]);
  }
  out += "]}";
  return out;
}

Result<bool> is_project_dir(storage::Fs& fs, const std::string& path) {
  auto names = fs.list_dir(path);
  if (!names.ok()) return names.status();
  for (const std::string& n : *names) {
    bool jsonl = n.size() > 6 && n.compare(n.size() - 6, 6, ".jsonl") == 0;
    if (!jsonl && n != "sessions-index.json") continue;
    auto info = fs.stat(path + "/" + n);
    if (info.ok() && info->is_regular) return true;
  }
  return false;
}

Result<std::string> list_json(const std::shared_ptr<storage::Fs>& fs, const std::string& path) {
  auto project = is_project_dir(*fs, path);
  if (!project.ok()) return project.status();
  std::string out = "{\"source\":\"claude\",\"root\":";
  json::append_quoted_lossy(out, path);
  out += ",\"projects\":[";
  if (*project) {
    auto scan = scan_project(fs, path);
    if (!scan.ok()) return scan.status();
    return out + listing_json(*scan) + "]}";
  }
  auto names = fs->list_dir(path);
  if (!names.ok()) return names.status();
  std::sort(names->begin(), names->end());
  bool first = true;
  for (const std::string& n : *names) {
    auto st = fs->stat(path + "/" + n);
    if (!st.ok() || !st->is_dir) continue;
    auto scan = scan_project(fs, path + "/" + n);
    if (!scan.ok()) continue;  // gone since the listing of path
    if (!first) out += ',';
    first = false;
    out += listing_json(*scan);
  }
  return out + "]}";
}

}  // namespace xs::import::claude
