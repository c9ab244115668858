// Replays every tests/conformance/cases/*.json through the C API (xsession.h only) and compares
// exact bytes. The case format is specified in tests/conformance/README.md; each binding has a
// runner of its own for the same files.
#include <dirent.h>
#include <gtest/gtest.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "archive_steps.h"
#include "bundle_steps.h"
#include "case_json.h"
#include "import_steps.h"
#include "keys_steps.h"
#include "library_steps.h"
#include "output_dump.h"
#include "reset_steps.h"
#include "search_steps.h"
#include "stats_steps.h"
#include "xsession.h"

namespace {

using namespace case_json;

std::vector<std::string> case_files() {
  std::vector<std::string> names;
  if (DIR* d = opendir(XS_CONFORMANCE_DIR)) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0) names.push_back(n);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

class CaseRunner {
 public:
  CaseRunner(const std::string& name, element doc) : name_(name), doc_(doc) {
    xs_store_options so;
    xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION);
    if (has(doc_, "store_dialect")) {
      if (dialect_named(view(doc_, "store_dialect")) == XS_DIALECT_PI) so.flags |= XS_STORE_DIALECT_PI;
    }
    if (has(doc_, "store_reset_policy")) {
      reset_policy_of(at(doc_, "store_reset_policy"), &policy_);
      so.reset_policy = &policy_;
    }
    stores_ = std::make_unique<CaseStores>(so);  // its storage: XS_CONFORMANCE_STORAGE (bundle_steps.h)
    use_store("main");
  }
  ~CaseRunner() {
    case_storage() = {};
    xs_session_close(session_);
    stores_.reset();
  }

  void run() {
    if (has(doc_, "input")) {
      std::string bytes;
      for (element l : array_of(at(doc_, "input"))) bytes.append(view(l)).push_back('\n');
      write_file(root_ + "/input.jsonl", bytes);
    } else if (has(doc_, "input_raw")) {
      write_file(root_ + "/input.jsonl", std::string(view(doc_, "input_raw")));
    } else if (has(doc_, "input_hex")) {
      write_file(root_ + "/input.jsonl", from_hex(std::string(view(doc_, "input_hex"))));
    }
    size_t i = 0;
    for (element step_json : array_of(at(doc_, "steps"))) {
      output_dump::begin_step(name_.substr(0, name_.size() - 5), i);  // the case file's name without ".json"
      SCOPED_TRACE(name_ + " step " + std::to_string(i++) + " (" + c_str(step_json, "op") + ")");
      step(step_json);
      if (::testing::Test::HasFailure()) return;
    }
  }

 private:
  // --- options -------------------------------------------------------------------------------
  // The case's options for a call that makes or opens a session; the step `s` may replace the
  // case's flags ("flags") and dialect ("dialect").
  xs_session_options options(element s) {
    xs_session_options o;
    xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
    std::optional<element> opts;
    if (has(doc_, "options")) opts = at(doc_, "options");
    if (opts && has(*opts, "clock_start_ms")) {
      o.flags |= XS_SESSION_FIXED_CLOCK;
      o.clock_start_ms = int64(*opts, "clock_start_ms");
      if (has(*opts, "clock_step_ms")) o.clock_step_ms = int64(*opts, "clock_step_ms");
    }
    if (opts && has(*opts, "id_seed")) o.id_seed = uint64(*opts, "id_seed");
    if (opts && has(*opts, "max_line_bytes")) o.max_line_bytes = uint64(*opts, "max_line_bytes");
    if (opts && has(*opts, "max_depth")) o.max_depth = static_cast<uint32_t>(uint64(*opts, "max_depth"));
    if (opts && has(*opts, "cwd")) o.cwd = c_str(*opts, "cwd");
    if (has(s, "key")) o.key = c_str(s, "key");  // a session bound to a key (stats_steps.h)
    if (has(s, "dialect")) {
      o.dialect = dialect_named(view(s, "dialect"));
    } else if (opts && has(*opts, "dialect")) {
      o.dialect = dialect_named(view(*opts, "dialect"));
    }
    std::optional<element> flags;
    if (has(s, "flags")) flags = at(s, "flags");
    if (!flags && opts && has(*opts, "flags")) flags = at(*opts, "flags");
    if (flags) {
      for (element f : array_of(*flags)) {
        std::string n(view(f));
        if (n == "read_only") o.flags |= XS_SESSION_READ_ONLY;
        else if (n == "create") o.flags |= XS_SESSION_CREATE;
        else if (n == "no_defer") o.flags |= XS_SESSION_NO_DEFER;
        else if (n == "sync") o.flags |= XS_SESSION_SYNC;
        else ADD_FAILURE() << "unknown flag " << n;
      }
    }
    return o;
  }

