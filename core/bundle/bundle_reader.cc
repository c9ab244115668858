#include "bundle/bundle_reader.h"

#include <algorithm>

#include "bundle/archive_io.h"
#include "json/json_string.h"
#include "storage/path.h"

namespace xs::bundle {

namespace {

constexpr size_t kPiece = 1 << 20;
// What tar adds around the members' bytes: a header and padding per member (pax headers
// included), the end-of-archive blocks. Past this, the stream holds what no manifest declared.
constexpr uint64_t kTarOverheadPerMember = 4096;
constexpr uint64_t kTarOverhead = 64 << 10;

std::string quoted(std::string_view name) { return "\"" + json::to_valid_utf8(name) + "\""; }

// An absolute name, a Windows drive or a ".." component: a name that could leave the directory it
// is extracted into, whatever the manifest says.
bool escapes(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\') return true;
  if (name.size() > 1 && name[1] == ':') return true;
  for (size_t start = 0; start <= name.size();) {
    size_t end = name.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

// Where a member's bytes go while they are read and checked.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual Status put(std::string_view bytes) = 0;
  virtual Status done() { return Status::Ok(); }
};

class StringSink : public Sink {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  Status put(std::string_view bytes) override {
    out_->append(bytes);
    return Status::Ok();
  }

 private:
  std::string* out_;
};

class NullSink : public Sink {
 public:
  Status put(std::string_view) override { return Status::Ok(); }
};

class FileSink : public Sink {
 public:
  explicit FileSink(std::unique_ptr<storage::WritableFile> f) : f_(std::move(f)) {}
  ~FileSink() override {
    if (f_) f_->close();
  }
  Status put(std::string_view bytes) override { return f_->append(bytes); }
  Status done() override {
    XS_RETURN_IF_ERROR(f_->sync());
    std::unique_ptr<storage::WritableFile> f = std::move(f_);
    return f->close();
  }

 private:
  std::unique_ptr<storage::WritableFile> f_;
};

// One member's bytes into `sink`, held to the manifest's size and digest.
Status take_member(ArchiveReader& r, const ArchiveReader::Header& h, const MemberInfo& declared, Sink& sink) {
  std::string too_large =
      "member " + quoted(h.name) + " is larger than the manifest says (" + std::to_string(declared.size) + " bytes)";
  if (h.size > declared.size) return Status::Corrupt(too_large);
  Sha256 sha;
  uint64_t got = 0;
  for (;;) {
    // Never more than one byte past the declared size: enough to know it is larger.
    uint64_t room = declared.size + 1 - got;
    auto piece = r.read(static_cast<size_t>(std::min<uint64_t>(kPiece, room)));
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    got += piece->size();
    if (got > declared.size) return Status::Corrupt(too_large);
    sha.update(*piece);
    XS_RETURN_IF_ERROR(sink.put(*piece));
  }
  if (got != declared.size) {
    return Status::Corrupt("member " + quoted(h.name) + " holds " + std::to_string(got) + " bytes; the manifest says " +
                           std::to_string(declared.size));
  }
  if (sha.hex() != declared.sha256) {
    return Status::Corrupt("member " + quoted(h.name) + " does not match its SHA-256 in the manifest");
  }
  return sink.done();
}

Result<Manifest> take_manifest(ArchiveReader& r) {
  ArchiveReader::Header h;
  auto more = r.next(&h);
  if (!more.ok()) return more.status();
  if (!*more) return Status::Corrupt("the bundle is empty: it has no manifest.json");
  if (h.name != kManifestName) {
    return Status::Corrupt("the bundle's first member is " + quoted(h.name) + ", not manifest.json");
  }
  if (!h.regular) return Status::Corrupt("manifest.json is " + h.kind);
  std::string text;
  for (;;) {
    auto piece = r.read(kPiece);
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    text += *piece;
    if (text.size() > kMaxManifestBytes) {
      return Status::Corrupt("manifest.json is larger than " + std::to_string(kMaxManifestBytes >> 20) + " MiB");
    }
  }
  return parse_manifest(text);
}

}  // namespace

Staging::Staging(std::shared_ptr<storage::Fs> fs, std::string root)
    : fs_(std::move(fs)), prefix_(storage::join_path(root, ".xs-bundle-" + random_suffix() + "-")) {}

Staging::~Staging() {
  for (const std::string& p : paths_) {
    try {
      fs_->unlink(p);
    } catch (...) {  // out of memory: a leftover staging file, documented (docs/bundles.md#import)
    }
  }
}

std::string Staging::next_path() {
  paths_.push_back(prefix_ + std::to_string(n_++));
  return paths_.back();
}

void Staging::release(const std::string& path) { paths_.erase(std::find(paths_.begin(), paths_.end(), path)); }

Result<Received> read_bundle(const std::shared_ptr<storage::Fs>& bundle_fs, const std::string& bundle_path,
                             Staging* staging, storage::Fs* store_fs) {
  auto reader = ArchiveReader::open(bundle_fs, bundle_path);
  if (!reader.ok()) return reader.status();
  ArchiveReader& r = **reader;
  Received got;
  auto manifest = take_manifest(r);
  if (!manifest.ok()) return manifest.status();
  got.manifest = std::move(*manifest);
  const std::vector<MemberInfo>& members = got.manifest.members;
  std::unordered_map<std::string, size_t> index;
  uint64_t bound = kTarOverhead + kMaxManifestBytes;
  for (size_t i = 0; i < members.size(); ++i) {
    index[members[i].path] = i;
    bound += members[i].size + kTarOverheadPerMember;
  }
  std::vector<bool> seen(members.size());
  ArchiveReader::Header h;
  for (;;) {
    auto more = r.next(&h);
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (escapes(h.name)) return Status::Corrupt("member " + quoted(h.name) + " has an absolute or \"..\" path");
    if (!h.regular) return Status::Corrupt("member " + quoted(h.name) + " is " + h.kind + ", not a regular file");
    auto it = index.find(h.name);
    if (it == index.end()) return Status::Corrupt("member " + quoted(h.name) + " is not in the manifest");
    if (seen[it->second]) return Status::Corrupt("member " + quoted(h.name) + " appears twice");
    seen[it->second] = true;
    const MemberInfo& declared = members[it->second];
    std::unique_ptr<Sink> sink;
    if (declared.path.compare(0, 6, "blobs/") == 0) {
      StagedBlob blob{declared.sha256, declared.size, {}};
      if (staging) {
        blob.staged = staging->next_path();
        if (got.blobs.empty()) XS_RETURN_IF_ERROR(store_fs->make_dirs(storage::dir_name(blob.staged)));
        auto f = store_fs->create_new(blob.staged);
        if (!f.ok()) return f.status().With("cannot stage blob " + declared.sha256);
        sink = std::make_unique<FileSink>(std::move(*f));
      } else {
        sink = std::make_unique<NullSink>();
      }
      got.blobs.push_back(std::move(blob));
    } else {
      std::string* bytes = declared.path == kKeysName ? &got.keys : &got.sessions[declared.path];
      bytes->reserve(declared.size);
      sink = std::make_unique<StringSink>(bytes);
    }
    XS_RETURN_IF_ERROR(take_member(r, h, declared, *sink));
    if (r.stream_bytes() > bound) return Status::Corrupt("the bundle inflates past what its manifest declares");
  }
  for (size_t i = 0; i < members.size(); ++i) {
    if (!seen[i]) return Status::Corrupt("member " + quoted(members[i].path) + " is missing from the bundle");
  }
  return got;
}

}  // namespace xs::bundle
