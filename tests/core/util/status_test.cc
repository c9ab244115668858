// util/status: a Status carries a code and a message; a Result<T> carries a value or the Status
// saying why there is none, readable through const references too.
#include "util/status.h"

#include <gtest/gtest.h>

#include <string>

namespace xs {
namespace {

TEST(Status, OkHasNoMessageAndWithLeavesItAlone) {
  Status ok = Status::Ok();
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), Code::kOk);
  EXPECT_TRUE(ok.With("open /x").ok());
  EXPECT_EQ(ok.With("open /x").message(), "");
}

TEST(Status, WithPrefixesTheMessageAndKeepsTheCode) {
  Status st = Status::NotFound("no such entry");
  Status wrapped = st.With("open /s.jsonl");
  EXPECT_EQ(wrapped.code(), Code::kNotFound);
  EXPECT_EQ(wrapped.message(), "open /s.jsonl: no such entry");
}

TEST(Result, HoldsAValueOrTheStatusOfItsAbsence) {
  Result<std::string> value = std::string("abc");
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, "abc");
  value->append("d");
  EXPECT_EQ(value.value(), "abcd");

  Result<std::string> missing = Status::Invalid("bad id");
  EXPECT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kInvalid);
  EXPECT_EQ(missing.status().message(), "bad id");
}

TEST(Result, AConstResultReadsThroughStarAndArrow) {
  const Result<std::string> r = std::string("xyz");
  EXPECT_EQ(*r, "xyz");
  EXPECT_EQ(r->size(), 3u);
  EXPECT_EQ(r.value(), "xyz");
}

}  // namespace
}  // namespace xs
