#include "storage/gzip.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <new>

namespace xs::storage {

namespace {

// Deflate never expands more than this (zlib's technical notes: 1032:1 at best), so a reader
// sizes nothing beyond it whatever a file's trailer claims.
constexpr uint64_t kMaxRatio = 1032;
constexpr size_t kWindow = 256 << 10;  // inflated bytes handed to a sink at a time

struct Inflater {
  z_stream z{};
  bool live = false;
  ~Inflater() {
    if (live) inflateEnd(&z);
  }
};

struct Deflater {
  z_stream z{};
  bool live = false;
  ~Deflater() {
    if (live) deflateEnd(&z);
  }
};

Status zlib_failure(int rc, const char* what) {
  if (rc == Z_MEM_ERROR) throw std::bad_alloc();
  return Status::Internal(std::string("zlib ") + what + " failed (" + std::to_string(rc) + ")");
}

bool starts_member(std::string_view rest) {
  return rest.size() >= 2 && static_cast<unsigned char>(rest[0]) == 0x1f && static_cast<unsigned char>(rest[1]) == 0x8b;
}

// Grows a PaddedBuffer by doubling, within a cap, for a sink that keeps everything.
class GrowingBuffer {
 public:
  GrowingBuffer(uint64_t first, uint64_t cap) : cap_(cap), buf_(static_cast<size_t>(std::min(first, cap))) {}
  void add(std::string_view chunk) {
    if (used_ + chunk.size() > buf_.size()) {
      uint64_t want = std::max<uint64_t>(used_ + chunk.size(), std::min<uint64_t>(buf_.size() * 2 + kWindow, cap_));
      PaddedBuffer bigger(static_cast<size_t>(want));
      if (used_) std::memcpy(bigger.data(), buf_.data(), used_);
      buf_ = std::move(bigger);
    }
    std::memcpy(buf_.data() + used_, chunk.data(), chunk.size());
    used_ += chunk.size();
  }
  PaddedBuffer take() {
    buf_.truncate(used_);
    return std::move(buf_);
  }

 private:
  uint64_t cap_;
  PaddedBuffer buf_;
  size_t used_ = 0;
};

// What the trailer of the last member says the content's length is (mod 2^32): a first guess for
// the buffer, never trusted beyond the bounds.
uint64_t size_hint(std::string_view gz, uint64_t max_out) {
  uint64_t bound = std::min<uint64_t>(max_out, gz.size() * kMaxRatio + 64);
  if (gz.size() < 18) return std::min<uint64_t>(bound, kWindow);
  const unsigned char* t = reinterpret_cast<const unsigned char*>(gz.data() + gz.size() - 4);
  uint64_t isize = t[0] | (t[1] << 8) | (t[2] << 16) | (static_cast<uint64_t>(t[3]) << 24);
  return std::min(std::max<uint64_t>(isize, 1), bound);
}

}  // namespace

Result<PaddedBuffer> gzip_compress(std::string_view data, int level) {
  if (level < 0 || level > 9) return Status::Invalid("a gzip level is 0-9");
  Deflater d;
  int rc = deflateInit2(&d.z, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  if (rc != Z_OK) return zlib_failure(rc, "deflateInit2");
  d.live = true;
  // deflateBound takes a uLong: exact on LP64, where a session's size fits.
  PaddedBuffer out(static_cast<size_t>(deflateBound(&d.z, static_cast<uLong>(data.size()))) + 64);
  size_t in_pos = 0, out_pos = 0;
  for (;;) {
    size_t in_now = std::min<size_t>(data.size() - in_pos, UINT_MAX);
    size_t out_now = std::min<size_t>(out.size() - out_pos, UINT_MAX);
    d.z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + in_pos));
    d.z.avail_in = static_cast<uInt>(in_now);
    d.z.next_out = reinterpret_cast<Bytef*>(out.data() + out_pos);
    d.z.avail_out = static_cast<uInt>(out_now);
    bool last = in_pos + in_now == data.size();
    rc = deflate(&d.z, last ? Z_FINISH : Z_NO_FLUSH);
    in_pos += in_now - d.z.avail_in;
    out_pos += out_now - d.z.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) return zlib_failure(rc, "deflate");
    if (out_pos == out.size()) return Status::Internal("deflate wrote past its own bound");
  }
  out.truncate(out_pos);
  return out;
}

