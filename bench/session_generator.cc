#include "session_generator.h"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "format/clock.h"
#include "json/json_string.h"

namespace xs::bench {

namespace {

const char* kWords[] = {
    "the",       "function", "returns", "error", "when",   "file",   "is",       "missing", "we",     "should",
    "refactor",  "this",     "module",  "test",  "passes", "now",    "let",      "me",      "check",  "config",
    "build",     "failed",   "because", "of",    "a",      "type",   "mismatch", "in",      "parser", "session",
    "index",     "lock",     "append",  "write", "read",   "buffer", "offset",   "line",    "JSON",   "header",
    "migration", "rename",   "fsync",   "naïve", "café",   "déjà",   "→",        "✓",       "I'll",   "look"};
const char* kCode[] = {"#include <stdio.h>",
                       "int main(int argc, char** argv) {",
                       "    if (argc < 2) { fprintf(stderr, \"usage: %s FILE\\n\", argv[0]); return 1; }",
                       "    std::string path = \"C:\\\\Users\\\\dev\\\\project\";",
                       "\tfor (size_t i = 0; i < n; ++i) sum += v[i];",
                       "def load(path):\n    with open(path) as f:\n        return json.load(f)",
                       "src/session/store.cpp:142:17: error: no member named 'append' in 'Index'"};

class Gen {
 public:
  explicit Gen(uint64_t seed) : rng_(seed) {}
  size_t range(size_t lo, size_t hi) { return lo + rng_() % (hi - lo + 1); }
  size_t log_uniform(size_t lo, size_t hi) {
    double u = std::uniform_real_distribution<double>(0, 1)(rng_);
    return static_cast<size_t>(std::exp(std::log(double(lo)) + u * (std::log(double(hi)) - std::log(double(lo)))));
  }
  std::string prose(size_t bytes) {
    std::string s;
    while (s.size() < bytes) {
      if (!s.empty()) s += ' ';
      s += kWords[rng_() % (sizeof kWords / sizeof *kWords)];
    }
    return s;
  }
  std::string code(size_t bytes) {
    std::string s;
    while (s.size() < bytes) {
      s += kCode[rng_() % (sizeof kCode / sizeof *kCode)];
      s += '\n';
    }
    return s;
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

std::string q(const std::string& s) {
  std::string out;
  json::append_quoted(out, s);
  return out;
}

std::string iso(uint64_t i) { return format::iso_from_ms(1772323200000 + static_cast<int64_t>(i)); }

std::string id_of(uint64_t i) {
  char b[16];
  std::snprintf(b, sizeof b, "%08llx", (unsigned long long)(i * 2654435761u & 0xffffffffu));
  return b;
}

std::string usage(Gen& g) {
  return "{\"input\":" + std::to_string(g.range(500, 90000)) + ",\"output\":" + std::to_string(g.range(20, 4000)) +
         ",\"cacheRead\":" + std::to_string(g.range(0, 80000)) +
         ",\"cacheWrite\":0,\"cost\":{\"input\":0.0123,"
         "\"output\":0.0045,\"cacheRead\":0.0011,\"cacheWrite\":0,\"total\":0.0179}}";
}

std::string assistant(Gen& g, size_t bytes, uint64_t i) {
  return "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":" + q(g.prose(bytes / 2)) +
         "},{\"type\":\"toolCall\",\"id\":\"call_" + std::to_string(i) +
         "\",\"name\":\"bash\",\"arguments\":{\"command\":" + q(g.code(bytes / 2)) +
         "}}],\"provider\":\"anthropic\",\"model\":\"claude-sonnet-4-5\",\"usage\":" + usage(g) +
         ",\"stopReason\":\"toolUse\",\"timestamp\":" + std::to_string(1772442000000 + i) + "}";
}

}  // namespace

std::string realistic_message(size_t bytes, uint64_t seed) {
  Gen g(seed);
  return assistant(g, bytes, seed);
}

std::string generate_session(size_t entries, uint64_t seed) {
  Gen g(seed);
  std::string out =
      "{\"type\":\"session\",\"version\":3,\"id\":\"bench00000000001\",\"timestamp\":\"2026-03-01T00:00:00.000Z\","
      "\"cwd\":\"/home/dev/project\"}\n";
  std::vector<std::string> ids;
  ids.reserve(entries);
  std::string parent;  // empty: null
  size_t compaction_at = entries * 2 / 3;
  for (size_t i = 0; i < entries; ++i) {
    std::string id = id_of(i + 1);
    std::string pid = parent.empty() ? "null" : q(parent);
    std::string head = "{\"type\":\"message\",\"id\":" + q(id) + ",\"parentId\":" + pid +
                       ",\"timestamp\":" + q(iso(i * 1000)) + ",\"message\":";
    std::string line;
    size_t kind = g.range(0, 99);
    if (i > 10 && i % 997 == 0) {
      // A branch: go back a little and leave a summary of the abandoned path.
      std::string from = ids[i - 5];
      line = "{\"type\":\"branch_summary\",\"id\":" + q(id) + ",\"parentId\":" + q(from) +
             ",\"timestamp\":" + q(iso(i * 1000)) + ",\"fromId\":" + q(from) + ",\"summary\":" + q(g.prose(400)) + "}";
    } else if (i == compaction_at) {
      line = "{\"type\":\"compaction\",\"id\":" + q(id) + ",\"parentId\":" + pid +
             ",\"timestamp\":" + q(iso(i * 1000)) + ",\"summary\":" + q(g.prose(2000)) +
             ",\"firstKeptEntryId\":" + q(ids[i >= 20 ? i - 20 : 0]) + ",\"tokensBefore\":123456}";
    } else if (kind < 15) {
      line = head +
             "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":" + q(g.prose(g.log_uniform(200, 4000))) +
             "}],\"timestamp\":" + std::to_string(1772442000000 + i) + "}}";
    } else if (kind < 55) {
      line = head + assistant(g, g.log_uniform(300, 3000), i) + "}";
    } else if (kind < 95) {
      size_t n = g.range(0, 99) < 8 ? g.range(15000, 25000) : g.log_uniform(100, 2000);
      line = head + "{\"role\":\"toolResult\",\"toolCallId\":\"call_" + std::to_string(i) +
             "\",\"toolName\":\"bash\",\"content\":[{\"type\":\"text\",\"text\":" + q(g.code(n)) +
             "}],\"isError\":false,\"timestamp\":" + std::to_string(1772442000000 + i) + "}}";
    } else {
      line = "{\"type\":\"thinking_level_change\",\"id\":" + q(id) + ",\"parentId\":" + pid +
             ",\"timestamp\":" + q(iso(i * 1000)) + ",\"thinkingLevel\":\"high\"}";
    }
    out += line;
    out += '\n';
    ids.push_back(id);
    parent = id;
  }
  return out;
}

void write_whole(const std::string& path, const std::string& bytes) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) abort();
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) abort();
    done += static_cast<size_t>(n);
  }
  close(fd);
}

const std::string& scratch_dir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/xs-bench-XXXXXX";
    if (!mkdtemp(tmpl)) abort();
    return std::string(tmpl);
  }();
  return dir;
}

std::string scratch_subdir(const std::string& prefix) {
  std::string tmpl = scratch_dir() + "/" + prefix + "-XXXXXX";
  if (!mkdtemp(&tmpl[0])) abort();
  return tmpl;
}

}  // namespace xs::bench
