// A gateway store imported into ours (docs/import-hosts.md#importing-a-gateway-store), on the real
// stores of ../shared/corpus/openclaw: every row accounted for, the entries and contexts as the
// gateway wrote them, the keys field for field, a re-import that adds nothing, a grown transcript
// that adds only its new rows, and a source tree left byte for byte as it was.
#include <gtest/gtest.h>

#include <string>

#include "gateway_test_util.h"
#include "import/gateway/importer.h"
#include "json/member_scanner.h"
#include "store/store.h"
#include "test_util.h"

namespace xs::import::gateway {
namespace {

const std::string kCorpus = XS_GATEWAY_CORPUS_DIR;
const std::string kLinux = kCorpus + "/linux2010-state";
const std::string kDesktop = kCorpus + "/openclaw-desktop";

std::shared_ptr<store::Store> open_store(const std::string& root) {
  auto s = store::Store::open(root);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

class GatewayImport : public ::testing::Test {
 protected:
  std::shared_ptr<storage::Fs> fs = storage::make_posix_fs();
  test::TempDir tmp;
  std::shared_ptr<store::Store> target = open_store(tmp.path());
};

std::string minified(std::string_view json) {
  std::string out;
  EXPECT_TRUE(store::KeyStore::check_record(json, &out).ok());
  return out;
}

TEST_F(GatewayImport, EveryRowOfEveryCorpusFileIsAccountedFor) {
  for (const std::string& root : {kLinux, kDesktop}) {
    test::TempDir ours;
    auto into = open_store(ours.path());
    auto before = testing::tree_picture(root);
    auto report = import_store(*fs, root, *into);
    ASSERT_TRUE(report.ok()) << report.status().message();
    testing::expect_accounted(*report);
    auto listing = list(*fs, root);
    ASSERT_TRUE(listing.ok());
    size_t files = 0;
    for (const Agent& agent : listing->agents) {
      for (const Transcript& t : agent.transcripts) {
        const ImportedSession* s = testing::session_of(*report, t.path);
        ASSERT_NE(s, nullptr) << t.path;
        bool headed = test::read_file(t.path).rfind("{\"type\":\"session\"", 0) == 0;
        EXPECT_EQ(s->rows_read, testing::rows_in(t.path) - (headed ? 1 : 0)) << t.path;
        EXPECT_EQ(s->skipped, 0u) << t.path;
        EXPECT_EQ(s->already_imported, 0u) << t.path;
        EXPECT_TRUE(s->created) << t.path;
        ++files;
      }
      if (agent.has_index) {
        const ImportedSession* index = testing::session_of(*report, agent.index_path);
        ASSERT_NE(index, nullptr);
        EXPECT_EQ(index->rows_read, agent.entries.size());
        EXPECT_EQ(index->imported, agent.entries.size());
        EXPECT_EQ(index->session_file, into->keys().path());
        ++files;
      }
    }
    EXPECT_EQ(report->sessions.size(), files);
    EXPECT_TRUE(report->skipped.empty()) << report->to_json();
    EXPECT_EQ(testing::tree_picture(root), before) << "the source was written";
  }
}

TEST_F(GatewayImport, TheDesktopTranscriptKeepsItsMessagesAndCustomRows) {
  // 83 lines: the header, 65 messages, 16 model-snapshot custom rows, 1 thinking_level_change.
  auto report = import_store(*fs, kDesktop, *target);
  ASSERT_TRUE(report.ok());
  const std::string file = kDesktop + "/agents/main/sessions/8555a0a4-0b79-459d-939c-e17cdbbf4fe2.jsonl";
  const ImportedSession* s = testing::session_of(*report, file);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->rows_read, 82u);
  EXPECT_EQ(s->imported, 66u);
  EXPECT_EQ(s->kept_as_custom, 16u);
  EXPECT_EQ(s->session_id, "8555a0a4-0b79-459d-939c-e17cdbbf4fe2");
}

// The copy is the gateway's session: the same entries (ids, parents, payloads) and the context
// the gateway would build from it, branches included.
TEST_F(GatewayImport, CopiesHaveTheSourcesEntriesAndContext) {
  auto report = import_store(*fs, kLinux, *target);
  ASSERT_TRUE(report.ok());
  int compared = 0;
  for (const ImportedSession& s : report->sessions) {
    if (s.session_id.empty()) continue;  // an index
    auto source = open_transcript(fs, s.source_file);
    if (!source.ok()) continue;  // the header-less live file: no source session to compare with
    session::SessionOptions ro;
    ro.read_only = true;
    auto copy = target->open_session(s.session_file, ro);
    ASSERT_TRUE(copy.ok()) << copy.status().message();
    EXPECT_EQ((*copy)->entries_json(), (*source)->entries_json()) << s.source_file;
    auto a = (*copy)->context(std::nullopt);
    auto b = (*source)->context(std::nullopt);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(*a, *b) << s.source_file;
    EXPECT_EQ((*copy)->header_info().cwd, (*source)->header_info().cwd);
    EXPECT_EQ((*copy)->header_info().timestamp, (*source)->header_info().timestamp);
    ++compared;
  }
  EXPECT_EQ(compared, 9);  // the 10 transcripts of the store but the header-less one
}

TEST_F(GatewayImport, TheHeaderlessLiveFileBecomesASessionWithItsArchivesCwd) {
  auto report = import_store(*fs, kLinux, *target);
  ASSERT_TRUE(report.ok());
  const std::string dir = kLinux + "/agents/coding/sessions/";
  const ImportedSession* live = testing::session_of(*report, dir + "edce9f16-9dda-4073-8ba4-db42a66a98d2.jsonl");
  const ImportedSession* archive =
      testing::session_of(*report, dir + "edce9f16-9dda-4073-8ba4-db42a66a98d2.jsonl.reset.2026-03-02T12-06-51.572Z");
  ASSERT_TRUE(live && archive);
  EXPECT_EQ(live->session_id, "edce9f16-9dda-4073-8ba4-db42a66a98d2");
  EXPECT_EQ(archive->session_id, "edce9f16-9dda-4073-8ba4-db42a66a98d2-reset-20260302T120651572Z");
  EXPECT_EQ(live->rows_read, 2u);
  EXPECT_EQ(live->imported, 2u);
  session::SessionOptions ro;
  ro.read_only = true;
  auto a = target->open_session(live->session_file, ro);
  auto b = target->open_session(archive->session_file, ro);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*a)->header_info().cwd, (*b)->header_info().cwd);
  EXPECT_EQ((*a)->header_info().parent_session, archive->session_file);  // it continues the archive
  EXPECT_EQ((*a)->entry_count(), 2u);
  bool noted = false;
  for (const std::string& n : report->notes) {
    noted = noted || n == dir +
                              "edce9f16-9dda-4073-8ba4-db42a66a98d2.jsonl: line 1: parent 5b24a573 is not in this "
                              "file; the entry starts a root (as the gateway's loader reads it)";
  }
  EXPECT_TRUE(noted);
}

