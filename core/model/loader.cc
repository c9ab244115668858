#include "model/loader.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <thread>

#include "util/join_all.h"

namespace xs::model {

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
  if (e.type == format::EntryType::kLabel) {
    e.target_id = str_or_empty(f.target_id, arena);
    // JavaScript truthiness: "" and null clear the label. Non-string labels are not labels.
    e.label_set = f.label.is_string() && !f.label.str.empty();
    if (e.label_set) e.label = arena.store(f.label.str);
  }
  return e;
}

namespace {

// Files at least this large are scanned by several threads (the machine's cores, up to 8), each
// taking whole lines of its own share; the results join the session in file order.
constexpr size_t kParallelBytes = 8u << 20;
constexpr size_t kMinShare = 4u << 20;

size_t worker_count(uint64_t bytes) {
  return std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), bytes / kMinShare, 8});
}

// Runs work(i) for i in [0, n) on n threads (this one included); rethrows what a worker threw.
template <class F>
void on_threads(size_t n, F&& work) {
  std::vector<std::exception_ptr> failures(n);
  std::vector<std::thread> workers;
  {
    JoinAll join{workers};  // also when a start or this thread's share throws (out of memory)
    for (size_t i = 1; i < n; ++i) {
      workers.emplace_back([&, i] {
        try {
          work(i);
        } catch (...) {
          failures[i] = std::current_exception();  // out of memory, carried to the caller's thread
        }
      });
    }
    work(0);
  }
  for (std::exception_ptr& f : failures) {
    if (f) std::rethrow_exception(f);
  }
}

// Lines after the header, scanned on their own: indices inside are local to the run until merge.
struct Run {
  std::vector<Line> lines;        // Line::entry indexes entries
  std::vector<Entry> entries;     // Entry::line_no indexes lines
  std::vector<Diagnostic> diags;  // Diagnostic::line is the 0-based index in lines until merge
  std::unique_ptr<Arena> arena = std::make_unique<Arena>();
  bool pending_tail = false;
  bool ends_with_newline = true;
};

void scan_run(std::string_view all, size_t pos, size_t stop, uint64_t base, const json::Limits& limits, bool v1,
              Run* run) {
  // Room for lines of 256 bytes on average, so the vectors rarely grow (untouched room costs no
  // memory, only address space); shorter lines just make them grow.
  size_t guess = (stop - pos) / 256 + 16;
  run->lines.reserve(guess);
  run->entries.reserve(guess);
  json::LineScanner scanner(limits);
  json::LineFacts facts;
  while (pos < stop) {
    const char* nl = static_cast<const char*>(std::memchr(all.data() + pos, '\n', stop - pos));
    size_t end = nl ? static_cast<size_t>(nl - all.data()) : stop;
    std::string_view bytes = all.substr(pos, end - pos);
    uint64_t offset = base + pos;
    uint32_t local = static_cast<uint32_t>(run->lines.size());
    auto report = [&](const char* code, std::string reason) {
      run->diags.push_back({local, offset, bytes.size(), code, std::move(reason)});
    };
    Line line;
    line.bytes = bytes;
    line.offset = offset;
    json::LineVerdict verdict = scanner.scan(bytes, &facts);
    line.parsed = verdict == json::LineVerdict::kObject || scanner.parsed();
    bool torn = nl == nullptr;
    if (verdict == json::LineVerdict::kBlank) {
      line.kind = LineKind::kBlank;
    } else if (verdict == json::LineVerdict::kBad) {
      line.kind = LineKind::kBad;
      if (torn) {
        // Possibly a line still being written: a reload reads it again from its start.
        report("incomplete_tail", "last line has no newline (an interrupted or unfinished write): " + scanner.reason());
        run->pending_tail = true;
      } else {
        run->diags.push_back({local, offset, bytes.size(), std::string(scanner.code()), scanner.reason()});
      }
    } else if (facts.type.is_string() && facts.type.str == "session") {
      line.kind = LineKind::kIgnored;
      report("extra_header", "a second session header; ignored");
    } else if (!facts.type.is_string()) {
      line.kind = LineKind::kBad;
      report("no_type", "entry has no string \"type\"");
    } else if (!v1 && !facts.id.is_string()) {
      line.kind = LineKind::kBad;
      report("no_id", "entry has no string \"id\"");
    } else {
      line.kind = LineKind::kEntry;
      line.entry = static_cast<uint32_t>(run->entries.size());
      Entry e = entry_from_facts(facts, bytes, *run->arena);
      e.line_no = local;
      run->entries.push_back(e);
    }
    run->lines.push_back(line);
    run->ends_with_newline = !torn;
    pos = end + 1;
  }
}

