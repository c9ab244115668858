// One physical line of a session file -> the handful of facts the index needs.
//
// This is the loader's hot path (docs/architecture.md#the-loaders-hot-path). Each line is validated in full by
// simdjson's DOM parser (runtime-dispatched SIMD, UTF-8 checked), and only the fields the tree and
// the context need are pulled out: type, id, parentId, timestamp, the header's version, a
// label's target, a message's role/provider/model, and the byte span of the `message` value so
// a context can splice it without parsing it again. Lines simdjson refuses for reasons JSON.parse
// would not (lone surrogate escapes, huge numbers) are re-validated by the lenient RapidJSON
// member_scanner, so the verdict on every line is JSON.parse's, plus our limits and the
// UTF-8/NUL rules of docs/decisions.md#what-we-accept-on-read.
#pragma once

#include <simdjson.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "json/limits.h"
#include "json/member_scanner.h"

namespace xs::json {

// A scalar fact. `str` is the decoded string when kind == kString; `num` the value when kNumber.
// Both views stay valid until the next scan() on the same scanner.
struct Field {
  Kind kind = Kind::kAbsent;
  std::string_view str;
  double num = 0;

  bool is_string() const { return kind == Kind::kString; }
};

struct LineFacts {
  Field type, id, parent_id, timestamp, version;
  Field target_id, label;       // label entries
  Field role, provider, model;  // inside `message`
  Kind message_kind = Kind::kAbsent;
  uint32_t message_offset = 0;  // span of the `message` value within the line, when an object
  uint32_t message_length = 0;
};

enum class LineVerdict { kObject, kBlank, kBad };

class LineScanner {
 public:
  explicit LineScanner(Limits limits) : limits_(limits) {}

  // Scans one line (no trailing newline). At least kPadding readable bytes must follow
  // line.data() + line.size() in memory. On kBad, code() names the kind of damage and reason()
  // describes it; parsed() tells whether the line was still valid JSON (a non-object).
  LineVerdict scan(std::string_view line, LineFacts* facts);
  // Validates one JSON value of any kind (caller input) under the same rules and limits; an
  // object root's role/provider/model (a message's) are read into *facts. Padding as for scan().
  LineVerdict scan_value(std::string_view text, Kind* kind, LineFacts* facts);
  const std::string& reason() const { return reason_; }
  std::string_view code() const { return code_; }
  bool parsed() const { return parsed_; }

 private:
  enum Slot { kType, kId, kParentId, kTimestamp, kVersion, kTargetId, kLabel, kRole, kProvider, kModel, kSlots };

  enum class Parsed { kBlank, kBad, kDom, kLenient };
  // Limits, NUL check and the parse itself; kLenient leaves the root's members in members_.
  Parsed parse(std::string_view text, simdjson::dom::element* root);
  bool extract_dom(std::string_view line, simdjson::dom::element root, LineFacts* f);
  bool extract_lenient(std::string_view line, LineFacts* f);
  void message_facts_lenient(const std::vector<Member>& members, LineFacts* f);
  void message_span_from_members(std::string_view line, LineFacts* f);
  Field lenient_field(const Member* m, Slot slot);
  bool bad(std::string_view code, std::string reason);

  Limits limits_;
  simdjson::dom::parser parser_;
  bool parser_ready_ = false;
  std::vector<Member> members_;
  std::vector<Member> inner_;
  std::array<std::string, kSlots> scratch_;
  std::string reason_;
  std::string_view code_;
  bool parsed_ = false;
  bool lenient_object_ = false;
};

}  // namespace xs::json
