#include "blobs/size_rules.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "json/json_string.h"
#include "json/quoted_words.h"
#include "json/token_walker.h"

namespace xs::blobs {

namespace {

using json::Token;

constexpr std::string_view kNotice = "\\n\\n[Session persistence truncated large content]";  // as JSON
constexpr size_t kNoticeUnits = 47;

// Streaming leftovers omp drops before anything else looks at the entry.
bool is_transient_key(std::string_view k) { return k == "partialJson" || k == "jsonlEvents"; }

bool is_signature_key(std::string_view k) {
  return k == "thinkingSignature" || k == "thoughtSignature" || k == "textSignature";
}

// JavaScript's String.length of a UTF-8 string.
size_t utf16_units(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) n += (c >= 0xF0) ? 2 : 1;
  }
  return n;
}

// The raw token content (escapes intact) cut to at most `max_units` code units, never inside an
// escape or a UTF-8 sequence, and without a trailing high surrogate.
std::string_view cut_raw(std::string_view raw, size_t max_units) {
  size_t i = 0, units = 0;
  bool last_high = false;
  size_t before_last = 0;
  while (i < raw.size()) {
    size_t len, add = 1;
    bool high = false;
    unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == '\\') {
      len = raw[i + 1] == 'u' ? 6 : 2;
      if (len == 6) {
        char a = raw[i + 2], b = raw[i + 3];
        high = (a == 'd' || a == 'D') && (b == '8' || b == '9' || b == 'a' || b == 'A' || b == 'b' || b == 'B');
      }
    } else {
      len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (len == 4) add = 2;
    }
    if (units + add > max_units) break;
    before_last = i;
    last_high = high;
    units += add;
    i += len;
  }
  return raw.substr(0, last_high ? before_last : i);
}