void merge(Run& run, SessionData* data) {
  uint32_t line_base = static_cast<uint32_t>(data->lines.size());
  uint32_t entry_base = static_cast<uint32_t>(data->entries.size());
  for (Line& l : run.lines) {
    if (l.entry != kNone) l.entry += entry_base;
    data->lines.push_back(l);
  }
  for (Entry& e : run.entries) {
    e.line_no += line_base;
    data->entries.push_back(e);
  }
  for (Diagnostic& d : run.diags) {
    d.line += line_base + 1;
    data->diagnostics.push_back(std::move(d));
  }
  if (!run.lines.empty()) {
    data->pending_tail = run.pending_tail;
    data->ends_with_newline = run.ends_with_newline;
  }
  data->run_arenas.push_back(std::move(run.arena));
}

// The lines after the header, on as many threads as the size warrants.
void scan_after_header(std::string_view all, size_t pos, uint64_t base, const json::Limits& limits, bool v1,
                       SessionData* data) {
  size_t left = all.size() - pos;
  size_t threads = left >= kParallelBytes ? std::max<size_t>(1, worker_count(left)) : 1;
  std::vector<size_t> cuts{pos};
  for (size_t t = 1; t < threads; ++t) {
    size_t at = pos + left * t / threads;
    const char* nl = static_cast<const char*>(std::memchr(all.data() + at, '\n', all.size() - at));
    size_t cut = nl ? static_cast<size_t>(nl - all.data()) + 1 : all.size();
    if (cut > cuts.back()) cuts.push_back(cut);
  }
  cuts.push_back(all.size());
  // Not runs(n): libc++ before LLVM 16 leaks what vector(n) built when a constructor throws
  // (each Run allocates its arena).
  std::vector<Run> runs;
  runs.resize(cuts.size() - 1);
  on_threads(runs.size(), [&](size_t r) { scan_run(all, cuts[r], cuts[r + 1], base, limits, v1, &runs[r]); });
  size_t lines = data->lines.size(), entries = data->entries.size();
  for (const Run& r : runs) {
    lines += r.lines.size();
    entries += r.entries.size();
  }
  data->lines.reserve(lines);
  data->entries.reserve(entries);
  for (Run& r : runs) merge(r, data);
}

}  // namespace

namespace {

// Lines up to and including the header, one by one: the header's version decides how the rest is
// read. *pos ends after the header line. kNoHeader when the text ends first (`complete`: the text
// is the whole file) or its first JSON value is not a header.
Status load_through_header(std::string_view all, uint64_t base, const json::Limits& limits, SessionData* data,
                           size_t* pos) {
  json::LineScanner scanner(limits);
  json::LineFacts facts;
  while (*pos < all.size() && data->header_line == kNone) {
    const char* nl = static_cast<const char*>(std::memchr(all.data() + *pos, '\n', all.size() - *pos));
    size_t end = nl ? static_cast<size_t>(nl - all.data()) : all.size();
    std::string_view bytes = all.substr(*pos, end - *pos);
    uint32_t line_no = static_cast<uint32_t>(data->lines.size());
    Line line;
    line.bytes = bytes;
    line.offset = base + *pos;
    json::LineVerdict verdict = scanner.scan(bytes, &facts);
    line.parsed = verdict == json::LineVerdict::kObject || scanner.parsed();
    if (line.parsed && (verdict != json::LineVerdict::kObject || !facts.type.is_string() ||
                        facts.type.str != "session" || !facts.id.is_string())) {
      return Status(Code::kNoHeader, "the first JSON value in the file is not a session header");
    }
    if (verdict == json::LineVerdict::kBlank) {
      line.kind = LineKind::kBlank;
    } else if (verdict == json::LineVerdict::kBad) {
      line.kind = LineKind::kBad;
      report(data, line_no, line.offset, bytes.size(), nl ? "before_header" : "incomplete_tail", scanner.reason());
    } else {
      auto header = format::parse_header(bytes);
      if (!header.ok()) return header.status();
      data->header = std::move(*header);
      data->header_line = line_no;
      line.kind = LineKind::kHeader;
    }
    data->lines.push_back(line);
    data->ends_with_newline = nl != nullptr;
    *pos = end + 1;
  }
  if (data->header_line == kNone) {
    return Status(Code::kNoHeader, all.empty() ? "the file is empty" : "no session header in the file");
  }
  return Status::Ok();
}

}  // namespace

Status load_lines(std::string_view all, uint64_t base, const json::Limits& limits, SessionData* data) {
  size_t pos = 0;
  data->pending_tail = false;
  if (base == 0 && all.substr(0, kBom.size()) == kBom) {
    data->bom = true;
    pos = kBom.size();
  }
  if (data->header_line == kNone) XS_RETURN_IF_ERROR(load_through_header(all, base, limits, data, &pos));
  if (pos < all.size()) scan_after_header(all, pos, base, limits, data->header.version < 2, data);
  return Status::Ok();
}

