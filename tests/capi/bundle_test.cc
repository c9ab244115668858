// Portable bundles through the C API (docs/bundles.md): options init, NULLs and bad arguments,
// statuses (unknown session, hostile bundle, id clash), the report after XS_EBUFS copied without a
// second export or import, a round trip into another store with the same bytes, a dry run.
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;

constexpr const char* kHeader =
    R"({"type":"session","version":3,"id":"s0000001","timestamp":"2026-02-16T10:20:30.000Z","cwd":"/w"})";
constexpr const char* kLine =
    R"({"type":"message","id":"e1","parentId":null,"timestamp":"2026-02-16T10:20:31.000Z","message":{"role":"user","content":"hi"}})";
constexpr const char* kFile = "2026-02-16T10-20-30-000Z_s0000001.jsonl";

class Bundles : public CapiTest {
 protected:
  void SetUp() override {
    CapiTest::SetUp();
    ::mkdir((root_ / "sessions").c_str(), 0700);
    ::mkdir((root_ / "sessions/--w--").c_str(), 0700);
    xstest::WriteFile(root_ / ("sessions/--w--/" + std::string(kFile)), std::string(kHeader) + "\n" + kLine + "\n");
    out_ = out_dir_ / "b.xsb";
  }
  xs_status Export(const std::vector<const char*>& ids, const xs_export_options* o, std::string* report) {
    xs_status st = XS_OK;
    *report = xstest::Fetch(
        [&](char* b, size_t c, size_t* n) { return xs_export(store_, ids.data(), ids.size(), out_.c_str(), o, b, c, n); },
        &st);
    return st;
  }
  xs_status Import(xs_store* into, const xs_import_bundle_options* o, std::string* report) {
    xs_status st = XS_OK;
    *report = xstest::Fetch([&](char* b, size_t c, size_t* n) { return xs_import_bundle(into, out_.c_str(), o, b, c, n); },
                            &st);
    return st;
  }

  xstest::TempDir out_dir_;
  std::string out_;
};

