// ParsedRow (import/parsed_row.h): each row reads its own members while others are alive; a parser
// a finished row left behind reads the next rows, large or small, as a new one would; and what is
// not there reads as an empty object; append_minified writes what simdjson::to_string does.
#include "import/parsed_row.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace xs::import {
namespace {

std::string row_text(int n, size_t filler) {
  return "{\"n\":" + std::to_string(n) + ",\"message\":{\"text\":\"" + std::string(filler, 'a' + n % 26) + "\"}}";
}

TEST(ParsedRow, RowsAliveTogetherEachReadTheirOwn) {
  std::vector<std::unique_ptr<ParsedRow>> alive;
  for (int n = 0; n < 10; ++n) alive.push_back(std::make_unique<ParsedRow>(row_text(n, 10 + n)));
  for (int n = 0; n < 10; ++n) {
    EXPECT_EQ(int_member(alive[n]->root(), "n"), n);
    EXPECT_EQ(str_member(alive[n]->object_member("message"), "text"), std::string(10 + n, 'a' + n % 26));
  }
}

TEST(ParsedRow, ParsersLeftByFinishedRowsReadLargeAndSmallRowsAlike) {
  // Sizes up and down across the size a kept parser may have grown to (1 MiB).
  for (size_t filler : {5u, 3000000u, 7u, 900000u, 2000000u, 3u, 100u}) {
    for (int n = 0; n < 3; ++n) {
      ParsedRow row(row_text(n, filler));
      EXPECT_EQ(int_member(row.root(), "n"), n) << filler;
      EXPECT_EQ(str_member(row.object_member("message"), "text").size(), filler);
    }
  }
}

// What simdjson refuses, and a member that is missing or not an object, read as an empty object
// that can be read like any other (simdjson's default object points at no document).
TEST(ParsedRow, WhatIsNotThereReadsAsAnEmptyObject) {
  ParsedRow bad("{\"n\":1,");
  EXPECT_EQ(bad.root().size(), 0u);
  EXPECT_EQ(int_member(bad.root(), "n"), 0);
  EXPECT_EQ(bad.object_member("message").size(), 0u);
  EXPECT_EQ(str_member(bad.object_member("message"), "text"), "");
  ParsedRow good(row_text(4, 2));
  EXPECT_EQ(int_member(good.root(), "n"), 4);
  EXPECT_EQ(good.object_member("none").size(), 0u);
  EXPECT_EQ(good.object_member("n").size(), 0u);  // a number, not an object
  EXPECT_EQ(str_member(good.object_member("none"), "text"), "");
  ParsedRow array("[1,2]");
  EXPECT_EQ(array.root().size(), 0u);
}

std::string minified(std::string_view text) {
  std::string out;
  ParsedRow row(text);
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  simdjson::padded_string padded(text);
  if (parser.parse(padded).get(e) != simdjson::SUCCESS) return "<refused>";
  append_minified(out, e);
  EXPECT_EQ(out, simdjson::to_string(e)) << text;
  return out;
}

TEST(AppendMinified, WritesWhatSimdjsonsToStringWrites) {
  EXPECT_EQ(minified(" { \"a\" : [ 1 , -2 , 18446744073709551615 , -9223372036854775808 ] } "),
            "{\"a\":[1,-2,18446744073709551615,-9223372036854775808]}");
  EXPECT_EQ(minified("[1.5, 1e300, -0.0, 2.0, 1E-7, 0.1]"), "[1.5,1e+300,-0.0,2.0,1e-07,0.1]");
  EXPECT_EQ(minified("[true,false,null,{},[],\"\"]"), "[true,false,null,{},[],\"\"]");
  // Escapes: what must be escaped is, in simdjson's forms; what need not be (\/, \u00e9) is not.
  EXPECT_EQ(minified(R"({"k\"\\":"a\nb\t\u0001\u001f\b\f\r\/ \u00e9 \ud83d\ude00 x\"y"})"),
            "{\"k\\\"\\\\\":\"a\\nb\\t\\u0001\\u001f\\b\\f\\r/ \xC3\xA9 \xF0\x9F\x98\x80 x\\\"y\"}");
  std::string deep(500, '[');
  deep += std::string(500, ']');
  EXPECT_EQ(minified(deep), deep);
  std::string big = "{\"t\":\"" + std::string(100000, 'x') + "\\n" + std::string(100000, 'y') + "\"}";
  EXPECT_EQ(minified(big).size(), big.size());
}

// Every line of the Claude and Codex corpora: the rows the converters read.
TEST(AppendMinified, WritesWhatSimdjsonsToStringWritesForEveryCorpusLine) {
  size_t lines = 0;
  for (const char* root : {XS_CLAUDE_CORPUS_DIR, XS_CODEX_CORPUS_DIR}) {
    ASSERT_TRUE(std::filesystem::is_directory(root)) << root << " (the corpus beside the checkout)";
    for (const auto& f : std::filesystem::recursive_directory_iterator(root)) {
      if (!f.is_regular_file() || f.path().extension() != ".jsonl") continue;
      std::ifstream in(f.path(), std::ios::binary);
      for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (minified(line) != "<refused>") ++lines;
      }
    }
  }
  EXPECT_GT(lines, 1000u);
}

}  // namespace
}  // namespace xs::import