Result<bool> load_file_parallel(storage::Fs& fs, const std::string& path, const json::Limits& limits, SessionData* data,
                                storage::FileInfo* read) {
  auto info = fs.stat(path);
  if (!info.ok() || !info->is_regular || info->size < kParallelBytes) return false;
  // The header, from a prefix that holds its whole line (it is almost always line 1).
  storage::PaddedBuffer head;
  storage::FileInfo head_info;
  uint64_t want = 64 * 1024;
  for (;;) {
    XS_RETURN_IF_ERROR(fs.read_range(path, 0, want, &head, &head_info));
    std::string_view v = head.view();
    if (std::memchr(v.data(), '\n', v.size()) || want >= limits.max_line_bytes || v.size() < want) break;
    want *= 4;
  }
  if (head_info.ino != info->ino || head_info.dev != info->dev) return false;
  std::string_view hv = head.view();
  size_t pos = hv.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  data->bom = pos > 0;
  // Complete lines of the prefix only: a header cut by the prefix's end is read the plain way.
  size_t last_nl = hv.rfind('\n');
  if (last_nl == std::string_view::npos) return false;
  if (!load_through_header(hv.substr(0, last_nl + 1), 0, limits, data, &pos).ok()) return false;
  data->buffers.push_back(std::move(head));
  bool v1 = data->header.version < 2;

  // The rest in shares, each read and scanned by its own thread. A share scans the lines that lie
  // wholly inside it; the lines that straddle two shares are scanned afterwards.
  uint64_t begin = pos, size = info->size;
  size_t n = std::max<size_t>(1, worker_count(size - begin));
  std::vector<uint64_t> at(n + 1);
  for (size_t i = 0; i <= n; ++i) at[i] = begin + (size - begin) * i / n;
  std::vector<storage::PaddedBuffer> bufs(n);
  std::vector<Run> runs;  // not runs(n): see above
  runs.resize(n);
  std::vector<size_t> first(n), stop(n);
  std::vector<char> bad(n, 0);
  on_threads(n, [&](size_t i) {
    storage::FileInfo fi;
    if (!fs.read_range(path, at[i], at[i + 1] - at[i], &bufs[i], &fi).ok() || fi.ino != info->ino ||
        fi.dev != info->dev || bufs[i].size() != at[i + 1] - at[i]) {
      bad[i] = 1;  // replaced or shortened meanwhile
      return;
    }
    std::string_view v = bufs[i].view();
    size_t f = 0;
    if (i > 0) {
      size_t nl = v.find('\n');
      f = nl == std::string_view::npos ? v.size() : nl + 1;
    }
    size_t e = v.size();
    if (i + 1 < n) {
      size_t nl = v.rfind('\n');
      e = nl == std::string_view::npos || nl + 1 < f ? f : nl + 1;
    }
    first[i] = f;
    stop[i] = e;
    scan_run(v, f, e, at[i], limits, v1, &runs[i]);
  });
  if (std::find(bad.begin(), bad.end(), 1) != bad.end()) return false;

  // Join in file order, scanning each straddling line on the way.
  size_t lines = data->lines.size(), entries = data->entries.size();
  for (const Run& r : runs) {
    lines += r.lines.size() + 1;
    entries += r.entries.size() + 1;
  }
  data->lines.reserve(lines);
  data->entries.reserve(entries);
  std::string piece;
  uint64_t piece_at = 0;
  auto flush_piece = [&]() {
    if (piece.empty()) return;
    std::string_view stored = data->arena.store(piece, json::kPadding);
    Run r;
    scan_run(stored, 0, stored.size(), piece_at, limits, v1, &r);
    merge(r, data);
    piece.clear();
  };
  for (size_t i = 0; i < n; ++i) {
    std::string_view v = bufs[i].view();
    if (i > 0) {
      // The previous share may have ended on a newline: then this piece starts with this share.
      if (piece.empty()) piece_at = at[i];
      piece.append(v.substr(0, first[i]));
    }
    if (!piece.empty() && piece.back() == '\n') flush_piece();
    merge(runs[i], data);
    if (stop[i] < v.size()) {
      if (piece.empty()) piece_at = at[i] + stop[i];
      piece.append(v.substr(stop[i]));
    }
    data->buffers.push_back(std::move(bufs[i]));
  }
  flush_piece();  // a last line without a newline
  *read = *info;
  return true;
}

Status load_file(storage::PaddedBuffer image, const json::Limits& limits, SessionData* data) {
  data->buffers.push_back(std::move(image));
  return load_lines(data->buffers.back().view(), 0, limits, data);
}

}  // namespace xs::model
