// A store over xs_postgres_storage, through xsession.h: the same entries as a store on the disk
// (byte for byte), the rows the issue asks for (sessions, entries, keyed_sessions), one writer per
// session across two "hosts" on one database, and schema migrations.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "pg_test_util.h"

namespace {

using pgtest::PgTest;
using pgtest::Sql;

const std::string kUser1 = R"({"role":"user","content":"hello","timestamp":1})";
const std::string kAssistant1 =
    R"({"role":"assistant","content":[{"type":"text","text":"hi there"}],"provider":"anthropic","model":"claude-x","timestamp":2})";
const std::string kUser2 = R"({"role":"user","content":"and again \u00e9","timestamp":3})";

std::string text_of(xs_status (*fn)(xs_session*, uint32_t, char*, size_t, size_t*), xs_session* s) {
  size_t len = 0;
  fn(s, 0, nullptr, 0, &len);
  std::string out(len, '\0');
  EXPECT_EQ(fn(s, 0, out.data(), out.size(), &len), XS_OK) << xs_session_errmsg(s);
  return out;
}

std::string info_path(xs_session* s) {
  size_t len = 0;
  xs_session_info(s, nullptr, 0, &len);
  std::string info(len, '\0');
  EXPECT_EQ(xs_session_info(s, info.data(), info.size(), &len), XS_OK);
  size_t at = info.find("\"path\":\"");
  if (at == std::string::npos) return "";
  at += 8;
  return info.substr(at, info.find('"', at) - at);
}

xs_session_options fixed_options() {
  xs_session_options o;
  xs_session_options_init(&o, XS_SESSION_OPTIONS_VERSION);
  o.flags = XS_SESSION_FIXED_CLOCK | XS_SESSION_NO_DEFER;
  o.clock_start_ms = 1700000000000;
  o.clock_step_ms = 1000;
  o.id_seed = 42;
  o.session_id = "0123456789abcdef";
  return o;
}

// The same steps on any store: create, three appends, close; returns the session's path.
std::string write_session(xs_store* st) {
  xs_session_options o = fixed_options();
  xs_session* s = nullptr;
  EXPECT_EQ(xs_session_create(st, "/work/project", &o, &s), XS_OK) << xs_store_errmsg(st);
  if (s == nullptr) return "";
  for (const std::string* m : {&kUser1, &kAssistant1, &kUser2}) {
    EXPECT_EQ(xs_append_message(s, m->data(), m->size(), nullptr), XS_OK) << xs_session_errmsg(s);
  }
  std::string path = info_path(s);
  xs_session_close(s);
  return path;
}

std::string reopen_entries(xs_store* st, const std::string& path) {
  xs_session_options o = fixed_options();
  o.flags = XS_SESSION_READ_ONLY;
  o.session_id = nullptr;
  xs_session* s = nullptr;
  EXPECT_EQ(xs_session_open(st, path.c_str(), &o, &s), XS_OK) << xs_store_errmsg(st);
  if (s == nullptr) return "";
  std::string entries = text_of(xs_session_entries, s);
  xs_session_close(s);
  return entries;
}

class Store : public PgTest {
 protected:
  // A store on this test's table (which it then owns).
  xs_store* open_pg_store() {
    xs_store* st = xs_store_new();
    xs_store_options o;
    xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
    o.storage = &table;
    EXPECT_EQ(xs_store_open(st, "/pgstore", &o), XS_OK) << xs_store_errmsg(st);
    owned = false;
    return st;
  }
};

TEST_F(Store, ASessionHasTheSameBytesAsOnDiskAndTheRowsTheIssueNames) {
  char dir_template[] = "/tmp/xs-pg-disk.XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  std::string disk_root = dir_template;
  struct RemoveAtEnd {  // on every way out, the assertions' early returns too
    std::string dir;
    ~RemoveAtEnd() {
      if (std::system(("rm -rf '" + dir + "'").c_str()) != 0)
        std::fprintf(stderr, "could not remove %s\n", dir.c_str());
    }
  } remove_at_end{disk_root};
  xs_store* disk = xs_store_new();
  ASSERT_EQ(xs_store_open(disk, disk_root.c_str(), nullptr), XS_OK);
  std::string disk_path = write_session(disk);
  std::string disk_entries = reopen_entries(disk, disk_path);
  std::ifstream in(disk_path, std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  const std::string disk_bytes = file.str();

  xs_store* pg = open_pg_store();
  std::string pg_path = write_session(pg);
  ASSERT_EQ(pg_path, "/pgstore" + disk_path.substr(disk_root.size()));
  EXPECT_EQ(reopen_entries(pg, pg_path), disk_entries);
  EXPECT_NE(disk_entries.find("and again"), std::string::npos);

  Sql sql(schema);
  EXPECT_EQ(sql.rows("SELECT session_id, cwd, path, archived FROM sessions"),
            (std::vector<std::string>{"0123456789abcdef|/work/project|" + pg_path + "|f"}));
  EXPECT_EQ(sql.bytes("SELECT header FROM sessions"), disk_bytes.substr(0, disk_bytes.find('\n') + 1));
  // Every line of the disk file is one row, byte for byte, with its id and parent id.
  std::vector<std::string> lines;
  for (size_t at = 0; at < disk_bytes.size();) {
    size_t nl = disk_bytes.find('\n', at);
    lines.push_back(disk_bytes.substr(at, nl + 1 - at));
    at = nl + 1;
  }
  ASSERT_EQ(lines.size(), 4u);  // header + three messages
  EXPECT_EQ(sql.bytes("SELECT string_agg(line, '' ORDER BY seq) FROM entries"), disk_bytes);
  std::vector<std::string> ids = sql.rows("SELECT seq, entry_id, parent_id, end_offset FROM entries ORDER BY seq");
  ASSERT_EQ(ids.size(), 4u);
  size_t end = 0;
  std::string previous = "<null>";
  for (size_t i = 0; i < lines.size(); ++i) {
    end += lines[i].size();
    EXPECT_EQ(sql.bytes("SELECT line FROM entries WHERE seq = " + std::to_string(i)), lines[i]);
    if (i == 0) {
      EXPECT_EQ(ids[0], "0|0123456789abcdef|<null>|" + std::to_string(end));
      continue;
    }
    size_t id_at = lines[i].find("\"id\":\"") + 6;
    std::string id = lines[i].substr(id_at, lines[i].find('"', id_at) - id_at);
    EXPECT_EQ(ids[i], std::to_string(i) + "|" + id + "|" + previous + "|" + std::to_string(end));
    previous = id;
  }
  xs_store_free(disk);
  xs_store_free(pg);
  std::remove(disk_path.c_str());
}

TEST_F(Store, KeysPutFillsKeyedSessions) {
  xs_store* st = open_pg_store();
  const std::string record = R"({"sessionId":"abc","label":"x"})";
  ASSERT_EQ(xs_keys_put(st, "chat:1", record.data(), record.size()), XS_OK) << xs_store_errmsg(st);
  const std::string second = R"({"sessionId":"def"})";
  ASSERT_EQ(xs_keys_put(st, "chat:2", second.data(), second.size()), XS_OK) << xs_store_errmsg(st);
  Sql sql(schema);
  std::vector<std::string> rows = sql.rows("SELECT dir, key, record->>'sessionId' FROM keyed_sessions ORDER BY key");
  EXPECT_EQ(sql.rows("SELECT record->>'label' FROM keyed_sessions WHERE key = 'chat:1'"),
            (std::vector<std::string>{"x"}));
  EXPECT_EQ(rows, (std::vector<std::string>{"/pgstore|chat:1|abc", "/pgstore|chat:2|def"}));
  size_t len = 0;
  xs_keys_get(st, "chat:1", nullptr, 0, &len);
  std::string back(len, '\0');
  ASSERT_EQ(xs_keys_get(st, "chat:1", back.data(), back.size(), &len), XS_OK);
  EXPECT_NE(back.find("\"abc\""), std::string::npos) << back;
  xs_store_free(st);
}

TEST_F(Store, ASecondHostIsRefusedTheWriterLockUntilTheFirstHostsConnectionsClose) {
  xs_store* first = open_pg_store();
  std::string path = write_session(first);
  ASSERT_FALSE(path.empty());
  xs_session* writer = nullptr;
  ASSERT_EQ(xs_session_open(first, path.c_str(), nullptr, &writer), XS_OK) << xs_store_errmsg(first);

  xs_storage second_table{};
  char err[256];
  ASSERT_EQ(xs_postgres_storage(pgtest::conninfo().c_str(), schema.c_str(), &second_table, err, sizeof err), XS_OK);
  xs_store* second = xs_store_new();
  xs_store_options o;
  xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
  o.storage = &second_table;
  ASSERT_EQ(xs_store_open(second, "/pgstore", &o), XS_OK);
  xs_session* refused = nullptr;
  EXPECT_EQ(xs_session_open(second, path.c_str(), nullptr, &refused), XS_ELOCKED) << xs_store_errmsg(second);
  EXPECT_EQ(refused, nullptr);
  // A reader needs no lock and sees the first host's entries.
  EXPECT_NE(reopen_entries(second, path).find("and again"), std::string::npos);

  // The first host goes away: its store's table is released, which closes its connections.
  xs_session_close(writer);
  xs_store_free(first);
  xs_session* granted = nullptr;
  ASSERT_EQ(xs_session_open(second, path.c_str(), nullptr, &granted), XS_OK) << xs_store_errmsg(second);
  ASSERT_EQ(xs_append_message(granted, kUser1.data(), kUser1.size(), nullptr), XS_OK) << xs_session_errmsg(granted);
  xs_session_close(granted);
  xs_store_free(second);
  EXPECT_EQ(Sql(schema).rows("SELECT count(*) FROM entries"), (std::vector<std::string>{"5"}));
}

TEST_F(Store, ASchemaAtVersionOneIsMigratedAndANewerOneRefused) {
  Sql sql(schema);
  EXPECT_EQ(sql.rows("SELECT version FROM schema_version"), (std::vector<std::string>{"2"}));
  // Version 1 is version 2 without the SQL readers' view and table.
  sql.exec("DROP VIEW sessions; DROP TABLE keyed_sessions; UPDATE schema_version SET version = 1");
  table.release(table.user);
  owned = false;
  char err[256];
  ASSERT_EQ(xs_postgres_storage(pgtest::conninfo().c_str(), schema.c_str(), &table, err, sizeof err), XS_OK) << err;
  owned = true;
  EXPECT_EQ(sql.rows("SELECT version FROM schema_version"), (std::vector<std::string>{"2"}));
  EXPECT_EQ(sql.rows("SELECT count(*) FROM sessions"), (std::vector<std::string>{"0"}));
  EXPECT_EQ(sql.rows("SELECT count(*) FROM keyed_sessions"), (std::vector<std::string>{"0"}));

  sql.exec("UPDATE schema_version SET version = 3");
  xs_storage newer{};
  EXPECT_EQ(xs_postgres_storage(pgtest::conninfo().c_str(), schema.c_str(), &newer, err, sizeof err), XS_EVERSION);
  EXPECT_NE(std::string(err).find("version 3"), std::string::npos) << err;
}

}  // namespace