TEST_F(Bundles, OptionsInit) {
  xs_export_options e;
  EXPECT_EQ(xs_export_options_init(nullptr, XS_EXPORT_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_export_options_init(&e, 2), XS_EVERSION);
  ASSERT_EQ(xs_export_options_init(&e, XS_EXPORT_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(e.version, 1u);
  EXPECT_EQ(e.flags, 0u);
  xs_import_bundle_options i;
  EXPECT_EQ(xs_import_bundle_options_init(nullptr, XS_IMPORT_BUNDLE_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_import_bundle_options_init(&i, 2), XS_EVERSION);
  ASSERT_EQ(xs_import_bundle_options_init(&i, XS_IMPORT_BUNDLE_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(i.flags, 0u);
  EXPECT_EQ(i.cwd_map, nullptr);
  EXPECT_EQ(i.cwd_map_len, 0u);
}

TEST_F(Bundles, BadArguments) {
  const char* ids[] = {"s0000001", nullptr};
  size_t n = 0;
  EXPECT_EQ(xs_export(nullptr, ids, 1, out_.c_str(), nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_export(store_, nullptr, 1, out_.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "session_ids is NULL");
  EXPECT_EQ(xs_export(store_, ids, 0, out_.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "n_ids is 0: name at least one session");
  EXPECT_EQ(xs_export(store_, ids, 2, out_.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "session_ids[1] is NULL");
  EXPECT_EQ(xs_export(store_, ids, 1, nullptr, nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "out_path is NULL");
  EXPECT_EQ(xs_export(store_, ids, 1, out_.c_str(), nullptr, nullptr, 0, nullptr), XS_EINVAL);
  xs_export_options e;
  xs_export_options_init(&e, XS_EXPORT_OPTIONS_VERSION);
  e.flags = 0x4;
  EXPECT_EQ(xs_export(store_, ids, 1, out_.c_str(), &e, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "unknown bits in xs_export_options.flags");
  e.version = 7;
  EXPECT_EQ(xs_export(store_, ids, 1, out_.c_str(), &e, nullptr, 0, &n), XS_EVERSION);
  const char* unknown[] = {"nope"};
  EXPECT_EQ(xs_export(store_, unknown, 1, out_.c_str(), nullptr, nullptr, 0, &n), XS_ENOTFOUND);
  EXPECT_STREQ(xs_store_errmsg(store_), "no session matches \"nope\"");
  EXPECT_FALSE(xstest::Exists(out_));

  EXPECT_EQ(xs_import_bundle(store_, nullptr, nullptr, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "bundle_path is NULL");
  EXPECT_EQ(xs_import_bundle(store_, out_.c_str(), nullptr, nullptr, 0, &n), XS_ENOTFOUND);
  EXPECT_EQ(xs_store_errmsg(store_), "bundle " + out_ + " does not exist");
  xs_import_bundle_options i;
  xs_import_bundle_options_init(&i, XS_IMPORT_BUNDLE_OPTIONS_VERSION);
  const char* map[] = {"/w", nullptr};
  i.cwd_map = map;
  i.cwd_map_len = 1;
  EXPECT_EQ(xs_import_bundle(store_, out_.c_str(), &i, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "xs_import_bundle_options.cwd_map_len is odd: it counts pairs twice");
  i.cwd_map_len = 2;
  EXPECT_EQ(xs_import_bundle(store_, out_.c_str(), &i, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "a path of xs_import_bundle_options.cwd_map is NULL");
  i.cwd_map_len = 0;
  i.flags = 0x10;
  EXPECT_EQ(xs_import_bundle(store_, out_.c_str(), &i, nullptr, 0, &n), XS_EINVAL);
  EXPECT_STREQ(xs_store_errmsg(store_), "unknown bits in xs_import_bundle_options.flags");
}

TEST_F(Bundles, RoundTripWithTheReportKeptAcrossEbufs) {
  const char* ids[] = {"s0000001"};
  size_t need = 0;
  ASSERT_EQ(xs_export(store_, ids, 1, out_.c_str(), nullptr, nullptr, 0, &need), XS_EBUFS);
  std::string bundle = xstest::ReadFile(out_);
  ::unlink(out_.c_str());  // a second export would write it again: the retry must only copy
  std::string report(need, '\0');
  size_t got = 0;
  ASSERT_EQ(xs_export(store_, ids, 1, out_.c_str(), nullptr, &report[0], report.size(), &got), XS_OK);
  EXPECT_EQ(got, need);
  EXPECT_FALSE(xstest::Exists(out_));
  EXPECT_EQ(report.substr(0, report.find(",\"bytes\"")), "{\"path\":\"" + out_ + "\"");
  EXPECT_NE(report.find("\"compression\":\"zstd\",\"sessions\":[{\"id\":\"s0000001\""), std::string::npos);
  xstest::WriteFile(out_, bundle);

  xstest::TempDir other;
  xs_store* dst = xs_store_new();
  ASSERT_EQ(xs_store_open(dst, other.path().c_str(), nullptr), XS_OK);
  ASSERT_EQ(xs_import_bundle(dst, out_.c_str(), nullptr, nullptr, 0, &need), XS_EBUFS);
  std::string placed = other / ("sessions/--w--/" + std::string(kFile));
  EXPECT_EQ(xstest::ReadFile(placed), std::string(kHeader) + "\n" + kLine + "\n");
  ::unlink(placed.c_str());  // a second import would place it again
  report.assign(need, '\0');
  ASSERT_EQ(xs_import_bundle(dst, out_.c_str(), nullptr, &report[0], report.size(), &got), XS_OK);
  EXPECT_FALSE(xstest::Exists(placed));
  EXPECT_EQ(report, "{\"dryRun\":false,\"bundle\":\"" + out_ + "\",\"sourceRoot\":\"" + root_.path() +
                        "\",\"sessions\":[{\"id\":\"s0000001\",\"newId\":null,\"path\":\"" + placed +
                        "\",\"cwd\":\"/w\",\"oldCwd\":null,\"archived\":false,\"action\":\"imported\"}],\"blobs\":[],"
                        "\"keys\":[]}");
  xs_store_free(dst);
}

TEST_F(Bundles, StatusesOfAnImport) {
  std::string report;
  const char* ids[] = {"s0000001"};
  ASSERT_EQ(Export({ids[0]}, nullptr, &report), XS_OK);
  // Into its own store: already there.
  ASSERT_EQ(Import(store_, nullptr, &report), XS_OK);
  EXPECT_NE(report.find("\"action\":\"present\""), std::string::npos) << report;
  // The same id with other bytes: refused, then renamed.
  xstest::TempDir other;
  xs_store* dst = xs_store_new();
  ASSERT_EQ(xs_store_open(dst, other.path().c_str(), nullptr), XS_OK);
  ::mkdir((other / "sessions").c_str(), 0700);
  ::mkdir((other / "sessions/--w--").c_str(), 0700);
  xstest::WriteFile(other / ("sessions/--w--/" + std::string(kFile)), std::string(kHeader) + "\n");
  size_t n = 0;
  EXPECT_EQ(xs_import_bundle(dst, out_.c_str(), nullptr, nullptr, 0, &n), XS_EEXISTS);
  EXPECT_EQ(xs_store_errmsg(dst), "session s0000001 is already in the store with other content (" + other.path() +
                                      "/sessions/--w--/" + kFile +
                                      "); import with rename to give the bundle's copy a new id");
  xs_import_bundle_options i;
  xs_import_bundle_options_init(&i, XS_IMPORT_BUNDLE_OPTIONS_VERSION);
  i.flags = XS_IMPORT_BUNDLE_RENAME | XS_IMPORT_BUNDLE_DRY_RUN;
  ASSERT_EQ(Import(dst, &i, &report), XS_OK);
  EXPECT_NE(report.find("\"dryRun\":true"), std::string::npos);
  EXPECT_NE(report.find("\"action\":\"renamed\""), std::string::npos);
  EXPECT_EQ(xstest::ListDir(other / "sessions/--w--"), std::vector<std::string>{kFile});
  // A bundle that is not one.
  xstest::WriteFile(out_, "not a bundle");
  EXPECT_EQ(xs_import_bundle(dst, out_.c_str(), nullptr, nullptr, 0, &n), XS_ECORRUPT);
  EXPECT_STREQ(xs_store_errmsg(dst), "not a bundle, or a damaged one (Unrecognized archive format)");
  xs_store_free(dst);
}

}  // namespace
