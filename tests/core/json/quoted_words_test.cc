// json/quoted_words: the one-pass filter in front of the size rules. Every position of the
// vector loop and its scalar tail is exercised, since a miss there would let an image or a
// partialJson member through unchanged.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "json/quoted_words.h"

namespace xs::json {
namespace {

const QuotedWords& words() {
  static const QuotedWords w({"partialJson", "jsonlEvents", "image", "blob:sha256:"});
  return w;
}

TEST(QuotedWords, FindsEachWordAfterAQuote) {
  EXPECT_EQ(words().find(R"({"partialJson":"x"})"), 0x1u);
  EXPECT_EQ(words().find(R"({"jsonlEvents":[]})"), 0x2u);
  EXPECT_EQ(words().find(R"({"type":"image","data":"AAAA"})"), 0x4u);
  EXPECT_EQ(words().find(R"({"image_url":"data:image/png;base64,AAAA"})"), 0x4u);
  EXPECT_EQ(words().find(R"({"data":"blob:sha256:00"})"), 0x8u);
  EXPECT_EQ(words().find(R"({"partialJson":1,"jsonlEvents":2,"type":"image","d":"blob:sha256:"})"), 0xFu);
}

TEST(QuotedWords, IgnoresWordsNotRightAfterAQuote) {
  EXPECT_EQ(words().find(R"({"text":"an image of partialJson and jsonlEvents, blob:sha256:"})"), 0u);
  EXPECT_EQ(words().find(R"({"xpartialJson":1,"text":" image"})"), 0u);
  EXPECT_EQ(words().find(""), 0u);
  EXPECT_EQ(words().find("\""), 0u);
  EXPECT_EQ(words().find("\"imag"), 0u);  // cut short at the end of the text
}

TEST(QuotedWords, FindsAWordAtEveryOffsetAndAcrossEveryBlockEdge) {
  // Lengths around the 16-byte blocks and the word placed at every offset, so the quote and the
  // first letter fall in the same block, in neighbouring blocks, and in the scalar tail.
  for (size_t len = 0; len < 70; ++len) {
    for (size_t at = 0; at <= len; ++at) {
      std::string text(len, 'x');
      text.insert(at, "\"image\"");
      ASSERT_EQ(words().find(text), 0x4u) << "len " << len << " at " << at;
      text[at] = '\'';
      ASSERT_EQ(words().find(text), 0u) << "len " << len << " at " << at;
    }
  }
}

TEST(QuotedWords, AQuoteFollowedByAFirstLetterThatIsNoWordIsNoMatch) {
  EXPECT_EQ(words().find(R"({"id":"b","jq":"p","is":"blob"})"), 0u);
}

TEST(QuotedWords, EscapedLettersAreNotRecognised) {
  // The documented limit: writers of this format never escape ASCII letters.
  EXPECT_EQ(words().find(R"({"partial\u004Ason":1})"), 0u);
}

TEST(QuotedWords, RefusesWordListsItCannotScanFor) {
  EXPECT_THROW(QuotedWords({""}), std::logic_error);
  EXPECT_THROW(QuotedWords({"a", "b", "c", "d", "e"}), std::logic_error);
  EXPECT_THROW(QuotedWords({"a", "a", "a", "a", "a", "a", "a", "a", "a"}), std::logic_error);
  EXPECT_EQ(QuotedWords({"a", "ab"}).find("\"ab"), 0x3u);
}

}  // namespace
}  // namespace xs::json
