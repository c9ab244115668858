// Fuzz target: the blob resolver (blob refs in stored JSON replaced by the blobs' content), with
// blobs that are present, missing or damaged, through the engine over the in-memory file system.
//
// Input: byte 0 = flags (bit 0: damage blob 0 after storing it; bit 1: delete blob 1), byte 1 =
// number of blobs (0-3), then per blob a length byte and its bytes, then JSON text in which "@0".."@3"
// stand for "blob:sha256:<hash of blob N>" (so mutations reach real refs easily).
// Invariants (abort):
//  - validated JSON always resolves, and the result is valid JSON again;
//  - text without refs comes back byte for byte;
//  - a problem is reported only for a ref in the text, NotFound only for a blob not stored, and
//    Corrupt only for a damaged blob or an image_url blob that is not UTF-8 text;
//  - a present, intact blob referenced as an image block's data resolves to exactly its base64,
//    and as an image_url to exactly its text; a damaged or missing one leaves its ref in place and
//    is reported: a blob is absent or exactly right, never wrong bytes (docs/guarantees.md#g8).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "blobs/blob_refs.h"
#include "blobs/blob_resolver.h"
#include "blobs/blob_store.h"
#include "fuzz_check.h"
#include "json/input_json.h"
#include "json/json_string.h"
#include "storage/fs.h"

using xs::Code;
using xs::blobs::BlobProblem;
using xs::blobs::BlobStore;

