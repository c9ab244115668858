#include "json/object_reader.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "json/document_edit.h"
#include "json/input_json.h"
#include "json/limits.h"

namespace xs::json {
namespace {

// A text with simdjson's padding after it, as a file read by the storage layer carries.
struct Padded {
  explicit Padded(std::string_view s) : bytes(std::string(s) + std::string(kPadding, '\0')), size(s.size()) {}
  std::string_view view() const { return std::string_view(bytes.data(), size); }
  std::string bytes;
  size_t size;
};

struct Read {
  Status status;
  Kind kind = Kind::kNull;
  std::vector<std::pair<std::string, std::string>> members;  // key token, minified value
  std::vector<Kind> kinds;
};

Read copied(Status st, Kind kind, const std::vector<Member>& members) {
  Read r{std::move(st), kind, {}, {}};
  for (const Member& m : members) {
    r.members.emplace_back(std::string(m.key), std::string(m.value));
    r.kinds.push_back(m.kind);
  }
  return r;
}

// What the full validation alone makes of `text`: InputJson's verdict, minify and split.
Read full_validation(std::string_view text, const Limits& limits = Limits{}) {
  Padded p(text);
  std::vector<char> out(text.size() + kPadding);
  size_t len = 0;
  Kind kind = Kind::kNull;
  InputJson input(limits);
  Status st = input.prepare_padded(p.view(), out.data(), &len, &kind);
  if (!st.ok() || kind != Kind::kObject) return copied(st, kind, {});
  std::memset(out.data() + len, 0, kPadding);
  auto split = split_minified_object(std::string_view(out.data(), len));
  if (!split.ok()) return copied(split.status(), kind, {});
  return copied(st, kind, *split);
}

Read read(std::string_view text, const Limits& limits = Limits{}) {
  Padded p(text);
  std::vector<char> out(text.size() + kPadding);
  std::vector<Member> members;
  Kind kind = Kind::kNull;
  Status st = read_object(p.view(), limits, out.data(), &members, &kind);
  return copied(st, kind, members);
}

// Whether the one walk vouches for `text`, and what it read when it does.
bool one_walk(std::string_view text, Read* r, const Limits& limits = Limits{}) {
  Padded p(text);
  std::vector<char> out(text.size() + kPadding);
  std::vector<Member> members;
  bool vouched = read_object_one_walk(p.view(), limits, out.data(), &members);
  *r = copied(Status::Ok(), Kind::kObject, members);
  return vouched;
}

void expect_same(const Read& a, const Read& b) {
  EXPECT_EQ(a.status.code(), b.status.code());
  EXPECT_EQ(a.status.message(), b.status.message());
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.members, b.members);
  EXPECT_EQ(a.kinds, b.kinds);
}

// A gateway's document as openclaw lays it out (JSON.stringify(doc, null, 2)), with every kind of
// value, escapes in keys and strings, nesting and empty containers.
const char kDocument[] = R"({
  "agent:main:main": {
    "sessionId": "a1",
    "updatedAt": 1767225600000,
    "cost": 0.4312,
    "big": -1.5e-7,
    "flag": true,
    "off": false,
    "gone": null,
    "messageCounts": {
      "user": 30,
      "assistant": [1, 2, {"x": []}]
    },
    "empty": {}
  },
  "k\u00e9y\"with\\escapes": {
    "sessionId": "tab \t and \u2603 \ud83d\ude00"
  },
  "agent:main:main": "a repeat, a string",
  "n": 12,
  "list": [],
  "t": true
}
)";

TEST(ReadObject, OneWalkReadsWhatTheFullValidationReads) {
  Read walked;
  ASSERT_TRUE(one_walk(kDocument, &walked));
  Read full = full_validation(kDocument);
  ASSERT_TRUE(full.status.ok()) << full.status.message();
  expect_same(walked, full);
  ASSERT_EQ(walked.members.size(), 6u);
  EXPECT_EQ(walked.members[0].first, "\"agent:main:main\"");
  EXPECT_EQ(walked.members[0].second,
            R"({"sessionId":"a1","updatedAt":1767225600000,"cost":0.4312,"big":-1.5e-7,"flag":true,"off":false,)"
            R"("gone":null,"messageCounts":{"user":30,"assistant":[1,2,{"x":[]}]},"empty":{}})");
  EXPECT_EQ(walked.members[1].first, R"("k\u00e9y\"with\\escapes")");
  EXPECT_EQ(walked.members[2].second, "\"a repeat, a string\"");
  EXPECT_EQ(walked.kinds, (std::vector<Kind>{Kind::kObject, Kind::kObject, Kind::kString, Kind::kNumber,
                                             Kind::kArray, Kind::kTrue}));
  expect_same(read(kDocument), full);
}

