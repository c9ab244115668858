// The HTML view through the C API (docs/html-view.md): xs_html_options, xs_export_html's report
// (one page, several with an index), the XS_EBUFS retry that copies the report without rendering
// again, pages of an in-memory store on the disk, and every refusal with its status and message.
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

using xstest::CapiTest;
using xstest::TempDir;

class Html : public CapiTest {
 protected:
  // A session "<id>" with a user message holding markup, and an assistant reply.
  std::string Make(const char* id, xs_store* st = nullptr) {
    xs_session_options o = Opts(XS_SESSION_NO_DEFER);
    o.session_id = id;
    xs_session* s = nullptr;
    EXPECT_EQ(xs_session_create(st ? st : store_, "/w", &o, &s), XS_OK) << xs_store_errmsg(st ? st : store_);
    Msg(s, R"J({"role":"user","content":"<script>alert(1)</script> and [x](javascript:y)"})J");
    Msg(s, xstest::kAssistant1);
    std::string path = xstest::PathOf(s);
    xs_session_close(s);
    return path;
  }
  std::string Export(const std::vector<const char*>& ids, const std::string& out, xs_status* status = nullptr,
                     const xs_html_options* o = nullptr, xs_store* st = nullptr) {
    return xstest::Fetch(
        [&](char* b, size_t c, size_t* n) {
          return xs_export_html(st ? st : store_, ids.data(), ids.size(), out.c_str(), o, b, c, n);
        },
        status);
  }
  // The report of one page, as xsession.h describes it.
  static std::string PageJson(const std::string& path, const std::string& id, size_t bytes) {
    return "{\"path\":\"" + path + "\",\"sessionId\":\"" + id +
           "\",\"entries\":2,\"messages\":2,\"branchPoints\":0,\"branches\":0,\"bytes\":" + std::to_string(bytes) + "}";
  }
  TempDir out_;
};

TEST_F(Html, OptionsInit) {
  xs_html_options o;
  EXPECT_EQ(xs_html_options_init(nullptr, XS_HTML_OPTIONS_VERSION), XS_EINVAL);
  EXPECT_EQ(xs_html_options_init(&o, XS_HTML_OPTIONS_VERSION + 1), XS_EVERSION);
  o.flags = 7;
  ASSERT_EQ(xs_html_options_init(&o, XS_HTML_OPTIONS_VERSION), XS_OK);
  EXPECT_EQ(o.version, static_cast<uint32_t>(XS_HTML_OPTIONS_VERSION));
  EXPECT_EQ(o.flags, 0u);
}

TEST_F(Html, OneSessionIsOnePageAndItsScriptIsText) {
  Make("aaaa1111");
  std::string out = out_ / "page.html";
  xs_html_options o;
  ASSERT_EQ(xs_html_options_init(&o, XS_HTML_OPTIONS_VERSION), XS_OK);
  std::string report = Export({"aaaa1111"}, out, nullptr, &o);
  std::string page = xstest::ReadFile(out);
  EXPECT_EQ(report, "{\"pages\":[" + PageJson(out, "aaaa1111", page.size()) + "],\"index\":null}");
  EXPECT_EQ(xstest::Count(page, "<script"), 0u);
  // The first prompt is the page's title: text there, escaped.
  EXPECT_EQ(xstest::Count(page, "<title>&lt;script&gt;alert(1)&lt;/script&gt; and [x](javascript:y)</title>"), 1u);
  EXPECT_EQ(xstest::Count(page, "<h1>&lt;script&gt;alert(1)&lt;/script&gt; and [x](javascript:y)</h1>"), 1u);
  EXPECT_EQ(xstest::Count(page, "javascript:"), 2u);  // those two, no link
  // In the message, the line is an HTML block (it starts with <script>): cmark drops it whole.
  EXPECT_EQ(xstest::Count(page, "</header><div class=\"md\"><!-- raw HTML omitted -->\n</div></article>"), 1u);
  EXPECT_EQ(xstest::Count(page, "<article class=\"entry msg "), 2u);
}

TEST_F(Html, SeveralSessionsAreADirectoryWithAnIndex) {
  Make("aaaa1111");
  Make("bbbb2222");
  std::string dir = out_ / "pages";
  std::string report = Export({"bbbb", "aaaa1111"}, dir);
  EXPECT_EQ(xstest::ListDir(dir), (std::vector<std::string>{"aaaa1111.html", "bbbb2222.html", "index.html"}));
  size_t a = xstest::ReadFile(dir + "/aaaa1111.html").size(), b = xstest::ReadFile(dir + "/bbbb2222.html").size(),
         index = xstest::ReadFile(dir + "/index.html").size();
  EXPECT_EQ(report, "{\"pages\":[" + PageJson(dir + "/bbbb2222.html", "bbbb2222", b) + "," +
                        PageJson(dir + "/aaaa1111.html", "aaaa1111", a) + "],\"index\":{\"path\":\"" + dir +
                        "/index.html\",\"bytes\":" + std::to_string(index) + "}}");
}

