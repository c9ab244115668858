// Shared helpers for the C API tests. These tests see the library only through xsession.h (and
// the shared library): no engine header is included anywhere under tests/capi/.
//
// Expected values in the tests are derived from the contract (xsession.h and the rules of docs/),
// never from the library's own output: timestamps are computed here with gmtime_r, ids are
// caller-chosen or read back through id_out, bytes are spelled out.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "xsession.h"

namespace xstest {

// 2026-02-16T10:20:30.000Z, the timestamp of docs/format.md's examples.
constexpr int64_t kT0 = 1771237230000;
constexpr int64_t kStep = 1000;
constexpr uint64_t kSeed = 42;

// ISO-8601 UTC with milliseconds, as Date.prototype.toISOString writes it.
inline std::string Iso(int64_t ms) {
  time_t secs = static_cast<time_t>(ms / 1000);
  struct tm tm;
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}
// The n-th timestamp of a fixed clock started at kT0 with kStep (n = 0 is the header's).
inline std::string Ts(int n) { return Iso(kT0 + n * kStep); }
inline std::string Ms(int n) { return std::to_string(kT0 + n * kStep); }

// --- files ------------------------------------------------------------------------------------

inline int RemoveOne(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/xs-capi-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) {
      ADD_FAILURE() << "mkdtemp failed: " << std::strerror(errno);
      return;
    }
    path_ = buf.data();
  }
  ~TempDir() {
    if (!path_.empty()) ::nftw(path_.c_str(), RemoveOne, 16, FTW_DEPTH | FTW_PHYS);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline bool Exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

inline std::string ReadFile(const std::string& path) {
  std::string out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    ADD_FAILURE() << "cannot read " << path << ": " << std::strerror(errno);
    return out;
  }
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

inline void WriteFile(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  ASSERT_EQ(std::fclose(f), 0);
}

// Names in a directory, without "." and "..", sorted.
inline std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return names;
  while (struct dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

inline std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      lines.push_back(text.substr(pos));
      break;
    }
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

inline size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t p = haystack.find(needle); p != std::string::npos; p = haystack.find(needle, p + needle.size())) ++n;
  return n;
}

// The value of a string member `"key":"..."` in a compact JSON text (first occurrence), with the
// escapes JSON.stringify writes for paths (\" and \\) undone. Empty when absent.
inline std::string JsonStr(const std::string& json, const std::string& key) {
  std::string pat = "\"" + key + "\":\"";
  size_t p = json.find(pat);
  if (p == std::string::npos) return std::string();
  std::string out;
  for (size_t i = p + pat.size(); i < json.size(); ++i) {
    char c = json[i];
    if (c == '"') return out;
    if (c == '\\' && i + 1 < json.size()) c = json[++i];
    out.push_back(c);
  }
  return out;
}

// --- the (buf, cap, out_len) protocol ----------------------------------------------------------

using Reader = std::function<xs_status(char* buf, size_t cap, size_t* out_len)>;

// Size query, then fill with the exact size: the way a careful caller reads. Records a failure
// (and returns "") if either step does not follow the protocol.
inline std::string Fetch(const Reader& read, xs_status* status = nullptr) {
  size_t need = SIZE_MAX;
  xs_status st = read(nullptr, 0, &need);
  if (status) *status = st;
  if (st == XS_OK) {
    EXPECT_EQ(need, 0u) << "a size query may only succeed for an empty result";
    return std::string();
  }
  if (st != XS_EBUFS) {
    if (!status) ADD_FAILURE() << "size query failed: " << xs_status_str(st);
    return std::string();
  }
  std::string out(need, '\0');
  size_t got = SIZE_MAX;
  st = read(&out[0], out.size(), &got);
  if (status) *status = st;
  if (st != XS_OK) {
    ADD_FAILURE() << "fill failed: " << xs_status_str(st);
    return std::string();
  }
  EXPECT_EQ(got, need);
  return out;
}

