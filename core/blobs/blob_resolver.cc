#include "blobs/blob_resolver.h"

#include <openssl/evp.h>

#include <algorithm>

#include "json/json_string.h"
#include "json/token_walker.h"

namespace xs::blobs {

namespace {

using json::Token;

std::string base64_encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string_view ref_hash(std::string_view s) {
  if (s.size() != kRefPrefix.size() + 64 || s.compare(0, kRefPrefix.size(), kRefPrefix) != 0) return {};
  std::string_view h = s.substr(kRefPrefix.size());
  return is_blob_hash(h) ? h : std::string_view();
}

struct Frame {
  bool object;
  std::string key;  // the key this container sits under
  std::string member_key;
  std::string type;
  std::string data_hash;
  size_t data_start = 0, data_end = 0;
};

struct Edit {
  size_t start, end;
  std::string text;
};

}  // namespace

Result<std::string> resolve_blobs(std::string_view json, BlobStore& blobs, std::vector<BlobProblem>* problems) {
  std::vector<Frame> frames;
  std::vector<Edit> edits;
  auto fetch = [&](std::string_view hash, std::string* bytes) {
    Status st = blobs.get(hash, bytes);
    if (!st.ok() && problems) problems->push_back({std::string(hash), st});
    return st.ok();
  };
  auto context_key = [&]() -> std::string {
    if (frames.empty()) return std::string();
    return frames.back().object ? frames.back().member_key : frames.back().key;
  };
  Status st = json::walk_tokens(json, [&](const Token& t) {
    switch (t.kind) {
      case Token::kKey: frames.back().member_key = std::string(t.text); return true;
      case Token::kStartObject:
      case Token::kStartArray: frames.push_back(Frame{t.kind == Token::kStartObject, context_key()}); return true;
      case Token::kEndObject: {
        Frame f = std::move(frames.back());
        frames.pop_back();
        bool in_content = !frames.empty() && !frames.back().object && frames.back().key == "content";
        std::string bytes;
        if (in_content && f.type == "image" && !f.data_hash.empty() && fetch(f.data_hash, &bytes)) {
          edits.push_back({f.data_start, f.data_end, "\"" + base64_encode(bytes) + "\""});
        }
        return true;
      }
      case Token::kEndArray: frames.pop_back(); return true;
      case Token::kString: {
        std::string key = context_key();
        if (!frames.empty() && frames.back().object) {
          if (key == "type") frames.back().type = std::string(t.text);
          if (key == "data") {
            frames.back().data_hash = std::string(ref_hash(t.text));
            frames.back().data_start = t.start;
            frames.back().data_end = t.end;
          }
        }
        std::string_view hash = ref_hash(t.text);
        std::string bytes;
        if (key == "image_url" && !hash.empty() && fetch(hash, &bytes)) {
          // A data URL is text; a blob that is not UTF-8 cannot have been one (a hand-made ref),
          // and splicing it would make the line invalid JSON.
          if (!json::is_valid_utf8(bytes)) {
            if (problems) {
              problems->push_back({std::string(hash), Status::Corrupt("blob " + std::string(hash) +
                                                                      " is not the UTF-8 text of a data URL")});
            }
            return true;
          }
          std::string quoted;
          json::append_quoted(quoted, bytes);
          edits.push_back({t.start, t.end, quoted});
        }
        return true;
      }
      default: return true;
    }
  });
  XS_RETURN_IF_ERROR(st);
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.start < b.start; });
  std::string out;
  size_t at = 0;
  for (const Edit& e : edits) {
    out.append(json.substr(at, e.start - at)).append(e.text);
    at = e.end;
  }
  out.append(json.substr(at));
  return out;
}

}  // namespace xs::blobs
