#include "bundle/export.h"

#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "blobs/blob_refs.h"
#include "bundle/bundle_format.h"
#include "bundle/store_sessions.h"
#include "format/session_paths.h"
#include "json/json_string.h"
#include "json/member_scanner.h"
#include "storage/gzip.h"
#include "storage/path.h"

namespace xs::bundle {

namespace {

using discovery::SessionSummary;

// A session as it will travel: where it is, its member and its bytes' digest.
struct Planned {
  const SessionSummary* summary = nullptr;
  bool lineage = false;
  std::string member;
  std::string sha256;
  uint64_t size = 0;
  storage::PaddedBuffer held;  // the bytes the digest is of, while they fit kHeldBytes (else read again)
};

// What export keeps of the first pass's bytes for the second, instead of reading and hashing
// them again (bench/bundle_bench.cc: a 100 MB session read once).
constexpr uint64_t kHeldBytes = 512ull << 20;

Result<const SessionSummary*> find_ref(const store::Store& store, const StoreSessions& idx, const std::string& ref) {
  if (ref.empty()) return Status::Invalid("an empty session id");
  auto exact = idx.find_id(ref);
  if (!exact.ok() || *exact) return exact;
  auto by_path = idx.by_path.find(ref);
  if (by_path != idx.by_path.end()) return &idx.all[by_path->second];
  auto resolved = store.resolve(ref, std::nullopt);
  if (!resolved.ok()) return resolved.status();
  auto it = idx.by_path.find(*resolved);
  if (it == idx.by_path.end()) return Status::NotFound("no session matches \"" + json::to_valid_utf8(ref) + "\"");
  return &idx.all[it->second];
}

// The member a session travels as: its own file name when an import may place it, else the name
// the store gives new files.
Result<std::string> member_of(const SessionSummary& s) {
  if (!is_bundle_id(s.id)) {
    return Status::Invalid("session id \"" + json::to_valid_utf8(s.id) + "\" (" + s.path +
                           ") cannot travel in a bundle: ids there are 1-64 characters of [A-Za-z0-9_-]");
  }
  if (auto own = session_member(storage::base_name(s.path))) return *own;
  std::string name = format::session_file_name(s.timestamp, s.id) + (s.archived ? ".gz" : "");
  if (auto canonical = session_member(name)) return *canonical;
  return *session_member(s.id + (s.archived ? ".jsonl.gz" : ".jsonl"));
}

// The named sessions, then their ancestors breadth first (each once).
Result<std::vector<Planned>> plan_sessions(const store::Store& store, const StoreSessions& idx,
                                           const std::vector<std::string>& refs, bool lineage) {
  std::vector<Planned> out;
  std::unordered_set<const SessionSummary*> seen;
  std::deque<const SessionSummary*> parents;
  for (const std::string& ref : refs) {
    auto s = find_ref(store, idx, ref);
    if (!s.ok()) return s.status();
    if (!seen.insert(*s).second) continue;
    out.push_back({*s, false, {}, {}, 0, {}});
    parents.push_back(*s);
  }
  while (lineage && !parents.empty()) {
    const SessionSummary* child = parents.front();
    parents.pop_front();
    if (!child->parent_session) continue;
    const SessionSummary* parent = idx.find_parent(*child->parent_session);
    if (!parent || !seen.insert(parent).second) continue;
    out.push_back({parent, true, {}, {}, 0, {}});
    parents.push_back(parent);
  }
  std::unordered_set<std::string> members;
  for (Planned& p : out) {
    auto m = member_of(*p.summary);
    if (!m.ok()) return m.status();
    if (!members.insert(*m).second) return Status::Invalid("two sessions travel as " + *m);
    p.member = std::move(*m);
  }
  return out;
}

// A session file's bytes, checked against what the first pass saw.
Status read_again(storage::Fs& fs, const Planned& p, storage::PaddedBuffer* bytes) {
  XS_RETURN_IF_ERROR(read_stored(fs, p.summary->path, kMaxSessionBytes, bytes));
  if (bytes->size() != p.size || blobs::sha256_hex(bytes->view()) != p.sha256) {
    return Status(Code::kConflict, p.summary->path + " changed while it was exported: export again");
  }
  return Status::Ok();
}

std::string keys_json(const std::vector<store::KeyRecord>& records) {
  std::string out = "[";
  for (size_t i = 0; i < records.size(); ++i) {
    out += i ? ",{\"key\":" : "{\"key\":";
    json::append_quoted(out, records[i].key);
    out += ",\"record\":" + records[i].record + "}";
  }
  out += "]\n";
  return out;
}

Status add_member(ArchiveWriter& w, const std::string& name, std::string_view bytes) {
  XS_RETURN_IF_ERROR(w.begin_member(name, bytes.size()));
  return w.add_data(bytes);
}

}  // namespace

Result<ExportReport> export_bundle(const std::shared_ptr<store::Store>& store, const std::vector<std::string>& refs,
                                   const std::shared_ptr<storage::Fs>& out_fs, const std::string& out_path,
                                   const ExportOptions& options) {
  if (refs.empty()) return Status::Invalid("no session to export");
  if (out_path.empty()) return Status::Invalid("the bundle's path is empty");
  storage::Fs& fs = *store->fs();
  auto idx = index_sessions(*store);
  if (!idx.ok()) return idx.status();
  auto planned = plan_sessions(*store, *idx, refs, options.lineage);
  if (!planned.ok()) return planned.status();

  // First pass: every session's digest and the blobs it references.
  Manifest m;
  m.source_root = store->root();
  std::set<std::string> refs_found;
  std::unordered_set<std::string> ids;
  storage::PaddedBuffer bytes;
  std::string text;
  uint64_t held = 0;
  for (Planned& p : *planned) {
    const SessionSummary& s = *p.summary;
    XS_RETURN_IF_ERROR(read_stored(fs, s.path, kMaxSessionBytes, &bytes).With("cannot export " + s.path));
    p.size = bytes.size();
    p.sha256 = blobs::sha256_hex(bytes.view());
    std::string_view scanned = bytes.view();
    if (s.archived) {
      XS_RETURN_IF_ERROR(session_text(bytes.view(), true, &text).With("cannot export " + s.path));
      scanned = text;
    }
    for (std::string_view h : blobs::find_blob_refs(scanned)) refs_found.emplace(h);
    ids.insert(s.id);
    if (held + p.size <= kHeldBytes) {
      held += p.size;
      p.held = std::move(bytes);
      bytes = storage::PaddedBuffer();
    }
    m.sessions.push_back({s.id, p.member, s.cwd, s.archived, s.parent_session, p.lineage});
    m.members.push_back({p.member, p.sha256, p.size});
  }
  ExportReport report;
  for (const std::string& h : refs_found) {
    std::string blob;
    Status got = store->blobs().get(h, &blob);
    if (got.code() == Code::kNotFound) {
      report.missing_blobs.push_back(h);
      continue;
    }
    XS_RETURN_IF_ERROR(got.With("cannot export blob " + h));
    report.blobs.emplace_back(h, blob.size());
    m.members.push_back({"blobs/" + h, h, blob.size()});
  }
  auto records = store->keys().list("");
  if (!records.ok()) return records.status().With("cannot read the keyed store");
  std::vector<store::KeyRecord> carried;
  for (store::KeyRecord& r : *records) {
    auto sid = json::string_value(json::find_member(json::members_of(r.record), "sessionId"));
    if (!sid || !ids.count(*sid)) continue;
    report.keys.push_back(r.key);
    carried.push_back(std::move(r));
  }
  std::string keys = carried.empty() ? std::string() : keys_json(carried);
  if (!carried.empty()) m.members.push_back({std::string(kKeysName), blobs::sha256_hex(keys), keys.size()});

  // Second pass: the archive, manifest first.
  auto w = ArchiveWriter::create(out_fs, out_path, options.compression);
  if (!w.ok()) return w.status();
  XS_RETURN_IF_ERROR(add_member(**w, std::string(kManifestName), manifest_json(m)));
  for (Planned& p : *planned) {
    if (p.held.size() != p.size || p.size == 0) XS_RETURN_IF_ERROR(read_again(fs, p, &p.held));
    XS_RETURN_IF_ERROR(add_member(**w, p.member, p.held.view()));
    p.held = storage::PaddedBuffer();
  }
  for (const auto& [h, size] : report.blobs) {
    std::string blob;
    XS_RETURN_IF_ERROR(store->blobs().get(h, &blob).With("cannot export blob " + h));
    XS_RETURN_IF_ERROR(add_member(**w, "blobs/" + h, blob));
  }
  if (!carried.empty()) XS_RETURN_IF_ERROR(add_member(**w, std::string(kKeysName), keys));
  XS_RETURN_IF_ERROR((*w)->finish(&report.bytes));

  report.path = out_path;
  report.compression = options.compression;
  for (const Planned& p : *planned) {
    const SessionSummary& s = *p.summary;
    bool parent_in = false;
    if (s.parent_session) {
      const SessionSummary* parent = idx->find_parent(*s.parent_session);
      for (const Planned& q : *planned) parent_in = parent_in || q.summary == parent;
    }
    report.sessions.push_back({s.id, s.path, s.cwd, s.archived, p.lineage, p.size, s.parent_session, parent_in});
  }
  return report;
}

std::string export_report_json(const ExportReport& r) {
  std::string out = "{\"path\":";
  json::append_quoted_lossy(out, r.path);
  out += ",\"bytes\":" + std::to_string(r.bytes) + ",\"compression\":";
  out += r.compression == Compression::kZstd ? "\"zstd\"" : "\"gzip\"";
  out += ",\"sessions\":[";
  for (size_t i = 0; i < r.sessions.size(); ++i) {
    const ExportedSession& s = r.sessions[i];
    out += i ? ",{\"id\":" : "{\"id\":";
    json::append_quoted(out, s.id);
    out += ",\"path\":";
    json::append_quoted_lossy(out, s.path);
    out += ",\"cwd\":";
    json::append_quoted_lossy(out, s.cwd);
    out += std::string(",\"archived\":") + (s.archived ? "true" : "false");
    out += std::string(",\"lineage\":") + (s.lineage ? "true" : "false");
    out += ",\"bytes\":" + std::to_string(s.bytes) + ",\"parentSession\":";
    if (s.parent_session) {
      json::append_quoted_lossy(out, *s.parent_session);
    } else {
      out += "null";
    }
    out += std::string(",\"parentInBundle\":") + (s.parent_in_bundle ? "true}" : "false}");
  }
  out += "],\"blobs\":[";
  for (size_t i = 0; i < r.blobs.size(); ++i) {
    out += (i ? ",{\"hash\":\"" : "{\"hash\":\"") + r.blobs[i].first + "\",\"bytes\":";
    out += std::to_string(r.blobs[i].second) + "}";
  }
  out += "],\"missingBlobs\":[";
  for (size_t i = 0; i < r.missing_blobs.size(); ++i) out += (i ? ",\"" : "\"") + r.missing_blobs[i] + "\"";
  out += "],\"keys\":[";
  for (size_t i = 0; i < r.keys.size(); ++i) {
    if (i) out += ",";
    json::append_quoted(out, r.keys[i]);
  }
  out += "]}";
  return out;
}

}  // namespace xs::bundle
