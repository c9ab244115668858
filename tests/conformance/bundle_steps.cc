#include "bundle_steps.h"

#include <cstdlib>
#include <vector>

#include "output_dump.h"
#ifdef XS_CONFORMANCE_POSTGRES
#include "xsession_postgres.h"
#endif

using namespace case_json;

CaseStores::CaseStores(const xs_store_options& options) : options_(options) {
  // XS_CONFORMANCE_STORAGE: the stores' storage table, to hold a host's table to the same bytes:
  // "c" (c_storage.c, plain C), "posix_table" and "memory_table" (the built-in backends through
  // their tables), "postgres" (the database of the tests' server, tests/postgres.cmake).
  storage_ = getenv("XS_CONFORMANCE_STORAGE") ? getenv("XS_CONFORMANCE_STORAGE") : "";
}

CaseStores::~CaseStores() {
  for (auto& [name, s] : stores_) {
    xs_store_free(s->store);
    if (storage_ == "c") {  // the table was really used, and let go of once
      EXPECT_GT(s->counts.calls, 0u) << "store " << name;
      EXPECT_EQ(s->counts.released, 1) << "store " << name;
    }
    std::string cmd = "rm -rf '" + s->root + "'";
    if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "could not remove " << s->root;
  }
  std::string cmd = "rm -rf '" + bundles_ + "'";
  if (!bundles_.empty() && std::system(cmd.c_str()) != 0) ADD_FAILURE() << "could not remove " << bundles_;
}

CaseStore& CaseStores::get(const std::string& name) {
  std::unique_ptr<CaseStore>& s = stores_[name];
  if (!s) {
    s = std::make_unique<CaseStore>();
    open(*s);
  }
  return *s;
}

const std::string& CaseStores::bundles() {
  if (bundles_.empty()) {
    char tmpl[] = "/tmp/xs-conformance-bundles-XXXXXX";
    bundles_ = mkdtemp(tmpl);
  }
  return bundles_;
}

void CaseStores::open(CaseStore& s) {
  char tmpl[] = "/tmp/xs-conformance-XXXXXX";
  s.root = mkdtemp(tmpl);
  s.store = xs_store_new();
  xs_store_options so = options_;
  s.on_table = !storage_.empty();
  if (storage_ == "c") {
    c_storage_fill(&s.table, &s.counts);
  } else if (storage_ == "posix_table") {
    EXPECT_EQ(xs_storage_posix(&s.table), XS_OK);
  } else if (storage_ == "memory_table") {
    // Nothing of the store on the disk: every file the case reads or writes goes through the table.
    EXPECT_EQ(xs_storage_memory(&s.table), XS_OK);
#ifdef XS_CONFORMANCE_POSTGRES
  } else if (storage_ == "postgres") {
    const char* conninfo_file = getenv("XS_TEST_POSTGRES_CONNINFO_FILE");
    std::string conninfo = conninfo_file ? read_file(conninfo_file) : "";
    while (!conninfo.empty() && (conninfo.back() == '\n' || conninfo.back() == ' ')) conninfo.pop_back();
    char err[512] = "";
    EXPECT_EQ(xs_postgres_storage(conninfo.c_str(), "xs_conformance", &s.table, err, sizeof err), XS_OK) << err;
#endif
  } else if (s.on_table) {
    ADD_FAILURE() << "unknown XS_CONFORMANCE_STORAGE " << storage_;
    s.on_table = false;
  }
  if (s.on_table) so.storage = &s.table;
  EXPECT_EQ(xs_store_open(s.store, s.root.c_str(), &so), XS_OK) << xs_store_errmsg(s.store);
}

