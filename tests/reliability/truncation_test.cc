// Guarantee G3 at every byte (reliability.md T3): a session cut at any offset loads without a
// crash, returns exactly the entries whose lines survived whole (never a damaged one), reports the
// cut line, and a writer appending afterwards produces an intact entry (the torn tail gets its
// newline first). A cut inside the header line leaves no header: read-only opens say so, a
// writable open keeps the bytes and starts afresh.
#include <gtest/gtest.h>

#include "reliability_util.h"

namespace xs::test {
namespace {

using session::Session;

// A multi-branch session with escapes, multi-byte UTF-8, a label and a compaction.
std::string golden_session(std::shared_ptr<storage::Fs> fs) {
  auto o = options(true, true);
  o.clock = format::Clock::Fixed(1767225600000, 1000);
  o.id_seed = 7;
  auto s = Session::open(fs, "/golden.jsonl", o);
  EXPECT_TRUE(s.ok());
  Session& x = **s;
  std::string u1, a1, id;
  x.append_message(user_message("héllo \\\"wörld\\\" \\u0000 end"), &u1);
  x.append_message(assistant_message("réponse 😀 with \\\\ backslash"), &a1);
  for (int i = 0; i < 12; ++i) {
    x.append_message(user_message("question " + std::to_string(i) + " ✓"), &id);
    x.append_message(assistant_message("answer " + std::to_string(i) + std::string(40, 'z')), &id);
  }
  x.append_label(a1, std::string_view("checkpoint"), &id);
  x.branch(a1);
  x.append_message(user_message("other branch"), &id);
  x.append_thinking_level(std::string_view("high"), &id);
  session::CompactionArgs c;
  c.summary = "summary of the branch";
  c.first_kept_entry_id = id;
  c.tokens_before = 1234;
  x.append_compaction(c, &id);
  x.append_message(assistant_message("after compaction"), &id);
  EXPECT_TRUE(x.close().ok());
  storage::PaddedBuffer b;
  EXPECT_TRUE(fs->read_file("/golden.jsonl", UINT64_MAX, &b).ok());
  return std::string(b.view());
}

struct Line {
  size_t start, end;  // [start, end) without the newline
};

std::vector<Line> lines_of(const std::string& s) {
  std::vector<Line> out;
  size_t p = 0;
  while (p < s.size()) {
    size_t nl = s.find('\n', p);
    out.push_back({p, nl});
    p = nl + 1;
  }
  return out;
}

TEST(Truncation, EveryOffsetOfASession) {
  auto fs = storage::make_memory_fs();
  const std::string golden = golden_session(fs);
  const std::vector<Line> lines = lines_of(golden);
  ASSERT_GT(golden.size(), 4000u);
  size_t cases = 0;
  for (size_t k = 0; k <= golden.size(); ++k) {
    SCOPED_TRACE("cut at byte " + std::to_string(k));
    std::string prefix = golden.substr(0, k);
    auto cut = storage::make_memory_fs();
    {
      auto f = cut->create_new("/s.jsonl");
      ASSERT_TRUE(f.ok());
      ASSERT_TRUE((*f)->append(prefix).ok());
    }
    auto s = Session::open(cut, "/s.jsonl", read_only());
    if (k < lines[0].end) {
      EXPECT_EQ(s.status().code(), Code::kNoHeader);
    } else {
      ASSERT_TRUE(s.ok()) << s.status().message();
      // Exactly the entries whose lines are whole in the prefix, each byte for byte.
      std::string expected = "[";
      size_t whole = 0;
      for (size_t i = 1; i < lines.size() && lines[i].end <= k; ++i, ++whole) {
        if (whole) expected += ',';
        expected += golden.substr(lines[i].start, lines[i].end - lines[i].start);
      }
      expected += ']';
      EXPECT_EQ((*s)->entries_json(), expected);
      // A cut exactly at a line's end leaves a whole line (only its newline is missing), which
      // loads; a cut inside a line leaves one fragment, reported as an incomplete tail.
      bool at_line_end = golden[k - 1] == '\n' || (k < golden.size() && golden[k] == '\n');
      std::string diags = (*s)->diagnostics_json();
      if (at_line_end) {
        EXPECT_EQ(diags, "[]");
      } else {
        EXPECT_EQ(count_occurrences(diags, "\"code\":"), 1u) << diags;
        EXPECT_EQ(count_occurrences(diags, "\"incomplete_tail\""), 1u) << diags;
      }
    }
    // A writer appends after the cut: the new entry reads back intact, the whole lines too.
    auto w = Session::open(cut, "/s.jsonl", options(false, false));
    ASSERT_TRUE(w.ok()) << w.status().message();
    size_t before = (*w)->entry_count();
    std::string id;
    ASSERT_TRUE((*w)->append_message(user_message("after the cut"), &id).ok());
    ASSERT_TRUE((*w)->close().ok());
    auto r = Session::open(cut, "/s.jsonl", read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->entry_count(), before + 1);
    auto e = (*r)->entry_json(id);
    ASSERT_TRUE(e.ok());
    EXPECT_NE(e->find("after the cut"), std::string::npos);
    ++cases;
  }
  std::printf("truncation: %zu offsets of a %zu-byte session\n", cases, golden.size());
}

}  // namespace
}  // namespace xs::test
