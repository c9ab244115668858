// Fuzz target: the input is decoded into a sequence of C API calls on one session of an in-memory
// store (written at once: deferral off): appends of every kind, set_leaf to an entry, branch with
// summary, label, set_leaf to none, build_context, flush, set_title, and close + reopen (writable or read-only).
//
// Invariants, checked after every call (abort on violation):
//  - a call fails only with a status the input explains (EINVAL, ELIMIT, EEXISTS, ENOTFOUND);
//    never EIO, EPOISONED, EINTERNAL... on a healthy store;
//  - a failed append changes nothing (entries, leaf); a successful one returns a fresh id that
//    reads back as valid JSON and becomes the leaf; a successful set_leaf moves the leaf there;
//  - a context can always be built at the leaf and at every acknowledged entry;
//  - close + reopen: every acknowledged entry is still there, the entries are byte-identical, the
//    file loads without diagnostics, the leaf is the last entry in file order, and the context
//    there is the one built before the close.
//
// Input encoding: a stream of operations, each an opcode byte followed by its arguments (an
// index byte picks one of the acknowledged ids; a string is a length byte and that many bytes).
// A truncated operation ends the sequence; at most 64 operations run.
#include <cstdint>
#include <string>
#include <vector>

#include "capi_util.h"

using namespace xs_fuzz;

namespace {

class Input {
 public:
  Input(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  bool empty() const { return at_ >= n_; }
  uint8_t byte() { return at_ < n_ ? p_[at_++] : 0; }
  std::string str() {
    size_t len = byte();
    if (len > n_ - at_) len = n_ - at_;
    std::string s(reinterpret_cast<const char*>(p_ + at_), len);
    at_ += len;
    return s;
  }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t at_ = 0;
};

// Text as a JSON string literal (bytes copied; invalid UTF-8 stays invalid, for the API to refuse).
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

class Run {
 public:
  Run() {
    st_ = memory_store();
    xs_session_options_init(&o_, XS_SESSION_OPTIONS_VERSION);
    o_.flags = XS_SESSION_NO_DEFER | XS_SESSION_FIXED_CLOCK;
    o_.clock_start_ms = 1767225600000;
    o_.clock_step_ms = 1000;
    o_.id_seed = 11;
    FUZZ_CHECK(xs_session_create(st_, "/w", &o_, &s_) == XS_OK, xs_store_errmsg(st_));
    path_ = info_string(s_, "path");
    FUZZ_CHECK(!path_.empty(), "no path");
  }
  ~Run() {
    xs_session_close(s_);
    xs_store_free(st_);
  }

  const char* pick(uint8_t b) const { return acked_.empty() ? "nope" : acked_[b % acked_.size()].c_str(); }

  // Checks an append's outcome against the state before it.
  void appended(xs_status r, const char* id, const std::string& before, const std::string& leaf_before,
                const char* what) {
    if (r != XS_OK) {
      expected_failure(r, what);
      FUZZ_CHECK_EQ(entries(s_), before, std::string("a failed ") + what + " changed the entries");
      FUZZ_CHECK_EQ(leaf(s_), leaf_before, std::string("a failed ") + what + " moved the leaf");
      return;
    }
    std::string sid = id;
    FUZZ_CHECK(!sid.empty(), std::string(what) + " returned no id");
    for (const std::string& a : acked_) FUZZ_CHECK(a != sid, "an append returned an id already in use: " + sid);
    std::string entry;
    xs_status g = read_out([&](char* b, size_t c, size_t* l) { return xs_session_entry(s_, id, 0, b, c, l); }, &entry);
    FUZZ_CHECK(g == XS_OK && parses(entry), "the appended entry does not read back: " + entry);
    FUZZ_CHECK_EQ(leaf(s_), sid, std::string("the leaf is not the entry ") + what + " appended");
    acked_.push_back(sid);
  }