Status gunzip_to(std::string_view gz, uint64_t max_out, const InflateSink& sink, bool* stopped) {
  if (stopped) *stopped = false;
  if (!starts_member(gz)) return Status::Corrupt("not gzip data (no gzip magic bytes)");
  Inflater inf;
  int rc = inflateInit2(&inf.z, 16 + MAX_WBITS);  // gzip only, not zlib or raw deflate
  if (rc != Z_OK) return zlib_failure(rc, "inflateInit2");
  inf.live = true;
  z_stream& z = inf.z;
  std::unique_ptr<char[]> window(new char[kWindow]);
  size_t in_pos = 0;
  uint64_t produced = 0;
  for (;;) {
    size_t in_now = std::min<size_t>(gz.size() - in_pos, UINT_MAX);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data() + in_pos));
    z.avail_in = static_cast<uInt>(in_now);
    z.next_out = reinterpret_cast<Bytef*>(window.get());
    z.avail_out = static_cast<uInt>(kWindow);
    rc = inflate(&z, Z_NO_FLUSH);
    in_pos += in_now - z.avail_in;
    size_t got = kWindow - z.avail_out;
    if (rc == Z_DATA_ERROR) {
      return Status::Corrupt(std::string("damaged gzip data: ") + (z.msg ? z.msg : "invalid") + " (at byte " +
                             std::to_string(in_pos) + ")");
    }
    if (rc == Z_NEED_DICT) return Status::Corrupt("damaged gzip data: a preset dictionary is asked for");
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    if (got) {
      if (produced + got > max_out) {
        return Status::Corrupt("gzip data inflates past " + std::to_string(max_out) +
                               " bytes, the limit for an archived session (docs/retention.md#limits)");
      }
      produced += got;
      if (!sink(std::string_view(window.get(), got))) {
        if (stopped) *stopped = true;
        return Status::Ok();
      }
    }
    if (rc == Z_STREAM_END) {
      std::string_view rest = gz.substr(in_pos);
      if (rest.empty()) return Status::Ok();
      if (!starts_member(rest)) {
        return Status::Corrupt(std::to_string(rest.size()) + " bytes after the end of the gzip data are not gzip");
      }
      rc = inflateReset(&z);
      if (rc != Z_OK) return zlib_failure(rc, "inflateReset");
      continue;
    }
    // No progress possible: the input ended before the stream did.
    if (rc == Z_BUF_ERROR && in_pos == gz.size()) return Status::Corrupt("gzip data cut short (no end of stream)");
    if (rc != Z_OK && rc != Z_BUF_ERROR) return zlib_failure(rc, "inflate");
  }
}

Status gunzip(std::string_view gz, uint64_t max_out, PaddedBuffer* out) {
  GrowingBuffer buf(size_hint(gz, max_out), std::min<uint64_t>(max_out, gz.size() * kMaxRatio + 64));
  XS_RETURN_IF_ERROR(gunzip_to(gz, max_out, [&](std::string_view chunk) {
    buf.add(chunk);
    return true;
  }));
  *out = buf.take();
  return Status::Ok();
}

Status gunzip_prefix(std::string_view gz, uint64_t max_out, PaddedBuffer* out, bool* whole) {
  GrowingBuffer buf(std::min<uint64_t>(size_hint(gz, max_out), kWindow), max_out);
  uint64_t kept = 0;
  bool more = false;
  XS_RETURN_IF_ERROR(gunzip_to(gz, UINT64_MAX, [&](std::string_view chunk) {
    if (kept + chunk.size() > max_out) {
      buf.add(chunk.substr(0, static_cast<size_t>(max_out - kept)));
      more = true;
      return false;
    }
    buf.add(chunk);
    kept += chunk.size();
    return true;
  }));
  *whole = !more;
  *out = buf.take();
  return Status::Ok();
}

Status gunzip_matches(std::string_view gz, std::string_view expected) {
  uint64_t at = 0;
  bool differs = false;
  // No limit is needed: the sink stops at the first byte past `expected`.
  XS_RETURN_IF_ERROR(gunzip_to(gz, UINT64_MAX, [&](std::string_view chunk) {
    if (expected.compare(at, chunk.size(), chunk) != 0) {
      differs = true;
      return false;
    }
    at += chunk.size();
    return true;
  }));
  if (differs)
    return Status::Corrupt("the archive inflates to other bytes than the session (near byte " + std::to_string(at) +
                           ")");
  if (at != expected.size()) {
    return Status::Corrupt("the archive inflates to " + std::to_string(at) + " bytes, the session has " +
                           std::to_string(expected.size()));
  }
  return Status::Ok();
}

Status read_gzip_file(Fs& fs, const std::string& path, uint64_t max_out, PaddedBuffer* out, FileInfo* info) {
  PaddedBuffer gz;
  // Compressed data is never much larger than what it holds (stored blocks add 5 bytes per 64 KiB).
  XS_RETURN_IF_ERROR(fs.read_file(path, max_out + (max_out >> 10) + 1024, &gz, info));
  Status st = gunzip(gz.view(), max_out, out);
  if (!st.ok() && st.code() == Code::kCorrupt) return Status::Corrupt(path + ": " + st.message());
  return st;
}

}  // namespace xs::storage
