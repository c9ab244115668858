// A fixed store for the bundle tests (in memory, root "/store", so every path and byte is known):
// root0001 <- fork0001 (parentSession by id) <- branch01 (parentSession by path), one blob the
// first two reference, an unrelated session in another cwd, and two key records. Helpers to write
// tar archives member by member (hostile ones included) and to snapshot every file of a store.
#pragma once

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "storage/fs.h"
#include "storage/path.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::bundle::test {

constexpr const char* kBlob = "not really a png";
constexpr const char* kBlobHash = "e90137d39de304eefbbe788bc535c7e82f27abbf8069505fbbd8a9dcdc4f2024";
constexpr const char* kDir = "/store/sessions/--w--/";
constexpr const char* kRootFile = "2026-01-01T00-00-00-000Z_root0001.jsonl";
constexpr const char* kForkFile = "2026-01-02T00-00-00-000Z_fork0001.jsonl";
constexpr const char* kBranchFile = "2026-01-03T00-00-00-000Z_branch01.jsonl";

inline std::string image_line() {
  return std::string(
             R"({"type":"message","id":"a0000001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":[{"type":"image","mimeType":"image/png","data":"blob:sha256:)") +
         kBlobHash + "\"}]}}\n";
}
inline std::string root_bytes() {
  return R"({"type":"session","version":3,"id":"root0001","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","title":"Root"})"
         "\n" +
         image_line();
}
inline std::string fork_bytes() {
  return R"({"type":"session","version":3,"id":"fork0001","timestamp":"2026-01-02T00:00:00.000Z","cwd":"/w","parentSession":"root0001"})"
         "\n" +
         image_line();
}
inline std::string branch_bytes() {
  return std::string(
      R"({"type":"session","version":3,"id":"branch01","timestamp":"2026-01-03T00:00:00.000Z","cwd":"/w","parentSession":"/store/sessions/--w--/2026-01-02T00-00-00-000Z_fork0001.jsonl"})"
      "\n"
      R"({"type":"message","id":"b0000001","parentId":null,"timestamp":"2026-01-03T00:00:01.000Z","message":{"role":"user","content":"hi"}})"
      "\n");
}
constexpr const char* kBranchKey =
    R"({"sessionId":"branch01","sessionFile":"/store/sessions/--w--/2026-01-03T00-00-00-000Z_branch01.jsonl","cwd":"/w","updatedAt":1})";

inline std::shared_ptr<store::Store> open_store(const std::shared_ptr<storage::Fs>& fs, const std::string& root) {
  store::StoreOptions o;
  o.fs = fs;
  auto s = store::Store::open(root, o);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? *s : nullptr;
}

// The fixed store at /store on `fs`.
inline std::shared_ptr<store::Store> fixed_store(const std::shared_ptr<storage::Fs>& fs) {
  auto st = open_store(fs, "/store");
  EXPECT_TRUE(fs->make_dirs("/out").ok());  // where the tests write bundles
  xs::test::put_file(*fs, std::string(kDir) + kRootFile, root_bytes());
  xs::test::put_file(*fs, std::string(kDir) + kForkFile, fork_bytes());
  xs::test::put_file(*fs, std::string(kDir) + kBranchFile, branch_bytes());
  xs::test::put_file(
      *fs, "/store/sessions/--x--/2026-01-04T00-00-00-000Z_other001.jsonl",
      R"({"type":"session","version":3,"id":"other001","timestamp":"2026-01-04T00:00:00.000Z","cwd":"/x"})"
      "\n");
  std::string hash;
  EXPECT_TRUE(st->blobs().put(kBlob, &hash).ok());
  EXPECT_EQ(hash, kBlobHash);
  EXPECT_TRUE(st->keys().put("agent:a:main", kBranchKey).ok());
  EXPECT_TRUE(st->keys().put("agent:b:main", R"({"sessionId":"other001"})").ok());
  return st;
}

// Every file under `dir` (recursively) with its bytes.
inline void snapshot_into(storage::Fs& fs, const std::string& dir, std::map<std::string, std::string>* out) {
  auto names = fs.list_dir(dir);
  if (!names.ok()) return;
  for (const std::string& n : *names) {
    std::string p = storage::join_path(dir, n);
    auto info = fs.stat(p);
    if (!info.ok()) continue;
    if (info->is_dir) {
      snapshot_into(fs, p, out);
    } else {
      (*out)[p] = xs::test::get_file(fs, p);
    }
  }
}
inline std::map<std::string, std::string> snapshot(storage::Fs& fs, const std::string& dir) {
  std::map<std::string, std::string> out;
  snapshot_into(fs, dir, &out);
  return out;
}

// A member of a hand-made tar: a regular file by default, or a link, a device...
struct RawMember {
  std::string name;
  std::string data;
  unsigned type = AE_IFREG;
  std::string link;           // the target of a symbolic or hard link
  int64_t declared_size = -1;  // the header's size when it must differ from data's
};

// A zstd tar of `members`, in order, as bytes.
inline std::string raw_tar(const std::vector<RawMember>& members) {
  struct archive* a = archive_write_new();
  archive_write_add_filter_zstd(a);
  archive_write_set_format_pax_restricted(a);
  std::vector<char> buf(64 << 20);
  size_t used = 0;
  archive_write_open_memory(a, buf.data(), buf.size(), &used);
  for (const RawMember& m : members) {
    struct archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    archive_entry_set_filetype(e, m.type);
    archive_entry_set_perm(e, 0600);
    if (m.type == AE_IFLNK) archive_entry_set_symlink(e, m.link.c_str());
    if (m.type == AE_IFREG && !m.link.empty()) archive_entry_set_hardlink(e, m.link.c_str());
    if (m.type == AE_IFCHR) archive_entry_set_rdev(e, 0x0103);
    archive_entry_set_size(e, m.type == AE_IFREG ? (m.declared_size >= 0 ? m.declared_size : m.data.size()) : 0);
    archive_write_header(a, e);
    if (m.type == AE_IFREG && m.link.empty()) archive_write_data(a, m.data.data(), m.data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return std::string(buf.data(), used);
}

// The members of a bundle, in order (name -> bytes), read with bare libarchive.
inline std::vector<std::pair<std::string, std::string>> tar_members(const std::string& bytes) {
  std::vector<std::pair<std::string, std::string>> out;
  struct archive* a = archive_read_new();
  archive_read_support_filter_all(a);
  archive_read_support_format_tar(a);
  archive_read_open_memory(a, bytes.data(), bytes.size());
  struct archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    std::string data(static_cast<size_t>(archive_entry_size(e)), '\0');
    archive_read_data(a, data.data(), data.size());
    out.emplace_back(archive_entry_pathname(e), std::move(data));
  }
  archive_read_free(a);
  return out;
}

}  // namespace xs::bundle::test
