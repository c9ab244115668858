// Upkeep through the C API: xs_session_verify / xs_session_repair (what `xs verify` and
// `xs repair` print; XS_REPAIR_QUARANTINE is in repair_test.cc) and the blob store's xs_blob_list /
// xs_blob_gc (`xs blobs ls|verify|gc`).
// Every report is compared whole; file bytes are compared exactly.
#include <sys/time.h>

#include <string>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::Fetch;
using xstest::HeaderLine;
using xstest::Line;
using xstest::MsgLine;
using xstest::ReadFile;
using xstest::Ts;
using xstest::WriteFile;

const char kAbcHash[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";     // "abc"
const char kHelloHash[] = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";   // "hello"
const char kMissingHash[] = "0000000000000000000000000000000000000000000000000000000000000000";

std::string Verify(xs_session* s) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_verify(s, b, c, n); });
}
std::string Repair(xs_session* s, xs_status* st = nullptr) {
  return Fetch([s](char* b, size_t c, size_t* n) { return xs_session_repair(s, 0, b, c, n); }, st);
}

std::string ImageMsg(const std::string& hash) {
  return R"({"role":"user","content":[{"type":"image","data":"blob:sha256:)" + hash +
         R"(","mimeType":"image/png"}],"timestamp":1})";
}

std::string Problem(uint64_t line, uint64_t offset, uint64_t length, const std::string& code,
                    const std::string& reason, bool fixable) {
  return "{\"line\":" + std::to_string(line) + ",\"offset\":" + std::to_string(offset) +
         ",\"length\":" + std::to_string(length) + ",\"code\":\"" + code + "\",\"reason\":\"" + reason +
         "\",\"fixable\":" + (fixable ? "true" : "false") + "}";
}

void SetMtime(const std::string& path, int64_t ms) {
  struct timeval tv[2];
  tv[0].tv_sec = tv[1].tv_sec = ms / 1000;
  tv[0].tv_usec = tv[1].tv_usec = (ms % 1000) * 1000;
  ASSERT_EQ(::utimes(path.c_str(), tv), 0) << path;
}

class UpkeepTest : public CapiTest {
 protected:
  std::string root() const { return root_.path(); }
  std::string Put(const std::string& bytes) {
    char hash[XS_HASH_BUFSIZE];
    EXPECT_EQ(xs_blob_put(store_, bytes.data(), bytes.size(), hash), XS_OK) << xs_store_errmsg(store_);
    return hash;
  }
  std::string BlobList(uint32_t flags = 0, xs_status* st = nullptr) {
    return Fetch([&](char* b, size_t c, size_t* n) { return xs_blob_list(store_, flags, b, c, n); }, st);
  }
  std::string Gc(int64_t now_ms, uint32_t flags = 0, xs_status* st = nullptr) {
    xs_gc_options o;
    EXPECT_EQ(xs_gc_options_init(&o, XS_GC_OPTIONS_VERSION), XS_OK);
    o.flags = flags;
    o.now_ms = now_ms;
    return Fetch([&](char* b, size_t c, size_t* n) { return xs_blob_gc(store_, &o, b, c, n); }, st);
  }
  std::string BlobPath(const std::string& hash) const { return root() + "/blobs/" + hash; }
};

// --- verify ------------------------------------------------------------------------------------

TEST_F(UpkeepTest, VerifyOfACleanSessionListsNoProblems) {
  std::string path = root() + "/clean.jsonl";
  std::string h = HeaderLine("s1", Ts(0), "/w");
  WriteFile(path, h + "\n" + MsgLine("m1", "", Ts(1), xstest::kUser1) + "\n");
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Verify(s), "{\"path\":\"" + path +
                           "\",\"id\":\"s1\",\"fileVersion\":3,\"needsMigration\":false,\"lines\":2,"
                           "\"entries\":1,\"blobRefs\":0,\"problems\":[]}");
}

