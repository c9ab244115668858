// The page of a session (docs/html-view.md#the-page): hostile content stays text, the structure
// (messages, branch points, marks, images) is what the session holds. Exact bytes where they
// matter.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "html/html_export.h"
#include "html/session_page.h"
#include "storage/fs.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::html {
namespace {

using test::TempDir;

// A 2x2 PNG and its base64.
constexpr char kPngBase64[] =
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8DAAMJgAgAZ9AL+q0FWvAAAAABJRU5ErkJggg==";

std::string base64_decode(std::string_view in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : 63;
  };
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    if (c == '=') break;
    acc = (acc << 6) | static_cast<uint32_t>(value(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

size_t count(const std::string& hay, std::string_view needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

// Every tag of the page (from '<' to '>'), for checks that no attribute carries script.
std::vector<std::string> tags(const std::string& page) {
  std::vector<std::string> out;
  static const std::regex tag("<[^>]*>");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), tag); it != std::sregex_iterator(); ++it) {
    out.push_back(it->str());
  }
  return out;
}

class HtmlPageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto st = store::Store::open(root_.path());
    ASSERT_TRUE(st.ok()) << st.status().message();
    store_ = *st;
    ASSERT_TRUE(store_->blobs().put(base64_decode(kPngBase64), &png_hash_).ok());
  }

  // Writes a session file of `lines` (after the header of `id`) into the store; returns its path.
  std::string put_session(const std::string& id, const std::vector<std::string>& lines) {
    std::string text = "{\"type\":\"session\",\"version\":3,\"id\":\"" + id +
                       "\",\"timestamp\":\"2026-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}\n";
    for (const std::string& l : lines) text += l + "\n";
    std::string path = root_.file("sessions/--w--/2026-01-01T00-00-00-000Z_" + id + ".jsonl");
    test::put_file(*store_->fs(), path, text);
    return path;
  }

  // The hostile session: a branch at u1 (the abandoned path a1..a2, the current one bs, u2).
  std::string put_hostile() {
    return put_session(
        "h0stile",
        {R"J({"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"Hi <script>alert(1)</script> \"><img src=x onerror=alert(1)> [click](javascript:alert(2))"}})J",
         R"J({"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"deep <b>thought</b>"},{"type":"text","text":"Here:\n\n```js\nif (a < b) { x(\"</pre>\"); }\n```\n\n<script>alert(3)</script>\n\n[ok](https://example.com/)"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"echo '<script>alert(4)</script>'","url":"javascript:alert(5)","n":3}}],"provider":"anthropic","model":"claude-x","stopReason":"toolUse"}})J",
         R"J({"type":"message","id":"t1","parentId":"a1","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash\"><script>","content":[{"type":"text","text":"<script>alert(6)</script>"},{"type":"image","data":"blob:sha256:)J" +
             png_hash_ + R"J(","mimeType":"image/png"}],"isError":false}})J",
         R"J({"type":"label","id":"l1","parentId":"t1","timestamp":"2026-01-01T00:00:04.000Z","targetId":"u1","label":"start <here>"})J",
         R"J({"type":"compaction","id":"k1","parentId":"l1","timestamp":"2026-01-01T00:00:05.000Z","summary":"Summary **bold**","firstKeptEntryId":"a1","tokensBefore":1234})J",
         R"J({"type":"message","id":"a2","parentId":"k1","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"assistant","content":[{"type":"text","text":"after"}],"provider":"p","model":"m","stopReason":"error","errorMessage":"<boom>"}})J",
         R"J({"type":"branch_summary","id":"bs","parentId":"u1","timestamp":"2026-01-01T00:00:07.000Z","fromId":"u1","summary":"abandoned <path>"})J",
         R"J({"type":"message","id":"u2","parentId":"bs","timestamp":"2026-01-01T00:00:08.000Z","message":{"role":"user","content":[{"type":"text","text":"second"},{"type":"image","data":")J" +
             std::string(kPngBase64) +
             R"J(","mimeType":"image/png"},{"type":"image","data":"PHN2Zz4=","mimeType":"image/svg+xml"}]}})J"});
  }

  Result<ExportReport> export_to(const std::vector<std::string>& refs, const std::string& out) {
    return export_html(*store_, *disk_, refs, out);
  }

  TempDir root_, out_;
  std::shared_ptr<store::Store> store_;
  std::shared_ptr<storage::Fs> disk_ = storage::make_posix_fs();
  std::string png_hash_;
};

