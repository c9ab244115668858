#include "session/loader.h"

#include <cstring>

namespace xs::session {

namespace {

std::string_view str_or_empty(const json::Field& f, Arena& arena) {
  return f.is_string() ? arena.store(f.str) : std::string_view();
}

void report(SessionData* data, uint64_t line_no, uint64_t offset, uint64_t length, std::string code,
            std::string reason) {
  data->diagnostics.push_back({line_no + 1, offset, length, std::move(code), std::move(reason)});
}

}  // namespace

Entry entry_from_facts(const json::LineFacts& f, std::string_view line, Arena& arena) {
  Entry e;
  e.line = line;
  e.type = format::entry_type_from_name(f.type.str);
  e.id = str_or_empty(f.id, arena);
  e.has_parent_id = f.parent_id.is_string();
  e.parent_id = str_or_empty(f.parent_id, arena);
  e.timestamp = str_or_empty(f.timestamp, arena);
  if (e.type == format::EntryType::kMessage && f.message_kind == json::Kind::kObject) {
    e.role = str_or_empty(f.role, arena);
    e.provider = str_or_empty(f.provider, arena);
    e.model = str_or_empty(f.model, arena);
    e.message_offset = f.message_offset;
    e.message_length = f.message_length;
  }
  // Only these lines can carry refs the reader resolves; the flag spares every other line a parse.
  if (e.type == format::EntryType::kMessage || e.type == format::EntryType::kCustomMessage) {
    e.has_blob_ref = line.find("blob:sha256:") != std::string_view::npos;
  }
  if (e.type == format::EntryType::kLabel) {
    e.target_id = str_or_empty(f.target_id, arena);
    // JavaScript truthiness: "" and null clear the label. Non-string labels are not labels.
    e.label_set = f.label.is_string() && !f.label.str.empty();
    if (e.label_set) e.label = arena.store(f.label.str);
  }
  return e;
}

Status load_lines(std::string_view bytes_in, uint64_t base, const json::Limits& limits, SessionData* data) {
  std::string_view all = bytes_in;
  json::LineScanner scanner(limits);
  json::LineFacts facts;
  bool v1 = data->header_line == kNone || data->header.version < 2;
  size_t pos = 0;
  data->pending_tail = false;
  if (base == 0 && all.substr(0, kBom.size()) == kBom) {
    data->bom = true;
    pos = kBom.size();
  }
  while (pos < all.size()) {
    const char* nl = static_cast<const char*>(std::memchr(all.data() + pos, '\n', all.size() - pos));
    size_t end = nl ? static_cast<size_t>(nl - all.data()) : all.size();
    std::string_view bytes = all.substr(pos, end - pos);
    uint32_t line_no = static_cast<uint32_t>(data->lines.size());
    uint64_t offset = base + pos;
    Line line;
    line.bytes = bytes;
    line.offset = offset;
    json::LineVerdict verdict = scanner.scan(bytes, &facts);
    line.parsed = verdict == json::LineVerdict::kObject || scanner.parsed();
    bool torn = nl == nullptr;
    if (verdict == json::LineVerdict::kBlank) {
      line.kind = LineKind::kBlank;
    } else if (verdict == json::LineVerdict::kBad) {
      if (data->header_line == kNone && line.parsed) {
        return Status(Code::kNoHeader, "the first JSON value in the file is not a session header");
      }
      line.kind = LineKind::kBad;
      if (torn) {
        // Possibly a line still being written: a reload reads it again from its start.
        report(data, line_no, offset, bytes.size(), "incomplete_tail",
               "last line has no newline (an interrupted or unfinished write): " + scanner.reason());
        data->pending_tail = true;
      } else {
        report(data, line_no, offset, bytes.size(),
               std::string(data->header_line == kNone ? "before_header" : scanner.code()), scanner.reason());
      }
    } else if (data->header_line == kNone) {
      if (!facts.type.is_string() || facts.type.str != "session" || !facts.id.is_string()) {
        return Status(Code::kNoHeader, "the first JSON value in the file is not a session header");
      }
      auto header = format::parse_header(bytes);
      if (!header.ok()) return header.status();
      data->header = std::move(*header);
      data->header_line = line_no;
      line.kind = LineKind::kHeader;
      v1 = data->header.version < 2;
    } else if (facts.type.is_string() && facts.type.str == "session") {
      line.kind = LineKind::kIgnored;
      report(data, line_no, offset, bytes.size(), "extra_header", "a second session header; ignored");
    } else if (!facts.type.is_string()) {
      line.kind = LineKind::kBad;
      report(data, line_no, offset, bytes.size(), "no_type", "entry has no string \"type\"");
    } else if (!v1 && !facts.id.is_string()) {
      line.kind = LineKind::kBad;
      report(data, line_no, offset, bytes.size(), "no_id", "entry has no string \"id\"");
    } else {
      line.kind = LineKind::kEntry;
      line.entry = static_cast<uint32_t>(data->entries.size());
      Entry e = entry_from_facts(facts, bytes, data->arena);
      e.line_no = line_no;
      data->entries.push_back(e);
    }
    data->lines.push_back(line);
    data->ends_with_newline = !torn;
    pos = end + 1;
  }
  if (data->header_line == kNone) {
    return Status(Code::kNoHeader, all.empty() && base == 0 ? "the file is empty" : "no session header in the file");
  }
  return Status::Ok();
}

Status load_file(storage::PaddedBuffer image, const json::Limits& limits, SessionData* data) {
  data->buffers.push_back(std::move(image));
  return load_lines(data->buffers.back().view(), 0, limits, data);
}

}  // namespace xs::session