TEST_F(UpkeepTest, VerifyFindsEveryKindOfProblemInLineOrder) {
  std::string path = root() + "/dirty.jsonl";
  std::string l0 = HeaderLine("s1", Ts(0), "/w");
  std::string l1 = MsgLine("m1", "", Ts(1), xstest::kUser1);
  std::string l2 = "not json";
  std::string l3 = MsgLine("m2", "gone", Ts(2), xstest::kUser2);   // orphan
  std::string l4 = MsgLine("m3", "m1", Ts(3), ImageMsg(kMissingHash));
  std::string l5 = MsgLine("m4", "m3", Ts(4), ImageMsg(kAbcHash));  // its blob is damaged below
  std::string l6 = MsgLine("m1", "", Ts(5), xstest::kUser3);         // duplicate id
  std::string l7 = "{\"type\":\"mess";                               // torn tail
  std::string text = l0 + "\n" + l1 + "\n" + l2 + "\n" + l3 + "\n" + l4 + "\n" + l5 + "\n" + l6 + "\n" + l7;
  WriteFile(path, text);
  ::mkdir((root() + "/blobs").c_str(), 0700);
  WriteFile(BlobPath(kAbcHash), "abd");
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  size_t o1 = l0.size() + 1, o2 = o1 + l1.size() + 1, o3 = o2 + l2.size() + 1, o4 = o3 + l3.size() + 1;
  size_t o5 = o4 + l4.size() + 1, o6 = o5 + l5.size() + 1, o7 = o6 + l6.size() + 1;
  // The parser's wording (simdjson's error messages) as the diagnostics report it.
  std::string bad_reason = "invalid JSON: Problem while parsing an atom starting with the letter 'n'";
  std::string torn_reason =
      "last line has no newline (an interrupted or unfinished write): invalid JSON: A string is opened, but never "
      "closed.";
  std::string want =
      "{\"path\":\"" + path +
      "\",\"id\":\"s1\",\"fileVersion\":3,\"needsMigration\":false,\"lines\":8,\"entries\":5,\"blobRefs\":2,"
      "\"problems\":[" +
      Problem(3, o2, l2.size(), "invalid_json", bad_reason, false) + "," +
      Problem(4, o3, l3.size(), "orphan", "entry m2 names parent gone, which is not in the session; it is read as a root",
              false) +
      "," +
      Problem(5, o4, l4.size(), "missing_blob",
              std::string("blob ") + kMissingHash + " is missing (referenced by entry m3)", false) +
      "," +
      Problem(6, o5, l5.size(), "corrupt_blob",
              std::string("blob ") + kAbcHash + " does not match its hash (referenced by entry m4)", false) +
      "," +
      Problem(7, o6, l6.size(), "duplicate_id", "id m1 also on line 2; this later entry wins", false) + "," +
      Problem(8, o7, l7.size(), "incomplete_tail", torn_reason, true) + "]}";
  EXPECT_EQ(Verify(s), want);
  EXPECT_EQ(ReadFile(path), text) << "verify never writes";
}

TEST_F(UpkeepTest, VerifyReportsAValidLastLineWithoutNewlineAsFixable) {
  std::string path = root() + "/nonl.jsonl";
  std::string l0 = HeaderLine("s1", Ts(0), "/w");
  std::string l1 = MsgLine("m1", "", Ts(1), xstest::kUser1);
  WriteFile(path, l0 + "\n" + l1);
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Verify(s), "{\"path\":\"" + path +
                           "\",\"id\":\"s1\",\"fileVersion\":3,\"needsMigration\":false,\"lines\":2,"
                           "\"entries\":1,\"blobRefs\":0,\"problems\":[" +
                           Problem(2, l0.size() + 1, l1.size(), "missing_newline",
                                   "the last line has no newline (the next append writes one first)", true) +
                           "]}");
}

TEST_F(UpkeepTest, VerifyOfAV1FileSaysItNeedsMigration) {
  std::string path = root() + "/v1.jsonl";
  WriteFile(path, R"({"type":"session","id":"old","timestamp":")" + Ts(0) + R"(","cwd":"/w"})" "\n" +
                      R"({"type":"message","timestamp":")" + Ts(1) + R"(","message":)" + xstest::kUser1 + "}\n");
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Verify(s), "{\"path\":\"" + path +
                           "\",\"id\":\"old\",\"fileVersion\":1,\"needsMigration\":true,\"lines\":2,"
                           "\"entries\":1,\"blobRefs\":0,\"problems\":[]}");
}

