// Several sessions, the index page and the refusals of export_html (docs/html-view.md#export).
#include "html/html_export.h"

#include <gtest/gtest.h>

#include <string>

#include "storage/fs.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::html {
namespace {

using test::TempDir;

class HtmlExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto st = store::Store::open(root_.path());
    ASSERT_TRUE(st.ok()) << st.status().message();
    store_ = *st;
  }

  std::string put_session(const std::string& id, const std::string& text) {
    std::string path = root_.file("sessions/--w--/2026-01-01T00-00-00-000Z_" + id + ".jsonl");
    test::put_file(
        *store_->fs(), path,
        "{\"type\":\"session\",\"version\":3,\"id\":\"" + id +
            "\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n"
            "{\"type\":\"message\",\"id\":\"u1\",\"parentId\":null,\"timestamp\":\"2026-01-01T00:00:01.000Z\","
            "\"message\":{\"role\":\"user\",\"content\":\"" +
            text + "\"}}\n");
    return path;
  }

  Result<ExportReport> run(const std::vector<std::string>& refs, const std::string& out) {
    return export_html(*store_, *disk_, refs, out);
  }

  TempDir root_, out_;
  std::shared_ptr<store::Store> store_;
  std::shared_ptr<storage::Fs> disk_ = storage::make_posix_fs();
};

TEST_F(HtmlExportTest, SeveralSessionsGetAPageEachAndAnIndex) {
  put_session("aaaa1111", "first <one>");
  put_session("bbbb2222", "second");
  std::string dir = out_.file("pages/deeper");  // made with its parents
  auto r = run({"aaaa", "bbbb2222"}, dir);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(test::list_dir(dir), (std::vector<std::string>{"aaaa1111.html", "bbbb2222.html", "index.html"}));
  ASSERT_EQ(r->pages.size(), 2u);
  EXPECT_EQ(r->pages[0].path, dir + "/aaaa1111.html");
  EXPECT_EQ(r->pages[1].session_id, "bbbb2222");
  EXPECT_EQ(r->index_path, dir + "/index.html");
  std::string index = test::read_file(dir + "/index.html");
  EXPECT_EQ(r->index_bytes, index.size());
  EXPECT_NE(index.find("<tr><td><a href=\"aaaa1111.html\">first &lt;one&gt;</a><br><code>aaaa1111</code></td>"
                       "<td>2026-01-01T00:00:00.000Z</td><td>/w</td><td>1</td><td>1</td><td>0</td></tr>"),
            std::string::npos);
  EXPECT_NE(index.find("<a href=\"bbbb2222.html\">second</a>"), std::string::npos);
  EXPECT_EQ(report_json(*r), "{\"pages\":[{\"path\":\"" + dir +
                                 "/aaaa1111.html\",\"sessionId\":\"aaaa1111\",\"entries\":1,\"messages\":1,"
                                 "\"branchPoints\":0,\"branches\":0,\"bytes\":" +
                                 std::to_string(r->pages[0].bytes) + "},{\"path\":\"" + dir +
                                 "/bbbb2222.html\",\"sessionId\":\"bbbb2222\",\"entries\":1,\"messages\":1,"
                                 "\"branchPoints\":0,\"branches\":0,\"bytes\":" +
                                 std::to_string(r->pages[1].bytes) + "}],\"index\":{\"path\":\"" + dir +
                                 "/index.html\",\"bytes\":" + std::to_string(index.size()) + "}}");
}

TEST_F(HtmlExportTest, APageIsReplacedWholeAndNoTempFileStays) {
  put_session("aaaa1111", "v1");
  std::string out = out_.file("p.html");
  test::write_file(out, "old page");
  ASSERT_TRUE(run({"aaaa1111"}, out).ok());
  EXPECT_NE(test::read_file(out).find("<p>v1</p>"), std::string::npos);
  EXPECT_EQ(test::list_dir(out_.path()), std::vector<std::string>{"p.html"});
}

TEST_F(HtmlExportTest, RefusalsWriteNothing) {
  std::string a = put_session("aaaa1111", "x");
  put_session("aaaa2222", "y");
  std::string dir = out_.file("d");
  auto expect = [&](const std::vector<std::string>& refs, const std::string& out, Code code, const std::string& msg) {
    auto r = run(refs, out);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), code) << r.status().message();
    EXPECT_EQ(r.status().message(), msg);
  };
  expect({}, dir, Code::kInvalid, "no session to export");
  expect({""}, dir, Code::kInvalid, ": an empty session reference");
  expect({"zzzz"}, dir, Code::kNotFound, "zzzz: no session matches \"zzzz\"");
  expect({"aaaa"}, dir, Code::kAmbiguous,
         "aaaa: \"aaaa\" matches 2 sessions: 2026-01-01T00-00-00-000Z_aaaa1111.jsonl, "
         "2026-01-01T00-00-00-000Z_aaaa2222.jsonl");
  expect({"aaaa1111", a}, dir, Code::kInvalid, a + ": session aaaa1111 is named twice");
  expect({"aaaa1111"}, out_.path(), Code::kInvalid,
         out_.path() + " is a directory: one session's page needs a file name");
  expect({"aaaa1111"}, out_.file("missing/p.html"), Code::kNotFound, out_.file("missing") + ": no such directory");
  test::write_file(out_.file("file"), "");
  expect({"aaaa1111", "aaaa2222"}, out_.file("file"), Code::kInvalid,
         out_.file("file") + " is not a directory: several sessions are written as a directory of pages");
  EXPECT_EQ(test::list_dir(out_.path()), std::vector<std::string>{"file"});
}

TEST_F(HtmlExportTest, ASessionIdThatCannotNameAPageIsRefusedForSeveral) {
  put_session("aaaa1111", "x");
  std::string odd = root_.file("odd.jsonl");
  test::write_file(
      odd,
      "{\"type\":\"session\",\"version\":3,\"id\":\"../../evil\",\"timestamp\":\"2026-01-01T00:00:00.000Z\","
      "\"cwd\":\"/w\"}\n");
  auto r = run({"aaaa1111", odd}, out_.file("d"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalid);
  EXPECT_EQ(r.status().message(), odd +
                                      ": the session id \"../../evil\" cannot name a page (letters, digits, '-', '_' "
                                      "and '.' only, no leading '.')");
  EXPECT_FALSE(test::file_exists(out_.file("d")));
  // Alone it names no file: its page is where the caller says, its id only escaped text.
  std::string out = out_.file("odd.html");
  ASSERT_TRUE(run({odd}, out).ok());
  EXPECT_NE(test::read_file(out).find("<dd>../../evil</dd>"), std::string::npos);
}

}  // namespace
}  // namespace xs::html
