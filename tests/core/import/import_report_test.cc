#include "import/import_report.h"

#include <gtest/gtest.h>

namespace xs::import {
namespace {

TEST(ImportReport, SumsTheSessionsAndWritesEveryRowItDidNotImport) {
  ImportReport r;
  r.source_kind = "claude";
  r.source_root = "/home/u/.claude/projects";
  ImportedSession a;
  a.source_file = "a.jsonl";
  a.session_id = "s1";
  a.session_file = "/x/s1.jsonl";
  a.created = true;
  a.rows_read = 10;
  a.imported = 6;
  a.kept_as_custom = 3;
  a.skipped = 1;
  ImportedSession b;
  b.source_file = "b\xff.jsonl";  // a file name that is not UTF-8 still gives valid JSON
  b.session_id = "s2";
  b.rows_read = 4;
  b.already_imported = 4;
  r.sessions = {a, b};
  r.skipped.push_back({"a.jsonl", 7, "not JSON"});
  r.notes.push_back("index lists c.jsonl, which is gone");
  EXPECT_EQ(r.rows_read(), 14u);
  EXPECT_EQ(r.imported(), 6u);
  EXPECT_EQ(r.kept_as_custom(), 3u);
  EXPECT_EQ(r.already_imported(), 4u);
  EXPECT_EQ(r.skipped_rows(), 1u);
  EXPECT_EQ(r.to_json(),
            "{\"source\":\"claude\",\"root\":\"/home/u/.claude/projects\",\"dryRun\":false,\"rowsRead\":14,"
            "\"imported\":6,\"keptAsCustom\":3,\"alreadyImported\":4,\"skipped\":1,\"sessions\":["
            "{\"sourceFile\":\"a.jsonl\",\"sessionId\":\"s1\",\"sessionFile\":\"/x/s1.jsonl\",\"created\":true,"
            "\"rowsRead\":10,\"imported\":6,\"keptAsCustom\":3,\"alreadyImported\":0,\"skipped\":1},"
            "{\"sourceFile\":\"b\xEF\xBF\xBD.jsonl\",\"sessionId\":\"s2\",\"sessionFile\":\"\",\"created\":false,"
            "\"rowsRead\":4,\"imported\":0,\"keptAsCustom\":0,\"alreadyImported\":4,\"skipped\":0}],"
            "\"skippedRows\":[{\"file\":\"a.jsonl\",\"line\":7,\"reason\":\"not JSON\"}],"
            "\"notes\":[\"index lists c.jsonl, which is gone\"]}");
}

TEST(ImportReport, AnEmptyDryRun) {
  ImportReport r;
  r.source_kind = "gateway";
  r.dry_run = true;
  EXPECT_EQ(r.to_json(),
            "{\"source\":\"gateway\",\"root\":\"\",\"dryRun\":true,\"rowsRead\":0,\"imported\":0,\"keptAsCustom\":0,"
            "\"alreadyImported\":0,\"skipped\":0,\"sessions\":[],\"skippedRows\":[],\"notes\":[]}");
}

}  // namespace
}  // namespace xs::import