TEST_F(Html, TheRetryAfterEbufsCopiesTheReportWithoutRenderingAgain) {
  Make("aaaa1111");
  std::string out = out_ / "page.html";
  const char* ids[] = {"aaaa1111"};
  size_t need = 0;
  ASSERT_EQ(xs_export_html(store_, ids, 1, out.c_str(), nullptr, nullptr, 0, &need), XS_EBUFS);
  std::string first_page = xstest::ReadFile(out);
  ASSERT_EQ(::remove(out.c_str()), 0);
  std::string report(need, '\0');
  size_t got = 0;
  ASSERT_EQ(xs_export_html(store_, ids, 1, out.c_str(), nullptr, &report[0], need, &got), XS_OK);
  EXPECT_EQ(got, need);
  EXPECT_EQ(report, "{\"pages\":[" + PageJson(out, "aaaa1111", first_page.size()) + "],\"index\":null}");
  EXPECT_FALSE(xstest::Exists(out));  // copied, not rendered again
  // Another call renders again.
  EXPECT_EQ(Export({"aaaa1111"}, out), report);
  EXPECT_EQ(xstest::ReadFile(out), first_page);
}

TEST_F(Html, PagesOfAnInMemoryStoreGoToTheDisk) {
  xs_store_options so;
  ASSERT_EQ(xs_store_options_init(&so, XS_STORE_OPTIONS_VERSION), XS_OK);
  so.flags = XS_STORE_IN_MEMORY;
  xs_store* mem = xs_store_new();
  ASSERT_EQ(xs_store_open(mem, "", &so), XS_OK) << xs_store_errmsg(mem);
  Make("cccc3333", mem);
  std::string out = out_ / "mem.html";
  std::string report = Export({"cccc3333"}, out, nullptr, nullptr, mem);
  EXPECT_EQ(report, "{\"pages\":[" + PageJson(out, "cccc3333", xstest::ReadFile(out).size()) + "],\"index\":null}");
  xs_store_free(mem);
}

TEST_F(Html, Refusals) {
  Make("aaaa1111");
  Make("aaaa2222");
  std::string out = out_ / "p.html";
  const char* one[] = {"aaaa1111"};
  size_t n = 0;
  auto expect = [&](xs_status got, xs_status want, const std::string& msg) {
    EXPECT_EQ(got, want) << xs_store_errmsg(store_);
    EXPECT_EQ(xs_store_errmsg(store_), msg);
  };
  EXPECT_EQ(xs_export_html(nullptr, one, 1, out.c_str(), nullptr, nullptr, 0, &n), XS_EMISUSE);
  expect(xs_export_html(store_, nullptr, 1, out.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL, "session_ids is NULL");
  expect(xs_export_html(store_, one, 0, out.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL,
         "n_ids is 0: name at least one session");
  expect(xs_export_html(store_, one, 1, nullptr, nullptr, nullptr, 0, &n), XS_EINVAL, "out_path is NULL");
  expect(xs_export_html(store_, one, 1, out.c_str(), nullptr, nullptr, 0, nullptr), XS_EINVAL, "out_len is NULL");
  expect(xs_export_html(store_, one, 1, "", nullptr, nullptr, 0, &n), XS_EINVAL, "no output path");
  const char* with_null[] = {"aaaa1111", nullptr};
  expect(xs_export_html(store_, with_null, 2, out.c_str(), nullptr, nullptr, 0, &n), XS_EINVAL,
         "session_ids[1] is NULL");
  xs_html_options o;
  ASSERT_EQ(xs_html_options_init(&o, XS_HTML_OPTIONS_VERSION), XS_OK);
  o.flags = 1;
  expect(xs_export_html(store_, one, 1, out.c_str(), &o, nullptr, 0, &n), XS_EINVAL,
         "unknown bits in xs_html_options.flags");
  o.flags = 0;
  o.version = 99;
  expect(xs_export_html(store_, one, 1, out.c_str(), &o, nullptr, 0, &n), XS_EVERSION,
         "xs_html_options version 99 is not supported");
  const char* prefix[] = {"aaaa"};
  EXPECT_EQ(xs_export_html(store_, prefix, 1, out.c_str(), nullptr, nullptr, 0, &n), XS_EAMBIGUOUS);
  const char* unknown[] = {"zzzz"};
  expect(xs_export_html(store_, unknown, 1, out.c_str(), nullptr, nullptr, 0, &n), XS_ENOTFOUND,
         "zzzz: no session matches \"zzzz\"");
  const char* twice[] = {"aaaa1111", "aaaa1111"};
  expect(xs_export_html(store_, twice, 2, out_.path().c_str(), nullptr, nullptr, 0, &n), XS_EINVAL,
         "aaaa1111: session aaaa1111 is named twice");
  expect(xs_export_html(store_, one, 1, out_.path().c_str(), nullptr, nullptr, 0, &n), XS_EINVAL,
         out_.path() + " is a directory: one session's page needs a file name");
  std::string not_a_session = out_ / "x.jsonl";
  xstest::WriteFile(not_a_session, "no header\n");
  const char* bad[] = {not_a_session.c_str()};
  EXPECT_EQ(xs_export_html(store_, bad, 1, out.c_str(), nullptr, nullptr, 0, &n), XS_ENOHEADER);
  EXPECT_EQ(xstest::ListDir(out_.path()), std::vector<std::string>{"x.jsonl"});
  xs_store* closed = xs_store_new();
  EXPECT_EQ(xs_export_html(closed, one, 1, out.c_str(), nullptr, nullptr, 0, &n), XS_EMISUSE);
  EXPECT_EQ(std::string(xs_store_errmsg(closed)), "the store is not open (call xs_store_open first)");
  xs_store_free(closed);
}

}  // namespace