TEST_F(GatewayImport, KeysKeepEveryFieldInOrderAndPointAtTheCopies) {
  auto report = import_store(*fs, kLinux, *target);
  ASSERT_TRUE(report.ok());
  auto listing = list(*fs, kLinux);
  ASSERT_TRUE(listing.ok());
  int keys = 0;
  for (const Agent& agent : listing->agents) {
    for (const IndexEntry& e : agent.entries) {
      auto got = target->keys().get(e.key);
      ASSERT_TRUE(got.ok()) << e.key;
      auto members = json::members_of(*got);
      ASSERT_FALSE(members.empty());
      EXPECT_EQ(members.back().key, "\"importedFrom\"");
      std::string expected_mark = "{\"kind\":\"gateway\",\"agentId\":\"" + agent.id + "\",\"sessionFile\":" +
                                  (e.session_file ? "\"" + *e.session_file + "\"" : std::string("null")) + "}";
      EXPECT_EQ(members.back().value, expected_mark);
      std::string source = minified(e.record);
      auto source_members = json::members_of(source);
      ASSERT_EQ(members.size(), source_members.size() + 1) << e.key;
      for (size_t i = 0; i < source_members.size(); ++i) {
        EXPECT_EQ(members[i].key, source_members[i].key);
        if (members[i].key == "\"sessionFile\"" && e.transcript) continue;
        EXPECT_EQ(members[i].value, source_members[i].value) << e.key << " " << members[i].key;
      }
      if (e.transcript) {
        auto file = json::string_value(json::find_member(members, "sessionFile"));
        ASSERT_TRUE(file);
        EXPECT_EQ(file->rfind(tmp.path() + "/sessions/", 0), 0u) << *file;
        EXPECT_TRUE(test::file_exists(*file));
      }
      ++keys;
    }
  }
  EXPECT_EQ(keys, 6);
}