namespace {

std::string base64(std::string_view in) {  // an independent oracle (RFC 4648, padded)
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += k[(v >> 6) & 63];
    out += k[v & 63];
  }
  if (i + 1 == in.size()) {
    uint32_t v = uint8_t(in[i]) << 16;
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == in.size()) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += k[v >> 18];
    out += k[(v >> 12) & 63];
    out += k[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

struct Blob {
  std::string bytes, hash;
  bool stored = false, damaged = false;
};

std::string ref(const std::string& hash) { return "blob:sha256:" + hash; }

void replace_file(xs::storage::Fs& fs, const std::string& path, std::string_view bytes) {
  (void)fs.unlink(path);
  auto f = fs.create_new(path);
  FUZZ_CHECK(f.ok(), "");
  FUZZ_CHECK((*f)->append(bytes).ok(), "");
  FUZZ_CHECK((*f)->close().ok(), "");
}

std::string resolve(std::string_view json, BlobStore& store, std::vector<BlobProblem>* problems) {
  auto r = xs::blobs::resolve_blobs(json, store, problems);
  FUZZ_CHECK(r.ok(), "resolve_blobs failed on validated JSON: " + r.status().message() + "\n" + std::string(json));
  return *r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t at = 0;
  auto byte = [&]() -> uint8_t { return at < size ? data[at++] : 0; };
  const uint8_t flags = byte();
  const size_t n = byte() % 4;

  auto fs = xs::storage::make_memory_fs();
  BlobStore store(fs, "/store");
  std::vector<Blob> blobs(4);
  for (size_t i = 0; i < 4; ++i) {
    if (i < n) {
      size_t len = byte();
      if (len > size - at) len = size - at;
      blobs[i].bytes.assign(reinterpret_cast<const char*>(data + at), len);
      at += len;
      std::string hash;
      xs::Status st = store.put(blobs[i].bytes, &hash);
      FUZZ_CHECK(st.ok(), "blob put failed: " + st.message());
      FUZZ_CHECK_EQ(hash, xs::blobs::sha256_hex(blobs[i].bytes), "put returned another hash");
      blobs[i].hash = hash;
      blobs[i].stored = true;
    } else {
      blobs[i].bytes = "never stored " + std::to_string(i);
      blobs[i].hash = xs::blobs::sha256_hex(blobs[i].bytes);
    }
  }
  // The store's state per hash (two blobs with the same content share one file).
  std::map<std::string, int> state;  // 0 intact, 1 damaged; absent = not stored
  for (const Blob& b : blobs) if (b.stored) state[b.hash] = 0;
  if ((flags & 1) && blobs[0].stored) {
    replace_file(*fs, store.path_of(blobs[0].hash), blobs[0].bytes + "!");
    state[blobs[0].hash] = 1;
  }
  if ((flags & 2) && blobs[1].stored) {
    (void)fs->unlink(store.path_of(blobs[1].hash));
    state.erase(blobs[1].hash);
  }
  for (Blob& b : blobs) {
    auto it = state.find(b.hash);
    b.stored = it != state.end();
    b.damaged = b.stored && it->second == 1;
  }
  // get: exactly right or an error.
  for (const Blob& b : blobs) {
    std::string got;
    xs::Status st = store.get(b.hash, &got);
    if (b.stored && !b.damaged) {
      FUZZ_CHECK(st.ok() && got == b.bytes, "an intact blob does not read back: " + st.message());
    } else if (b.damaged) {
      FUZZ_CHECK(st.code() == Code::kCorrupt, "a damaged blob is not reported corrupt: " + st.message());
    } else {
      FUZZ_CHECK(st.code() == Code::kNotFound, "a missing blob is not reported missing: " + st.message());
    }
  }

  // The text, with "@N" standing for blob N's ref.
  std::string text;
  for (size_t i = at; i < size; ++i) {
    char c = static_cast<char>(data[i]);
    if (c == '@' && i + 1 < size && data[i + 1] >= '0' && data[i + 1] <= '3') {
      text += ref(blobs[data[i + 1] - '0'].hash);
      ++i;
    } else {
      text += c;
    }
  }
  (void)xs::blobs::find_blob_refs(text);  // any text, valid JSON or not

  xs::json::InputJson input(xs::json::Limits{});
  std::string minified;
  xs::json::Kind kind;
  if (input.prepare(text, &minified, &kind).ok()) {
    std::vector<BlobProblem> problems;
    std::string out = resolve(minified, store, &problems);
    std::string again;
    xs::json::InputJson check(xs::json::internal_limits());
    xs::Status valid = check.prepare(out, &again, &kind);
    FUZZ_CHECK(valid.ok(), "resolved text is not valid JSON: " + valid.message() + "\n" + out);
    std::vector<std::string_view> refs = xs::blobs::find_blob_refs(minified);
    if (refs.empty()) FUZZ_CHECK_EQ(out, minified, "text without refs changed");
    for (const BlobProblem& p : problems) {
      bool in_text = false;
      for (std::string_view r : refs) in_text |= r == p.hash;
      FUZZ_CHECK(in_text, "a problem for a hash the text does not reference: " + p.hash);
      const Blob* b = nullptr;
      for (const Blob& x : blobs) if (x.hash == p.hash) b = &x;
      if (p.status.code() == Code::kNotFound) {
        FUZZ_CHECK(b == nullptr || !b->stored, "a stored blob reported missing: " + p.hash);
      } else {
        FUZZ_CHECK(p.status.code() == Code::kCorrupt, "unexpected problem: " + p.status.message());
        FUZZ_CHECK(b != nullptr && b->stored && (b->damaged || !xs::json::is_valid_utf8(b->bytes)),
                   "an intact blob reported corrupt: " + p.hash);
      }
    }
  }

  // Oracle round trips for every blob, present or not.
  for (const Blob& b : blobs) {
    const bool good = b.stored && !b.damaged;
    const std::string pre = "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"x\"},{\"type\":\"image\",\"data\":\"";
    const std::string post = "\",\"mimeType\":\"image/png\"}]}";
    std::vector<BlobProblem> problems;
    std::string out = resolve(pre + ref(b.hash) + post, store, &problems);
    if (good) {
      FUZZ_CHECK_EQ(out, pre + base64(b.bytes) + post, "an image block did not resolve to its blob's base64");
      FUZZ_CHECK(problems.empty(), "a problem reported for an intact blob");
    } else {
      FUZZ_CHECK_EQ(out, pre + ref(b.hash) + post, "a missing or damaged blob did not leave its ref in place");
      FUZZ_CHECK(problems.size() == 1 && problems[0].hash == b.hash &&
                     problems[0].status.code() == (b.damaged ? Code::kCorrupt : Code::kNotFound),
                 "a missing or damaged blob was not reported as such");
    }

    problems.clear();
    const std::string url = "{\"image_url\":\"" + ref(b.hash) + "\"}";
    out = resolve(url, store, &problems);
    if (good && xs::json::is_valid_utf8(b.bytes)) {
      simdjson::dom::parser parser;
      std::string_view got;
      FUZZ_CHECK(parser.parse(out)["image_url"].get(got) == simdjson::SUCCESS,
                 "a resolved image_url is not a JSON string: " + out);
      FUZZ_CHECK_EQ(std::string(got), b.bytes, "an image_url did not resolve to its blob's text");
      FUZZ_CHECK(problems.empty(), "a problem reported for an intact text blob");
    } else {
      FUZZ_CHECK_EQ(out, url, "an unusable image_url blob did not leave its ref in place");
      FUZZ_CHECK(problems.size() == 1 && problems[0].hash == b.hash, "an unusable image_url blob was not reported");
    }
  }
  return 0;
}
