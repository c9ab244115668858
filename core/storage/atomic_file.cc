#include "storage/atomic_file.h"

#include <random>

#include "storage/path.h"

namespace xs::storage {

namespace {

std::string random_suffix() {
  static const char kHex[] = "0123456789abcdef";
  std::random_device rd;
  std::string s;
  for (int i = 0; i < 4; ++i) {
    unsigned v = rd();
    for (int j = 0; j < 4; ++j, v >>= 4) s.push_back(kHex[v & 0xF]);
  }
  return s;
}

bool matches(const FileInfo& fi, const Expected& e) {
  return e.exists && fi.dev == e.dev && fi.ino == e.ino && fi.size == e.size;
}

}  // namespace

RemoveUnlessKept::~RemoveUnlessKept() {
  if (keep_) return;
  try {
    fs_.unlink(path_);
  } catch (...) {  // out of memory again: a temp file goes at the next writable open
  }
}

std::string temp_prefix(const std::string& path) {
  return join_path(dir_name(path), "." + base_name(path) + ".xs-tmp-");
}

Status atomic_replace(Fs& fs, const std::string& path, const std::vector<std::string_view>& chunks,
                      const Expected& expected, FileInfo* written, bool* lookup_failed, bool* replaced) {
  if (lookup_failed) *lookup_failed = false;
  if (replaced) *replaced = false;
  // Everything that allocates comes before the rename: after it, the file is replaced and only the
  // directory sync may fail (an error the caller latches), never an allocation the caller would
  // take for "nothing happened".
  const std::string dir = dir_name(path);
  const std::string tmp = temp_prefix(path) + random_suffix();
  RemoveUnlessKept guard(fs, tmp);  // until it is renamed into place
  auto file = fs.create_new(tmp);
  if (!file.ok()) return file.status();
  Status st;
  for (std::string_view c : chunks) {
    st = (*file)->append(c);
    if (!st.ok()) break;
  }
  if (st.ok()) st = (*file)->sync();
  FileInfo info;
  if (st.ok()) {
    auto fi = (*file)->stat();
    if (fi.ok())
      info = *fi;
    else
      st = fi.status();
  }
  Status closed = (*file)->close();
  if (st.ok()) st = closed;
  if (st.ok()) {
    if (expected.exists) {
      auto now = fs.stat(path);
      if (!now.ok() && now.status().code() != Code::kNotFound) {
        st = now.status().With("checking " + path + " before replacing it");  // unknown, not a conflict
        if (lookup_failed) *lookup_failed = true;
      } else if (!now.ok() || !matches(*now, expected)) {
        st = Status(Code::kConflict, path + " was changed by another process; not replacing it");
      } else {
        st = fs.rename(tmp, path);
      }
    } else {
      st = fs.rename_noreplace(tmp, path);
      if (st.code() == Code::kExists) st = Status(Code::kConflict, path + " was created by another process");
    }
  }
  if (!st.ok()) return st;  // the guard removes the temp file (a leftover goes at the next writable open)
  guard.keep();
  if (written) *written = info;
  if (replaced) *replaced = true;
  return fs.sync_dir(dir);
}

Status write_new_file(Fs& fs, const std::string& stem, const std::string& suffix,
                      const std::vector<std::string_view>& chunks, std::string* path_out) {
  const std::string dir = dir_name(stem);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string candidate = stem + (attempt ? "-" + std::to_string(attempt) : "") + suffix;
    RemoveUnlessKept guard(fs, candidate);
    auto file = fs.create_new(candidate);
    if (!file.ok()) {
      guard.keep();  // nothing of ours was made (kExists: another file's name)
      if (file.status().code() == Code::kExists) continue;
      return file.status();
    }
    Status st;
    for (std::string_view c : chunks) {
      st = (*file)->append(c);
      if (!st.ok()) break;
    }
    if (st.ok()) st = (*file)->sync();
    Status closed = (*file)->close();
    if (st.ok()) st = closed;
    if (!st.ok()) return st;  // the guard removes the incomplete file
    guard.keep();
    path_out->swap(candidate);  // no allocation: the file is whole and kept, so the name must come out
    return fs.sync_dir(dir);
  }
  return Status(Code::kExists, "no free name for " + stem + suffix + " (tried 100)");
}

void remove_stale_temps(Fs& fs, const std::string& path) {
  std::string prefix = base_name(temp_prefix(path));
  auto names = fs.list_dir(dir_name(path));
  if (!names.ok()) return;
  for (const std::string& n : *names) {
    if (n.compare(0, prefix.size(), prefix) == 0) fs.unlink(join_path(dir_name(path), n));
  }
}

}  // namespace xs::storage
