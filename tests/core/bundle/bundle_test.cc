// bundle/: export (the exact manifest of a fixed store, lineage, key records, blobs, archived
// sessions as they are stored) and import (round trip into an empty root with every file
// byte-identical and verify clean, idempotence, id clashes refused or renamed with lineage links
// updated, the cwd map, dry runs). The hostile bundles are in bundle_hostile_test.cc.
#include <gtest/gtest.h>

#include "bundle/export.h"
#include "bundle/import.h"
#include "bundle_fixture.h"
#include "storage/gzip.h"

namespace xs::bundle {
namespace {

using namespace xs::bundle::test;  // NOLINT: the fixture's names
using Files = std::map<std::string, std::string>;

class BundleTest : public ::testing::Test {
 protected:
  void SetUp() override { src_ = fixed_store(fs_); }

  ExportReport exported(const std::vector<std::string>& ids, ExportOptions o = {}) {
    auto r = export_bundle(src_, ids, fs_, "/out/b.xsb", o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : ExportReport{};
  }
  Result<ImportReport> imported(const std::shared_ptr<store::Store>& into, ImportOptions o = {}) {
    return import_bundle(into, fs_, "/out/b.xsb", o);
  }
  // What a store root holds but the keyed store's document and its lock (other records live there).
  Files files_of(const std::string& root) {
    Files all = snapshot(*fs_, root);
    all.erase(root + "/sessions.json");
    all.erase(root + "/sessions.json.lock");
    return all;
  }
  static std::string actions(const ImportReport& r) {
    std::string out;
    for (const ImportedSession& s : r.sessions) out += s.id + ":" + s.action + " ";
    for (const auto& [h, a] : r.blobs) out += "blob:" + a + " ";
    for (const auto& [k, a] : r.keys) out += k + ":" + a + " ";
    return out;
  }

  std::shared_ptr<storage::Fs> fs_ = storage::make_memory_fs();
  std::shared_ptr<store::Store> src_;
};

TEST_F(BundleTest, ManifestIsFirstAndExact) {
  ExportReport r = exported({"branch01"});
  auto members = tar_members(xs::test::get_file(*fs_, "/out/b.xsb"));
  ASSERT_EQ(members.size(), 6u);
  EXPECT_EQ(members[0].first, "manifest.json");
  EXPECT_EQ(members[0].second,
            "{\"format\":\"xsession-bundle\",\"version\":1,\"sourceRoot\":\"/store\",\"sessions\":["
            "{\"id\":\"branch01\",\"member\":\"sessions/2026-01-03T00-00-00-000Z_branch01.jsonl\",\"cwd\":\"/w\","
            "\"archived\":false,\"parentSession\":\"/store/sessions/--w--/2026-01-02T00-00-00-000Z_fork0001.jsonl\","
            "\"lineage\":false},"
            "{\"id\":\"fork0001\",\"member\":\"sessions/2026-01-02T00-00-00-000Z_fork0001.jsonl\",\"cwd\":\"/w\","
            "\"archived\":false,\"parentSession\":\"root0001\",\"lineage\":true},"
            "{\"id\":\"root0001\",\"member\":\"sessions/2026-01-01T00-00-00-000Z_root0001.jsonl\",\"cwd\":\"/w\","
            "\"archived\":false,\"parentSession\":null,\"lineage\":true}],\"members\":["
            "{\"path\":\"sessions/2026-01-03T00-00-00-000Z_branch01.jsonl\","
            "\"sha256\":\"29bc69d47cb42362b071fb4e54e119fa8ac3743e1182717eb902b982c2b9bdf9\",\"size\":308},"
            "{\"path\":\"sessions/2026-01-02T00-00-00-000Z_fork0001.jsonl\","
            "\"sha256\":\"c0d76740c8e99e70f2b6cc9fbe8e711d24d81968efa3e484afee6fcf2c65ccf7\",\"size\":378},"
            "{\"path\":\"sessions/2026-01-01T00-00-00-000Z_root0001.jsonl\","
            "\"sha256\":\"335af09559c630e2ebe1c6aea2704622eb1fa457aaeb007351b69faac8f530d3\",\"size\":366},"
            "{\"path\":\"blobs/e90137d39de304eefbbe788bc535c7e82f27abbf8069505fbbd8a9dcdc4f2024\","
            "\"sha256\":\"e90137d39de304eefbbe788bc535c7e82f27abbf8069505fbbd8a9dcdc4f2024\",\"size\":16},"
            "{\"path\":\"keys.json\","
            "\"sha256\":\"253d1a233438dbca474e50e644065b4e0af3b8a818d1e8d6fba0c71295595a89\",\"size\":162}]}\n");
  EXPECT_EQ(members[1].second, branch_bytes());
  EXPECT_EQ(members[2].second, fork_bytes());
  EXPECT_EQ(members[3].second, root_bytes());
  EXPECT_EQ(members[4].second, kBlob);
  EXPECT_EQ(members[5].second, std::string("[{\"key\":\"agent:a:main\",\"record\":") + kBranchKey + "}]\n");
  EXPECT_EQ(export_report_json(r).substr(0, 58),
            "{\"path\":\"/out/b.xsb\",\"bytes\":" + std::to_string(r.bytes) + ",\"compression\":\"zstd\",\"ses");
  EXPECT_EQ(r.bytes, xs::test::get_file(*fs_, "/out/b.xsb").size());
}

TEST_F(BundleTest, TheSameStoreMakesTheSameBundle) {
  exported({"branch01"});
  std::string first = xs::test::get_file(*fs_, "/out/b.xsb");
  exported({"branch01"});
  EXPECT_EQ(xs::test::get_file(*fs_, "/out/b.xsb"), first);
  EXPECT_EQ(xs::test::fs_list(*fs_, "/out"), std::vector<std::string>{"b.xsb"});  // no temp file left
}

TEST_F(BundleTest, NoLineageCarriesOnlyTheNamedSessions) {
  ExportOptions o;
  o.lineage = false;
  o.compression = Compression::kGzip;
  ExportReport r = exported({"branch01", "branch01"}, o);
  ASSERT_EQ(r.sessions.size(), 1u);
  EXPECT_EQ(r.sessions[0].id, "branch01");
  EXPECT_FALSE(r.sessions[0].parent_in_bundle);
  EXPECT_TRUE(r.blobs.empty());  // branch01 references none
  std::string gz = xs::test::get_file(*fs_, "/out/b.xsb");
  EXPECT_EQ(gz.substr(0, 2), "\x1f\x8b");
  auto members = tar_members(gz);
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[1].first, "sessions/2026-01-03T00-00-00-000Z_branch01.jsonl");
  EXPECT_EQ(members[2].first, "keys.json");
}

TEST_F(BundleTest, UnknownAndAmbiguousSessionsAreRefused) {
  auto r = export_bundle(src_, {"nope"}, fs_, "/out/b.xsb", {});
  EXPECT_EQ(r.status().code(), Code::kNotFound);
  EXPECT_EQ(r.status().message(), "no session matches \"nope\"");
  EXPECT_EQ(export_bundle(src_, {}, fs_, "/out/b.xsb", {}).status().message(), "no session to export");
  EXPECT_TRUE(xs::test::fs_list(*fs_, "/out").empty());
}

TEST_F(BundleTest, RoundTripIntoAnEmptyRootIsByteIdenticalAndVerifiesClean) {
  exported({"branch01"});
  auto dst = open_store(fs_, "/dst");
  auto r = imported(dst);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(actions(*r), "branch01:imported fork0001:imported root0001:imported blob:imported agent:a:main:imported ");
  Files want;
  for (const char* f : {kRootFile, kForkFile, kBranchFile}) {
    want["/dst/sessions/--w--/" + std::string(f)] = xs::test::get_file(*fs_, std::string(kDir) + f);
  }
  want[std::string("/dst/blobs/") + kBlobHash] = kBlob;
  EXPECT_EQ(files_of("/dst"), want);
  auto record = dst->keys().get("agent:a:main");
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(
      *record,
      R"({"sessionId":"branch01","sessionFile":"/dst/sessions/--w--/2026-01-03T00-00-00-000Z_branch01.jsonl","cwd":"/w","updatedAt":1})");
  EXPECT_EQ(dst->keys().get("agent:b:main").status().code(), Code::kNotFound);
  for (const char* f : {kRootFile, kForkFile, kBranchFile}) {
    session::SessionOptions ro;
    ro.read_only = true;
    auto s = dst->open_session("/dst/sessions/--w--/" + std::string(f), ro);
    ASSERT_TRUE(s.ok()) << s.status().message();
    std::string v = (*s)->verify_json();
    EXPECT_NE(v.find("\"problems\":[]"), std::string::npos) << v;
  }
}

// Members of more than one read piece (1 MiB) are hashed and written on a second thread while the
// next piece is decompressed (bundle_reader.cc): a 3 MiB session and a 2.5 MiB blob round-trip
// byte for byte, and the same bundle with one byte of the session's third MiB changed, or with
// bytes added to the blob, is refused with the store unchanged.
TEST_F(BundleTest, MembersOfManyPiecesRoundTripAndAreStillCheckedWhole) {
  std::string blob(5 << 19, '\0');
  uint32_t x = 7;
  for (char& c : blob) c = static_cast<char>((x = x * 1103515245u + 12345u) >> 24);
  std::string hash;
  ASSERT_TRUE(src_->blobs().put(blob, &hash).ok());
  std::string text =
      R"({"type":"session","version":3,"id":"big00001","timestamp":"2026-01-06T00:00:00.000Z","cwd":"/w"})"
      "\n"
      R"({"type":"custom","id":"c0000000","parentId":null,"timestamp":"2026-01-06T00:00:00.000Z","customType":"image","data":"blob:sha256:)" +
      hash + "\"}\n";
  for (int i = 1; text.size() < (3u << 20); ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "m%07d", i);
    text += R"({"type":"message","id":")" + std::string(id) +
            R"(","parentId":null,"timestamp":"2026-01-06T00:00:01.000Z","message":{"role":"user","content":"line )" +
            std::to_string(i) + " of a long session, long enough to need several pieces\"}}\n";
  }
  const std::string big = std::string(kDir) + "2026-01-06T00-00-00-000Z_big00001.jsonl";
  xs::test::put_file(*fs_, big, text);
  auto r = export_bundle(src_, {"big00001"}, fs_, "/out/big.xsb", {});
  ASSERT_TRUE(r.ok()) << r.status().message();

