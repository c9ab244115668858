#include "bundle/import.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "blobs/blob_store.h"
#include "bundle/archive_io.h"
#include "bundle/bundle_reader.h"
#include "bundle/import_place.h"
#include "bundle/store_sessions.h"
#include "format/header.h"
#include "format/session_paths.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "json/object_edit.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::bundle {

namespace {

std::string quoted_json(std::string_view s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

// A session of the bundle, read and checked against its manifest entry.
struct Incoming {
  const SessionInfo* info = nullptr;
  const MemberInfo* member = nullptr;
  std::string_view stored;  // the bytes as carried
  ReceivedSession* received = nullptr;
  std::string inflated;   // an archive's session text
  std::string_view text;  // the session text: `stored`, or `inflated` for an archive
  size_t header_end = 0;  // the header line's length in text
  std::string file_name;  // the member's name without "sessions/"
};

Result<std::vector<Incoming>> check_sessions(Received& got) {
  std::vector<Incoming> out;
  out.reserve(got.manifest.sessions.size());  // `text` may point into an element: it never moves
  for (const SessionInfo& s : got.manifest.sessions) {
    Incoming& in = out.emplace_back();
    in.info = &s;
    for (const MemberInfo& m : got.manifest.members) {
      if (m.path == s.member) in.member = &m;
    }
    in.received = &got.sessions.at(s.member);
    in.stored = in.received->bytes.view();
    in.file_name = s.member.substr(9);
    in.text = in.stored;
    if (s.archived) {
      Status text = session_text(in.stored, true, &in.inflated);
      if (!text.ok()) return Status::Corrupt("session " + s.id + " (" + s.member + "): " + text.message());
      in.text = in.inflated;
    }
    in.header_end = in.text.find('\n');
    if (in.header_end == std::string::npos) in.header_end = in.text.size();
    auto h = format::parse_header(in.text.substr(0, in.header_end));
    if (!h.ok() || h->id != s.id || h->cwd != s.cwd) {
      return Status::Corrupt("session " + s.id + " (" + s.member + ") does not start with the header its manifest " +
                             "entry describes");
    }
  }
  return out;
}

// The bundle's session a parentSession names: an id, or a path whose file name is that session's
// (the path is the source store's).
const Incoming* parent_in_bundle(const std::vector<Incoming>& all, const std::string& parent) {
  for (const Incoming& in : all) {
    if (parent.find('/') == std::string::npos
            ? in.info->id == parent
            : storage::base_name(parent) == in.file_name || storage::base_name(parent) + ".gz" == in.file_name) {
      return &in;
    }
  }
  return nullptr;
}

class Planner {
 public:
  Planner(const store::Store& store, const StoreSessions& existing, const std::vector<Incoming>& in,
          const ImportOptions& o)
      : store_(store), existing_(existing), in_(in), o_(o) {}

  // Decides each session's id, place and bytes; renames until no clash is left (a parent's new
  // id changes its children's bytes, which may then clash in turn).
  Result<std::vector<PlacedSession>> plan() {
    for (;;) {
      std::vector<PlacedSession> out;
      out.reserve(in_.size());  // `bytes` may point into an element: it never moves
      std::vector<const Incoming*> clashes;
      std::map<const Incoming*, std::string> digests;  // of the bytes each clash would have had
      for (const Incoming& in : in_) {
        PlacedSession& p = out.emplace_back();
        XS_RETURN_IF_ERROR(build(in, &p));
        auto clash = classify(in, &p);
        if (!clash.ok()) return clash.status();
        if (*clash && !o_.rename) {
          return Status::Exists("session " + in.info->id + " is already in the store with other content (" +
                                p.existing + "); import with rename to give the bundle's copy a new id");
        }
        if (*clash) {
          clashes.push_back(&in);
          digests[&in] = blobs::sha256_hex(p.bytes);
        }
      }
      if (clashes.empty()) return out;
      // Ancestors first: a child may clash only because its parent's new id is not in it yet.
      size_t renamed = 0;
      for (const Incoming* in : clashes) {
        const Incoming* parent = in->info->parent_session ? parent_in_bundle(in_, *in->info->parent_session) : nullptr;
        if (parent && std::find(clashes.begin(), clashes.end(), parent) != clashes.end()) continue;
        new_ids_[in->info->id] = renamed_id(in->info->id, digests[in]);
        ++renamed;
      }
      for (const Incoming* in : clashes) {
        if (!renamed) new_ids_[in->info->id] = renamed_id(in->info->id, digests[in]);  // a cycle
      }
    }
  }

 private:
  // The session as it will be placed: header edits, bytes, directory and file name.
  Status build(const Incoming& in, PlacedSession* p) {
    const SessionInfo& s = *in.info;
    std::string header(in.text.substr(0, in.header_end));
    bool edited = false;
    auto set = [&](std::string_view key, std::string_view value) -> Status {
      auto next = json::set_member(header, key, value);
      if (!next.ok()) return next.status();
      header = std::move(*next);
      edited = true;
      return Status::Ok();
    };
    p->id = s.id;
    p->archived = s.archived;
    auto renamed = new_ids_.find(s.id);
    if (renamed != new_ids_.end()) {
      p->new_id = renamed->second;
      XS_RETURN_IF_ERROR(set("id", quoted_json(p->new_id)));
    }
    p->cwd = s.cwd;
    if (auto mapped = map_cwd(o_.cwd_map, s.cwd)) {
      p->old_cwd = s.cwd;
      p->cwd = *mapped;
      XS_RETURN_IF_ERROR(set("cwd", quoted_json(p->cwd)));
      XS_RETURN_IF_ERROR(set("originalCwd", quoted_json(s.cwd)));
    }
    if (s.parent_session) {
      const Incoming* parent = parent_in_bundle(in_, *s.parent_session);
      auto parent_new = parent ? new_ids_.find(parent->info->id) : new_ids_.end();
      if (parent_new != new_ids_.end()) {
        bool by_path = s.parent_session->find('/') != std::string::npos;
        std::string link = by_path ? target_path(*parent, parent_new->second) : parent_new->second;
        XS_RETURN_IF_ERROR(set("parentSession", quoted_json(link)));
      }
    }
    std::string file = p->new_id.empty() ? in.file_name : renamed_file(in.file_name, s.id, p->new_id);
    p->path = storage::join_path(store_.session_dir(p->cwd), file);
    if (!edited) {
      p->bytes = in.stored;
      p->staged = in.received;
      return Status::Ok();
    }
    std::string text = header;
    text += in.text.substr(in.header_end);
    if (!s.archived) {
      p->owned = std::move(text);
    } else {
      auto gz = storage::gzip_compress(text, storage::kArchiveLevel);
      if (!gz.ok()) return gz.status();
      p->owned = std::string(gz->view());
    }
    p->bytes = p->owned;
    return Status::Ok();
  }

  // Where a session of the bundle goes under `id` (a link to it by path names this).
  std::string target_path(const Incoming& in, const std::string& id) const {
    std::string cwd = map_cwd(o_.cwd_map, in.info->cwd).value_or(in.info->cwd);
    return storage::join_path(store_.session_dir(cwd), renamed_file(in.file_name, in.info->id, id));
  }

  // Whether the store holds the session's id with other content (true: a clash to rename away).
  // The same content (compared inflated, so a live copy matches an archive) is "present".
  Result<bool> classify(const Incoming& in, PlacedSession* p) {
    const std::string& id = p->new_id.empty() ? p->id : p->new_id;
    p->action = p->new_id.empty() ? "imported" : "renamed";
    auto found = existing_.find_id(id);
    if (!found.ok()) return found.status();
    if (!*found) return false;
    const discovery::SessionSummary& e = **found;
    storage::PaddedBuffer stored;
    std::string theirs, ours;
    XS_RETURN_IF_ERROR(read_stored(*store_.fs(), e.path, kMaxSessionBytes, &stored));
    XS_RETURN_IF_ERROR(session_text(stored.view(), e.archived, &theirs));
    XS_RETURN_IF_ERROR(session_text(p->bytes, p->archived, &ours));
    if (theirs == ours) {
      p->action = "present";
      p->path = e.path;
      return false;
    }
    p->existing = e.path;
    if (!p->new_id.empty()) {
      return Status::Exists("session " + in.info->id + " was to be imported as " + id + ", which the store holds " +
                            "with other content (" + e.path + ")");
    }
    return true;
  }

  const store::Store& store_;
  const StoreSessions& existing_;
  const std::vector<Incoming>& in_;
  const ImportOptions& o_;
  std::map<std::string, std::string> new_ids_;
};

// The bundle's key records as they go in: sessionId follows a rename, sessionFile the placed file
// of its session, cwd the cwd map.
Result<std::vector<store::KeyRecord>> plan_keys(const std::string& keys_json, const std::vector<PlacedSession>& placed,
                                                const CwdMap& cwd_map) {
  std::vector<store::KeyRecord> out;
  if (keys_json.empty()) return out;
  std::vector<json::Member> items;
  bool is_object = true;
  Status scanned = json::scan_members(keys_json, json::internal_limits(), &items, &is_object);
  if (!scanned.ok() || is_object) return Status::Corrupt("keys.json is not a JSON array");
  for (const json::Member& item : items) {
    std::vector<json::Member> m = json::members_of(item.value);
    auto key = json::string_value(json::find_member(m, "key"));
    const json::Member* record = json::find_member(m, "record");
    if (!key || !record || record->kind != json::Kind::kObject) {
      return Status::Corrupt("keys.json holds an item that is not {\"key\",\"record\"}");
    }
    std::string rec(record->value);  // edited below; `fields` view the bundle's unedited bytes
    std::vector<json::Member> fields = json::members_of(record->value);
    auto sid = json::string_value(json::find_member(fields, "sessionId"));
    for (const PlacedSession& p : placed) {
      if (!sid || p.id != *sid) continue;
      if (!p.new_id.empty()) rec = *json::set_member(rec, "sessionId", quoted_json(p.new_id));
      if (json::find_member(fields, "sessionFile")) rec = *json::set_member(rec, "sessionFile", quoted_json(p.path));
    }
    auto cwd = json::string_value(json::find_member(fields, "cwd"));
    if (auto mapped = cwd ? map_cwd(cwd_map, *cwd) : std::nullopt) {
      rec = *json::set_member(rec, "cwd", quoted_json(*mapped));
    }
    std::string minified;
    Status ok_key = store::KeyStore::check_key(*key);
    Status ok_record = ok_key.ok() ? store::KeyStore::check_record(rec, &minified) : ok_key;
    if (!ok_record.ok()) return Status::Corrupt("keys.json: key " + quoted_json(*key) + ": " + ok_record.message());
    out.push_back({std::move(*key), std::move(minified)});
  }
  return out;
}

}  // namespace

Result<ImportReport> import_bundle(const std::shared_ptr<store::Store>& store,
                                   const std::shared_ptr<storage::Fs>& bundle_fs, const std::string& bundle_path,
                                   const ImportOptions& options) {
  XS_RETURN_IF_ERROR(check_cwd_map(options.cwd_map));
  std::unique_ptr<Staging> staging;
  if (!options.dry_run) staging = std::make_unique<Staging>(store->fs(), store->root());
  auto got = read_bundle(bundle_fs, bundle_path, staging.get(), store->fs().get());
  if (!got.ok()) return got.status();
  auto incoming = check_sessions(*got);
  if (!incoming.ok()) return incoming.status();
  auto existing = index_sessions(*store);
  if (!existing.ok()) return existing.status();
  auto placed = Planner(*store, *existing, *incoming, options).plan();
  if (!placed.ok()) return placed.status();
  auto keys = plan_keys(got->keys, *placed, options.cwd_map);
  if (!keys.ok()) return keys.status();

  ImportReport report;
  report.dry_run = options.dry_run;
  report.bundle = bundle_path;
  report.source_root = got->manifest.source_root;
  Placement place(store, staging.get(), options.dry_run);
  XS_RETURN_IF_ERROR(place.run(got->blobs, *placed, *keys, &report));
  for (PlacedSession& p : *placed) {
    report.sessions.push_back({p.id, p.new_id, p.path, p.cwd, p.old_cwd, p.archived, p.action});
  }
  return report;
}

std::string import_report_json(const ImportReport& r) {
  std::string out = std::string("{\"dryRun\":") + (r.dry_run ? "true" : "false") + ",\"bundle\":";
  json::append_quoted_lossy(out, r.bundle);
  out += ",\"sourceRoot\":";
  json::append_quoted_lossy(out, r.source_root);
  out += ",\"sessions\":[";
  for (size_t i = 0; i < r.sessions.size(); ++i) {
    const ImportedSession& s = r.sessions[i];
    out += i ? ",{\"id\":" : "{\"id\":";
    json::append_quoted(out, s.id);
    out += ",\"newId\":" + (s.new_id.empty() ? std::string("null") : quoted_json(s.new_id)) + ",\"path\":";
    json::append_quoted_lossy(out, s.path);
    out += ",\"cwd\":";
    json::append_quoted_lossy(out, s.cwd);
    out += ",\"oldCwd\":";
    if (s.old_cwd) {
      json::append_quoted_lossy(out, *s.old_cwd);
    } else {
      out += "null";
    }
    out += std::string(",\"archived\":") + (s.archived ? "true" : "false") + ",\"action\":\"" + s.action + "\"}";
  }
  out += "],\"blobs\":[";
  for (size_t i = 0; i < r.blobs.size(); ++i) {
    out += (i ? ",{\"hash\":\"" : "{\"hash\":\"") + r.blobs[i].first + "\",\"action\":\"" + r.blobs[i].second + "\"}";
  }
  out += "],\"keys\":[";
  for (size_t i = 0; i < r.keys.size(); ++i) {
    out += i ? ",{\"key\":" : "{\"key\":";
    json::append_quoted(out, r.keys[i].first);
    out += ",\"action\":\"" + r.keys[i].second + "\"}";
  }
  out += "]}";
  return out;
}

}  // namespace xs::bundle