TEST(ReadObject, EmptyObjectAndMinifiedText) {
  Read walked;
  EXPECT_TRUE(one_walk(" {\n} \n", &walked));
  EXPECT_TRUE(walked.members.empty());
  ASSERT_TRUE(one_walk(R"({"a":{"b":[1,"2"]},"c":null})", &walked));
  EXPECT_EQ(walked.members, (std::vector<std::pair<std::string, std::string>>{{"\"a\"", R"({"b":[1,"2"]})"},
                                                                             {"\"c\"", "null"}}));
}

// What the walk does not vouch for, the full validation decides: lenient texts are read, bad ones
// get InputJson's own status and message.
TEST(ReadObject, LeftToTheFullValidation) {
  const char* texts[] = {
      R"({"a":"\ud800"})",       // a lone surrogate: JSON.parse takes it
      R"({"a":1e400})",          // beyond double: valid JSON text
      R"({"a":18446744073709551616})",
      R"({"a":1} {"b":2})",      // two roots
      R"({"a":1}x)",
      R"({"a":1,})",
      R"({"a" 1})",
      R"({"a":[1 2]})",
      R"({"a":tru})",
      R"({"a":nul})",
      R"({"a":01})",
      R"({"a":"\x"})",
      "{\"a\":\"\x01\"}",        // a control character in a string
      "{\"a\":\"\xff\"}",        // not UTF-8
      R"([1,2])",
      R"("a string")",
      "",
      "   ",
      R"({"a":{"b":1})",
  };
  std::vector<std::string> all(std::begin(texts), std::end(texts));
  all.push_back(std::string("{\"a\":1}\0", 8));  // a NUL byte after the root
  all.push_back(std::string("{\"a\":\0}", 7));   // and in place of a value
  for (const std::string& text : all) {
    SCOPED_TRACE(text);
    Read walked;
    EXPECT_FALSE(one_walk(text, &walked));
    expect_same(read(text), full_validation(text));
  }
  EXPECT_TRUE(read(R"({"a":"\ud800"})").status.ok());
  EXPECT_EQ(read(R"({"a":1e400})").members.at(0).second, "1e400");
  EXPECT_EQ(read(R"({"a":1,})").status.code(), Code::kInvalid);
  EXPECT_EQ(read(R"([1,2])").kind, Kind::kArray);
}

// Nesting: the walk leaves the last two levels before the limit to the full validation, which
// accepts up to the limit and refuses beyond it with kLimit.
TEST(ReadObject, DepthNearTheLimit) {
  Limits limits;
  limits.max_depth = 8;
  auto nested = [](int depth) {  // depth as json::Limits counts it: the root object is 1
    std::string s = "{\"a\":";
    for (int i = 2; i < depth; ++i) s += "[";
    s += "1";
    for (int i = 2; i < depth; ++i) s += "]";
    return s + "}";
  };
  Read walked;
  EXPECT_TRUE(one_walk(nested(6), &walked, limits));
  EXPECT_FALSE(one_walk(nested(7), &walked, limits));
  EXPECT_FALSE(one_walk(nested(8), &walked, limits));
  EXPECT_FALSE(one_walk(nested(9), &walked, limits));
  for (int d : {6, 7, 8, 9}) expect_same(read(nested(d), limits), full_validation(nested(d), limits));
  EXPECT_TRUE(read(nested(8), limits).status.ok());
  EXPECT_EQ(read(nested(9), limits).status.code(), Code::kLimit);
}

// The walk vouches only for texts the full validation accepts, and reads them the same: 20,000
// damaged copies of the document (a byte dropped, added, changed or a run repeated), each held to
// the full validation's verdict.
TEST(ReadObject, DamagedTextsNeverVouchedForWrongly) {
  std::mt19937 rng(20261127);
  const std::string base = kDocument;
  static const char kAlphabet[] = "{}[],:\"\\ \n0123456789-+.eEtrufalsn\x01\x7f\xc3\xa9\xff\0u";
  const std::string alphabet(kAlphabet, sizeof kAlphabet - 1);  // the NUL included
  int vouched = 0, refused = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = base;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      size_t at = rng() % text.size();
      char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 4) {
        case 0: text.erase(at, 1); break;
        case 1: text.insert(at, 1, c); break;
        case 2: text[at] = c; break;
        default: text.insert(at, text.substr(at, 1 + rng() % 12)); break;
      }
    }
    Read walked;
    Read full = full_validation(text);
    if (one_walk(text, &walked)) {
      ++vouched;
      ASSERT_TRUE(full.status.ok()) << "vouched for a text the validation refuses:\n" << text;
      ASSERT_EQ(full.kind, Kind::kObject) << text;
      ASSERT_EQ(walked.members, full.members) << text;
      ASSERT_EQ(walked.kinds, full.kinds) << text;
    } else if (!full.status.ok()) {
      ++refused;
    }
    Read both = read(text);
    ASSERT_EQ(both.status.message(), full.status.message()) << text;
    ASSERT_EQ(both.members, full.members) << text;
  }
  // Both sides were exercised: many copies stay valid (a changed digit, a repeated space), more do not.
  EXPECT_GT(vouched, 1000);
  EXPECT_GT(refused, 5000);
}

}  // namespace
}  // namespace xs::json