// --- repair ------------------------------------------------------------------------------------

TEST_F(UpkeepTest, RepairNeedsAWritableHandle) {
  std::string path = root() + "/ro.jsonl";
  WriteFile(path, HeaderLine("s1", Ts(0), "/w") + "\n{\"ty");
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  size_t n = 0;
  EXPECT_EQ(xs_session_repair(s, 0, nullptr, 0, &n), XS_EREADONLY);
  EXPECT_EQ(std::string(xs_session_errmsg(s)), path + " is open read-only");
  EXPECT_EQ(ReadFile(path), HeaderLine("s1", Ts(0), "/w") + "\n{\"ty");
}

TEST_F(UpkeepTest, RepairWritesTheMissingNewlineOnceAndKeepsTheFragment) {
  std::string path = root() + "/torn.jsonl";
  std::string l0 = HeaderLine("s1", Ts(0), "/w");
  std::string l1 = MsgLine("m1", "", Ts(1), xstest::kUser1);
  std::string frag = "{\"type\":\"message\",\"id\":\"m2\",\"par";
  WriteFile(path, l0 + "\n" + l1 + "\n" + frag);
  xs_session* s = Open(path);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Repair(s), "{\"path\":\"" + path + "\",\"done\":[{\"line\":3,\"offset\":" +
                           std::to_string(l0.size() + l1.size() + 2) + ",\"length\":" + std::to_string(frag.size()) +
                           ",\"code\":\"newline_written\",\"reason\":\"wrote the newline the torn last line lacked; "
                           "its bytes stay in the file as a skipped line\"}]}");
  EXPECT_EQ(ReadFile(path), l0 + "\n" + l1 + "\n" + frag + "\n");
  // The fragment is now a complete bad line, reported as a reopen reports it; nothing is fixable.
  std::string after = Verify(s);
  EXPECT_NE(after.find("\"code\":\"invalid_json\""), std::string::npos) << after;
  EXPECT_EQ(after.find("incomplete_tail"), std::string::npos) << after;
  EXPECT_EQ(after.find("\"fixable\":true"), std::string::npos) << after;
  EXPECT_EQ(Repair(s), "{\"path\":\"" + path + "\",\"done\":[]}");
  // The next append goes on its own line, after exactly one newline.
  std::string id = Msg(s, xstest::kUser2);
  std::string file = ReadFile(path);
  EXPECT_EQ(file.substr(0, l0.size() + l1.size() + frag.size() + 3), l0 + "\n" + l1 + "\n" + frag + "\n");
  EXPECT_EQ(xstest::SplitLines(file).size(), 4u);
  Close(s);
  xs_session* again = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(Verify(again).find("\"code\":\"invalid_json\"") != std::string::npos, true);
  EXPECT_EQ(xstest::Leaf(again), id);
}

TEST_F(UpkeepTest, RepairReportsTheMigrationItsOpenDid) {
  std::string path = root() + "/v1.jsonl";
  WriteFile(path, R"({"type":"session","id":"old","timestamp":")" + Ts(0) + R"(","cwd":"/w"})" "\n" +
                      R"({"type":"message","timestamp":")" + Ts(1) + R"(","message":)" + xstest::kUser1 + "}\n");
  xs_session* s = Open(path);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(Repair(s), "{\"path\":\"" + path +
                           "\",\"done\":[{\"line\":0,\"offset\":0,\"length\":0,\"code\":\"migrated\",\"reason\":"
                           "\"rewritten from version 1 to 3 (atomically) when opened for writing\"}]}");
  EXPECT_EQ(ReadFile(path).find("\"version\":3"), ReadFile(path).find("\"cwd\":\"/w\"") + 11);
  std::string v = Verify(s);
  EXPECT_NE(v.find("\"fileVersion\":1,\"needsMigration\":false"), std::string::npos) << v;
}