inline std::string Info(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_info(s, b, c, n); });
}
inline std::string PathOf(xs_session* s) { return JsonStr(Info(s), "path"); }
inline std::string Leaf(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_leaf(s, b, c, n); });
}
inline std::string Entries(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_entries(s, 0, b, c, n); });
}
inline std::string Header(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_header(s, b, c, n); });
}
inline std::string Entry(xs_session* s, const std::string& id) {
  return Fetch([&](char* b, size_t c, size_t* n) { return xs_session_entry(s, id.c_str(), 0, b, c, n); });
}
inline std::string Context(xs_session* s, const char* leaf = nullptr) {
  return Fetch([&](char* b, size_t c, size_t* n) { return xs_build_context(s, leaf, b, c, n); });
}
inline std::string Tree(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_tree(s, 0, b, c, n); });
}
inline std::string Labels(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_labels(s, b, c, n); });
}
inline std::string Diagnostics(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_diagnostics(s, b, c, n); });
}
inline std::string Usage(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_usage(s, b, c, n); });
}
inline std::string PathEntries(xs_session* s, const char* id = nullptr) {
  return Fetch([&](char* b, size_t c, size_t* n) { return xs_session_path(s, id, 0, b, c, n); });
}
inline std::string Children(xs_session* s, const std::string& id) {
  return Fetch([&](char* b, size_t c, size_t* n) { return xs_session_children(s, id.c_str(), 0, b, c, n); });
}

// --- common inputs -----------------------------------------------------------------------------

inline const std::string kUser1 = R"({"role":"user","content":"hello","timestamp":1})";
inline const std::string kAssistant1 =
    R"({"role":"assistant","content":[{"type":"text","text":"hi there"}],"provider":"anthropic","model":"claude-x","timestamp":2})";
inline const std::string kUser2 = R"({"role":"user","content":"and again","timestamp":3})";
inline const std::string kAssistant2 =
    R"({"role":"assistant","content":[{"type":"text","text":"once more"}],"provider":"anthropic","model":"claude-x","timestamp":4})";
inline const std::string kUser3 = R"({"role":"user","content":"another way","timestamp":5})";

// The line of a non-custom entry written by the session: type, id, parentId, timestamp, then the
// payload (docs/format.md#entries).
inline std::string Line(const std::string& type, const std::string& id, const std::string& parent,
                        const std::string& ts, const std::string& payload) {
  std::string p = parent.empty() ? "null" : "\"" + parent + "\"";
  return "{\"type\":\"" + type + "\",\"id\":\"" + id + "\",\"parentId\":" + p + ",\"timestamp\":\"" + ts + "\"" +
         (payload.empty() ? "" : "," + payload) + "}";
}
inline std::string MsgLine(const std::string& id, const std::string& parent, const std::string& ts,
                           const std::string& msg) {
  return Line("message", id, parent, ts, "\"message\":" + msg);
}
// custom / custom_message put id, parentId, timestamp after the payload.
inline std::string TailLine(const std::string& type, const std::string& payload, const std::string& id,
                            const std::string& parent, const std::string& ts) {
  std::string p = parent.empty() ? "null" : "\"" + parent + "\"";
  return "{\"type\":\"" + type + "\"," + payload + ",\"id\":\"" + id + "\",\"parentId\":" + p + ",\"timestamp\":\"" +
         ts + "\"}";
}
inline std::string HeaderLine(const std::string& id, const std::string& ts, const std::string& cwd,
                              const std::string& extra = "") {
  return "{\"type\":\"session\",\"version\":3,\"id\":\"" + id + "\",\"timestamp\":\"" + ts + "\",\"cwd\":\"" + cwd +
         "\"" + extra + "}";
}

// Session file names: "<ISO timestamp with ':' and '.' replaced by '-'>_<sessionId>.jsonl"
// (docs/format.md#store-layout).
inline std::string FileName(const std::string& iso, const std::string& id) {
  std::string s = iso;
  for (char& c : s) {
    if (c == ':' || c == '.') c = '-';
  }
  return s + "_" + id + ".jsonl";
}