namespace {

// An expected value's JSON text with its placeholders replaced: "{bundles}" by the bundle
// directory, "{root:NAME}" by the root of the store NAME (opened by then: a case names a store
// before it reads its root), "{root}" by the current store's root.
std::string placed(CaseStores& stores, const CaseStore& current, std::string text) {
  for (size_t p; (p = text.find("{bundles}")) != std::string::npos;) text.replace(p, 9, stores.bundles());
  for (size_t p; (p = text.find("{root:")) != std::string::npos;) {
    size_t end = text.find('}', p);
    if (end == std::string::npos) {
      ADD_FAILURE() << "unclosed {root: in " << text;
      break;
    }
    std::string name = text.substr(p + 6, end - p - 6);
    text.replace(p, end + 1 - p, stores.get(name).root);
  }
  for (size_t p; (p = text.find("{root}")) != std::string::npos;) text.replace(p, 6, current.root);
  return text;
}

// Each member `want` lists equals the report's; a list has as many items as the report's, each
// a string equal to the report's item or an object each of whose members equals the item's.
void expect_report(CaseStores& stores, const CaseStore& current, element report, element want,
                   const std::string& text) {
  for (auto [member, value] : object_of(want)) {
    ASSERT_TRUE(has(report, member)) << "no member " << member << " in " << text;
    element have = at(report, member);
    if (!value.is_array()) {
      EXPECT_EQ(to_json(have), placed(stores, current, to_json(value))) << member << " of " << text;
      continue;
    }
    std::vector<element> got = elements(have), wanted = elements(value);
    ASSERT_EQ(got.size(), wanted.size()) << member << " of " << text;
    for (size_t i = 0; i < wanted.size(); ++i) {
      if (!wanted[i].is_object()) {
        EXPECT_EQ(to_json(got[i]), placed(stores, current, to_json(wanted[i]))) << member << " " << i << " of " << text;
        continue;
      }
      for (auto [key, item] : object_of(wanted[i])) {
        std::string have_item = has(got[i], key) ? to_json(at(got[i], key)) : "(none)";
        EXPECT_EQ(have_item, placed(stores, current, to_json(item)))
            << member << " " << i << " " << key << " of " << text;
      }
    }
  }
}

// A bundle cut short (`truncate`: its first N bytes kept) or with the byte at offset `flip`
// inverted, written to `to` (a name in the bundle directory; absent: in place).
void damage_bundle(CaseStores& stores, element s) {
  std::string from = stores.bundles() + "/" + std::string(view(s, "bundle"));
  bool exists = false;
  std::string bytes = read_file(from, &exists);
  ASSERT_TRUE(exists) << from;
  if (has(s, "truncate")) {
    ASSERT_LT(uint64(s, "truncate"), bytes.size()) << "the bundle is shorter than the cut";
    bytes.resize(uint64(s, "truncate"));
  }
  if (has(s, "flip")) {
    ASSERT_LT(uint64(s, "flip"), bytes.size()) << "the bundle is shorter than the flipped byte's offset";
    bytes[uint64(s, "flip")] = static_cast<char>(~bytes[uint64(s, "flip")]);
  }
  write_file(has(s, "to") ? stores.bundles() + "/" + std::string(view(s, "to")) : from, bytes);
}

}  // namespace

bool run_bundle_step(CaseStores& stores, const CaseStore& current, std::string_view op, element s, xs_status expect) {
  if (op == "damage_bundle") {
    damage_bundle(stores, s);
    return true;
  }
  if (op != "export_bundle" && op != "import_bundle") return false;
  std::string bundle = stores.bundles() + "/" + std::string(view(s, "bundle"));
  std::string got;
  xs_status rc;
  if (op == "export_bundle") {
    std::vector<const char*> ids;
    for (element id : array_of(at(s, "sessions"))) ids.push_back(id.get_c_str().value());
    xs_export_options o;
    EXPECT_EQ(xs_export_options_init(&o, XS_EXPORT_OPTIONS_VERSION), XS_OK);
    if (flag(s, "no_lineage")) o.flags |= XS_EXPORT_NO_LINEAGE;
    if (flag(s, "gzip")) o.flags |= XS_EXPORT_GZIP;
    rc = read_json(
        "xs_export",
        [&](char* b, size_t c, size_t* n) {
          return xs_export(current.store, ids.data(), ids.size(), bundle.c_str(), &o, b, c, n);
        },
        &got);
  } else {
    std::vector<const char*> cwd_map;  // pairs, flat
    if (has(s, "cwd_map")) {
      for (element pair : array_of(at(s, "cwd_map"))) {
        for (element path : array_of(pair)) cwd_map.push_back(path.get_c_str().value());
      }
    }
    xs_import_bundle_options o;
    EXPECT_EQ(xs_import_bundle_options_init(&o, XS_IMPORT_BUNDLE_OPTIONS_VERSION), XS_OK);
    if (flag(s, "rename")) o.flags |= XS_IMPORT_BUNDLE_RENAME;
    if (flag(s, "dry_run")) o.flags |= XS_IMPORT_BUNDLE_DRY_RUN;
    o.cwd_map = cwd_map.empty() ? nullptr : cwd_map.data();
    o.cwd_map_len = cwd_map.size();
    rc = read_json(
        "xs_import_bundle",
        [&](char* b, size_t c, size_t* n) { return xs_import_bundle(current.store, bundle.c_str(), &o, b, c, n); },
        &got);
  }
  EXPECT_EQ(rc, expect) << xs_store_errmsg(current.store);
  if (rc == XS_OK) {
    simdjson::dom::parser parser;
    expect_report(stores, current, parse(parser, got), at(s, "report"), got);
  } else if (has(s, "message_prefix")) {
    std::string message = xs_store_errmsg(current.store);
    std::string prefix = placed(stores, current, std::string(view(s, "message_prefix")));
    EXPECT_EQ(message.compare(0, prefix.size(), prefix), 0) << message;
  }
  return true;
}