  // --- argument helpers (str, text_of, text: case_json.h) --------------------------------------
  static int32_t tri(element s, const char* key) {
    return has(s, key) ? (flag(s, key) ? 1 : 0) : XS_UNSET;
  }
  std::string session_path() {
    std::string info;
    auto call = [&](char* b, size_t c, size_t* n) { return xs_session_info(session_, b, c, n); };
    EXPECT_EQ(read_json("xs_session_info", call, &info), XS_OK);
    simdjson::dom::parser parser;
    return std::string(view(parse(parser, info), "path"));
  }

  // A session made by fork and friends becomes the current one.
  void adopt(xs_session* fresh) {
    xs_session_close(session_);
    session_ = fresh;
    path_ = session_path();
  }
  // The store `name` becomes the current one (a use_store step; "main" is the case's own).
  void use_store(const std::string& name) {
    xs_session_close(session_);
    session_ = nullptr;
    path_.clear();
    current_ = &stores_->get(name);
    store_ = current_->store;
    root_ = current_->root;
    case_storage() = current_->on_table ? CaseStorage{&current_->table, root_} : CaseStorage{};
  }
  std::string relative(const std::string& path) const {
    return path.compare(0, root_.size() + 1, root_ + "/") == 0 ? path.substr(root_.size() + 1) : path;
  }

  void open_path(const std::string& path, element s, xs_status expect) {
    xs_session_options o = options(s);
    if (has(s, "cwd")) o.cwd = c_str(s, "cwd");  // an open's own cwd replaces the case's
    xs_status rc = xs_session_open(store_, path.c_str(), &o, &session_);
    EXPECT_EQ(rc, expect) << xs_store_errmsg(store_);
    if (rc == XS_OK) path_ = path;
  }

  // `function` names the xs_* call whose JSON output `call` reads (output_dump.h).
  void check_text(element s, xs_status expect, const char* key, const char* function,
                  const std::function<xs_status(char*, size_t, size_t*)>& call) {
    std::string got;
    xs_status rc = read_json(function, call, &got);
    ASSERT_EQ(rc, expect) << xs_session_errmsg(session_);
    if (rc != XS_OK) return;
    EXPECT_EQ(got, text(s, key));
  }