TEST_F(HtmlPageTest, HostileTextStaysText) {
  std::string out = out_.file("page.html");
  auto r = export_to({put_hostile()}, out);
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::string page = test::read_file(out);
  // No script element, no handler attribute, no script URL anywhere in the markup.
  EXPECT_EQ(count(page, "<script"), 0u);
  for (const std::string& t : tags(page)) {
    EXPECT_EQ(t.find("javascript:"), std::string::npos) << t;
    EXPECT_EQ(t.find("onerror"), std::string::npos) << t;
    EXPECT_EQ(t.find("onclick"), std::string::npos) << t;
  }
  EXPECT_NE(page.find("<article class=\"entry msg user\" id=\"e-u1\"><header><span class=\"kind\">User</span>"
                      "<span class=\"label\">start &lt;here&gt;</span><span class=\"time\">2026-01-01T00:00:01.000Z"
                      "</span><a class=\"id\" href=\"#e-u1\">u1</a></header><div class=\"md\"><p>Hi <!-- raw HTML "
                      "omitted -->alert(1)<!-- raw HTML omitted --> &quot;&gt;<!-- raw HTML omitted --> click</p>\n"
                      "</div></article>"),
            std::string::npos);
  // Tool arguments and results are text, whatever they hold.
  EXPECT_NE(page.find("<details class=\"tool-call\"><summary>Tool call <code>bash</code></summary><dl class=\"args\">"
                      "<dt>command</dt><dd><pre>echo &#39;&lt;script&gt;alert(4)&lt;/script&gt;&#39;</pre></dd>"
                      "<dt>url</dt><dd><pre>javascript:alert(5)</pre></dd><dt>n</dt><dd><pre>3</pre></dd></dl>"
                      "</details>"),
            std::string::npos);
  EXPECT_NE(page.find("<details class=\"tool-result\"><summary>Result of <code>bash&quot;&gt;&lt;script&gt;</code>"
                      "</summary><pre>&lt;script&gt;alert(6)&lt;/script&gt;</pre>"),
            std::string::npos);
  EXPECT_NE(page.find("<p class=\"stop\">Error: &lt;boom&gt;</p>"), std::string::npos);
  EXPECT_NE(page.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
                      "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">"),
            std::string::npos);
}

TEST_F(HtmlPageTest, MarkdownCodeThinkingAndToolsRenderAsTheirElements) {
  std::string out = out_.file("page.html");
  ASSERT_TRUE(export_to({put_hostile()}, out).ok());
  std::string page = test::read_file(out);
  EXPECT_NE(page.find("<details class=\"thinking\"><summary>Thinking</summary><div class=\"md\"><p>deep <!-- raw HTML "
                      "omitted -->thought<!-- raw HTML omitted --></p>\n</div></details>"),
            std::string::npos);
  EXPECT_NE(page.find("<pre><code class=\"language-js\">if (a &lt; b) { x(&quot;&lt;/pre&gt;&quot;); }\n</code></pre>"),
            std::string::npos);
  EXPECT_NE(page.find("<a href=\"https://example.com/\">ok</a>"), std::string::npos);
  EXPECT_EQ(count(page, "<details class=\"tool-call\">"), 1u);
  EXPECT_EQ(count(page, "<details class=\"tool-result\">"), 1u);
  EXPECT_EQ(count(page, "<details class=\"thinking\">"), 1u);
}

TEST_F(HtmlPageTest, ImagesAreInlineFromTheBlobStoreAndInline) {
  std::string out = out_.file("page.html");
  ASSERT_TRUE(export_to({put_hostile()}, out).ok());
  std::string page = test::read_file(out);
  std::string img = std::string("<img class=\"image\" alt=\"image\" src=\"data:image/png;base64,") + kPngBase64 + "\">";
  EXPECT_EQ(count(page, img), 2u);  // t1's from the blob store, u2's inline
  EXPECT_NE(page.find("<p class=\"missing\">[image not shown: type image/svg+xml]</p>"), std::string::npos);
  // A blob that is gone leaves a note, not a request.
  ASSERT_EQ(std::remove(store_->blobs().path_of(png_hash_).c_str()), 0);
  ASSERT_TRUE(export_to({"h0stile"}, out).ok());
  page = test::read_file(out);
  EXPECT_EQ(count(page, img), 1u);
  EXPECT_NE(page.find("<p class=\"missing\">[image not in the blob store: blob:sha256:" + png_hash_ + "]</p>"),
            std::string::npos);
}

