#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "json/js_number.h"

namespace xs::json {
namespace {

std::string js(double v) {
  std::string s;
  append_js_number(s, v);
  return s;
}

// Expected strings are what node prints for String(v).
TEST(JsNumber, MatchesJavaScriptLayout) {
  EXPECT_EQ(js(0), "0");
  EXPECT_EQ(js(-0.0), "0");
  EXPECT_EQ(js(100), "100");
  EXPECT_EQ(js(0.1), "0.1");
  EXPECT_EQ(js(0.017400000000000002), "0.017400000000000002");
  EXPECT_EQ(js(1e21), "1e+21");
  EXPECT_EQ(js(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(js(1.5e-7), "1.5e-7");
  EXPECT_EQ(js(0.000001), "0.000001");
  EXPECT_EQ(js(-2.5), "-2.5");
  EXPECT_EQ(js(std::nan("")), "null");
  EXPECT_EQ(js(std::numeric_limits<double>::infinity()), "null");
}

}  // namespace
}  // namespace xs::json
