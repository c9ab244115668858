#include "upkeep/quarantine.h"

#include <openssl/evp.h>

#include <unordered_map>

#include "json/json_string.h"
#include "json/line_scanner.h"

namespace xs::upkeep {

namespace {

bool is_not_json(std::string_view scanner_code) {
  return scanner_code == "invalid_json" || scanner_code == "invalid_utf8" || scanner_code == "nul_byte";
}

// Standard base64 with padding. Encoded a slice at a time: EVP_EncodeBlock takes an int length,
// and a torn tail is not bounded by the line limit.
void append_base64(std::string& out, std::string_view bytes) {
  constexpr size_t kSlice = 3 * 16384;  // a multiple of 3: no padding between slices
  for (size_t at = 0; at < bytes.size(); at += kSlice) {
    std::string_view slice = bytes.substr(at, kSlice);
    size_t start = out.size();
    out.resize(start + 4 * ((slice.size() + 2) / 3) + 1);
    int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(&out[start]),
                            reinterpret_cast<const unsigned char*>(slice.data()), static_cast<int>(slice.size()));
    out.resize(start + static_cast<size_t>(n));
  }
}

}  // namespace

std::vector<QuarantinedLine> lines_to_quarantine(const model::SessionData& data, bool ends_with_newline,
                                                 const json::Limits& limits) {
  std::vector<QuarantinedLine> moved;
  std::unordered_map<uint64_t, const model::Diagnostic*> reported;  // 1-based line -> the loader's report
  json::LineScanner scanner(limits);
  json::LineFacts facts;
  uint64_t offset = data.bom ? model::kBom.size() : 0;
  for (uint32_t i = 0; i < data.lines.size(); ++i) {
    const model::Line& l = data.lines[i];
    uint64_t at = offset;
    offset += l.bytes.size() + 1;
    if (l.kind != model::LineKind::kBad || l.parsed) continue;
    // Lines live in padded buffers or arenas: the scanner may read past their end.
    if (scanner.scan(l.bytes, &facts) != json::LineVerdict::kBad || !is_not_json(scanner.code())) continue;
    if (reported.empty()) {
      for (const model::Diagnostic& d : data.diagnostics) reported.emplace(d.line, &d);
    }
    QuarantinedLine q;
    q.index = i;
    q.offset = at;
    q.newline = i + 1 < data.lines.size() || ends_with_newline;
    auto it = reported.find(i + 1u);
    q.code = it != reported.end() ? it->second->code : std::string(scanner.code());
    q.reason = it != reported.end() ? it->second->reason : scanner.reason();
    moved.push_back(std::move(q));
  }
  return moved;
}

std::string quarantine_record(const QuarantinedLine& q, std::string_view bytes) {
  std::string out = "{\"line\":" + std::to_string(q.index + 1u) + ",\"offset\":" + std::to_string(q.offset) +
                    ",\"length\":" + std::to_string(bytes.size()) + ",\"code\":";
  json::append_quoted(out, q.code);
  out += ",\"reason\":";
  json::append_quoted_lossy(out, q.reason);
  out += q.newline ? ",\"newline\":true" : ",\"newline\":false";
  if (json::is_valid_utf8(bytes)) {
    out += ",\"text\":";
    json::append_quoted(out, bytes);
  } else {
    out += ",\"base64\":\"";
    append_base64(out, bytes);
    out += '"';
  }
  out += "}\n";
  return out;
}

}  // namespace xs::upkeep