  void expected_failure(xs_status r, const char* what) {
    FUZZ_CHECK(r == XS_EINVAL || r == XS_ELIMIT || r == XS_EEXISTS || r == XS_ENOTFOUND || r == XS_EREADONLY ||
                   r == XS_EDIALECT,
               std::string(what) + " failed with " + xs_status_str(r) + ": " + xs_session_errmsg(s_));
    FUZZ_CHECK(r != XS_EREADONLY || read_only_, std::string(what) + ": EREADONLY on a writable session");
  }

  void reopen(bool read_only) {
    const std::string all = entries(s_);
    std::string ctx_last;
    if (!acked_.empty()) {
      FUZZ_CHECK(context(s_, acked_.back().c_str(), &ctx_last) == XS_OK, "no context at the last entry");
    }
    if (!read_only_) FUZZ_CHECK(xs_session_flush(s_) == XS_OK, xs_session_errmsg(s_));
    xs_session_close(s_);
    s_ = nullptr;
    o_.flags = XS_SESSION_FIXED_CLOCK | (read_only ? XS_SESSION_READ_ONLY : 0u);
    FUZZ_CHECK(xs_session_open(st_, path_.c_str(), &o_, &s_) == XS_OK, xs_store_errmsg(st_));
    read_only_ = read_only;
    FUZZ_CHECK_EQ(entries(s_), all, "entries changed across close + reopen");
    FUZZ_CHECK_EQ(diagnostics(s_), std::string("[]"), "a file written by the API loads with diagnostics");
    for (const std::string& id : acked_) {
      std::string e;
      xs_status g =
          read_out([&](char* b, size_t c, size_t* l) { return xs_session_entry(s_, id.c_str(), 0, b, c, l); }, &e);
      FUZZ_CHECK(g == XS_OK, "acknowledged entry " + id + " lost across close + reopen");
    }
    const std::string expect_leaf = acked_.empty() ? std::string() : acked_.back();
    FUZZ_CHECK_EQ(leaf(s_), expect_leaf, "the reopened leaf is not the last entry in file order");
    if (!acked_.empty()) {
      std::string ctx;
      FUZZ_CHECK(context(s_, nullptr, &ctx) == XS_OK, "no context after reopen");
      FUZZ_CHECK_EQ(ctx, ctx_last, "the context at the last entry changed across close + reopen");
    }
  }