TEST_F(UpkeepTest, RepairReportsAHeaderlessFilePreservedByItsOpen) {
  std::string path = root() + "/nohead.jsonl";
  WriteFile(path, "garbage\n");
  xs_session* s = Open(path);
  ASSERT_NE(s, nullptr);
  std::string r = Repair(s);
  std::string copy = path + ".corrupt-";
  EXPECT_NE(r.find("\"code\":\"corrupt_file_preserved\",\"reason\":\"the file had no session header; its bytes "
                   "were kept as " + copy),
            std::string::npos)
      << r;
  std::string kept = r.substr(r.find(copy));
  kept = kept.substr(0, kept.find('"'));
  EXPECT_EQ(ReadFile(kept), "garbage\n");
}

TEST_F(UpkeepTest, RepairSizeQueryThenFillDoesTheWorkOnce) {
  std::string path = root() + "/once.jsonl";
  std::string l0 = HeaderLine("s1", Ts(0), "/w");
  WriteFile(path, l0 + "\nfrag");
  xs_session* s = Open(path);
  ASSERT_NE(s, nullptr);
  size_t need = 0;
  ASSERT_EQ(xs_session_repair(s, 0, nullptr, 0, &need), XS_EBUFS);
  EXPECT_EQ(ReadFile(path), l0 + "\nfrag\n");
  std::string out(need, '\0');
  size_t got = 0;
  ASSERT_EQ(xs_session_repair(s, 0, &out[0], out.size(), &got), XS_OK);
  EXPECT_NE(out.find("newline_written"), std::string::npos) << out;
  EXPECT_EQ(ReadFile(path), l0 + "\nfrag\n");
}

// --- blobs -------------------------------------------------------------------------------------

TEST_F(UpkeepTest, BlobListOfAStoreWithoutBlobs) {
  EXPECT_EQ(BlobList(), "{\"count\":0,\"bytes\":0,\"blobs\":[],\"others\":[]}");
}

TEST_F(UpkeepTest, BlobListAndVerify) {
  Put("abc");
  Put("hello");
  SetMtime(BlobPath(kAbcHash), 1700000000123);
  SetMtime(BlobPath(kHelloHash), 1700000001000);
  WriteFile(root() + "/blobs/notes.txt", "xy");
  SetMtime(root() + "/blobs/notes.txt", 1700000002000);
  std::string others = "\"others\":[{\"name\":\"notes.txt\",\"size\":2,\"mtimeMs\":1700000002000}]}";
  EXPECT_EQ(BlobList(), std::string("{\"count\":2,\"bytes\":8,\"blobs\":[") + "{\"hash\":\"" + kHelloHash +
                            "\",\"size\":5,\"mtimeMs\":1700000001000},{\"hash\":\"" + kAbcHash +
                            "\",\"size\":3,\"mtimeMs\":1700000000123}]," + others);
  WriteFile(BlobPath(kAbcHash), "abd");
  SetMtime(BlobPath(kAbcHash), 1700000000123);
  EXPECT_EQ(BlobList(XS_BLOB_LIST_VERIFY),
            std::string("{\"count\":2,\"bytes\":8,\"blobs\":[") + "{\"hash\":\"" + kHelloHash +
                "\",\"size\":5,\"mtimeMs\":1700000001000,\"problem\":null},{\"hash\":\"" + kAbcHash +
                "\",\"size\":3,\"mtimeMs\":1700000000123,\"problem\":\"blob " + kAbcHash +
                " does not match its hash\"}]," + others);
  size_t n = 0;
  EXPECT_EQ(xs_blob_list(store_, 0x2, nullptr, 0, &n), XS_EINVAL);
}

