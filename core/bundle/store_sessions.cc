#include "bundle/store_sessions.h"

#include <algorithm>

#include "storage/gzip.h"

namespace xs::bundle {

Result<const discovery::SessionSummary*> StoreSessions::find_id(const std::string& id) const {
  auto it = by_id.find(id);
  if (it == by_id.end()) return static_cast<const discovery::SessionSummary*>(nullptr);
  if (it->second.size() > 1) {
    std::string files;
    for (size_t i : it->second) files += (files.empty() ? "" : ", ") + all[i].path;
    return Status(Code::kAmbiguous,
                  "session id " + id + " names " + std::to_string(it->second.size()) + " files: " + files);
  }
  return &all[it->second.front()];
}

const discovery::SessionSummary* StoreSessions::find_parent(const std::string& parent) const {
  if (parent.find('/') != std::string::npos) {
    for (const std::string& p : {parent, parent + ".gz"}) {
      auto it = by_path.find(p);
      if (it != by_path.end()) return &all[it->second];
    }
    return nullptr;
  }
  auto one = find_id(parent);
  return one.ok() ? *one : nullptr;
}

Result<StoreSessions> index_sessions(const store::Store& store) {
  discovery::ListQuery q;
  auto listed = store.list(q);
  if (!listed.ok()) return listed.status();
  StoreSessions s;
  s.all = std::move(*listed);
  std::sort(s.all.begin(), s.all.end(),
            [](const discovery::SessionSummary& a, const discovery::SessionSummary& b) { return a.path < b.path; });
  for (size_t i = 0; i < s.all.size(); ++i) {
    s.by_id[s.all[i].id].push_back(i);
    s.by_path[s.all[i].path] = i;
  }
  return s;
}

Status read_stored(storage::Fs& fs, const std::string& path, uint64_t max, storage::PaddedBuffer* out) {
  return fs.read_file(path, max, out);
}

Status session_text(std::string_view stored, bool archived, std::string* out) {
  if (!archived) {
    out->assign(stored);
    return Status::Ok();
  }
  storage::PaddedBuffer inflated;
  XS_RETURN_IF_ERROR(storage::gunzip(stored, storage::kMaxInflatedBytes, &inflated));
  out->assign(inflated.view());
  return Status::Ok();
}

}  // namespace xs::bundle
