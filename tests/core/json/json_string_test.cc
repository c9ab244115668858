// json/json_string: JSON.stringify-style quoting, raw token decoding, UTF-8 validation.
#include <gtest/gtest.h>

#include <string>

#include "json/json_string.h"

namespace xs::json {
namespace {

std::string qt(std::string_view s) {
  std::string out;
  append_quoted(out, s);
  return out;
}

std::string decoded(std::string_view token, bool* ok = nullptr) {
  std::string out;
  bool r = decode_string_token(token, out);
  if (ok) *ok = r;
  return r ? out : "<invalid>";
}

// Expected strings are what JSON.stringify writes for the same JavaScript string.
TEST(AppendQuoted, PlainTextIsOnlyWrappedInQuotes) {
  EXPECT_EQ(qt(""), R"("")");
  EXPECT_EQ(qt("hello world"), R"("hello world")");
  EXPECT_EQ(qt("a/b"), R"("a/b")");  // '/' is not escaped
  EXPECT_EQ(qt("<tag> & 'q'"), R"("<tag> & 'q'")");
}

TEST(AppendQuoted, EscapesQuoteBackslashAndTheShortControlEscapes) {
  EXPECT_EQ(qt("say \"hi\""), R"("say \"hi\"")");
  EXPECT_EQ(qt("C:\\dir"), R"("C:\\dir")");
  EXPECT_EQ(qt("\b\f\n\r\t"), R"("\b\f\n\r\t")");
}

TEST(AppendQuoted, OtherControlCharactersUseLowercaseU00xx) {
  EXPECT_EQ(qt(std::string("\0", 1)), R"("\u0000")");
  EXPECT_EQ(qt("\x01"), R"("\u0001")");
  EXPECT_EQ(qt("\x0b"), R"("\u000b")");
  EXPECT_EQ(qt("\x1f"), R"("\u001f")");
  EXPECT_EQ(qt("a\x1b[0mb"), R"("a\u001b[0mb")");
}

TEST(AppendQuoted, DelAndNonAsciiAreKeptRaw) {
  EXPECT_EQ(qt("\x7f"), "\"\x7f\"");
  EXPECT_EQ(qt("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(qt("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
  // U+2028 / U+2029 are data inside a string; JSON.stringify leaves them as they are.
  EXPECT_EQ(qt("a\xe2\x80\xa8" "b\xe2\x80\xa9"), "\"a\xe2\x80\xa8" "b\xe2\x80\xa9\"");
}

TEST(AppendQuoted, AppendsToExistingText) {
  std::string out = "{\"k\":";
  append_quoted(out, "v");
  out += "}";
  EXPECT_EQ(out, R"({"k":"v"})");
}

TEST(DecodeStringToken, DecodesSimpleAndEscapedStrings) {
  EXPECT_EQ(decoded(R"("")"), "");
  EXPECT_EQ(decoded(R"("abc")"), "abc");
  EXPECT_EQ(decoded(R"("a\"b\\c\/d")"), "a\"b\\c/d");
  EXPECT_EQ(decoded(R"("\b\f\n\r\t")"), "\b\f\n\r\t");
  EXPECT_EQ(decoded(R"("\u0041\u00e9\u00E9\u20ac")"), "A\xc3\xa9\xc3\xa9\xe2\x82\xac");
  EXPECT_EQ(decoded(R"("\u0000")"), std::string("\0", 1));
  EXPECT_EQ(decoded("\"caf\xc3\xa9\""), "caf\xc3\xa9");
}

TEST(DecodeStringToken, SurrogatePairBecomesOneCodePoint) {
  EXPECT_EQ(decoded(R"("\ud83d\ude00")"), "\xf0\x9f\x98\x80");
  EXPECT_EQ(decoded(R"("\uD83D\uDE00")"), "\xf0\x9f\x98\x80");
}

// Lone surrogates are valid JSON that pi writes (docs/format.md#caller-json); decoded as
// Node does when it encodes such a string to UTF-8: U+FFFD.
TEST(DecodeStringToken, LoneSurrogatesDecodeToReplacementCharacter) {
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(decoded(R"("\ud83d")"), fffd);
  EXPECT_EQ(decoded(R"("\ude00")"), fffd);
  EXPECT_EQ(decoded(R"("x\ud83dy")"), "x" + fffd + "y");
  EXPECT_EQ(decoded(R"("\ud83d\u0041")"), fffd + "A");          // high followed by a non-surrogate
  EXPECT_EQ(decoded(R"("\ud83d\ud83d\ude00")"), fffd + "\xf0\x9f\x98\x80");  // high, then a pair
  EXPECT_EQ(decoded(R"("\ude00\ud83d")"), fffd + fffd);         // low before high: two lone ones
}

TEST(DecodeStringToken, RejectsMalformedTokens) {
  bool ok = true;
  decoded("abc", &ok);
  EXPECT_FALSE(ok);
  decoded("\"abc", &ok);
  EXPECT_FALSE(ok);
  decoded("\"", &ok);
  EXPECT_FALSE(ok);
  decoded("", &ok);
  EXPECT_FALSE(ok);
  decoded(R"("a"b")", &ok);  // unescaped quote inside
  EXPECT_FALSE(ok);
  decoded(R"("\x41")", &ok);  // unknown escape
  EXPECT_FALSE(ok);
  decoded(R"("\u12")", &ok);  // truncated \u
  EXPECT_FALSE(ok);
  decoded(R"("\u12g4")", &ok);  // non-hex digit
  EXPECT_FALSE(ok);
  decoded("\"abc\\\"", &ok);  // the closing quote is escaped: no end
  EXPECT_FALSE(ok);
}

TEST(DecodeStringToken, RoundTripsWhatAppendQuotedWrites) {
  const std::string samples[] = {"", "plain", "quote\" backslash\\ nl\n tab\t", std::string("nul\0ctl\x01", 8),
                                 "\xf0\x9f\x98\x80 caf\xc3\xa9 \xe2\x80\xa8"};
  for (const std::string& s : samples) {
    std::string tok = qt(s);
    EXPECT_EQ(decoded(tok), s) << tok;
  }
}

TEST(IsValidUtf8, AcceptsWellFormedText) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("ascii only"));
  EXPECT_TRUE(is_valid_utf8("caf\xc3\xa9"));
  EXPECT_TRUE(is_valid_utf8("\xe2\x82\xac"));
  EXPECT_TRUE(is_valid_utf8("\xf0\x9f\x98\x80"));
  EXPECT_TRUE(is_valid_utf8("\xf4\x8f\xbf\xbf"));  // U+10FFFF
  EXPECT_TRUE(is_valid_utf8(std::string("\0", 1)));
}

TEST(IsValidUtf8, RejectsMalformedText) {
  EXPECT_FALSE(is_valid_utf8("\xff"));
  EXPECT_FALSE(is_valid_utf8("\x80"));              // stray continuation byte
  EXPECT_FALSE(is_valid_utf8("\xc0\x80"));          // overlong NUL
  EXPECT_FALSE(is_valid_utf8("\xe0\x80\xaf"));      // overlong '/'
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));      // encoded surrogate U+D800
  EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(is_valid_utf8("\xe2\x82"));          // truncated sequence
  EXPECT_FALSE(is_valid_utf8("ok\xc3"));            // truncated at the end
}

// String.prototype.trim: WhiteSpace and LineTerminator code points at both ends (pi trims
// session_info names with it). Expected values are node's.
TEST(JsTrim, RemovesJavaScriptWhitespaceAtBothEnds) {
  EXPECT_EQ(js_trim(""), "");
  EXPECT_EQ(js_trim(" "), "");
  EXPECT_EQ(js_trim("a"), "a");
  EXPECT_EQ(js_trim("  a b  "), "a b");
  EXPECT_EQ(js_trim("\t\v\f\r\n x y \n"), "x y");
  // U+00A0, U+FEFF, U+3000, U+2028 / U+2029, U+1680, U+2000..U+200A, U+202F, U+205F
  EXPECT_EQ(js_trim("\xc2\xa0\xef\xbb\xbf x \xe3\x80\x80\xe2\x80\xa8"), "x");
  EXPECT_EQ(js_trim("\xe1\x9a\x80\xe2\x80\x80\xe2\x80\x8a" "x" "\xe2\x80\xaf\xe2\x81\x9f\xe2\x80\xa9"), "x");
  EXPECT_EQ(js_trim("\xe2\x80\x80"), "");
}

TEST(JsTrim, KeepsWhatJavaScriptDoesNotTrim) {
  EXPECT_EQ(js_trim("\xe2\x80\x8bx\xe2\x80\x8b"), "\xe2\x80\x8bx\xe2\x80\x8b");  // U+200B zero width space
  EXPECT_EQ(js_trim("\xc2\x85x\xc2\x85"), "\xc2\x85x\xc2\x85");                  // U+0085 NEL
  EXPECT_EQ(js_trim("\xe1\xa0\x8ex"), "\xe1\xa0\x8ex");                          // U+180E
  EXPECT_EQ(js_trim("caf\xc3\xa9 "), "caf\xc3\xa9");
  EXPECT_EQ(js_trim(" \xc3\xa9"), "\xc3\xa9");
  // A multi-byte character whose last byte looks like part of a space is not a space.
  EXPECT_EQ(js_trim("x\xe3\x81\x80"), "x\xe3\x81\x80");  // U+3040
}

// U+FFFD, as to_valid_utf8 writes it in place of each bad byte.
constexpr const char* kFffd = "\xef\xbf\xbd";

TEST(ToValidUtf8, KeepsWellFormedTextAsIs) {
  for (std::string_view ok : {std::string_view(""), std::string_view("/home/u/a.jsonl"),
                              std::string_view("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf")}) {
    EXPECT_EQ(to_valid_utf8(ok), ok);
  }
}

TEST(ToValidUtf8, ReplacesEveryByteOfABadSequence) {
  std::string f = kFffd;
  EXPECT_EQ(to_valid_utf8("a\xff" "b"), "a" + f + "b");
  EXPECT_EQ(to_valid_utf8("\xc0\xaf"), f + f);              // overlong '/'
  EXPECT_EQ(to_valid_utf8("\xe0\x80\xaf"), f + f + f);      // overlong, 3 bytes
  EXPECT_EQ(to_valid_utf8("\xed\xa0\x80"), f + f + f);      // an encoded surrogate
  EXPECT_EQ(to_valid_utf8("\xf4\x90\x80\x80"), f + f + f + f);  // above U+10FFFF
  EXPECT_EQ(to_valid_utf8("x\xe2\x82"), "x" + f + f);        // cut short at the end
  EXPECT_EQ(to_valid_utf8("\x80\xc3\xa9"), f + "\xc3\xa9");  // a stray continuation byte
  EXPECT_TRUE(is_valid_utf8(to_valid_utf8("\xf0\x9f\x98")));
}

TEST(AppendQuotedLossy, QuotesValidTextLikeAppendQuoted) {
  std::string a, b;
  append_quoted(a, "p\"q\n");
  append_quoted_lossy(b, "p\"q\n");
  EXPECT_EQ(a, b);
  std::string c;
  append_quoted_lossy(c, "bad\xff.jsonl");
  EXPECT_EQ(c, std::string("\"bad") + kFffd + ".jsonl\"");
}

}  // namespace
}  // namespace xs::json