  auto dst = open_store(fs_, "/dst");
  auto in = import_bundle(dst, fs_, "/out/big.xsb", {});
  ASSERT_TRUE(in.ok()) << in.status().message();
  EXPECT_EQ(xs::test::get_file(*fs_, "/dst/sessions/--w--/2026-01-06T00-00-00-000Z_big00001.jsonl"), text);
  EXPECT_EQ(xs::test::get_file(*fs_, "/dst/blobs/" + hash), blob);

  auto members = tar_members(xs::test::get_file(*fs_, "/out/big.xsb"));
  ASSERT_EQ(members.size(), 3u);  // manifest, the session, the blob
  auto refused = [&](std::vector<RawMember> m, const std::string& message) {
    xs::test::put_file(*fs_, "/out/bad.xsb", raw_tar(m));
    auto empty = open_store(fs_, "/dst2");
    Files before = snapshot(*fs_, "/dst2");
    auto bad = import_bundle(empty, fs_, "/out/bad.xsb", {});
    EXPECT_EQ(bad.status().code(), Code::kCorrupt);
    EXPECT_EQ(bad.status().message(), message);
    EXPECT_EQ(snapshot(*fs_, "/dst2"), before);
  };
  std::vector<RawMember> flipped;
  for (const auto& [name, data] : members) flipped.push_back({name, data});
  flipped[1].data[(2u << 20) + 12345] ^= 1;
  refused(flipped, "member \"" + members[1].first + "\" does not match its SHA-256 in the manifest");
  std::vector<RawMember> longer;
  for (const auto& [name, data] : members) longer.push_back({name, data});
  longer[2].data += "more";
  refused(longer, "member \"" + members[2].first + "\" is larger than the manifest says (" +
                      std::to_string(blob.size()) + " bytes)");
}

