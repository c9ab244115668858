// The golden session of the corruption sweep (docs/guarantees.md#t3): a multi-branch transcript of
// more than 64 KiB written through the engine on the in-memory seam with a fixed clock and id
// seed, so its bytes are the same on every run. It holds what the loader must get exactly right
// when a byte around it is damaged: three ~20 KB payloads, 2-, 3- and 4-byte UTF-8 (in the header
// too), escaped quotes, backslashes, control characters and \u0000, a label and its clearing, a
// second branch, a compaction, a branch summary, thinking-level, model and mode changes and a
// custom entry. Also here: where its lines are, and the comparisons of what the engine returns
// with those lines (in place, and with a readable report of the first difference).
#pragma once

#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "reliability_util.h"

namespace xs::test {

// One physical line of a file: [start, end), `end` being the offset of its '\n'.
struct LineSpan {
  size_t start, end;
};

// The lines of a file that ends with '\n' (the golden session does).
inline std::vector<LineSpan> line_spans(const std::string& s) {
  std::vector<LineSpan> out;
  size_t p = 0;
  while (p < s.size()) {
    size_t nl = s.find('\n', p);
    if (nl == std::string::npos) nl = s.size();
    out.push_back({p, nl});
    p = nl + 1;
  }
  return out;
}

// About `bytes` bytes of JSON string content (already escaped, as a caller would pass it): a
// tool's output with umlauts, a check mark, an emoji and every kind of escape, numbered so no two
// lines of the payload are alike.
inline std::string golden_payload(const std::string& tag, size_t bytes) {
  std::string out;
  for (int n = 0; out.size() < bytes; ++n) {
    out += tag + " Zeile " + std::to_string(n) + ": größer ✓ \\\"zitat\\\" C:\\\\pfad\\\\datei 😀 \\u0000 tab\\t"
           " \\u00e9t\\u00e9 end\\n";
  }
  return out;
}

// Builds the golden session at `path` on `fs` and returns its bytes.
inline std::string build_golden_session(std::shared_ptr<storage::Fs> fs, const std::string& path) {
  auto o = options(true, true);
  o.clock = format::Clock::Fixed(1767225600000, 1000);
  o.id_seed = 7;
  o.title = "Golden ✓ session — ünïcödé 😀";
  auto opened = session::Session::open(fs, path, o);
  EXPECT_TRUE(opened.ok()) << opened.status().message();
  if (!opened.ok()) return std::string();
  session::Session& s = **opened;
  auto ok = [](const Status& st) { EXPECT_TRUE(st.ok()) << st.message(); };
  std::string u1, a1, id, main_q, side;
  ok(s.append_message(user_message("héllo \\\"wörld\\\" \\u0000 end \\\\ C:\\\\tmp"), &u1));
  ok(s.append_message(assistant_message("réponse 😀 with \\\\ backslash and \\\"quotes\\\""), &a1));
  ok(s.append_model_change("anthropic/claude-ünï", std::string_view("default"), &id));
  ok(s.append_thinking_level(std::string_view("high"), &id));
  for (int i = 0; i < 12; ++i) {
    ok(s.append_message(user_message("question " + std::to_string(i) + " ✓"), &id));
    if (i == 3) main_q = id;
    ok(s.append_message(assistant_message("answer " + std::to_string(i) + " — ok"), &id));
  }
  ok(s.append_message(user_message(golden_payload("tool", 20000)), &id));
  ok(s.append_message(assistant_message(golden_payload("read", 18500)), &id));
  ok(s.append_label(a1, std::string_view("checkpoint ✓"), &id));
  ok(s.append_custom("ext-state", std::string_view("{\"k\":\"v\\\"ä\",\"n\":[1,2.50,-0]}"), &id));

  // A second branch from the first answer, compacted, with its own large payload.
  ok(s.set_leaf(a1));
  ok(s.append_message(user_message("other branch ö \\\\ \\\"x\\\""), &side));
  ok(s.append_thinking_level(std::string_view("low"), &id));
  ok(s.append_message(assistant_message(golden_payload("side", 18500)), &id));
  session::CompactionArgs c;
  c.summary = "summary of the branch: \"quoted\", back\\slash, tab\t, line\nbreak, ✓";
  c.first_kept_entry_id = side;
  c.tokens_before = 12345;
  ok(s.append_compaction(c, &id));
  ok(s.append_message(assistant_message("after compaction ✓"), &id));
  ok(s.append_mode_change("plan", std::string_view("{\"step\":1}"), &id));

  // A third branch from the main line, started with a branch summary.
  ok(s.branch_with_summary(main_q, "summary ✓ of the abandoned \"side\" branch", std::nullopt, std::nullopt, &id));
  for (int i = 0; i < 6; ++i) {
    ok(s.append_message(user_message("third branch " + std::to_string(i) + " 😀"), &id));
    ok(s.append_message(assistant_message("third answer " + std::to_string(i) + " é"), &id));
  }
  ok(s.append_model_change("openai/gpt-ö", std::nullopt, &id));
  ok(s.append_label(a1, std::nullopt, &id));  // clears the label
  ok(s.append_message(assistant_message("last ✓"), &id));
  ok(s.close());
  return get_file(*fs, path);
}

// The golden session's bytes and where its lines are.
struct Golden {
  std::string bytes;
  std::vector<LineSpan> lines;    // lines[0] is the header
  std::vector<uint32_t> line_at;  // the line holding each offset; lines.size() for the end of file

