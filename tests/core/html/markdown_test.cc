// Escaping and Markdown of the HTML view (docs/html-view.md#escaping, #markdown): exact bytes.
#include "html/markdown.h"
#include "html/escape.h"

#include <gtest/gtest.h>

#include <string>

namespace xs::html {
namespace {

std::string md(std::string_view text) {
  std::string out;
  append_markdown(out, text);
  return out;
}

TEST(HtmlEscape, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(escaped("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(escaped("\"><img src=x onerror='a'>&"), "&quot;&gt;&lt;img src=x onerror=&#39;a&#39;&gt;&amp;");
  EXPECT_EQ(escaped("plain text, \xC3\xA9t\xC3\xA9 \xE2\x9C\x93"), "plain text, \xC3\xA9t\xC3\xA9 \xE2\x9C\x93");
}

TEST(HtmlEscape, InvalidUtf8BecomesReplacementAndControlsAreDropped) {
  EXPECT_EQ(escaped(std::string_view("a\xFF<b", 4)), "a\xEF\xBF\xBD&lt;b");
  EXPECT_EQ(escaped(std::string_view("a\0b\x01\tc\nd\re", 10)), "ab\tc\nd\re");
}

TEST(HtmlEscape, ShortenedCutsAtACharacterBoundary) {
  EXPECT_EQ(shortened("abc", 3), "abc");
  EXPECT_EQ(shortened("ab\xC3\xA9", 3), "ab\xE2\x80\xA6");
  EXPECT_EQ(shortened("abcd", 2), "ab\xE2\x80\xA6");
}

TEST(HtmlMarkdown, RawHtmlIsDropped) {
  EXPECT_EQ(md("<script>alert(1)</script>"), "<!-- raw HTML omitted -->\n");
  EXPECT_EQ(md("a <img src=x onerror=alert(1)> b"), "<p>a <!-- raw HTML omitted --> b</p>\n");
  EXPECT_EQ(md("<div onclick=\"x()\">hi</div>"), "<!-- raw HTML omitted -->\n");
}

TEST(HtmlMarkdown, ScriptLinksLoseTheirUrl) {
  EXPECT_EQ(md("[click](javascript:alert(1))"), "<p>click</p>\n");
  EXPECT_EQ(md("[click](JaVaScRiPt:alert(1))"), "<p>click</p>\n");
  EXPECT_EQ(md("[click](&#106;avascript:alert(1))"), "<p>click</p>\n");
  EXPECT_EQ(md("<javascript:alert(1)>"), "<p>javascript:alert(1)</p>\n");
  EXPECT_EQ(md("[v](vbscript:x) [f](file:///etc/passwd) [d](data:text/html,<b>)"), "<p>v f d</p>\n");
}

TEST(HtmlMarkdown, OnlyWebAndMailLinksAndAnchorsKeepTheirUrl) {
  EXPECT_EQ(md("[e](https://example.com/a?b=1&c=\"2\")"),
            "<p><a href=\"https://example.com/a?b=1&amp;c=%222%22\">e</a></p>\n");
  EXPECT_EQ(md("<http://example.com>"), "<p><a href=\"http://example.com\">http://example.com</a></p>\n");
  EXPECT_EQ(md("[m](mailto:a@b.c) [top](#e-1)"), "<p><a href=\"mailto:a@b.c\">m</a> <a href=\"#e-1\">top</a></p>\n");
  EXPECT_EQ(md("[rel](../secret.txt) [ftp](ftp://x/y)"), "<p>rel ftp</p>\n");
}

TEST(HtmlMarkdown, ImagesOnlyFromDataUrls) {
  // A remote image would be a request when the page opens: it becomes its alt text.
  EXPECT_EQ(md("![a cat](https://example.com/cat.png)"), "<p>a cat</p>\n");
  EXPECT_EQ(md("![svg](data:image/svg+xml;base64,PHN2Zz4=)"), "<p>svg</p>\n");
  EXPECT_EQ(md("![dot](data:image/png;base64,iVBORw0KGgo=)"),
            "<p><img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"dot\" /></p>\n");
  EXPECT_EQ(md("[![x](https://t.example/p.gif)](javascript:y)"), "<p>x</p>\n");
}

TEST(HtmlMarkdown, CodeBlocksStayCode) {
  EXPECT_EQ(md("```js\nif (a < b) { x(\"</pre>\"); }\n```"),
            "<pre><code class=\"language-js\">if (a &lt; b) { x(&quot;&lt;/pre&gt;&quot;); }\n</code></pre>\n");
  EXPECT_EQ(md("use `<b>` here"), "<p>use <code>&lt;b&gt;</code> here</p>\n");
  EXPECT_EQ(md("```\"><script>\nx\n```"), "<pre><code class=\"language-&quot;&gt;&lt;script&gt;\">x\n</code></pre>\n");
}

TEST(HtmlMarkdown, InvalidUtf8AndNulBecomeReplacementCharacters) {
  EXPECT_EQ(md(std::string_view("a\xFF\0b", 4)),
            "<p>a\xEF\xBF\xBD\xEF\xBF\xBD"
            "b</p>\n");
}

}  // namespace
}  // namespace xs::html
