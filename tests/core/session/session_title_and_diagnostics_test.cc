// Session: the title (the header's, else pi's last session_info name) and the diagnostics the tree
// adds to the loader's (duplicate ids, parent cycles).
#include <gtest/gtest.h>

#include <string>

#include "session_fixture.h"

namespace xs::session {
namespace {

using namespace fixture;

// --- pi's session_info names and the title -------------------------------------------------------

TEST_P(SessionTest, TitleComesFromTheHeaderElseTheLastSessionInfoNameTrimmed) {
  std::string info1 = R"({"type":"session_info","id":"i1","parentId":null,"timestamp":"t","name":"  First  "})";
  std::string info2 = R"({"type":"session_info","id":"i2","parentId":"i1","timestamp":"t","name":"\u00a0Second\n"})";
  std::string cleared = R"({"type":"session_info","id":"i3","parentId":"i2","timestamp":"t","name":"   "})";
  put(header_line() + "\n" + info1 + "\n" + info2 + "\n");
  {
    auto r = open(read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->title(), "Second");
    EXPECT_NE((*r)->info_json().find(R"("title":"Second")"), std::string::npos);
  }
  put(header_line() + "\n" + info1 + "\n" + info2 + "\n" + cleared + "\n");
  {
    auto r = open(read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE((*r)->title().has_value());  // an empty name clears it (pi)
  }
  put(header_line(R"(,"title":"From header")") + "\n" + info1 + "\n");
  {
    auto r = open(read_only());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ((*r)->title(), "From header");
  }
}

// --- diagnostics from the tree ------------------------------------------------------------------

TEST_P(SessionTest, DuplicateIdsAndCyclesAreReportedWithLoaderDiagnostics) {
  std::string a = line("custom", "a", "", 1, R"("customType":"x")");
  std::string a2 = line("custom", "a", "", 2, R"("customType":"y")");
  std::string self = line("custom", "s", "s", 3, R"("customType":"z")");
  put(header_line() + "\n" + a + "\nbroken\n" + a2 + "\n" + self + "\n");
  auto r = open(read_only());
  ASSERT_TRUE(r.ok());
  std::string diags = (*r)->diagnostics_json();
  EXPECT_NE(diags.find(R"("line":3,)"), std::string::npos) << diags;
  EXPECT_NE(diags.find(R"("code":"invalid_json")"), std::string::npos) << diags;
  EXPECT_NE(diags.find(R"("line":4,"offset":)" + std::to_string(header_line().size() + a.size() + 9) + R"(,"length":)" +
                       std::to_string(a2.size()) + R"(,"code":"duplicate_id")"),
            std::string::npos)
      << diags;
  EXPECT_NE(diags.find(R"("line":5,)"), std::string::npos) << diags;
  EXPECT_NE(diags.find(R"("code":"parent_cycle")"), std::string::npos) << diags;
  EXPECT_NE((*r)->info_json().find(R"("diagnostics":3,"entryTypes":{"custom":3}})"), std::string::npos) << (*r)->info_json();
  EXPECT_EQ(val((*r)->entry_json("a")), a2);
}

}  // namespace
}  // namespace xs::session