  size_t n() const { return lines.size(); }
  size_t start(size_t i) const { return i < n() ? lines[i].start : bytes.size(); }
  std::string_view line(size_t i) const {
    return std::string_view(bytes).substr(lines[i].start, lines[i].end - lines[i].start);
  }
};

// Built once per process.
inline const Golden& golden() {
  static const Golden g = [] {
    Golden out;
    out.bytes = build_golden_session(storage::make_memory_fs(), "/golden.jsonl");
    out.lines = line_spans(out.bytes);
    for (uint32_t i = 0; i < out.lines.size(); ++i) {
      for (size_t k = out.lines[i].start; k <= out.lines[i].end; ++k) out.line_at.push_back(i);
    }
    out.line_at.push_back(static_cast<uint32_t>(out.lines.size()));
    return out;
  }();
  return g;
}

// The entries_json() of golden lines 1..keep_before-1 and keep_from..n-1, then `extra`.
inline std::string expected_entries(const Golden& g, size_t keep_before, size_t keep_from,
                                    std::string_view extra = {}) {
  std::string out = "[";
  auto add = [&](std::string_view line) {
    if (out.size() > 1) out += ',';
    out += line;
  };
  for (size_t i = 1; i < keep_before; ++i) add(g.line(i));
  for (size_t i = keep_from; i < g.n(); ++i) add(g.line(i));
  if (!extra.empty()) add(extra);
  return out + ']';
}

// Whether `got` is "[" + the expected lines joined by ',' + "]", compared in place (the sweep
// compares some 20 GB; expected_entries() builds the string only to report a mismatch).
inline bool entries_match(std::string_view got, const Golden& g, size_t keep_before, size_t keep_from,
                          std::string_view extra = {}) {
  size_t p = 1;
  bool first = true;
  auto take = [&](std::string_view line) {
    if (!first && (p >= got.size() || got[p++] != ',')) return false;
    first = false;
    if (got.size() - p < line.size() || got.compare(p, line.size(), line) != 0) return false;
    p += line.size();
    return true;
  };
  if (got.empty() || got[0] != '[') return false;
  for (size_t i = 1; i < keep_before; ++i) {
    if (!take(g.line(i))) return false;
  }
  for (size_t i = keep_from; i < g.n(); ++i) {
    if (!take(g.line(i))) return false;
  }
  if (!extra.empty() && !take(extra)) return false;
  return p + 1 == got.size() && got[p] == ']';
}

// Whether `got` is the concatenation of `parts`.
inline bool concat_match(std::string_view got, std::initializer_list<std::string_view> parts) {
  size_t p = 0;
  for (std::string_view part : parts) {
    if (got.substr(p, part.size()) != part) return false;
    p += part.size();
  }
  return p == got.size();
}

// "" when equal, else where they first differ, with some bytes of each (escaped).
inline std::string first_difference(const std::string& what, std::string_view got, std::string_view want) {
  if (got == want) return std::string();
  size_t p = 0;
  while (p < got.size() && p < want.size() && got[p] == want[p]) ++p;
  auto around = [&](std::string_view s) {
    std::string out;
    for (size_t i = p > 40 ? p - 40 : 0; i < s.size() && i < p + 40; ++i) {
      unsigned char ch = static_cast<unsigned char>(s[i]);
      char buf[8];
      std::snprintf(buf, sizeof buf, ch < 0x20 || ch >= 0x7F ? "\\x%02x" : "%c", ch);
      out += buf;
    }
    return out;
  };
  return what + " differs at byte " + std::to_string(p) + " (sizes " + std::to_string(got.size()) + " vs " +
         std::to_string(want.size()) + "): got ..." + around(got) + "... want ..." + around(want) + "...";
}

}  // namespace xs::test