TEST_F(GatewayImport, ReimportAddsNothingAndWritesNothing) {
  auto first = import_store(*fs, kLinux, *target);
  ASSERT_TRUE(first.ok());
  auto ours = testing::tree_picture(tmp.path());
  auto again = import_store(*fs, kLinux, *target);
  ASSERT_TRUE(again.ok());
  testing::expect_accounted(*again);
  EXPECT_EQ(again->imported(), 0u);
  EXPECT_EQ(again->kept_as_custom(), 0u);
  EXPECT_EQ(again->skipped_rows(), 0u);
  EXPECT_EQ(again->already_imported(), first->rows_read());
  for (const ImportedSession& s : again->sessions) EXPECT_FALSE(s.created) << s.source_file;
  EXPECT_EQ(testing::tree_picture(tmp.path()), ours);
}

TEST_F(GatewayImport, AGrownTranscriptImportsOnlyItsNewRows) {
  test::TempDir src;
  const std::string name = "95549799-3373-4b1d-80de-2ec7a851ce11.jsonl";
  std::string bytes = test::read_file(kLinux + "/agents/main/sessions/" + name);
  size_t cut = bytes.rfind('\n', bytes.size() - 2) + 1;  // all but the last row
  const std::string dir = src.path() + "/agents/main/sessions";
  test::put_file(*fs, dir + "/" + name, bytes.substr(0, cut));
  auto first = import_store(*fs, src.path(), *target);
  ASSERT_TRUE(first.ok());
  uint64_t rows = testing::rows_in(dir + "/" + name);
  test::append_file(*fs, dir + "/" + name, bytes.substr(cut));
  auto second = import_store(*fs, src.path(), *target);
  ASSERT_TRUE(second.ok());
  testing::expect_accounted(*second);
  ASSERT_EQ(second->sessions.size(), 1u);
  EXPECT_FALSE(second->sessions[0].created);
  EXPECT_EQ(second->sessions[0].already_imported, rows - 1);
  EXPECT_EQ(second->sessions[0].imported + second->sessions[0].kept_as_custom, 1u);
  EXPECT_EQ(second->sessions[0].session_file, first->sessions[0].session_file);
  session::SessionOptions ro;
  ro.read_only = true;
  auto copy = target->open_session(first->sessions[0].session_file, ro);
  auto source = open_transcript(fs, dir + "/" + name);
  ASSERT_TRUE(copy.ok() && source.ok());
  EXPECT_EQ((*copy)->entries_json(), (*source)->entries_json());
}

TEST_F(GatewayImport, ATopicFileIsItsKeysSession) {
  test::TempDir src;
  const std::string dir = src.path() + "/agents/main/sessions";
  const std::string topic = "0b1c2d3e-topic-42.jsonl";
  test::put_file(*fs, dir + "/" + topic,
                 R"({"type":"session","version":3,"id":"0b1c2d3e","timestamp":"2026-03-01T08:00:00.000Z","cwd":"/w"})"
                 "\n"
                 R"({"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-03-01T08:00:01.000Z",)"
                 R"("message":{"role":"user","content":"in the topic","timestamp":1772352001000}})"
                 "\n");
  test::put_file(*fs, dir + "/sessions.json",
                 R"({"agent:main:telegram:group:-100:topic:42":{"sessionId":"0b1c2d3e","updatedAt":1772352001000,)"
                 R"("sessionFile":"/home/u/.openclaw/agents/main/sessions/0b1c2d3e-topic-42.jsonl"}})");
  auto report = import_store(*fs, src.path(), *target);
  ASSERT_TRUE(report.ok());
  const ImportedSession* s = testing::session_of(*report, dir + "/" + topic);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->session_id, "0b1c2d3e-topic-42");
  EXPECT_EQ(s->imported, 1u);
  auto record = target->keys().get("agent:main:telegram:group:-100:topic:42");
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(*record, R"({"sessionId":"0b1c2d3e","updatedAt":1772352001000,"sessionFile":")" + s->session_file +
                         R"(","importedFrom":{"kind":"gateway","agentId":"main","sessionFile":)"
                         R"("/home/u/.openclaw/agents/main/sessions/0b1c2d3e-topic-42.jsonl"}})");
}

TEST_F(GatewayImport, ADryRunReportsTheSameCountsAndWritesNothing) {
  ImportOptions dry;
  dry.dry_run = true;
  auto report = import_store(*fs, kLinux, *target, dry);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->dry_run);
  testing::expect_accounted(*report);
  EXPECT_TRUE(test::list_dir(tmp.path()).empty());
  test::TempDir real;
  auto wet = import_store(*fs, kLinux, *open_store(real.path()));
  ASSERT_TRUE(wet.ok());
  EXPECT_EQ(report->rows_read(), wet->rows_read());
  EXPECT_EQ(report->imported(), wet->imported());
  EXPECT_EQ(report->kept_as_custom(), wet->kept_as_custom());
}

}  // namespace
}  // namespace xs::import::gateway
