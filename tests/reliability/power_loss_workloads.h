// The workloads of the power-loss test (power_loss_test.cc), each run once through a recording seam
// (storage/crash_fs.h) with a fixed clock and id seed, and what each wrote: every line of every
// session file and the crash point from which it must survive a power loss (a durable append
// survives power loss: docs/guarantees.md#g2).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "blobs/blob_store.h"
#include "reliability_util.h"
#include "session/session.h"
#include "storage/crash_fs.h"
#include "storage/path.h"

namespace xs::test {

constexpr size_t kNever = std::numeric_limits<size_t>::max();
constexpr uint64_t kPowerLossIdSeed = 0x5EED;
constexpr int64_t kPowerLossClockMs = 1767225600000;  // 2026-01-01T00:00:00Z
const std::string kSessionDir = "/store/sessions/--work--";
const std::string kStoreRoot = "/store";

struct WrittenLine {
  std::string bytes;               // the entry's line, without its '\n'
  size_t durable_at = kNever;      // crash points >= this must keep it (acknowledged as durable)
  std::vector<std::string> blobs;  // hashes of the blobs it references
  size_t acked_at = kNever;        // crash points >= this come after its append returned
};

struct WrittenFile {
  std::string path;
  size_t exists_at = kNever;         // crash points >= this must have the file
  std::vector<std::string> headers;  // every header line the file had (a title rewrite adds one)
  std::vector<WrittenLine> lines;    // every entry line, in the order written
  // Migrated files: the file before the writable open, how a read-only open presents it (migrated
  // in memory), and the file the migration put in its place.
  std::string old_bytes, old_entries, old_diagnostics, rewritten;
  std::vector<std::string> bad_lines;  // damaged on purpose before the workload: always reported
};

struct Workload {
  std::string name;
  std::shared_ptr<storage::CrashFs> fs;
  size_t first_point = 0;  // the setup before this crash point is durable
  std::vector<WrittenFile> files;
  bool blobs = false;  // a blob store at kStoreRoot
  size_t flushes = 0, rewrites = 0, blob_puts = 0;
};

// The options of the opens, in the workload and on the crash states. The workload's id seed makes
// a migration in memory give the ids the workload's migration wrote.
inline session::SessionOptions power_loss_options(const std::shared_ptr<storage::Fs>& fs, bool blobs,
                                                  session::Durability durability, bool read_only,
                                                  uint64_t id_seed = kPowerLossIdSeed) {
  session::SessionOptions o;
  o.read_only = read_only;
  o.defer_until_assistant = false;
  o.durability = durability;
  o.clock = format::Clock::Fixed(kPowerLossClockMs, 1000);
  o.id_seed = id_seed;
  o.cwd = "/work";
  if (blobs) o.blobs = std::make_shared<blobs::BlobStore>(fs, kStoreRoot);
  return o;
}

// A directory that is already on disk for good (it and every parent created and their entries synced).
inline void durable_dir(storage::Fs& fs, const std::string& dir) {
  ASSERT_TRUE(fs.make_dirs(dir).ok());
  for (std::string p = dir; p != "/"; p = storage::dir_name(p)) ASSERT_TRUE(fs.sync_dir(storage::dir_name(p)).ok());
}

inline void durable_file(storage::Fs& fs, const std::string& path, const std::string& bytes) {
  auto f = fs.create_new(path);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE((*f)->append(bytes).ok());
  ASSERT_TRUE((*f)->sync().ok());
  ASSERT_TRUE((*f)->close().ok());
  ASSERT_TRUE(fs.sync_dir(storage::dir_name(path)).ok());
}

// Letters and spaces (nothing JSON would escape) of a deterministic length for `n`: log-uniform in
// [60 B, 6 KB], or 64 KiB and more for `big`.
inline std::string text_payload(uint64_t n, bool big) {
  std::mt19937_64 rng(n * 7919 + 17);
  double u = std::uniform_real_distribution<double>(0, 1)(rng);
  size_t len = big ? 64 * 1024 + n % 64 * 97 : static_cast<size_t>(60.0 * std::pow(100.0, u));
  std::string s = "w" + std::to_string(n) + ":";
  while (s.size() < len) s += rng() % 7 == 0 ? ' ' : static_cast<char>('a' + rng() % 26);
  return s;
}

inline std::string base64(const std::string& bytes) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= uint8_t(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Records what a session wrote and when it became durable.
class Tracker {
 public:
  Tracker(Workload* w, WrittenFile* f) : w_(w), f_(f) {}
  // The entry `id` was appended (acknowledged); in sync mode that makes it durable at once.
  void appended(session::Session& s, const std::string& id, bool durable, std::vector<std::string> blobs = {}) {
    auto line = s.entry_json(id);
    ASSERT_TRUE(line.ok());
    f_->lines.push_back({*line, kNever, std::move(blobs), w_->fs->ops()});
    if (durable) f_->lines.back().durable_at = w_->fs->ops();
  }
  // A flush, close or rewrite returned OK: everything appended so far is durable.
  void all_durable() {
    for (WrittenLine& l : f_->lines) {
      if (l.durable_at == kNever) l.durable_at = w_->fs->ops();
    }
  }

 private:
  Workload* w_;
  WrittenFile* f_;
};

// (a), (b): a new session, 200 appends of 60 B to 6 KB with four of 64 KiB and more, a title change
// (an atomic rewrite) half way; buffered mode flushes every 16 appends. The session directory is on
// disk already, unless `new_dir`: then the engine creates it (the first session for a cwd).
inline void append_workload(Workload* w, session::Durability durability, uint64_t appends = 200,
                            bool new_dir = false) {
  bool sync = durability == session::Durability::kSync;
  w->name = std::string(sync ? "append sync" : "append buffered") + (new_dir ? ", new directory" : "");
  w->fs = std::make_shared<storage::CrashFs>();
  durable_dir(*w->fs, new_dir ? storage::dir_name(kSessionDir) : kSessionDir);
  w->first_point = w->fs->ops();
  auto s = session::Session::create(w->fs, kSessionDir, power_loss_options(w->fs, false, durability, false));
  ASSERT_TRUE(s.ok()) << s.status().message();
  w->files.push_back({});
  WrittenFile& f = w->files.back();
  f.path = (*s)->path();
  f.exists_at = w->fs->ops();
  f.headers.push_back(std::string((*s)->header()));
  Tracker track(w, &f);
  for (uint64_t i = 0; i < appends; ++i) {
    bool big = i == 17 || i == 60 || i == 111 || i == 170;
    std::string text = text_payload(i, big);
    std::string id;
    ASSERT_TRUE((*s)->append_message(i % 2 ? assistant_message(text) : user_message(text), &id).ok());
    track.appended(**s, id, sync);
    if (!sync && i % 16 == 15) {
      ASSERT_TRUE((*s)->flush().ok());
      track.all_durable();
      ++w->flushes;
    }
    if (i == 100) {
      ASSERT_TRUE((*s)->set_title("after a power loss").ok());
      track.all_durable();
      f.headers.push_back(std::string((*s)->header()));
      ++w->rewrites;
    }
  }
  ASSERT_TRUE((*s)->close().ok());
  track.all_durable();
}

const std::string kV1BadLine = "not json: kept byte for byte by the rewrite";
const std::string kV2BadLine = R"({"type":"message","id":"torn","parentId":"e106","timestamp":"2025-02-01T00:0)";

// (c): a v1 and a v2 file on disk; a writable open migrates each (an atomic rewrite), then a few
// buffered appends, a flush, more appends and a close.
inline std::string v1_file() {
  std::string f = R"({"type":"session","id":"v1session","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/work"})" "\n";
  for (int i = 0; i < 40; ++i) {
    std::string ts = "\"timestamp\":\"2025-01-01T00:01:" + std::to_string(10 + i) + ".000Z\"";
    if (i == 12) f += kV1BadLine + "\n";
    if (i == 25) {
      f += R"({"type":"compaction",)" + ts + R"(,"summary":"so far","firstKeptEntryIndex":20,"tokensBefore":999})" "\n";
    } else if (i == 31) {
      f += R"({"type":"message",)" + ts +
           R"(,"message":{"role":"hookMessage","customType":"x","content":"h","display":true}})" "\n";
    } else {
      std::string text = text_payload(1000 + i, false);
      std::string message = i % 2 ? assistant_message(text) : user_message(text);
      f += R"({"type":"message",)" + ts + R"(,"message":)" + message + "}\n";
    }
  }
  return f;
}

inline std::string v2_file() {
  std::string f =
      R"({"type":"session","version":2,"id":"v2session","timestamp":"2025-02-01T00:00:00.000Z","cwd":"/work"})" "\n";
  std::string parent = "null";
  for (int i = 0; i < 30; ++i) {
    std::string id = "e" + std::to_string(100 + i);
    std::string head = R"({"type":"message","id":")" + id + R"(","parentId":)" + parent +
                       R"(,"timestamp":"2025-02-01T00:02:)" + std::to_string(10 + i) + R"(.000Z","message":)";
    if (i == 7) f += kV2BadLine + "\n";
    if (i % 10 == 4) {
      f += head + R"({"role":"hookMessage","customType":"hook","content":"from a hook","display":false}})" "\n";
    } else {
      std::string text = text_payload(2000 + i, i == 20);
      f += head + (i % 2 ? assistant_message(text) : user_message(text)) + "}\n";
    }
    parent = "\"" + id + "\"";
  }
  return f;
}

inline void migration_workload(Workload* w) {
  w->name = "migration rewrite";
  w->fs = std::make_shared<storage::CrashFs>();
  durable_dir(*w->fs, kSessionDir);
  std::vector<std::string> olds{v1_file(), v2_file()};
  std::vector<std::string> paths{kSessionDir + "/2025-01-01T00-00-00-000Z_v1session.jsonl",
                                 kSessionDir + "/2025-02-01T00-00-00-000Z_v2session.jsonl"};
  for (size_t i = 0; i < olds.size(); ++i) {
    durable_file(*w->fs, paths[i], olds[i]);
    w->files.push_back({});
    WrittenFile& f = w->files.back();
    f.path = paths[i];
    f.exists_at = 0;
    f.old_bytes = olds[i];
    f.bad_lines = {kV1BadLine, kV2BadLine};
    // How a reader sees the old file: migrated in memory, nothing written.
    auto ro = session::Session::open(w->fs, f.path,
                                     power_loss_options(w->fs, false, session::Durability::kBuffered, true));
    ASSERT_TRUE(ro.ok()) << ro.status().message();
    f.old_entries = (*ro)->entries_json();
    f.old_diagnostics = (*ro)->diagnostics_json();
  }
  w->first_point = w->fs->ops();
  for (size_t i = 0; i < w->files.size(); ++i) {
    WrittenFile& f = w->files[i];
    auto s = session::Session::open(w->fs, f.path,
                                    power_loss_options(w->fs, false, session::Durability::kBuffered, false));
    ASSERT_TRUE(s.ok()) << s.status().message();
    ++w->rewrites;
    f.rewritten = get_file(*w->fs, f.path);
    f.headers.push_back(std::string((*s)->header()));
    // The rewrite is the old file migrated, entry lines as a reader saw them, in the same order.
    std::string entries = "[";
    size_t start = f.rewritten.find('\n') + 1;
    for (size_t nl; (nl = f.rewritten.find('\n', start)) != std::string::npos; start = nl + 1) {
      std::string line = f.rewritten.substr(start, nl - start);
      if (line == kV1BadLine || line == kV2BadLine) continue;
      entries += (entries.size() > 1 ? "," : "") + line;
      f.lines.push_back({line, w->fs->ops(), {}, w->fs->ops()});
    }
    ASSERT_EQ(entries + "]", f.old_entries) << "the rewrite is not what a reader of the old file saw";
    Tracker track(w, &f);
    for (uint64_t n = 0; n < 6; ++n) {
      std::string id;
      ASSERT_TRUE((*s)->append_message(user_message(text_payload(3000 + 10 * i + n, n == 4)), &id).ok());
      track.appended(**s, id, false);
      if (n == 2) {
        ASSERT_TRUE((*s)->flush().ok());
        track.all_durable();
        ++w->flushes;
      }
    }
    ASSERT_TRUE((*s)->close().ok());
    track.all_durable();
  }
}

// (d): messages with base64 images of 800 B to 48 KB (decoded) and a blob store: each image is put
// (temp, fsync, rename, directory fsync) before the entry that references it is appended. Every
// fifth image repeats an earlier one (a put that only touches the blob); buffered, flush every 5.
// The store's blob directory is on disk already, unless `new_dir`: then the first put creates it.
inline std::string image_bytes(uint64_t n) {
  std::mt19937_64 rng(n * 104729 + 3);
  size_t len = 800 + rng() % (48 * 1000);
  std::string s;
  for (size_t i = 0; i < len; ++i) s += static_cast<char>(rng() & 0xFF);
  return s;
}

inline void blob_workload(Workload* w, uint64_t appends = 40, bool new_dir = false) {
  w->name = std::string("blob put") + (new_dir ? ", new directory" : "");
  w->blobs = true;
  w->fs = std::make_shared<storage::CrashFs>();
  durable_dir(*w->fs, kSessionDir);
  if (!new_dir) durable_dir(*w->fs, storage::join_path(kStoreRoot, "blobs"));
  w->first_point = w->fs->ops();
  auto s = session::Session::create(w->fs, kSessionDir,
                                    power_loss_options(w->fs, true, session::Durability::kBuffered, false));
  ASSERT_TRUE(s.ok()) << s.status().message();
  w->files.push_back({});
  WrittenFile& f = w->files.back();
  f.path = (*s)->path();
  f.exists_at = w->fs->ops();
  f.headers.push_back(std::string((*s)->header()));
  Tracker track(w, &f);
  for (uint64_t i = 0; i < appends; ++i) {
    std::string id;
    if (i % 4 == 3) {
      ASSERT_TRUE((*s)->append_message(assistant_message(text_payload(4000 + i, false)), &id).ok());
      track.appended(**s, id, false);
    } else {
      std::string img = image_bytes(i % 5 == 4 ? i - 4 : i);
      std::string msg = R"({"role":"user","content":[{"type":"text","text":"image )" + std::to_string(i) +
                        R"("},{"type":"image","data":")" + base64(img) + R"(","mimeType":"image/png"}]})";
      ASSERT_TRUE((*s)->append_message(msg, &id).ok());
      track.appended(**s, id, false, {blobs::sha256_hex(img)});
      ASSERT_NE(f.lines.back().bytes.find("blob:sha256:" + blobs::sha256_hex(img)), std::string::npos)
          << "the image did not go to the blob store";
      ++w->blob_puts;
    }
    if (i % 5 == 4) {
      ASSERT_TRUE((*s)->flush().ok());
      track.all_durable();
      ++w->flushes;
    }
  }
  ASSERT_TRUE((*s)->close().ok());
  track.all_durable();
}

}  // namespace xs::test