TEST_F(HtmlPageTest, BranchesLabelsCompactionAndSummariesAreMarked) {
  std::string out = out_.file("page.html");
  auto r = export_to({put_hostile()}, out);
  ASSERT_TRUE(r.ok());
  std::string page = test::read_file(out);
  EXPECT_EQ(count(page, "<article class=\"entry msg "), 5u);
  EXPECT_EQ(count(page, "<article class=\"entry "), 8u);
  EXPECT_EQ(count(page, "<div class=\"branch-point\""), 1u);
  EXPECT_EQ(count(page, "<details class=\"branch\">"), 1u);
  EXPECT_EQ(count(page, "<article class=\"entry mark compaction\" id=\"e-k1\">"), 1u);
  EXPECT_EQ(count(page, "<article class=\"entry mark branch-summary\" id=\"e-bs\">"), 1u);
  EXPECT_EQ(count(page, "<article class=\"entry mark label-entry\" id=\"e-l1\">"), 1u);
  // The current path (u1, bs, u2) is open; the abandoned one (a1..a2) is one click away, right
  // after the branch point, before the path goes on.
  size_t u1 = page.find("id=\"e-u1\""), point = page.find("<div class=\"branch-point\" id=\"bp-1\">"),
         a1 = page.find("id=\"e-a1\""), a2 = page.find("id=\"e-a2\""), bs = page.find("id=\"e-bs\""),
         u2 = page.find("id=\"e-u2\"");
  EXPECT_LT(u1, point);
  EXPECT_LT(point, a1);
  EXPECT_LT(a2, bs);
  EXPECT_LT(bs, u2);
  EXPECT_NE(
      page.find("<p class=\"branch-note\">Branch point: 1 other branch</p><details class=\"branch\"><summary>"
                "Branch: 5 entries \xC2\xB7 Assistant: Here:\n\n```js\nif (a &lt; b) { x(&quot;&lt;/pre&gt;&quot;)"
                "; }\n```\n\n&lt;script&gt;alert(3)&lt;/script&gt;\n\n[ok](https://example.com/)</summary>"),
      std::string::npos);
  EXPECT_EQ(r->pages.size(), 1u);
  EXPECT_EQ(r->pages[0].messages, 5u);
  EXPECT_EQ(r->pages[0].entries, 8u);
  EXPECT_EQ(r->pages[0].branch_points, 1u);
  EXPECT_EQ(r->pages[0].branches, 1u);
  EXPECT_EQ(r->pages[0].bytes, page.size());
  EXPECT_EQ(report_json(*r), "{\"pages\":[{\"path\":\"" + out +
                                 "\",\"sessionId\":\"h0stile\",\"entries\":8,\"messages\":5,\"branchPoints\":1,"
                                 "\"branches\":1,\"bytes\":" +
                                 std::to_string(page.size()) + "}],\"index\":null}");
}

TEST_F(HtmlPageTest, DeeplyNestedBranchesStayWithinTheBrowsersNesting) {
  // s1..s150 chained, each s_i also the parent of a leaf x_i written after s_(i+1): every side
  // branch goes on into x_i and leaves s_(i+1) as a branch inside it, 150 deep.
  std::vector<std::string> lines;
  auto entry = [](const std::string& id, const std::string& parent) {
    return R"J({"type":"message","id":")J" + id + R"J(","parentId":)J" +
           (parent.empty() ? "null" : "\"" + parent + "\"") +
           R"J(,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"x"}})J";
  };
  lines.push_back(entry("r", ""));
  for (int i = 1; i <= 150; ++i)
    lines.push_back(entry("s" + std::to_string(i), i == 1 ? "r" : "s" + std::to_string(i - 1)));
  for (int i = 1; i <= 150; ++i) lines.push_back(entry("x" + std::to_string(i), "s" + std::to_string(i)));
  lines.push_back(entry("m", "r"));
  std::string out = out_.file("deep.html");
  auto r = export_to({put_session("deep", lines)}, out);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->pages[0].entries, 302u);
  EXPECT_EQ(r->pages[0].branch_points, 150u);  // r, s1 .. s149
  EXPECT_EQ(r->pages[0].branches, 150u);
  std::string page = test::read_file(out);
  EXPECT_EQ(count(page, "<details class=\"branch\">"), 100u);
  EXPECT_EQ(count(page, "<p class=\"branch flat\">"), 50u);
  size_t depth = 0, deepest = 0;
  for (const std::string& t : tags(page)) {
    if (t.rfind("<details", 0) == 0 || t.rfind("<div", 0) == 0) deepest = std::max(deepest, ++depth);
    if (t == "</details>" || t == "</div>") --depth;
  }
  EXPECT_EQ(depth, 0u);
  EXPECT_LE(deepest, 201u);
}

}  // namespace
}  // namespace xs::html
