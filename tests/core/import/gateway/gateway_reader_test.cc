// The gateway store read as it is (docs/import-hosts.md#the-gateway-store): file names, keys,
// transcripts opened directly, on the real stores of ../shared/corpus/openclaw.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gateway_test_util.h"
#include "import/gateway/reader.h"
#include "json/member_scanner.h"
#include "storage/fs.h"
#include "test_util.h"

namespace xs::import::gateway {
namespace {

const std::string kCorpus = XS_GATEWAY_CORPUS_DIR;

TEST(GatewayNames, LiveTopicAndRotatedFilesAreTranscripts) {
  auto live = parse_transcript_name("4a7df1ef-1f7a.jsonl");
  ASSERT_TRUE(live);
  EXPECT_EQ(live->stem, "4a7df1ef-1f7a");
  EXPECT_EQ(live->session_id, "4a7df1ef-1f7a");
  EXPECT_EQ(live->generation, Generation::kLive);
  EXPECT_FALSE(live->thread_id);

  auto topic = parse_transcript_name("abc-topic-42.jsonl");
  ASSERT_TRUE(topic);
  EXPECT_EQ(topic->stem, "abc-topic-42");
  EXPECT_EQ(topic->session_id, "abc");
  EXPECT_EQ(*topic->thread_id, "42");

  auto reset = parse_transcript_name("edce9f16.jsonl.reset.2026-03-02T12-06-51.572Z");
  ASSERT_TRUE(reset);
  EXPECT_EQ(reset->generation, Generation::kReset);
  EXPECT_EQ(reset->stamp, "2026-03-02T12-06-51.572Z");
  EXPECT_EQ(parse_transcript_name("a.jsonl.deleted.2026-02-27T05-31-24.283Z")->generation, Generation::kDeleted);
  EXPECT_EQ(parse_transcript_name("a.jsonl.bak")->generation, Generation::kBackup);
  auto checkpoint = parse_transcript_name("a.checkpoint.3.jsonl");
  ASSERT_TRUE(checkpoint);
  EXPECT_EQ(checkpoint->generation, Generation::kCheckpoint);
  EXPECT_EQ(checkpoint->stem, "a");
  EXPECT_EQ(checkpoint->stamp, "3");

  for (const char* other : {"sessions.json", "sessions.json.lock", "a.jsonl.lock", ".jsonl", "x.json",
                            "sessions.json.123.abc.tmp", "a.jsonl.tmp"}) {
    EXPECT_FALSE(parse_transcript_name(other)) << other;
  }
}

TEST(GatewayReader, ListsTheAgentsKeysAndTranscriptsOfARealStore) {
  auto fs = storage::make_posix_fs();
  auto listing = list(*fs, kCorpus + "/linux2010-state");
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  ASSERT_EQ(listing->agents.size(), 3u);
  EXPECT_EQ(listing->agents[0].id, "coding");
  EXPECT_EQ(listing->agents[1].id, "main");
  EXPECT_EQ(listing->agents[2].id, "mcs");

  const Agent& main = listing->agents[1];
  EXPECT_TRUE(main.has_index);
  EXPECT_EQ(main.index_rows, 3u);
  EXPECT_TRUE(main.problems.empty());
  ASSERT_EQ(main.entries.size(), 3u);
  EXPECT_EQ(main.entries[0].key, "agent:main:main");
  EXPECT_EQ(main.entries[0].line, 2u);
  EXPECT_EQ(main.entries[0].session_id, "5859cb63-6513-4432-9f36-63f50e4320df");
  EXPECT_FALSE(main.entries[0].transcript);  // left out of the corpus: a key without its file
  EXPECT_EQ(main.entries[1].key, "agent:main:telegram:group:-1003661163902");
  EXPECT_EQ(main.entries[2].key, "agent:main:telegram:direct:5520269161");

  std::vector<std::string> files;
  for (const Transcript& t : main.transcripts) files.push_back(t.file);
  EXPECT_EQ(files, (std::vector<std::string>{
                       "315ca4a3-e87c-47f5-b2e6-a308cda16631.jsonl.reset.2026-02-28T09-01-44.974Z",
                       "4a7df1ef-1f7a-461d-b2a3-9f9dbf51faf1.jsonl",
                       "5a55c72a-bff7-46dd-a2a1-5a8beca84aa8.jsonl.deleted.2026-03-02T09-50-24.146Z",
                       "8d0416c9-a2b4-43d0-a16d-755e39f36d39.jsonl.deleted.2026-02-27T05-31-24.283Z",
                       "95549799-3373-4b1d-80de-2ec7a851ce11.jsonl",
                   }));
  EXPECT_TRUE(main.transcripts[1].has_write_lock);  // the stale "<file>.lock" beside it
  EXPECT_FALSE(main.transcripts[4].has_write_lock);
  EXPECT_EQ(main.transcripts[0].name.generation, Generation::kReset);
  bool dangling_noted = std::any_of(main.notes.begin(), main.notes.end(), [](const std::string& n) {
    return n == "key agent:main:main names session 5859cb63-6513-4432-9f36-63f50e4320df, whose transcript is not here";
  });
  EXPECT_TRUE(dangling_noted);

  const Agent& mcs = listing->agents[2];
  EXPECT_FALSE(mcs.has_index);
  EXPECT_EQ(mcs.index_rows, 0u);
  ASSERT_EQ(mcs.transcripts.size(), 1u);
  EXPECT_TRUE(mcs.transcripts[0].keys.empty());
}

TEST(GatewayReader, OneSessionsDirectoryIsAStoreOfOneAgent) {
  auto fs = storage::make_posix_fs();
  auto listing = list(*fs, kCorpus + "/openclaw-desktop/agents/main/sessions");
  ASSERT_TRUE(listing.ok()) << listing.status().message();
  ASSERT_EQ(listing->agents.size(), 1u);
  EXPECT_EQ(listing->agents[0].id, "main");
  ASSERT_EQ(listing->agents[0].entries.size(), 1u);
  ASSERT_TRUE(listing->agents[0].entries[0].transcript);
  EXPECT_EQ(listing->agents[0].transcripts[0].keys, std::vector<std::string>{"agent:main:main"});
  EXPECT_EQ(list(*fs, kCorpus + "/no-such-store").status().code(), Code::kNotFound);
}

TEST(GatewayReader, TheListingAsJson) {
  auto fs = storage::make_posix_fs();
  const std::string root = kCorpus + "/openclaw-desktop";
  auto listing = list(*fs, root);
  ASSERT_TRUE(listing.ok());
  std::string json = listing_json(*listing);
  std::vector<json::Member> top;
  bool is_object = false;
  ASSERT_OK(json::scan_members(json, json::Limits(), &top, &is_object));
  const std::string dir = root + "/agents/main/sessions";
  const std::string file = "8555a0a4-0b79-459d-939c-e17cdbbf4fe2.jsonl";
  const Transcript& t = listing->agents[0].transcripts[0];
  EXPECT_EQ(json,
            "{\"source\":\"gateway\",\"root\":\"" + root + "\",\"agents\":[{\"id\":\"main\",\"dir\":\"" + dir +
                "\",\"index\":\"" + dir +
                "/sessions.json\",\"indexRows\":1,\"keys\":[{\"key\":\"agent:main:main\","
                "\"sessionId\":\"8555a0a4-0b79-459d-939c-e17cdbbf4fe2\",\"line\":2,\"transcript\":\"" +
                file + "\"}],\"transcripts\":[{\"file\":\"" + file + "\",\"path\":\"" + dir + "/" + file +
                "\",\"sessionId\":\"8555a0a4-0b79-459d-939c-e17cdbbf4fe2\",\"threadId\":null,\"generation\":\"live\","
                "\"stamp\":null,\"size\":50074,\"mtimeMs\":" +
                std::to_string(t.mtime_ms) +
                ",\"writeLock\":false,\"keys\":[\"agent:main:main\"]}],\"problems\":[],\"notes\":[]}]}");
}

// Every transcript of the corpus is a session we open where it is, with every row an entry.
TEST(GatewayReader, EveryCorpusTranscriptOpensDirectly) {
  auto fs = storage::make_posix_fs();
  int opened = 0;
  for (const char* store : {"/linux2010-state", "/openclaw-desktop"}) {
    auto listing = list(*fs, kCorpus + store);
    ASSERT_TRUE(listing.ok());
    for (const Agent& agent : listing->agents) {
      for (const Transcript& t : agent.transcripts) {
        auto s = open_transcript(fs, t.path);
        bool headed = test::read_file(t.path).rfind("{\"type\":\"session\"", 0) == 0;
        if (!headed) {
          // The live file that continues its .reset archive: a session only once imported.
          EXPECT_EQ(s.status().code(), Code::kNoHeader) << t.path;
          continue;
        }
        ASSERT_TRUE(s.ok()) << t.path << ": " << s.status().message();
        EXPECT_EQ((*s)->entry_count(), testing::rows_in(t.path) - 1) << t.path;
        EXPECT_EQ((*s)->diagnostic_count(), 0u) << t.path << ": " << (*s)->diagnostics_json();
        ++opened;
      }
    }
  }
  EXPECT_EQ(opened, 10);
}

}  // namespace
}  // namespace xs::import::gateway
