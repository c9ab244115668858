// Fuzz target: arbitrary bytes as a session file (any version: v1/v2 files take the migration
// paths; a file without a header takes the preserve-and-start-fresh path).
//
// Through the engine (core/) over the in-memory file system, for each input:
//  1. the plain loader (load_file) on the bytes;
//  2. a read-only open and every read view (context at the leaf and at up to 8 entries, entries,
//     tree, labels, diagnostics, info, usage, verify, title);
//  3. a writable open (migration rewrite or headerless preservation), an append, close, and a
//     fresh read-only open plus a reload of the first reader.
// Invariants (abort on violation):
//  - a read-only open never changes the file, not even to migrate it (docs/decisions.md#migration);
//  - the writable open sees the same entries, leaf and context as the read-only open;
//  - an acknowledged append survives close + reopen, with the same entries and the same context at
//    the last entry, and the reopened leaf is that entry: the leaf is not stored, a reopen puts it
//    at the last entry in file order (docs/decisions.md#handles-and-the-leaf);
//  - a reader that reloads after the writer is done sees what the writer had;
//  - every line the first open skipped or ignored (invalid, torn, extra header...) is still in the
//    file, byte for byte, after the rewrite and the append, or in the preserved .corrupt copy:
//    nothing is destroyed silently (docs/guarantees.md#g6).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine_json.h"
#include "fuzz_check.h"
#include "format/clock.h"
#include "model/loader.h"
#include "session/session.h"
#include "storage/fs.h"

using xs::Code;
using xs::session::Session;
using xs::session::SessionOptions;