TEST_F(UpkeepTest, GcKeepsReferencedAndYoungBlobsAndDeletesTheRest) {
  const int64_t t = 1700000000000;
  std::string used = Put("abc"), unused = Put("hello");
  // A session references "abc"; a preserved corrupt copy (not a session) references a third blob.
  xs_session* s = Create(XS_SESSION_NO_DEFER);
  ASSERT_NE(s, nullptr);
  Msg(s, ImageMsg(used));
  std::string copy_only = Put("kept by a copy");
  WriteFile(xstest::PathOf(s) + ".corrupt-1", "blob:sha256:" + copy_only + "\n");
  std::string leftover = root() + "/blobs/." + unused + ".xs-tmp-abc123";
  WriteFile(leftover, "hel");
  for (const std::string& h : {used, unused, copy_only}) SetMtime(BlobPath(h), t);
  SetMtime(leftover, t);

  // Within the grace period nothing goes. Scanned: the session, its copy, its (empty) lock file.
  std::string young = Gc(t + 3599999);
  EXPECT_EQ(young, "{\"dryRun\":false,\"filesScanned\":3,\"referenced\":2,\"bytesFreed\":0,\"deleted\":[],"
                   "\"young\":[{\"name\":\"" + unused + "\",\"size\":5,\"mtimeMs\":1700000000000},"
                   "{\"name\":\"." + unused + ".xs-tmp-abc123\",\"size\":3,\"mtimeMs\":1700000000000}],"
                   "\"missing\":[]}");
  EXPECT_TRUE(xstest::Exists(BlobPath(unused)));

  // A dry run past it names them and deletes nothing.
  std::string gone = "\"deleted\":[{\"name\":\"" + unused + "\",\"size\":5,\"mtimeMs\":1700000000000},"
                     "{\"name\":\"." + unused + ".xs-tmp-abc123\",\"size\":3,\"mtimeMs\":1700000000000}],"
                     "\"young\":[],\"missing\":[]}";
  EXPECT_EQ(Gc(t + 3600000, XS_GC_DRY_RUN), "{\"dryRun\":true,\"filesScanned\":3,\"referenced\":2,\"bytesFreed\":8," + gone);
  EXPECT_TRUE(xstest::Exists(BlobPath(unused)));
  EXPECT_TRUE(xstest::Exists(leftover));

  EXPECT_EQ(Gc(t + 3600000), "{\"dryRun\":false,\"filesScanned\":3,\"referenced\":2,\"bytesFreed\":8," + gone);
  EXPECT_FALSE(xstest::Exists(BlobPath(unused)));
  EXPECT_FALSE(xstest::Exists(leftover));
  EXPECT_EQ(ReadFile(BlobPath(used)), "abc");
  EXPECT_EQ(ReadFile(BlobPath(copy_only)), "kept by a copy");
}

TEST_F(UpkeepTest, GcOnTheSystemClockRunsOnceAcrossSizeQueryAndFill) {
  std::string unused = Put("hello");
  xs_gc_options o;
  ASSERT_EQ(xs_gc_options_init(&o, XS_GC_OPTIONS_VERSION), XS_OK);
  o.grace_ms = 0;  // now_ms stays 0: the system clock, which moves between the two calls
  std::string report = Fetch([&](char* b, size_t c, size_t* n) { return xs_blob_gc(store_, &o, b, c, n); });
  EXPECT_NE(report.find("\"deleted\":[{\"name\":\"" + unused + "\""), std::string::npos) << report;
  EXPECT_FALSE(xstest::Exists(BlobPath(unused)));
}

TEST_F(UpkeepTest, GcReportsReferencedBlobsThatAreMissing) {
  WriteFile(root() + "/s.jsonl", std::string("blob:sha256:") + kMissingHash + "\n");
  EXPECT_EQ(Gc(1700000000000), std::string("{\"dryRun\":false,\"filesScanned\":1,\"referenced\":0,\"bytesFreed\":0,"
                                           "\"deleted\":[],\"young\":[],\"missing\":[\"") +
                                   kMissingHash + "\"]}");
}

TEST_F(UpkeepTest, GcDeletesNothingWhenTheMarkCannotFinish) {
  std::string unused = Put("hello");
  SetMtime(BlobPath(unused), 1700000000000);
  ::mkdir((root() + "/sessions").c_str(), 0700);
  ASSERT_EQ(::symlink(".", (root() + "/sessions/loop").c_str()), 0);
  xs_status st = XS_OK;
  Gc(1800000000000, 0, &st);
  // The kernel stops the walk first (ELOOP after 40 links); the engine's own depth limit (64)
  // would stop a bind-mount loop the kernel lets through.
  EXPECT_EQ(st, XS_EIO);
  EXPECT_NE(std::string(xs_store_errmsg(store_)).find("for blob references"), std::string::npos)
      << xs_store_errmsg(store_);
  EXPECT_TRUE(xstest::Exists(BlobPath(unused)));
}