// Node's Buffer.from(data, "base64") for well-formed input (padding optional); nullopt otherwise.
std::optional<std::string> base64_decode(std::string_view b64) {
  std::string in(b64);
  while (in.size() % 4) in.push_back('=');
  std::string out(in.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(in.data()), static_cast<int>(in.size()));
  if (n < 0) return std::nullopt;
  size_t pad = 0;
  while (pad < 2 && pad < in.size() && in[in.size() - 1 - pad] == '=') ++pad;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

std::string ref_token(const std::string& hash) { return "\"" + std::string(kRefPrefix) + hash + "\""; }

struct Edit {
  size_t start, end;
  std::string text;
};

struct Frame {
  bool object;
  std::string key;       // the key this container sits under ("" for the root)
  size_t edits_mark;     // edits made before this container began
  bool dropped = false;  // inside a member the rules remove: nothing in it goes to the blob store
  size_t kept = 0;       // members kept so far (objects)
  // The member being read (objects): its key, where it starts, the edits made before it.
  std::string member_key;
  size_t member_start = 0;
  size_t member_edits = 0;
  // Object members the rules look at:
  std::string type;
  bool data_is_string = false;
  size_t data_start = 0, data_end = 0;
  std::string data_text;
  bool content_is_string = false;
  size_t content_start = 0, content_end = 0;
  std::string content_text;
  bool line_count = false;
  size_t lc_start = 0, lc_end = 0;
};

class Rewriter {
 public:
  Rewriter(std::string_view text, BlobStore* blobs) : text_(text), blobs_(blobs) {}

  bool visit(const Token& t) {
    if (!status_.ok()) return false;
    switch (t.kind) {
      case Token::kKey: {
        Frame& obj = frames_.back();
        obj.member_key = std::string(t.text);
        obj.member_start = t.start;
        obj.member_edits = edits_.size();
        return true;
      }
      case Token::kStartObject:
      case Token::kStartArray: {
        bool dropped = !frames_.empty() && (frames_.back().dropped ||
                                            (frames_.back().object && is_transient_key(frames_.back().member_key)));
        frames_.push_back(Frame{t.kind == Token::kStartObject, context_key(), edits_.size()});
        frames_.back().dropped = dropped;
        return true;
      }
      case Token::kEndObject:
      case Token::kEndArray: {
        Frame f = std::move(frames_.back());
        frames_.pop_back();
        if (f.object) finish_object(f);
        value_done(t.start, t.end);
        return status_.ok();
      }
      case Token::kString:
        string_value(t);
        value_done(t.start, t.end);
        return status_.ok();
      default: value_done(t.start, t.end); return true;
    }
  }

  Status finish(SizeRulesOutcome* out) {
    XS_RETURN_IF_ERROR(status_);
    if (edits_.empty()) return Status::Ok();
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.start < b.start; });
    std::string s;
    size_t at = 0;
    for (const Edit& e : edits_) {
      if (e.start < at) continue;  // inside a region an earlier edit already replaced
      s.append(text_.substr(at, e.start - at)).append(e.text);
      at = e.end;
    }
    s.append(text_.substr(at));
    out->rewritten = std::move(s);
    return Status::Ok();
  }

 private:
  // The key that governs a value: its member key, or for an array element the array's key.
  std::string context_key() const {
    if (frames_.empty()) return std::string();
    return frames_.back().object ? frames_.back().member_key : frames_.back().key;
  }

  void string_value(const Token& t) {
    std::string key = context_key();
    Frame* obj = !frames_.empty() && frames_.back().object ? &frames_.back() : nullptr;
    if (obj && key == "type") obj->type = std::string(t.text);
    if (obj && key == "data") {
      obj->data_is_string = true;
      obj->data_start = t.start;
      obj->data_end = t.end;
      obj->data_text = std::string(t.text);
    }
    bool dropped = !frames_.empty() && frames_.back().dropped;
    if (key == "image_url" && !dropped && t.text.compare(0, 11, "data:image/") == 0 &&
        t.text.find(";base64,") != std::string_view::npos && blobs_) {
      std::string url;
      if (!json::decode_string_token(text_.substr(t.start, t.end - t.start), url)) url = std::string(t.text);
      std::string hash;
      status_ = blobs_->put(url, &hash);
      if (status_.ok()) edits_.push_back({t.start, t.end, ref_token(hash)});
      return;
    }
    std::string replaced;
    if (utf16_units(t.text) > kMaxPersistChars) {
      if (is_signature_key(key)) {
        replaced = "\"\"";
      } else {
        std::string_view raw = text_.substr(t.start + 1, t.end - t.start - 2);
        replaced = "\"" + std::string(cut_raw(raw, kMaxPersistChars - kNoticeUnits)) + std::string(kNotice) + "\"";
      }
      edits_.push_back({t.start, t.end, replaced});
    }
    if (obj && key == "content") {
      obj->content_is_string = true;
      obj->content_start = t.start;
      obj->content_end = t.end;
      obj->content_text = replaced.empty() ? std::string(t.text) : std::string();
      if (!replaced.empty()) json::decode_string_token(replaced, obj->content_text);
    }
  }

  void finish_object(Frame& f) {
    Frame* parent = frames_.empty() ? nullptr : &frames_.back();
    if (parent && !f.dropped && !parent->object && parent->key == "content" && f.type == "image" && f.data_is_string &&
        f.data_text.compare(0, kRefPrefix.size(), kRefPrefix) != 0 && f.data_text.size() >= kBlobExternalizeThreshold &&
        blobs_) {
      if (auto bytes = base64_decode(f.data_text)) {
        std::string hash;
        status_ = blobs_->put(*bytes, &hash);
        if (!status_.ok()) return;
        edits_.resize(f.edits_mark);  // a shallow copy: nothing else inside the block changes
        edits_.push_back({f.data_start, f.data_end, ref_token(hash)});
        return;
      }
    }
    if (edits_.size() > f.edits_mark && f.content_is_string && f.line_count) {
      size_t lines = 1 + static_cast<size_t>(std::count(f.content_text.begin(), f.content_text.end(), '\n'));
      edits_.push_back({f.lc_start, f.lc_end, std::to_string(lines)});
    }
  }

  // A value ended: remember lineCount numbers, drop transient members, count kept members.
  void value_done(size_t start, size_t end) {
    if (frames_.empty() || !frames_.back().object) return;
    Frame& obj = frames_.back();
    const std::string& key = obj.member_key;
    if (key == "lineCount" && text_[start] != '"' && text_[start] != '{' && text_[start] != '[' &&
        text_[start] != 't' && text_[start] != 'f' && text_[start] != 'n') {
      obj.line_count = true;
      obj.lc_start = start;
      obj.lc_end = end;
    }
    if (is_transient_key(key)) {
      edits_.resize(obj.member_edits);  // whatever was inside goes with it
      if (obj.kept > 0) {
        size_t comma = obj.member_start;
        while (comma > 0 && text_[comma - 1] != ',') --comma;
        edits_.push_back({comma - 1, end, std::string()});
      } else {
        size_t after = end;
        while (after < text_.size() &&
               (text_[after] == ' ' || text_[after] == '\n' || text_[after] == '\t' || text_[after] == '\r')) {
          ++after;
        }
        if (after < text_.size() && text_[after] == ',') end = after + 1;
        edits_.push_back({obj.member_start, end, std::string()});
      }
      return;
    }
    ++obj.kept;
  }

  std::string_view text_;
  BlobStore* blobs_;
  std::vector<Frame> frames_;
  std::vector<Edit> edits_;
  Status status_;
};

// The words the rules start from, each right after a '"': two keys that are dropped, the
// "image" of an image block's type or of an image_url key, and the start of a blob ref.
const json::QuotedWords& rule_words() {
  static const json::QuotedWords words({"partialJson", "jsonlEvents", "image", kRefPrefix});
  return words;
}
constexpr uint32_t kRuleWordBits = 0x7, kRefBit = 0x8;

}  // namespace

Result<SizeRulesOutcome> apply_size_rules(std::string_view line, BlobStore* blobs) {
  SizeRulesOutcome out;
  uint32_t found = rule_words().find(line);
  // Only a line longer than the limit can hold a string longer than it (a code unit takes at
  // least one byte of a token); the other rules need their words.
  if (line.size() <= kMaxPersistChars && (found & kRuleWordBits) == 0) {
    out.has_blob_ref = found & kRefBit;
    return out;
  }
  Rewriter r(line, blobs);
  XS_RETURN_IF_ERROR(json::walk_tokens(line, [&](const Token& t) { return r.visit(t); }));
  XS_RETURN_IF_ERROR(r.finish(&out));
  out.has_blob_ref = out.rewritten ? (rule_words().find(*out.rewritten) & kRefBit) != 0 : (found & kRefBit) != 0;
  return out;
}

}  // namespace xs::blobs