namespace {

constexpr const char* kDir = "/store/sessions/--w--";
constexpr const char* kPath = "/store/sessions/--w--/2026-01-01T00-00-00-000Z_fuzz.jsonl";

SessionOptions options(bool read_only) {
  SessionOptions o;
  o.read_only = read_only;
  o.defer_until_assistant = false;
  o.clock = xs::format::Clock::Fixed(1767225600000, 1000);
  o.id_seed = 7;
  o.cwd = "/w";
  return o;
}

std::string read_all(xs::storage::Fs& fs, const std::string& path) {
  xs::storage::PaddedBuffer b;
  xs::Status st = fs.read_file(path, 1ull << 30, &b);
  FUZZ_CHECK(st.ok(), path + ": " + st.message());
  return std::string(b.view());
}

// Every view a reader can ask for; returns the entry ids in file order (from the tree).
std::vector<std::string> exercise_reads(const Session& s) {
  auto ctx = s.context(std::nullopt);
  FUZZ_CHECK(ctx.ok(), "context at the leaf failed: " + ctx.status().message());
  (void)s.entries_json(false);
  (void)s.labels_json();
  (void)s.diagnostics_json();
  (void)s.info_json();
  (void)s.usage_json();
  (void)s.verify_json();
  (void)s.title();
  (void)s.first_user_text();
  std::vector<std::string> ids;
  for (auto& node : xs_fuzz::array_of_objects(s.tree_json(false))) {
    FUZZ_CHECK(node.count("id"), "tree node without id");
    ids.push_back(node["id"]);
  }
  FUZZ_CHECK(ids.size() == s.entry_count(), "tree size " + std::to_string(ids.size()) + " != entry count " +
                                                std::to_string(s.entry_count()));
  size_t n = 0;
  for (const std::string& id : ids) {
    if (++n > 8) break;
    if (id.find('\\') != std::string::npos) continue;  // an escaped id: the raw token, not the id
    auto c = s.context(std::string_view(id));
    FUZZ_CHECK(c.ok(), "context at entry " + id + " failed: " + c.status().message());
    (void)s.path_json(std::string_view(id));
    (void)s.children_json(id);
    (void)s.entry_json(id);
  }
  return ids;
}

struct Reported {
  std::string code;
  uint64_t offset, length;
};

std::vector<Reported> reported_lines(const Session& s) {
  std::vector<Reported> out;
  for (auto& d : xs_fuzz::array_of_objects(s.diagnostics_json())) {
    FUZZ_CHECK(d.count("code") && d.count("offset") && d.count("length"), "diagnostic without code/offset/length");
    out.push_back({d["code"], std::strtoull(d["offset"].c_str(), nullptr, 10),
                   std::strtoull(d["length"].c_str(), nullptr, 10)});
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);

  // 1. The loader alone.
  {
    xs::model::SessionData d;
    (void)xs::model::load_file(xs::storage::PaddedBuffer::Copy(bytes), xs::json::Limits(), &d);
  }

  auto fs = xs::storage::make_memory_fs();
  FUZZ_CHECK(fs->make_dirs(kDir).ok(), "");
  {
    auto f = fs->create_new(kPath);
    FUZZ_CHECK(f.ok(), "");
    FUZZ_CHECK((*f)->append(bytes).ok(), "");
    FUZZ_CHECK((*f)->close().ok(), "");
  }

  // 2. Read-only: every view; the file is left exactly as it was.
  auto ro = Session::open(fs, kPath, options(true));
  std::vector<Reported> reported;
  std::string ro_entries, ro_context, ro_leaf;
  if (ro.ok()) {
    exercise_reads(**ro);
    reported = reported_lines(**ro);
    ro_entries = (*ro)->entries_json(false);
    ro_context = (*ro)->context(std::nullopt).value();
    ro_leaf = std::string((*ro)->leaf_id().value_or("<none>"));
  } else {
    FUZZ_CHECK(ro.status().code() == Code::kNoHeader || ro.status().code() == Code::kLimit,
               "read-only open failed with an unexpected status: " + ro.status().message());
  }
  FUZZ_CHECK_EQ(read_all(*fs, kPath), bytes, "a read-only open changed the file");

  // 3. Writable: migration rewrite / headerless preservation, then one acknowledged append.
  auto w = Session::open(fs, kPath, options(false));
  if (!w.ok()) {
    FUZZ_CHECK(w.status().code() == Code::kLimit, "writable open failed: " + w.status().message());
    return 0;
  }
  Session& writer = **w;
  exercise_reads(writer);
  if (ro.ok()) {
    FUZZ_CHECK_EQ(writer.entries_json(false), ro_entries, "writable open sees other entries than read-only");
    FUZZ_CHECK_EQ(writer.context(std::nullopt).value(), ro_context, "writable open builds another context");
    FUZZ_CHECK_EQ(std::string(writer.leaf_id().value_or("<none>")), ro_leaf, "writable open has another leaf");
  }
  std::string new_id;
  const std::string msg = "{\"role\":\"user\",\"content\":\"appended by the fuzzer\"}";
  xs::Status ap = writer.append_message(msg, &new_id);
  FUZZ_CHECK(ap.ok() || ap.code() == Code::kLimit, "append after open failed: " + ap.message());
  const std::string w_entries = writer.entries_json(false);
  std::optional<std::string> w_last_context;
  if (ap.ok()) w_last_context = writer.context(std::string_view(new_id)).value();
  FUZZ_CHECK(writer.close().ok(), "close failed");
  w->reset();

  // 4. What the writer acknowledged is what a new reader loads.
  const std::string final_file = read_all(*fs, kPath);
  auto again = Session::open(fs, kPath, options(true));
  FUZZ_CHECK(again.ok(), "reopen after the writer failed: " + again.status().message());
  exercise_reads(**again);
  FUZZ_CHECK_EQ((*again)->entries_json(false), w_entries, "entries changed across close + reopen");
  if (ap.ok()) {
    FUZZ_CHECK_EQ(std::string((*again)->leaf_id().value_or("<none>")), new_id,
                  "reopened leaf is not the last appended entry");
    FUZZ_CHECK_EQ((*again)->context(std::nullopt).value(), *w_last_context,
                  "context at the last entry changed across close + reopen");
  }

  // 5. The first reader reloads and catches up with the writer.
  if (ro.ok()) {
    int64_t added = 0;
    xs::Status rl = (*ro)->reload(&added);
    FUZZ_CHECK(rl.ok(), "reload after the writer failed: " + rl.message());
    FUZZ_CHECK_EQ((*ro)->entries_json(false), w_entries, "a reloaded reader sees other entries than the writer");
  }

  // 6. Nothing the first open reported was destroyed.
  std::string preserved;
  if (!ro.ok()) {
    // Headerless: the original bytes must have been kept as <file>.corrupt-<time>.
    auto names = fs->list_dir(kDir);
    FUZZ_CHECK(names.ok(), "");
    bool found = false;
    for (const std::string& n : *names) {
      if (n.find(".corrupt-") == std::string::npos) continue;
      if (read_all(*fs, std::string(kDir) + "/" + n) == bytes) found = true;
    }
    FUZZ_CHECK(found || bytes.empty() || ro.status().code() != Code::kNoHeader,
               "a file without a header was replaced without keeping its bytes");
  }
  for (const Reported& r : reported) {
    // duplicate_id and parent_cycle name lines that are entries: a migration may rewrite those
    // (v2 hookMessage -> custom). Every other code names a line the loader skipped or ignored.
    if (r.length == 0 || r.code == "duplicate_id" || r.code == "parent_cycle") continue;
    FUZZ_CHECK(r.offset <= bytes.size() && r.length <= bytes.size() - r.offset,
               "diagnostic " + r.code + " points outside the file");
    std::string_view line(bytes.data() + r.offset, r.length);
    FUZZ_CHECK(final_file.find(line) != std::string::npos,
               "reported line (" + r.code + " at offset " + std::to_string(r.offset) +
                   ") is gone from the file after the writer: " + std::string(line.substr(0, 200)));
  }
  return 0;
}