  void step(Input& in) {
    const std::string before = entries(s_);
    const std::string leaf_before = leaf(s_);
    char id[XS_ID_BUFSIZE] = {0};
    uint8_t op = in.byte() % 16;
    switch (op) {
      case 0: {
        std::string m = "{\"role\":\"user\",\"content\":" + quote(in.str()) + "}";
        appended(xs_append_message(s_, m.data(), m.size(), id), id, before, leaf_before, "append_message(user)");
        break;
      }
      case 1: {
        std::string m = "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":" + quote(in.str()) +
                        "}],\"provider\":\"p\",\"model\":\"m\",\"usage\":{\"input\":3,\"output\":4}}";
        appended(xs_append_message(s_, m.data(), m.size(), id), id, before, leaf_before,
                 "append_message(assistant)");
        break;
      }
      case 2: {
        std::string e = in.str();
        appended(xs_append(s_, e.data(), e.size(), id), id, before, leaf_before, "xs_append");
        break;
      }
      case 3: {
        const char* target = pick(in.byte());
        xs_status r = xs_session_set_leaf(s_, target);
        if (acked_.empty()) {
          FUZZ_CHECK(r == XS_ENOTFOUND, "set_leaf to an unknown id did not fail with ENOTFOUND");
        } else {
          FUZZ_CHECK(r == XS_OK, std::string("set_leaf to an acknowledged entry failed: ") + xs_status_str(r));
          FUZZ_CHECK_EQ(leaf(s_), std::string(target), "set_leaf did not move the leaf");
        }
        break;
      }
      case 4: {
        uint8_t b = in.byte();
        const char* from = (b & 1) || acked_.empty() ? nullptr : pick(b >> 1);
        std::string summary = in.str();
        appended(xs_session_branch_with_summary(s_, from, summary.data(), summary.size(), nullptr, 0, XS_UNSET, id),
                 id, before, leaf_before, "branch_with_summary");
        break;
      }
      case 5: {
        uint8_t b = in.byte();
        const char* target = pick(b >> 1);
        std::string label = in.str();
        appended(xs_append_label(s_, target, (b & 1) ? nullptr : label.c_str(), id), id, before, leaf_before,
                 "append_label");
        break;
      }
      case 6:
        FUZZ_CHECK(xs_session_set_leaf(s_, nullptr) == XS_OK, "set_leaf(NULL) failed");
        FUZZ_CHECK_EQ(leaf(s_), std::string(), "set_leaf(NULL) left a leaf");
        break;
      case 7: {
        uint8_t b = in.byte();
        std::string ctx;
        const char* at = (b & 1) || acked_.empty() ? nullptr : pick(b >> 1);
        xs_status r = context(s_, at, &ctx);
        FUZZ_CHECK(r == XS_OK, std::string("build_context failed: ") + xs_status_str(r));
        FUZZ_CHECK(parses(ctx), "the context is not valid JSON: " + ctx);
        break;
      }
      case 8:
        if (!read_only_) FUZZ_CHECK(xs_session_flush(s_) == XS_OK, xs_session_errmsg(s_));
        break;
      case 9:
        reopen(false);
        break;
      case 10:
        reopen(true);
        break;
      case 11: {
        xs_compaction c;
        xs_compaction_init(&c, XS_COMPACTION_VERSION);
        std::string summary = in.str();
        c.summary = summary.data();
        c.summary_len = summary.size();
        c.first_kept_entry_id = pick(in.byte());
        c.tokens_before = in.byte() * 1000;
        appended(xs_append_compaction(s_, &c, id), id, before, leaf_before, "append_compaction");
        break;
      }
      case 12: {
        uint8_t b = in.byte();
        std::string v = in.str();
        if (b & 1) {
          appended(xs_append_model_change(s_, ("p/" + v).c_str(), (b & 2) ? "smol" : nullptr, id), id, before,
                   leaf_before, "append_model_change");
        } else {
          appended(xs_append_thinking_level(s_, (b & 2) ? nullptr : v.c_str(), id), id, before, leaf_before,
                   "append_thinking_level");
        }
        break;
      }
      case 13: {
        uint8_t b = in.byte();
        std::string t = in.str();
        xs_status r = xs_session_set_title(s_, (b & 1) ? nullptr : t.data(), t.size());
        if (r != XS_OK) {
          expected_failure(r, "set_title");
          FUZZ_CHECK_EQ(entries(s_), before, "a failed set_title changed the entries");
        }
        break;
      }
      case 14: {
        xs_custom_message m;
        xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION);
        std::string content = quote(in.str());
        m.custom_type = "fuzz";
        m.content_json = content.data();
        m.content_len = content.size();
        m.display = in.byte() & 1;
        appended(xs_append_custom_message(s_, &m, id), id, before, leaf_before, "append_custom_message");
        break;
      }
      default: {
        uint8_t b = in.byte();
        std::string v = in.str();
        if (b & 1) {
          std::string rules = "[" + quote(v) + "]";
          appended(xs_append_ttsr_injection(s_, rules.data(), rules.size(), id), id, before, leaf_before,
                   "append_ttsr_injection");
        } else {
          std::string data = "{\"plan\":" + quote(v) + "}";
          appended(xs_append_mode_change(s_, "plan", data.data(), data.size(), id), id, before, leaf_before,
                   "append_mode_change");
        }
        break;
      }
    }
    // After every call: a context at the leaf can always be built.
    std::string ctx;
    FUZZ_CHECK(context(s_, nullptr, &ctx) == XS_OK, "no context at the leaf");
  }

  void finish() {
    reopen(false);
  }

 private:
  xs_store* st_ = nullptr;
  xs_session* s_ = nullptr;
  xs_session_options o_;
  std::string path_;
  std::vector<std::string> acked_;  // acknowledged entry ids, in file order
  bool read_only_ = false;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  Run run;
  for (int n = 0; n < 64 && !in.empty(); ++n) run.step(in);
  run.finish();  // every sequence ends with a close + reopen check
  return 0;
}