inline bool IsGeneratedEntryId(const std::string& id) {
  if (id.size() != 8 && id.size() != 16) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// --- fixture -----------------------------------------------------------------------------------

// A store opened on a fresh temporary root, and helpers to make sessions in it.
class CapiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = xs_store_new();
    ASSERT_NE(store_, nullptr);
    ASSERT_EQ(xs_store_open(store_, root_.path().c_str(), nullptr), XS_OK) << xs_store_errmsg(store_);
  }
  void TearDown() override {
    for (xs_session* s : owned_) xs_session_close(s);
    xs_store_free(store_);
  }

  // Fixed clock (kT0, kStep) and a seeded id sequence, plus `flags`.
  static xs_session_options Opts(uint32_t flags = 0) {
    xs_session_options o;
    EXPECT_EQ(xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION), XS_OK);
    o.flags = flags | XS_SESSION_FIXED_CLOCK;
    o.clock_start_ms = kT0;
    o.clock_step_ms = kStep;
    o.id_seed = kSeed;
    return o;
  }

  // A session closed by TearDown (unless the test closes it and calls Forget()).
  xs_session* Create(const xs_session_options* o, const char* cwd = "/work/proj") {
    xs_session* s = nullptr;
    xs_status st = xs_session_create(store_, cwd, o, &s);
    EXPECT_EQ(st, XS_OK) << xs_store_errmsg(store_);
    if (s) owned_.push_back(s);
    return s;
  }
  xs_session* Create(uint32_t flags = 0) {
    xs_session_options o = Opts(flags);
    return Create(&o);
  }
  xs_session* Open(const std::string& path, uint32_t flags = 0, xs_status want = XS_OK) {
    xs_session_options o = Opts(flags);
    static char sentinel;
    xs_session* s = reinterpret_cast<xs_session*>(&sentinel);  // must be overwritten
    xs_status st = xs_session_open(store_, path.c_str(), &o, &s);
    EXPECT_EQ(st, want) << xs_store_errmsg(store_);
    if (st != XS_OK) {
      EXPECT_EQ(s, nullptr) << "a failed open must leave *out NULL";
      return nullptr;
    }
    if (s) owned_.push_back(s);
    return s;
  }
  void Close(xs_session* s) {
    for (auto& o : owned_) {
      if (o == s) o = nullptr;
    }
    xs_session_close(s);
  }

  // Appends a message; returns its id ("" on failure, recorded).
  static std::string Msg(xs_session* s, const std::string& json) {
    char id[XS_ID_BUFSIZE];
    std::memset(id, 'x', sizeof id);
    xs_status st = xs_append_message(s, json.data(), json.size(), id);
    EXPECT_EQ(st, XS_OK) << xs_session_errmsg(s);
    if (st != XS_OK) return std::string();
    EXPECT_NE(std::memchr(id, '\0', sizeof id), nullptr);
    return id;
  }
  static std::string Append(xs_session* s, const std::string& json) {
    char id[XS_ID_BUFSIZE] = {0};
    xs_status st = xs_append(s, json.data(), json.size(), id);
    EXPECT_EQ(st, XS_OK) << xs_session_errmsg(s);
    return st == XS_OK ? std::string(id) : std::string();
  }

  TempDir root_;
  xs_store* store_ = nullptr;
  std::vector<xs_session*> owned_;
};

}  // namespace xstest

// Asserts a call on session `s` returned `want`, printing the session's error text otherwise.
#define XS_EXPECT_S(want, s, call)                                                       \
  do {                                                                                   \
    xs_status xs_got_ = (call);                                                          \
    EXPECT_EQ(xs_got_, (want)) << #call << ": " << xs_status_str(xs_got_) << " / "       \
                               << xs_session_errmsg(s);                                  \
  } while (0)
#define XS_ASSERT_OK(s, call)                                                            \
  do {                                                                                   \
    xs_status xs_got_ = (call);                                                          \
    ASSERT_EQ(xs_got_, XS_OK) << #call << ": " << xs_status_str(xs_got_) << " / "        \
                              << xs_session_errmsg(s);                                   \
  } while (0)
