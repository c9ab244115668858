#include "test_util.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "format/ids.h"
#include "model/loader.h"
#include "model/migration.h"
#include "storage/path.h"

namespace xs::test {

TempDir::TempDir() {
  char tmpl[] = "/tmp/xs-core-test-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

bool file_exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

int file_mode(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int>(st.st_mode & 07777);
}

bool set_mtime(const std::string& path, int64_t ms) {
  struct timespec t[2];
  t[0].tv_sec = static_cast<time_t>(ms / 1000);
  t[0].tv_nsec = static_cast<long>((ms % 1000) * 1000000);
  t[1] = t[0];
  return ::utimensat(AT_FDCWD, path.c_str(), t, 0) == 0;
}

std::vector<std::string> list_dir(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path, ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

storage::PaddedBuffer padded(std::string_view bytes) { return storage::PaddedBuffer::Copy(bytes); }

void put_file(storage::Fs& fs, const std::string& path, std::string_view bytes) {
  if (!fs.make_dirs(storage::dir_name(path)).ok()) throw std::runtime_error("make_dirs " + path);
  fs.unlink(path);
  auto f = fs.create_new(path);
  if (!f.ok()) throw std::runtime_error("create " + path + ": " + f.status().message());
  if (!(*f)->append(bytes).ok() || !(*f)->close().ok()) throw std::runtime_error("write " + path);
}

std::string get_file(storage::Fs& fs, const std::string& path) {
  storage::PaddedBuffer b;
  Status st = fs.read_file(path, UINT64_MAX, &b);
  if (!st.ok()) return "<" + st.message() + ">";
  return std::string(b.view());
}

void append_file(storage::Fs& fs, const std::string& path, std::string_view bytes) {
  auto f = fs.open_append(path);
  if (!f.ok()) throw std::runtime_error("open_append " + path + ": " + f.status().message());
  if (!(*f)->append(bytes).ok() || !(*f)->close().ok()) throw std::runtime_error("append " + path);
}

std::vector<std::string> fs_list(storage::Fs& fs, const std::string& dir) {
  auto r = fs.list_dir(dir);
  if (!r.ok()) return {"<" + r.status().message() + ">"};
  std::vector<std::string> names = *r;
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<Loaded> load(std::string_view bytes, json::Limits limits, uint64_t migrate_seed) {
  auto l = std::make_unique<Loaded>();
  l->status = model::load_file(padded(bytes), limits, &l->data);
  if (!l->status.ok()) return l;
  if (migrate_seed != 0) {
    format::IdGenerator ids(migrate_seed);
    bool changed = false;
    l->status = model::migrate(&l->data, ids, &changed);
    if (!l->status.ok()) return l;
  }
  l->tree.build();
  return l;
}

std::string diag_summary(const model::SessionData& data) {
  std::string out;
  for (const model::Diagnostic& d : data.diagnostics) {
    if (!out.empty()) out += ',';
    out += d.code + "@" + std::to_string(d.line);
  }
  return out;
}

std::vector<model::Diagnostic> all_diagnostics(const Loaded& l) {
  std::vector<model::Diagnostic> all = l.data.diagnostics;
  for (const model::Diagnostic& d : l.tree.diagnostics()) all.push_back(d);
  return all;
}

std::string diag_summary(const Loaded& l) {
  std::string out;
  for (const model::Diagnostic& d : all_diagnostics(l)) {
    if (!out.empty()) out += ',';
    out += d.code + "@" + std::to_string(d.line);
  }
  return out;
}

std::string joined_lines(const model::SessionData& data) {
  std::string out(data.bom ? model::kBom : std::string_view());
  for (const model::Line& l : data.lines) {
    out += l.bytes;
    out += '\n';
  }
  return out;
}

std::vector<std::string> seeded_entry_ids(uint64_t seed, size_t n, bool skip_session_id) {
  format::IdGenerator g(seed);
  if (skip_session_id) g.session_id();
  std::vector<std::string> ids;
  for (size_t i = 0; i < n; ++i) {
    ids.push_back(g.entry_id([&](std::string_view c) { return std::find(ids.begin(), ids.end(), c) != ids.end(); }));
  }
  return ids;
}

}  // namespace xs::test