TEST_F(UpkeepTest, GcOptionsAreChecked) {
  xs_gc_options o;
  ASSERT_EQ(xs_gc_options_init(&o, XS_GC_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, 1u);
  EXPECT_EQ(o.flags, 0u);
  EXPECT_EQ(o.grace_ms, 3600000);
  EXPECT_EQ(o.now_ms, 0);
  EXPECT_EQ(xs_gc_options_init(&o, 2), XS_EVERSION);
  EXPECT_EQ(xs_gc_options_init(nullptr, XS_GC_OPTIONS_VERSION), XS_EINVAL);
  size_t n = 0;
  xs_gc_options bad = o;
  bad.grace_ms = -1;
  EXPECT_EQ(xs_blob_gc(store_, &bad, nullptr, 0, &n), XS_EINVAL);
  EXPECT_EQ(std::string(xs_store_errmsg(store_)), "xs_gc_options.grace_ms is negative");
  bad = o;
  bad.flags = 0x4;
  EXPECT_EQ(xs_blob_gc(store_, &bad, nullptr, 0, &n), XS_EINVAL);
  bad = o;
  bad.version = 9;
  EXPECT_EQ(xs_blob_gc(store_, &bad, nullptr, 0, &n), XS_EVERSION);
  EXPECT_EQ(xs_blob_gc(nullptr, &o, nullptr, 0, &n), XS_EMISUSE);
  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_blob_gc(closed, &o, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_blob_list(closed, 0, nullptr, 0, &n), XS_EMISUSE);
  xs_store_free(closed);
  EXPECT_EQ(xs_session_verify(nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(xs_session_repair(nullptr, 0, nullptr, 0, &n), XS_EMISUSE);
}

TEST_F(UpkeepTest, AFileNameThatIsNotUtf8ComesBackAsValidJsonAndForksCleanly) {
  std::string path = root() + "/bad\xff.jsonl";
  std::string shown = root() + "/bad\xef\xbf\xbd.jsonl";  // U+FFFD in place of the byte
  WriteFile(path, HeaderLine("s1", Ts(0), "/w") + "\n" + MsgLine("m1", "", Ts(1), xstest::kUser1) + "\n");
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(xstest::JsonStr(xstest::Info(s), "path"), shown);
  EXPECT_NE(Verify(s).find("{\"path\":\"" + shown + "\""), std::string::npos);
  xs_session_options o = Opts(0);
  xs_session* branched = nullptr;
  ASSERT_EQ(xs_session_create_branched(s, nullptr, &o, &branched), XS_OK) << xs_session_errmsg(s);
  owned_.push_back(branched);
  std::string file = ReadFile(xstest::PathOf(branched));
  EXPECT_NE(file.find("\"parentSession\":\"" + shown + "\""), std::string::npos) << file;
  xs_session* again = Open(xstest::PathOf(branched), XS_SESSION_READ_ONLY);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(xstest::Diagnostics(again), "[]");
  EXPECT_EQ(xstest::JsonStr(xstest::Header(again), "parentSession"), shown);
}

TEST_F(UpkeepTest, InfoCountsEntriesByType) {
  std::string path = root() + "/types.jsonl";
  WriteFile(path, HeaderLine("s1", Ts(0), "/w") + "\n" + MsgLine("m1", "", Ts(1), xstest::kUser1) + "\n" +
                      Line("thinking_level_change", "t1", "m1", Ts(2), "\"thinkingLevel\":\"high\"") + "\n" +
                      Line("future_kind", "f1", "t1", Ts(3), "") + "\n" +
                      MsgLine("m2", "f1", Ts(4), xstest::kAssistant1) + "\n" +
                      Line("label", "l1", "m2", Ts(5), "\"targetId\":\"m1\",\"label\":\"start\"") + "\n");
  xs_session* s = Open(path, XS_SESSION_READ_ONLY);
  ASSERT_NE(s, nullptr);
  std::string info = xstest::Info(s);
  EXPECT_EQ(info.substr(info.find(",\"entryTypes\"")),
            ",\"entryTypes\":{\"message\":2,\"thinking_level_change\":1,\"label\":1,\"unknown\":1}}");
}

}  // namespace
