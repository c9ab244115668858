// bundle/: damaged and hostile bundles. Each is refused with kCorrupt and its exact message, and
// the target store's files are byte-identical afterwards (no staging file left either).
#include <gtest/gtest.h>

#include "blobs/blob_store.h"
#include "bundle/bundle_format.h"
#include "bundle/export.h"
#include "bundle/import.h"
#include "bundle_fixture.h"
#include "json/member_scanner.h"

namespace xs::bundle {
namespace {

using namespace xs::bundle::test;  // NOLINT: the fixture's names

constexpr const char* kBundle = "/out/h.xsb";

class BundleHostileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    src_ = fixed_store(fs_);
    auto r = export_bundle(src_, {"root0001"}, fs_, "/out/good.xsb", {});
    ASSERT_TRUE(r.ok()) << r.status().message();
    good_ = tar_members(xs::test::get_file(*fs_, "/out/good.xsb"));
    ASSERT_EQ(good_.size(), 3u);  // manifest, root0001, the blob
    dst_ = open_store(fs_, "/dst");
    xs::test::put_file(*fs_, "/dst/sessions/--y--/2026-01-05T00-00-00-000Z_mine0001.jsonl",
                       R"({"type":"session","version":3,"id":"mine0001","timestamp":"2026-01-05T00:00:00.000Z","cwd":"/y"})"
                       "\n");
    std::string hash;
    ASSERT_TRUE(dst_->blobs().put("mine", &hash).ok());
    before_ = snapshot(*fs_, "/dst");
  }

  // Imports `bytes` as a bundle and expects the refusal `message` (kCorrupt) with /dst unchanged.
  void refused(const std::string& bytes, const std::string& message, Code code = Code::kCorrupt) {
    xs::test::put_file(*fs_, kBundle, bytes);
    for (bool dry : {false, true}) {
      ImportOptions o;
      o.dry_run = dry;
      auto r = import_bundle(dst_, fs_, kBundle, o);
      EXPECT_EQ(r.status().code(), code) << r.status().message();
      EXPECT_EQ(r.status().message(), message);
      EXPECT_EQ(snapshot(*fs_, "/dst"), before_);
    }
  }
  std::vector<RawMember> good() const {
    std::vector<RawMember> out;
    for (const auto& [name, data] : good_) out.push_back({name, data});
    return out;
  }
  std::string manifest() const { return good_[0].second; }
  std::string session_member() const { return good_[1].first; }

  std::shared_ptr<storage::Fs> fs_ = storage::make_memory_fs();
  std::shared_ptr<store::Store> src_, dst_;
  std::vector<std::pair<std::string, std::string>> good_;
  std::map<std::string, std::string> before_;
};

TEST_F(BundleHostileTest, TheGoodBundleImports) {
  xs::test::put_file(*fs_, kBundle, raw_tar(good()));
  auto r = import_bundle(dst_, fs_, kBundle, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->sessions.size(), 1u);
}

TEST_F(BundleHostileTest, Truncated) {
  std::string whole = xs::test::get_file(*fs_, "/out/good.xsb");
  refused(whole.substr(0, whole.size() - 4), "not a bundle, or a damaged one (Truncated zstd input)");
  // A bundle of some size, cut where its data is: libarchive reads ahead only so far.
  std::string text;
  for (int i = 0; text.size() < (4u << 20); ++i) text += blobs::sha256_hex(std::to_string(i));
  std::string big = R"({"type":"session","version":3,"id":"big00001","timestamp":"2026-01-06T00:00:00.000Z","cwd":"/w"})"
                    "\n{\"type\":\"custom\",\"id\":\"c1\",\"parentId\":null,\"timestamp\":\"2026-01-06T00:00:00.000Z\","
                    "\"customType\":\"x\",\"data\":\"" + text + "\"}\n";
  xs::test::put_file(*fs_, "/store/sessions/--w--/2026-01-06T00-00-00-000Z_big00001.jsonl", big);
  ASSERT_TRUE(export_bundle(src_, {"big00001"}, fs_, "/out/big.xsb", {}).ok());
  std::string large = xs::test::get_file(*fs_, "/out/big.xsb");
  refused(large.substr(0, large.size() / 2), "the bundle is damaged or cut short (Truncated zstd input)");
}

TEST_F(BundleHostileTest, NotAnArchive) {
  refused("just some text\n", "not a bundle, or a damaged one (Unrecognized archive format)");
}

TEST_F(BundleHostileTest, WrongHash) {
  auto m = good();
  m[1].data[10] ^= 1;
  refused(raw_tar(m), "member \"" + session_member() + "\" does not match its SHA-256 in the manifest");
}

TEST_F(BundleHostileTest, DotDotAndAbsoluteNames) {
  for (const char* name : {"../evil.jsonl", "sessions/../../evil", "/etc/passwd", "C:/x"}) {
    auto m = good();
    m.insert(m.begin() + 1, RawMember{name, "x"});
    refused(raw_tar(m), std::string("member \"") + name + "\" has an absolute or \"..\" path");
  }
}