TEST_F(BundleTest, ImportingTheSameBundleTwiceChangesNothing) {
  exported({"branch01"});
  auto dst = open_store(fs_, "/dst");
  ASSERT_TRUE(imported(dst).ok());
  Files before = snapshot(*fs_, "/dst");
  auto again = imported(dst);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(actions(*again), "branch01:present fork0001:present root0001:present blob:present agent:a:main:present ");
  EXPECT_EQ(snapshot(*fs_, "/dst"), before);
  // Into the store it came from: everything is there already.
  auto home = imported(src_);
  ASSERT_TRUE(home.ok()) << home.status().message();
  EXPECT_EQ(actions(*home), "branch01:present fork0001:present root0001:present blob:present agent:a:main:present ");
}

TEST_F(BundleTest, AClashingIdIsRefusedUnlessRenamedAndLinksFollowTheRename) {
  exported({"branch01"});
  auto dst = open_store(fs_, "/dst");
  std::string theirs =
      R"({"type":"session","version":3,"id":"root0001","timestamp":"2026-02-01T00:00:00.000Z","cwd":"/w"})"
      "\n";
  xs::test::put_file(*fs_, "/dst/sessions/--w--/2026-02-01T00-00-00-000Z_root0001.jsonl", theirs);
  Files before = snapshot(*fs_, "/dst");
  auto refused = imported(dst);
  EXPECT_EQ(refused.status().code(), Code::kExists);
  EXPECT_EQ(refused.status().message(),
            "session root0001 is already in the store with other content "
            "(/dst/sessions/--w--/2026-02-01T00-00-00-000Z_root0001.jsonl); import with rename to give the bundle's "
            "copy a new id");
  EXPECT_EQ(snapshot(*fs_, "/dst"), before);

  ImportOptions o;
  o.rename = true;
  auto r = imported(dst, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(actions(*r), "branch01:imported fork0001:imported root0001:renamed blob:imported agent:a:main:imported ");
  const std::string new_id = r->sessions[2].new_id;
  EXPECT_EQ(new_id, renamed_id("root0001", "335af09559c630e2ebe1c6aea2704622eb1fa457aaeb007351b69faac8f530d3"));
  EXPECT_EQ(new_id.size(), 16u);
  std::string renamed_path = "/dst/sessions/--w--/2026-01-01T00-00-00-000Z_" + new_id + ".jsonl";
  EXPECT_EQ(r->sessions[2].path, renamed_path);
  std::string root = root_bytes();
  EXPECT_EQ(xs::test::get_file(*fs_, renamed_path), root.replace(root.find("root0001"), 8, new_id));
  std::string fork = fork_bytes();
  EXPECT_EQ(xs::test::get_file(*fs_, std::string("/dst/sessions/--w--/") + kForkFile),
            fork.replace(fork.find("\"root0001\""), 10, "\"" + new_id + "\""));
  EXPECT_EQ(xs::test::get_file(*fs_, "/dst/sessions/--w--/2026-02-01T00-00-00-000Z_root0001.jsonl"), theirs);
  // Again with rename: the renamed copy is found, nothing changes.
  Files after = snapshot(*fs_, "/dst");
  auto again = imported(dst, o);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(actions(*again), "branch01:present fork0001:present root0001:present blob:present agent:a:main:present ");
  EXPECT_EQ(snapshot(*fs_, "/dst"), after);
}

TEST_F(BundleTest, ACwdMapMovesSessionsAndRecordsTheOldCwd) {
  exported({"branch01"});
  auto dst = open_store(fs_, "/dst");
  ImportOptions o;
  o.cwd_map = {{"/elsewhere", "/nowhere"}, {"/w", "/home/me/w"}};
  auto r = imported(dst, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->sessions[0].cwd, "/home/me/w");
  EXPECT_EQ(*r->sessions[0].old_cwd, "/w");
  std::string root = root_bytes();
  root.replace(root.find("\"cwd\":\"/w\""), 10, "\"cwd\":\"/home/me/w\"");
  root.replace(root.find("}\n"), 0, ",\"originalCwd\":\"/w\"");
  EXPECT_EQ(xs::test::get_file(*fs_, "/dst/sessions/--home-me-w--/" + std::string(kRootFile)), root);
  EXPECT_EQ(
      *dst->keys().get("agent:a:main"),
      R"({"sessionId":"branch01","sessionFile":"/dst/sessions/--home-me-w--/2026-01-03T00-00-00-000Z_branch01.jsonl","cwd":"/home/me/w","updatedAt":1})");
  Files before = snapshot(*fs_, "/dst");
  auto again = imported(dst, o);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(actions(*again), "branch01:present fork0001:present root0001:present blob:present agent:a:main:present ");
  EXPECT_EQ(snapshot(*fs_, "/dst"), before);
  o.cwd_map = {{"w", "/x"}};
  EXPECT_EQ(imported(dst, o).status().message(), "cwd map path \"w\" is not absolute");
}

TEST_F(BundleTest, ArchivedSessionsTravelAsStored) {
  std::string path = std::string(kDir) + kRootFile;
  auto gz = storage::gzip_compress(root_bytes(), storage::kArchiveLevel);
  ASSERT_TRUE(gz.ok());
  xs::test::put_file(*fs_, path + ".gz", gz->view());
  ASSERT_TRUE(fs_->unlink(path).ok());
  ExportReport r = exported({"fork0001"});
  ASSERT_EQ(r.sessions.size(), 2u);
  EXPECT_TRUE(r.sessions[1].archived);
  EXPECT_EQ(r.blobs.size(), 1u);
  auto dst = open_store(fs_, "/dst");
  ImportOptions o;
  o.cwd_map = {{"/w", "/v"}};
  auto in = imported(dst, o);
  ASSERT_TRUE(in.ok()) << in.status().message();
  std::string placed = xs::test::get_file(*fs_, "/dst/sessions/--v--/" + std::string(kRootFile) + ".gz");
  storage::PaddedBuffer text;
  ASSERT_TRUE(storage::gunzip(placed, 1 << 20, &text).ok());
  EXPECT_NE(std::string(text.view()).find("\"cwd\":\"/v\",\"title\":\"Root\",\"originalCwd\":\"/w\"}"),
            std::string::npos);
  auto plain = open_store(fs_, "/plain");
  ASSERT_TRUE(imported(plain).ok());
  EXPECT_EQ(xs::test::get_file(*fs_, "/plain/sessions/--w--/" + std::string(kRootFile) + ".gz"), gz->view());
}

TEST_F(BundleTest, ADryRunWritesNothingAndSaysWhatWouldBeDone) {
  exported({"branch01"});
  auto dst = open_store(fs_, "/dst");
  ImportOptions o;
  o.dry_run = true;
  auto r = imported(dst, o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(actions(*r), "branch01:imported fork0001:imported root0001:imported blob:imported agent:a:main:imported ");
  EXPECT_TRUE(snapshot(*fs_, "/dst").empty());
  EXPECT_EQ(
      import_report_json(*r),
      "{\"dryRun\":true,\"bundle\":\"/out/b.xsb\",\"sourceRoot\":\"/store\",\"sessions\":["
      "{\"id\":\"branch01\",\"newId\":null,\"path\":\"/dst/sessions/--w--/2026-01-03T00-00-00-000Z_branch01.jsonl\","
      "\"cwd\":\"/w\",\"oldCwd\":null,\"archived\":false,\"action\":\"imported\"},"
      "{\"id\":\"fork0001\",\"newId\":null,\"path\":\"/dst/sessions/--w--/2026-01-02T00-00-00-000Z_fork0001.jsonl\","
      "\"cwd\":\"/w\",\"oldCwd\":null,\"archived\":false,\"action\":\"imported\"},"
      "{\"id\":\"root0001\",\"newId\":null,\"path\":\"/dst/sessions/--w--/2026-01-01T00-00-00-000Z_root0001.jsonl\","
      "\"cwd\":\"/w\",\"oldCwd\":null,\"archived\":false,\"action\":\"imported\"}],"
      "\"blobs\":[{\"hash\":\"e90137d39de304eefbbe788bc535c7e82f27abbf8069505fbbd8a9dcdc4f2024\",\"action\":"
      "\"imported\"}],"
      "\"keys\":[{\"key\":\"agent:a:main\",\"action\":\"imported\"}]}");
}

}  // namespace
}  // namespace xs::bundle
