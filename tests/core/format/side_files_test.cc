// format/side_files: the names of the files a session keeps beside its own
// (docs/format.md#files-beside-a-session). Listings must tell a quarantine file, which also ends in
// ".jsonl", from a session.
#include <gtest/gtest.h>

#include <string>

#include "format/side_files.h"

namespace xs::format {
namespace {

const std::string kStamp = "2026-02-16T10-20-30-000Z";
const std::string kFileName = "2026-02-16T10-20-30-000Z_sess1.jsonl";

TEST(QuarantineFileName, TellsQuarantineFilesFromSessions) {
  EXPECT_TRUE(format::is_quarantine_file_name(kFileName + ".quarantine-" + kStamp + ".jsonl"));
  EXPECT_TRUE(format::is_quarantine_file_name(kFileName + ".quarantine-" + kStamp + "-2.jsonl"));
  EXPECT_FALSE(format::is_quarantine_file_name(kFileName));
  EXPECT_FALSE(format::is_quarantine_file_name(kFileName + ".corrupt-" + kStamp));
  EXPECT_FALSE(format::is_quarantine_file_name("x.quarantine-1.jsonl"));  // not beside a session file
}

}  // namespace
}  // namespace xs::format
