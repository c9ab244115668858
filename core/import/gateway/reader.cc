#include "import/gateway/reader.h"

#include <algorithm>
#include <map>
#include <set>

#include "format/clock.h"
#include "import/source_rows.h"
#include "json/json_string.h"
#include "json/member_scanner.h"

namespace xs::import::gateway {

namespace {

constexpr std::string_view kJsonl = ".jsonl";
constexpr std::string_view kIndexName = "sessions.json";

std::string base_name(std::string_view path) {
  size_t slash = path.find_last_of("/\\");  // a Windows gateway writes sessionFile with '\'
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool is_dir(storage::Fs& fs, const std::string& path) {
  auto info = fs.stat(path);
  return info.ok() && info->is_dir;
}

// The store lock's creation time: its `createdAt` (ISO or epoch ms), else the file's mtime.
std::optional<int64_t> lock_created_at(storage::Fs& fs, const std::string& path) {
  storage::PaddedBuffer bytes;
  if (!fs.read_file(path, 4096, &bytes).ok()) return std::nullopt;
  std::string reason;
  auto members = object_members(bytes.view(), &reason);
  if (!members) return std::nullopt;
  const json::Member* at = json::find_member(*members, "createdAt");
  if (auto text = json::string_value(at)) return format::parse_iso_ms(*text);
  if (auto ms = number_value(at)) return static_cast<int64_t>(*ms);
  return std::nullopt;
}

uint64_t line_of(std::string_view doc, const char* at) { return 1 + std::count(doc.data(), at, '\n'); }

void read_index(storage::Fs& fs, Agent& agent, const ReadOptions& options) {
  const std::string lock_path = agent.index_path + ".lock";
  LockWait w =
      wait_for_foreign_lock(fs, lock_path, options.lock_wait, options.stale_after, options.now_ms, lock_created_at);
  if (w.state != ForeignLock::kFree) {
    std::string note = describe(w, relative_to(agent.dir, lock_path));
    if (w.state == ForeignLock::kHeld) note += "; read the published sessions.json (the gateway replaces it whole)";
    agent.notes.push_back(note);
  }
  storage::PaddedBuffer doc;
  Status st = read_source_document(fs, agent.index_path, &doc);
  if (!st.ok()) {
    agent.problems.push_back({agent.index_path, 0, "index not read: " + st.message()});
    return;
  }
  std::vector<json::Member> members;
  bool is_object = false;
  json::Limits limits = json::internal_limits();
  st = json::scan_members(doc.view(), limits, &members, &is_object);
  if (!st.ok()) {
    agent.problems.push_back({agent.index_path, 0, "index is not JSON: " + st.message()});
    return;
  }
  if (!is_object) {
    agent.problems.push_back({agent.index_path, 0, "index is not a JSON object (sessionKey -> entry)"});
    return;
  }
  // A key given twice: the gateway reads the index with JSON.parse, which keeps the last value at
  // the first one's place. So the last value is taken where the key first appears, and each
  // earlier value is reported as superseded.
  std::vector<std::string> keys(members.size());
  std::map<std::string, size_t> last;
  for (size_t i = 0; i < members.size(); ++i) {
    json::decode_string_token(members[i].key, keys[i]);
    last[keys[i]] = i;
  }
  std::set<std::string> placed;
  for (size_t i = 0; i < members.size(); ++i) {
    ++agent.index_rows;
    const std::string& key = keys[i];
    size_t taken = last[key];
    if (i != taken) {
      agent.problems.push_back({agent.index_path, line_of(doc.view(), members[i].key.data()),
                                key + ": superseded by the same key's later value (JSON.parse keeps the last)"});
    }
    if (!placed.insert(key).second) continue;  // its last value was read at the key's first place
    const json::Member& m = members[taken];
    uint64_t line = line_of(doc.view(), m.key.data());
    auto refuse = [&](const std::string& why) { agent.problems.push_back({agent.index_path, line, key + ": " + why}); };
    if (m.kind != json::Kind::kObject) {
      refuse("entry is not a JSON object");
      continue;
    }
    std::vector<json::Member> fields = json::members_of(m.value);
    auto session_id = json::string_value(json::find_member(fields, "sessionId"));
    if (!session_id || session_id->empty()) {
      refuse("entry has no string sessionId");
      continue;
    }
    IndexEntry e;
    e.key = key;
    e.record = std::string(m.value);
    e.line = line;
    e.session_id = *session_id;
    e.session_file = json::string_value(json::find_member(fields, "sessionFile"));
    agent.entries.push_back(std::move(e));
  }
}

void read_transcripts(storage::Fs& fs, Agent& agent, const std::vector<std::string>& names) {
  for (const std::string& file : names) {
    auto name = parse_transcript_name(file);
    if (!name) continue;
    Transcript t;
    t.path = agent.dir + "/" + file;
    t.file = file;
    t.name = std::move(*name);
    auto info = fs.stat(t.path);
    if (!info.ok() || !info->is_regular) continue;
    t.size = info->size;
    t.mtime_ms = info->mtime_ms;
    t.has_write_lock = std::find(names.begin(), names.end(), file + ".lock") != names.end();
    agent.transcripts.push_back(std::move(t));
  }
}

// Ties keys and transcripts together: a key names the live file of its sessionId (or the file
// its sessionFile names, whatever directory that path was written in).
void tie_keys_to_transcripts(Agent& agent) {
  for (IndexEntry& e : agent.entries) {
    std::string by_file = e.session_file ? base_name(*e.session_file) : "";
    for (size_t i = 0; i < agent.transcripts.size(); ++i) {
      Transcript& t = agent.transcripts[i];
      bool named = (!by_file.empty() && t.file == by_file) ||
                   (t.name.generation == Generation::kLive && t.name.stem == e.session_id);
      if (!named) continue;
      if (!e.transcript) e.transcript = i;
      t.keys.push_back(e.key);
    }
    if (!e.transcript) {
      agent.notes.push_back("key " + e.key + " names session " + e.session_id + ", whose transcript is not here");
    }
  }
  for (const Transcript& t : agent.transcripts) {
    if (t.keys.empty() && t.name.generation == Generation::kLive && agent.has_index) {
      agent.notes.push_back(t.file + " is named by no key of sessions.json");
    }
  }
}

Result<Agent> read_agent(storage::Fs& fs, std::string id, std::string dir, const ReadOptions& options) {
  Agent agent;
  agent.id = std::move(id);
  agent.dir = std::move(dir);
  auto names = fs.list_dir(agent.dir);
  if (!names.ok()) return names.status();
  std::sort(names->begin(), names->end());
  agent.index_path = agent.dir + "/" + std::string(kIndexName);
  agent.has_index = std::find(names->begin(), names->end(), kIndexName) != names->end();
  if (agent.has_index) {
    read_index(fs, agent, options);
  } else {
    agent.notes.push_back("no sessions.json: the transcripts are listed without keys");
  }
  read_transcripts(fs, agent, *names);
  tie_keys_to_transcripts(agent);
  return agent;
}

}  // namespace

const char* generation_name(Generation g) {
  switch (g) {
    case Generation::kLive: return "live";
    case Generation::kReset: return "reset";
    case Generation::kDeleted: return "deleted";
    case Generation::kBackup: return "bak";
    case Generation::kCheckpoint: return "checkpoint";
  }
  return "live";
}

std::optional<TranscriptName> parse_transcript_name(std::string_view file) {
  TranscriptName n;
  size_t at = file.find(".jsonl");
  if (at == std::string_view::npos || at == 0) return std::nullopt;
  std::string_view stem = file.substr(0, at);
  std::string_view rest = file.substr(at + kJsonl.size());
  size_t checkpoint = stem.find(".checkpoint.");
  if (checkpoint != std::string_view::npos && rest.empty()) {
    n.generation = Generation::kCheckpoint;
    n.stamp = std::string(stem.substr(checkpoint + 12));
    stem = stem.substr(0, checkpoint);
  } else if (rest.empty()) {
    n.generation = Generation::kLive;
  } else if (rest.rfind(".reset.", 0) == 0) {
    n.generation = Generation::kReset;
    n.stamp = std::string(rest.substr(7));
  } else if (rest.rfind(".deleted.", 0) == 0) {
    n.generation = Generation::kDeleted;
    n.stamp = std::string(rest.substr(9));
  } else if (rest == ".bak" || rest.rfind(".bak.", 0) == 0) {
    n.generation = Generation::kBackup;
    n.stamp = rest.size() > 5 ? std::string(rest.substr(5)) : "";
  } else {
    return std::nullopt;  // "<id>.jsonl.lock", temp files, anything else
  }
  if (stem.empty() || stem.find('.') != std::string_view::npos) return std::nullopt;
  n.stem = std::string(stem);
  size_t topic = stem.find("-topic-");
  n.session_id = std::string(topic == std::string_view::npos ? stem : stem.substr(0, topic));
  if (topic != std::string_view::npos) n.thread_id = std::string(stem.substr(topic + 7));
  return n;
}

Result<Listing> list(storage::Fs& fs, const std::string& root, const ReadOptions& options) {
  Listing listing;
  listing.root = root;
  std::string agents_dir;
  if (is_dir(fs, root + "/agents")) {
    agents_dir = root + "/agents";
  } else if (base_name(root) == "agents") {
    agents_dir = root;
  }
  if (agents_dir.empty()) {
    // One sessions directory: its agent is the directory above it.
    if (!is_dir(fs, root)) return Status::NotFound(root + ": not a gateway store (no agents/ directory)");
    std::string parent = root.substr(0, root.find_last_of('/'));
    auto agent = read_agent(fs, base_name(parent), root, options);
    if (!agent.ok()) return agent.status();
    listing.agents.push_back(std::move(*agent));
    return listing;
  }
  auto ids = fs.list_dir(agents_dir);
  if (!ids.ok()) return ids.status();
  std::sort(ids->begin(), ids->end());
  for (const std::string& id : *ids) {
    std::string dir = agents_dir + "/" + id + "/sessions";
    if (!is_dir(fs, dir)) continue;
    auto agent = read_agent(fs, id, dir, options);
    if (!agent.ok()) return agent.status();
    listing.agents.push_back(std::move(*agent));
  }
  return listing;
}

std::string listing_json(const Listing& listing) {
  std::string out = "{\"source\":\"gateway\"";
  append_text_member(out, "root", listing.root);
  out += ",\"agents\":[";
  for (size_t a = 0; a < listing.agents.size(); ++a) {
    const Agent& agent = listing.agents[a];
    out += a ? ",{" : "{";
    out += "\"id\":";
    json::append_quoted_lossy(out, agent.id);
    append_text_member(out, "dir", agent.dir);
    append_text_member(out, "index", agent.has_index ? std::optional<std::string>(agent.index_path) : std::nullopt);
    out += ",\"indexRows\":" + std::to_string(agent.index_rows) + ",\"keys\":[";
    for (size_t i = 0; i < agent.entries.size(); ++i) {
      const IndexEntry& e = agent.entries[i];
      out += i ? ",{\"key\":" : "{\"key\":";
      json::append_quoted_lossy(out, e.key);
      append_text_member(out, "sessionId", e.session_id);
      out += ",\"line\":" + std::to_string(e.line);
      append_text_member(
          out, "transcript",
          e.transcript ? std::optional<std::string>(agent.transcripts[*e.transcript].file) : std::nullopt);
      out += '}';
    }
    out += "],\"transcripts\":[";
    for (size_t i = 0; i < agent.transcripts.size(); ++i) {
      const Transcript& t = agent.transcripts[i];
      out += i ? ",{\"file\":" : "{\"file\":";
      json::append_quoted_lossy(out, t.file);
      append_text_member(out, "path", t.path);
      append_text_member(out, "sessionId", t.name.session_id);
      append_text_member(out, "threadId", t.name.thread_id);
      append_text_member(out, "generation", std::string(generation_name(t.name.generation)));
      append_text_member(out, "stamp", t.name.stamp.empty() ? std::nullopt : std::optional<std::string>(t.name.stamp));
      out += ",\"size\":" + std::to_string(t.size) + ",\"mtimeMs\":" + std::to_string(t.mtime_ms);
      out += t.has_write_lock ? ",\"writeLock\":true,\"keys\":[" : ",\"writeLock\":false,\"keys\":[";
      for (size_t k = 0; k < t.keys.size(); ++k) {
        if (k) out += ',';
        json::append_quoted_lossy(out, t.keys[k]);
      }
      out += "]}";
    }
    out += ']';
    append_problems_and_notes(out, agent.problems, agent.notes);
    out += '}';
  }
  return out + "]}";
}

Result<std::unique_ptr<session::Session>> open_transcript(std::shared_ptr<storage::Fs> fs, const std::string& path) {
  session::SessionOptions options;
  options.read_only = true;
  return session::Session::open(std::move(fs), path, std::move(options));
}

}  // namespace xs::import::gateway