TEST_F(BundleHostileTest, LinksAndDevices) {
  auto symlink = good();
  symlink.insert(symlink.begin() + 1, RawMember{"sessions/a.jsonl", "", AE_IFLNK, "/etc/passwd"});
  refused(raw_tar(symlink), "member \"sessions/a.jsonl\" is a symbolic link, not a regular file");
  auto hardlink = good();
  hardlink.insert(hardlink.begin() + 2, RawMember{"sessions/b.jsonl", "", AE_IFREG, session_member()});
  refused(raw_tar(hardlink), "member \"sessions/b.jsonl\" is a hard link, not a regular file");
  auto device = good();
  device.insert(device.begin() + 1, RawMember{"blobs/dev", "", AE_IFCHR});
  refused(raw_tar(device), "member \"blobs/dev\" is a character device, not a regular file");
}

TEST_F(BundleHostileTest, LargerThanTheManifestSays) {
  auto m = good();
  m[1].data += "{\"more\":1}\n";
  refused(raw_tar(m), "member \"" + session_member() + "\" is larger than the manifest says (366 bytes)");
}

TEST_F(BundleHostileTest, SmallerThanTheManifestSays) {
  auto m = good();
  m[1].data.pop_back();
  refused(raw_tar(m), "member \"" + session_member() + "\" holds 365 bytes; the manifest says 366");
}

TEST_F(BundleHostileTest, ZipBombs) {
  // A blob declared as 16 bytes that inflates to 64 MiB of zeros (a few KiB compressed): reading
  // stops one byte past the 16.
  auto m = good();
  m[2].data = std::string(64 << 20, '\0');
  std::string bomb = raw_tar(m);
  EXPECT_LT(bomb.size(), 64u << 10);
  refused(bomb, std::string("member \"blobs/") + kBlobHash + "\" is larger than the manifest says (16 bytes)");
  // A manifest that declares more than any bundle may hold.
  std::string big = manifest();
  big.replace(big.find("\"size\":16"), 9, "\"size\":68719476737");
  auto declared = good();
  declared[0].data = big;
  refused(raw_tar(declared), "bad manifest: the members hold more than the 64 GiB a bundle may hold");
  // A manifest member larger than a manifest may be.
  auto huge = good();
  huge[0].data = std::string(17 << 20, ' ') + manifest();
  refused(raw_tar(huge), "manifest.json is larger than 16 MiB");
}

TEST_F(BundleHostileTest, AMemberNotInTheManifest) {
  auto m = good();
  m.push_back({"sessions/extra.jsonl", "{}\n"});
  refused(raw_tar(m), "member \"sessions/extra.jsonl\" is not in the manifest");
}

TEST_F(BundleHostileTest, ManifestMissingOrNotFirst) {
  auto missing = good();
  missing.erase(missing.begin());
  refused(raw_tar(missing), "the bundle's first member is \"" + session_member() + "\", not manifest.json");
  auto late = good();
  std::swap(late[0], late[1]);
  refused(raw_tar(late), "the bundle's first member is \"" + session_member() + "\", not manifest.json");
  refused(raw_tar({}), "the bundle is empty: it has no manifest.json");
}

TEST_F(BundleHostileTest, DuplicateMembers) {
  auto m = good();
  m.push_back(m[2]);
  refused(raw_tar(m), std::string("member \"blobs/") + kBlobHash + "\" appears twice");
}

TEST_F(BundleHostileTest, AMemberTheManifestListsNeverComes) {
  auto m = good();
  m.pop_back();
  refused(raw_tar(m), std::string("member \"blobs/") + kBlobHash + "\" is missing from the bundle");
}

TEST_F(BundleHostileTest, ManifestsThatLie) {
  auto unsafe = good();
  std::string text = manifest();
  unsafe[0].data = text.replace(text.find("\"path\":\"sessions/"), 17, "\"path\":\"sessions/../");
  refused(raw_tar(unsafe),
          "bad manifest: member name \"sessions/../2026-01-01T00-00-00-000Z_root0001.jsonl\" is not allowed");
  auto wrong_header = good();
  std::string session = wrong_header[1].data;
  session.replace(session.find("root0001"), 8, "root0002");
  std::string listed = manifest();
  listed.replace(listed.find("335af095"), 64, blobs::sha256_hex(session));
  wrong_header[0].data = listed;
  wrong_header[1].data = session;
  refused(raw_tar(wrong_header), "session root0001 (" + session_member() +
                                     ") does not start with the header its manifest entry describes");
  auto newer = good();
  std::string v2 = manifest();
  newer[0].data = v2.replace(v2.find("\"version\":1"), 11, "\"version\":2");
  refused(raw_tar(newer), "bundle format version 2 is not supported (this library reads version 1)", Code::kVersion);
  auto not_json = good();
  not_json[0].data = "{\"format\":";
  refused(raw_tar(not_json).substr(0), "bad manifest: not JSON (" + [] {
    std::vector<json::Member> m;
    bool o = false;
    return json::scan_members("{\"format\":", json::internal_limits(), &m, &o).message();
  }() + ")");
}

TEST_F(BundleHostileTest, NoSuchBundle) {
  auto r = import_bundle(dst_, fs_, "/out/none.xsb", {});
  EXPECT_EQ(r.status().code(), Code::kNotFound);
  EXPECT_EQ(r.status().message(), "bundle /out/none.xsb does not exist");
}

}  // namespace
}  // namespace xs::bundle
