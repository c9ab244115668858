// ParsedRow (import/parsed_row.h): each row reads its own members while others are alive; a parser
// a finished row left behind reads the next rows, large or small, as a new one would; and what is
// not there reads as an empty object.
#include "import/parsed_row.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace xs::import