  // --- one step ------------------------------------------------------------------------------
  void step(element s) {
    std::string op = c_str(s, "op");
    xs_status expect = XS_OK;
    if (has(s, "expect")) {
      auto it = status_names().find(c_str(s, "expect"));
      ASSERT_NE(it, status_names().end()) << "unknown status " << c_str(s, "expect");
      expect = it->second;
    }
    char id[XS_ID_BUFSIZE] = {0};
    std::optional<xs_status> appended;
    uint32_t rflags = flag(s, "resolve_blobs") ? XS_READ_RESOLVE_BLOBS : 0;
    auto rc_check = [&](xs_status rc) { EXPECT_EQ(rc, expect) << xs_session_errmsg(session_); };

    if ((op == "create" || op == "open") && session_) {
      xs_session_close(session_);  // one session at a time: a new one replaces the last
      session_ = nullptr;
    }
    if (op == "create") {
      xs_session_options o = options(s);
      o.session_id = str(s, "session_id");
      o.title = str(s, "title");
      o.parent_session = str(s, "parent_session");
      xs_status rc = xs_session_create(store_, c_str(s, "cwd"), &o, &session_);
      EXPECT_EQ(rc, expect) << xs_store_errmsg(store_);
      if (rc == XS_OK) path_ = session_path();
    } else if (op == "open") {
      std::string path = root_ + "/" + (has(s, "path") ? c_str(s, "path") : "input.jsonl");
      open_path(path, s, expect);
    } else if (op == "close") {
      xs_session_close(session_);
      session_ = nullptr;
    } else if (op == "reopen") {
      xs_session_close(session_);
      session_ = nullptr;
      open_path(path_, s, expect);
    } else if (op == "append") {
      std::string e = text(s, "entry");
      appended = xs_append(session_, e.data(), e.size(), id);
    } else if (op == "append_message") {
      std::string m = text(s, "message");
      appended = xs_append_message(session_, m.data(), m.size(), id);
    } else if (op == "append_thinking_level") {
      appended = xs_append_thinking_level(session_, at(s, "level").is_null() ? nullptr : c_str(s, "level"), id);
    } else if (op == "append_model_change") {
      appended = xs_append_model_change(session_, c_str(s, "model"), str(s, "role"), id);
    } else if (op == "append_compaction") {
      xs_compaction c;
      xs_compaction_init(&c, XS_COMPACTION_VERSION);
      std::string summary = text(s, "summary"), details, preserve, short_summary;
      c.summary = summary.data();
      c.summary_len = summary.size();
      if (has(s, "short_summary")) {
        short_summary = text(s, "short_summary");
        c.short_summary = short_summary.data();
        c.short_summary_len = short_summary.size();
      }
      c.first_kept_entry_id = c_str(s, "first_kept_entry_id");
      c.tokens_before = int64(s, "tokens_before");
      if (has(s, "details")) {
        details = text(s, "details");
        c.details_json = details.data();
        c.details_len = details.size();
      }
      c.from_extension = tri(s, "from_extension");
      if (has(s, "preserve_data")) {
        preserve = text(s, "preserve_data");
        c.preserve_data_json = preserve.data();
        c.preserve_data_len = preserve.size();
      }
      appended = xs_append_compaction(session_, &c, id);
    } else if (op == "append_custom") {
      std::string data = has(s, "data") ? text(s, "data") : std::string();
      appended = xs_append_custom(session_, c_str(s, "custom_type"), has(s, "data") ? data.data() : nullptr,
                                  data.size(), id);
    } else if (op == "append_custom_message") {
      xs_custom_message m;
      xs_custom_message_init(&m, XS_CUSTOM_MESSAGE_VERSION);
      std::string content = text(s, "content"), details;
      m.custom_type = c_str(s, "custom_type");
      m.content_json = content.data();
      m.content_len = content.size();
      if (has(s, "display")) m.display = flag(s, "display") ? 1 : 0;
      if (has(s, "details")) {
        details = text(s, "details");
        m.details_json = details.data();
        m.details_len = details.size();
      }
      m.attribution = str(s, "attribution");
      appended = xs_append_custom_message(session_, &m, id);
    } else if (op == "append_label") {
      appended = xs_append_label(session_, c_str(s, "target_id"), str(s, "label"), id);
    } else if (op == "append_ttsr_injection") {
      std::string rules = text(s, "rules");
      appended = xs_append_ttsr_injection(session_, rules.data(), rules.size(), id);
    } else if (op == "append_session_init") {
      xs_session_init_entry si;
      xs_session_init_entry_init(&si, XS_SESSION_INIT_ENTRY_VERSION);
      std::string sp = text(s, "system_prompt"), task = text(s, "task"), tools = text(s, "tools"), schema;
      si.system_prompt = sp.data();
      si.system_prompt_len = sp.size();
      si.task = task.data();
      si.task_len = task.size();
      si.tools_json = tools.data();
      si.tools_len = tools.size();
      if (has(s, "output_schema")) {
        schema = text(s, "output_schema");
        si.output_schema_json = schema.data();
        si.output_schema_len = schema.size();
      }
      appended = xs_append_session_init(session_, &si, id);
    } else if (op == "append_mode_change") {
      std::string data = has(s, "data") ? text(s, "data") : std::string();
      appended = xs_append_mode_change(session_, c_str(s, "mode"), has(s, "data") ? data.data() : nullptr,
                                       data.size(), id);
    } else if (op == "branch_with_summary") {
      std::string summary = text(s, "summary"), details = has(s, "details") ? text(s, "details") : std::string();
      appended = xs_session_branch_with_summary(session_, at(s, "from_id").is_null() ? nullptr : c_str(s, "from_id"),
                                                summary.data(), summary.size(),
                                                has(s, "details") ? details.data() : nullptr, details.size(),
                                                tri(s, "from_extension"), id);
    } else if (op == "append_session_info") {
      std::string name = text(s, "name");
      appended = xs_append_session_info(session_, name.data(), name.size(), id);
    } else if (op == "set_leaf") {
      rc_check(xs_session_set_leaf(session_, str(s, "id")));  // "id": null moves the leaf to none
    } else if (op == "set_title") {
      const char* t = at(s, "title").is_null() ? nullptr : c_str(s, "title");
      rc_check(xs_session_set_title(session_, t, t ? view(s, "title").size() : 0));
    } else if (op == "flush") {
      rc_check(xs_session_flush(session_));
    } else if (op == "persist") {
      rc_check(xs_session_persist(session_));
    } else if (op == "check_file") {
      bool exists = false;
      std::string bytes = read_file(path_.empty() ? session_path() : path_, &exists);
      if (has(s, "exists") && !flag(s, "exists")) {
        EXPECT_FALSE(exists) << "the session file should not exist yet";
      } else if (has(s, "raw")) {
        EXPECT_TRUE(exists);
        EXPECT_EQ(bytes, text(s, "raw"));
      } else if (has(s, "raw_hex")) {
        EXPECT_TRUE(exists);
        EXPECT_EQ(bytes, from_hex(c_str(s, "raw_hex")));
      } else {
        EXPECT_TRUE(exists);
        std::string want;
        for (element l : array_of(at(s, "lines"))) want.append(text_of(l)).push_back('\n');
        // "{root}" stands for the store's directory (paths the library writes into files).
        for (size_t at; (at = want.find("{root}")) != std::string::npos;) want.replace(at, 6, root_);
        EXPECT_EQ(bytes, want);
      }
    } else if (op == "check_context") {
      const char* leaf = str(s, "leaf");
      check_text(s, expect, "context", "xs_build_context",
                 [&](char* b, size_t c, size_t* n) { return xs_build_context(session_, leaf, b, c, n); });
    } else if (op == "check_dialect") {
      uint32_t got = XS_DIALECT_AUTO;
      ASSERT_EQ(xs_session_dialect(session_, &got), XS_OK) << xs_session_errmsg(session_);
      EXPECT_EQ(got, dialect_named(view(s, "dialect")));
    } else if (op == "check_leaf") {
      std::string got;
      ASSERT_EQ(read_text([&](char* b, size_t c, size_t* n) { return xs_session_leaf(session_, b, c, n); }, &got), XS_OK);
      EXPECT_EQ(got, at(s, "id").is_null() ? std::string() : text(s, "id"));
    } else if (op == "check_header") {
      check_text(s, expect, "json", "xs_session_header",
                 [&](char* b, size_t c, size_t* n) { return xs_session_header(session_, b, c, n); });
    } else if (op == "check_entries") {
      check_text(s, expect, "json", "xs_session_entries",
                 [&](char* b, size_t c, size_t* n) { return xs_session_entries(session_, rflags, b, c, n); });
    } else if (op == "check_entry") {
      const char* eid = c_str(s, "id");
      check_text(s, expect, "json", "xs_session_entry",
                 [&](char* b, size_t c, size_t* n) { return xs_session_entry(session_, eid, rflags, b, c, n); });
    } else if (op == "check_path") {
      const char* bid = str(s, "id");
      check_text(s, expect, "json", "xs_session_path",
                 [&](char* b, size_t c, size_t* n) { return xs_session_path(session_, bid, rflags, b, c, n); });
    } else if (op == "check_children") {
      const char* cid = c_str(s, "id");
      check_text(s, expect, "json", "xs_session_children",
                 [&](char* b, size_t c, size_t* n) { return xs_session_children(session_, cid, rflags, b, c, n); });
    } else if (op == "check_tree") {
      check_text(s, expect, "json", "xs_session_tree",
                 [&](char* b, size_t c, size_t* n) { return xs_session_tree(session_, rflags, b, c, n); });
    } else if (op == "check_labels") {
      check_text(s, expect, "json", "xs_session_labels",
                 [&](char* b, size_t c, size_t* n) { return xs_session_labels(session_, b, c, n); });
    } else if (op == "check_usage") {
      check_text(s, expect, "json", "xs_session_usage",
                 [&](char* b, size_t c, size_t* n) { return xs_session_usage(session_, b, c, n); });
    } else if (op == "check_info") {
      std::string info;
      auto call = [&](char* b, size_t c, size_t* n) { return xs_session_info(session_, b, c, n); };
      ASSERT_EQ(read_json("xs_session_info", call, &info), XS_OK);
      simdjson::dom::parser parser;
      expect_members(parse(parser, info), at(s, "fields"), info);
    } else if (op == "check_diagnostics") {
      std::string diags;
      auto call = [&](char* b, size_t c, size_t* n) { return xs_session_diagnostics(session_, b, c, n); };
      ASSERT_EQ(read_json("xs_session_diagnostics", call, &diags), XS_OK);
      simdjson::dom::parser parser;
      std::vector<element> got = elements(parse(parser, diags)), want = elements(at(s, "expected"));
      ASSERT_EQ(got.size(), want.size()) << diags;
      for (size_t i = 0; i < want.size(); ++i) expect_members(got[i], want[i], diags);
    } else if (op == "check_preserved") {
      std::string dir = path_.substr(0, path_.rfind('/'));
      std::string prefix = path_.substr(path_.rfind('/') + 1) + ".corrupt-";
      std::vector<std::string> found;
      for (const std::string& n : names_in(dir)) {
        if (n.rfind(prefix, 0) == 0) found.push_back(n);
      }
      ASSERT_EQ(found.size(), 1u);
      EXPECT_EQ(read_file(dir + "/" + found[0]), text(s, "raw"));
    } else if (op == "write_file") {
      std::string bytes;
      if (has(s, "raw")) {
        bytes = text(s, "raw");
      } else {
        for (element l : array_of(at(s, "lines"))) bytes.append(text_of(l)).push_back('\n');
      }
      write_file(root_ + "/" + c_str(s, "path"), bytes);
    } else if (op == "append_to_file") {
      append_file(path_, text(s, "raw"));
    } else if (op == "reload") {
      int64_t added = 0;
      rc_check(xs_session_reload(session_, &added));
      if (has(s, "expect_added")) {
        EXPECT_EQ(added, int64(s, "expect_added"));
      }
    } else if (op == "fork" || op == "create_branched") {
      xs_session_options o = options(s);
      o.session_id = str(s, "session_id");
      xs_session* fresh = nullptr;
      xs_status rc = op == "fork" ? xs_session_fork(session_, &o, &fresh)
                                  : xs_session_create_branched(session_, str(s, "leaf"), &o, &fresh);
      EXPECT_EQ(rc, expect) << xs_session_errmsg(session_);
      if (rc == XS_OK) adopt(fresh);
    } else if (op == "fork_from" || op == "continue_recent") {
      xs_session_options o = options(s);
      xs_session* fresh = nullptr;
      xs_status rc = op == "fork_from"
                         ? xs_session_fork_from(store_, (root_ + "/" + c_str(s, "source")).c_str(),
                                                c_str(s, "cwd"), &o, &fresh)
                         : xs_session_continue_recent(store_, c_str(s, "cwd"), str(s, "terminal_id"), &o, &fresh);
      EXPECT_EQ(rc, expect) << xs_store_errmsg(store_);
      if (rc == XS_OK) adopt(fresh);
    } else if (op == "move_to") {
      xs_status rc = xs_session_move_to(session_, c_str(s, "cwd"));
      rc_check(rc);
      if (rc == XS_OK) path_ = session_path();
    } else if (op == "write_breadcrumb") {
      std::string target = root_ + "/" + c_str(s, "path");
      EXPECT_EQ(xs_store_write_breadcrumb(store_, c_str(s, "terminal_id"), c_str(s, "cwd"), target.c_str()),
                expect)
          << xs_store_errmsg(store_);
    } else if (op == "blob_put") {
      std::string data = text(s, "data");
      char hash[XS_HASH_BUFSIZE];
      ASSERT_EQ(xs_blob_put(store_, data.data(), data.size(), hash), XS_OK) << xs_store_errmsg(store_);
      if (has(s, "expect_hash")) {
        EXPECT_STREQ(hash, c_str(s, "expect_hash"));
      }
    } else if (op == "check_blob") {
      std::string got;
      const char* hash = c_str(s, "hash");
      xs_status rc = read_text([&](char* b, size_t c, size_t* n) { return xs_blob_get(store_, hash, b, c, n); }, &got);
      EXPECT_EQ(rc, expect) << xs_store_errmsg(store_);
      if (rc == XS_OK) {
        EXPECT_EQ(got, text(s, "data"));
      }
    } else if (op == "check_resolve") {
      std::string got;
      const char* query = c_str(s, "query");
      const char* cwd = str(s, "cwd");
      xs_status rc =
          read_text([&](char* b, size_t c, size_t* n) { return xs_store_resolve(store_, query, cwd, b, c, n); }, &got);
      EXPECT_EQ(rc, expect) << xs_store_errmsg(store_);
      if (rc == XS_OK) {
        EXPECT_EQ(relative(got), c_str(s, "path"));
      }
    } else if (op == "check_list") {
      xs_list_options lo;
      xs_list_options_init(&lo, XS_LIST_OPTIONS_VERSION);
      lo.cwd = str(s, "cwd");
      if (has(s, "full") && flag(s, "full")) lo.flags |= XS_LIST_FULL;
      if (has(s, "limit")) lo.limit = uint64(s, "limit");
      std::string got;
      auto call = [&](char* b, size_t c, size_t* n) { return xs_store_list(store_, &lo, b, c, n); };
      ASSERT_EQ(read_json("xs_store_list", call, &got), XS_OK) << xs_store_errmsg(store_);
      simdjson::dom::parser parser;
      std::vector<element> items = elements(parse(parser, got)), want = elements(at(s, "expected"));
      ASSERT_EQ(items.size(), want.size()) << got;
      // Listed newest first by file time, which ties within a test: compare in path order.
      std::sort(items.begin(), items.end(), [](element a, element b) { return view(a, "path") < view(b, "path"); });
      for (size_t i = 0; i < want.size(); ++i) {
        for (auto [key, value] : object_of(want[i])) {
          if (key == "path") {  // relative to the store
            EXPECT_EQ(relative(std::string(view(items[i], "path"))), view(value)) << got;
          } else {
            EXPECT_EQ(has(items[i], key) ? to_json(at(items[i], key)) : "(none)", to_json(value))
                << "list field " << key << " of " << got;
          }
        }
      }
    } else if (op == "use_store") {
      use_store(c_str(s, "store"));
    } else if (op == "session_for_key") {
      xs_session_close(session_);  // the key's session may be the one held: let go of it first
      session_ = nullptr;
      if (xs_session* fresh = run_session_for_key(store_, s, expect, options(s))) adopt(fresh);
    } else if (!run_archive_step(store_, root_, op, s, expect) && !run_search_step(store_, root_, op, s, expect) &&
               !run_keys_step(store_, root_, op, s, expect) &&
               !run_library_step(store_, session_, op, s, expect) &&
               !run_stats_step(store_, session_, root_, op, s, expect) && !run_reset_step(root_, op, s) &&
               !run_import_step(store_, root_, op, s, expect) && !run_bundle_step(*stores_, *current_, op, s, expect)) {
      FAIL() << "unknown op " << op;
    }

    if (appended) {
      EXPECT_EQ(*appended, expect) << xs_session_errmsg(session_);
      if (*appended == XS_OK && has(s, "expect_id")) {
        EXPECT_STREQ(id, c_str(s, "expect_id"));
      }
    }
  }

  std::string name_;
  element doc_;  // held by the test's parser
  xs_reset_policy policy_{};  // the case's store_reset_policy, for every store of the case
  std::unique_ptr<CaseStores> stores_;
  CaseStore* current_ = nullptr;  // the store the steps act on
  std::string root_;              // its root and its store
  xs_store* store_ = nullptr;
  std::string path_;
  xs_session* session_ = nullptr;
};

class Conformance : public ::testing::TestWithParam<std::string> {};

TEST_P(Conformance, Case) {
  std::string bytes = read_file(std::string(XS_CONFORMANCE_DIR) + "/" + GetParam());
  simdjson::dom::parser parser;
  element doc;
  ASSERT_EQ(parser.parse(bytes).get(doc), simdjson::SUCCESS) << GetParam() << " is not valid JSON";
  ASSERT_TRUE(has(doc, "description") && has(doc, "steps")) << GetParam();
  CaseRunner(GetParam(), doc).run();
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.size() - 5);
  for (char& c : n) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(Cases, Conformance, ::testing::ValuesIn(case_files()), test_name);

TEST(ConformanceSuite, HasAtLeastThirtyCases) { EXPECT_GE(case_files().size(), 30u); }

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
