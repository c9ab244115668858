// Each function of xs_postgres_storage's table against its contract (xsession_storage.h): the exact
// bytes back, the exact statuses, identities, listings, locks, and what the tables hold after.
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "pg_test_util.h"

namespace {

using pgtest::PgTest;
using pgtest::Sql;

struct Read {
  xs_status rc;
  std::string bytes;
  xs_storage_info info;
};

struct StringBuffer : xs_storage_buffer {
  std::string data;
  static void* grow(xs_storage_buffer* self, uint64_t size) {
    auto* b = static_cast<StringBuffer*>(self);
    b->data.resize(size);
    return b->data.data();
  }
  StringBuffer() : xs_storage_buffer{grow, nullptr} {}
};

class Table : public PgTest {
 protected:
  Read read(const std::string& path, uint64_t offset = 0, uint64_t max = UINT64_MAX) {
    StringBuffer buf;
    Read r{};
    uint64_t got = 0;
    r.rc = table.read(table.user, path.c_str(), offset, max, &buf, &got, &r.info);
    r.bytes = buf.data.substr(0, got);
    return r;
  }
  xs_status create(const std::string& path, const std::vector<std::string>& writes) {
    void* f = nullptr;
    xs_status rc = table.open(table.user, path.c_str(), XS_STORAGE_CREATE, &f);
    if (rc != XS_OK) return rc;
    for (const std::string& w : writes) {
      rc = table.write(table.user, f, w.data(), w.size());
      if (rc != XS_OK) break;
    }
    xs_status closed = table.close(table.user, f);
    return rc != XS_OK ? rc : closed;
  }
  xs_status append(const std::string& path, const std::string& bytes) {
    void* f = nullptr;
    xs_status rc = table.open(table.user, path.c_str(), XS_STORAGE_APPEND, &f);
    if (rc != XS_OK) return rc;
    rc = table.write(table.user, f, bytes.data(), bytes.size());
    table.close(table.user, f);
    return rc;
  }
  xs_storage_info stat(const std::string& path, xs_status expect = XS_OK) {
    xs_storage_info info{};
    EXPECT_EQ(table.stat(table.user, path.c_str(), &info), expect) << path;
    return info;
  }
  std::set<std::string> list(const std::string& dir, xs_status expect = XS_OK) {
    std::set<std::string> names;
    auto add = [](void* ctx, const char* name, size_t len) {
      static_cast<std::set<std::string>*>(ctx)->insert(std::string(name, len));
      return XS_OK;
    };
    EXPECT_EQ(table.list(table.user, dir.c_str(), add, &names), expect) << dir;
    return names;
  }
};

const std::string kHash(64, 'a');

TEST_F(Table, BytesComeBackExactlyWithNulInvalidUtf8APartialTailAndItsCompletion) {
  ASSERT_EQ(table.make_dirs(table.user, "/s/d"), XS_OK);
  const std::string first("a\0\xff\xc3z", 5);  // NUL, a byte never valid in UTF-8, a lone lead byte
  void* f = nullptr;
  ASSERT_EQ(table.open(table.user, "/s/d/f.bin", XS_STORAGE_CREATE, &f), XS_OK);
  ASSERT_EQ(table.write(table.user, f, first.data(), first.size()), XS_OK);
  EXPECT_EQ(read("/s/d/f.bin").bytes, first);
  EXPECT_EQ(Sql(schema).rows("SELECT seq, end_offset, partial_tail FROM entries JOIN files ON id = file_id"),
            (std::vector<std::string>{"0|5|t"}));
  const std::string second = "rest\nline two\nmore";
  ASSERT_EQ(table.write(table.user, f, second.data(), second.size()), XS_OK);
  xs_storage_info fi{};
  ASSERT_EQ(table.fstat(table.user, f, &fi), XS_OK);
  EXPECT_EQ(fi.size, 23u);
  ASSERT_EQ(table.close(table.user, f), XS_OK);

  const std::string all = first + second;
  Read whole = read("/s/d/f.bin");
  ASSERT_EQ(whole.rc, XS_OK);
  EXPECT_EQ(whole.bytes, all);
  EXPECT_EQ(whole.info.size, 23u);
  EXPECT_EQ(whole.info.kind, static_cast<uint32_t>(XS_STORAGE_FILE));
  // Offsets and limits inside lines.
  EXPECT_EQ(read("/s/d/f.bin", 3, 4).bytes, all.substr(3, 4));
  EXPECT_EQ(read("/s/d/f.bin", 11, 100).bytes, all.substr(11));
  EXPECT_EQ(read("/s/d/f.bin", 9, 6).bytes, "\nline ");
  EXPECT_EQ(read("/s/d/f.bin", 23).bytes, "");
  EXPECT_EQ(read("/s/d/f.bin", 1000).bytes, "");
  EXPECT_EQ(read("/s/d/f.bin", 0, 0).bytes, "");

  // The partial tail grows in place; the row count follows the '\n's.
  ASSERT_EQ(append("/s/d/f.bin", " end\n"), XS_OK);
  EXPECT_EQ(read("/s/d/f.bin").bytes, all + " end\n");
  Sql sql(schema);
  EXPECT_EQ(sql.rows("SELECT seq, end_offset FROM entries ORDER BY seq"),
            (std::vector<std::string>{"0|10", "1|19", "2|28"}));
  EXPECT_EQ(sql.rows("SELECT size, partial_tail, kind FROM files"), (std::vector<std::string>{"28|f|file"}));
  EXPECT_EQ(sql.bytes("SELECT line FROM entries WHERE seq = 0"), first + "rest\n");
  EXPECT_EQ(sql.bytes("SELECT line FROM entries WHERE seq = 2"), "more end\n");
}

TEST_F(Table, CompleteJsonLinesKeepTheirIdsAndASessionFileItsHeader) {
  ASSERT_EQ(table.make_dirs(table.user, "/s/--w--"), XS_OK);
  const std::string header = R"({"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"})"
                             "\n";
  const std::string e1 = R"({"type":"message","id":"e1","parentId":null})"
                         "\n";
  const std::string e2 = R"({"type":"message","id":"e2","parentId":"e1"})"
                         "\n";
  const std::string bad = "{not json\n";
  ASSERT_EQ(create("/s/--w--/a.jsonl", {header + e1, e2.substr(0, 10), e2.substr(10), bad, "[1]\n"}), XS_OK);
  Sql sql(schema);
  EXPECT_EQ(sql.rows("SELECT seq, entry_id, parent_id FROM entries ORDER BY seq"),
            (std::vector<std::string>{"0|s1|<null>", "1|e1|<null>", "2|e2|e1", "3|<null>|<null>", "4|<null>|<null>"}));
  EXPECT_EQ(sql.rows("SELECT session_id, cwd, archived, path FROM sessions"),
            (std::vector<std::string>{"s1|/w|f|/s/--w--/a.jsonl"}));
  EXPECT_EQ(sql.bytes("SELECT header FROM sessions"), header);
  EXPECT_EQ(read("/s/--w--/a.jsonl").bytes, header + e1 + e2 + bad + "[1]\n");
}

TEST_F(Table, StatusesAreExact) {
  void* f = nullptr;
  EXPECT_EQ(table.open(table.user, "/nodir/f", XS_STORAGE_CREATE, &f), XS_ENOTFOUND);
  EXPECT_EQ(table.open(table.user, "/f", XS_STORAGE_APPEND, &f), XS_ENOTFOUND);
  EXPECT_EQ(table.open(table.user, "/f", 0, &f), XS_EINVAL);
  EXPECT_EQ(table.open(table.user, "/f", XS_STORAGE_APPEND | XS_STORAGE_CREATE, &f), XS_EINVAL);
  ASSERT_EQ(table.make_dirs(table.user, "/d/e"), XS_OK);
  ASSERT_EQ(create("/d/f", {"x"}), XS_OK);
  EXPECT_EQ(create("/d/f", {}), XS_EEXISTS);
  EXPECT_EQ(create("/d/e", {}), XS_EEXISTS);  // a directory of that name
  EXPECT_EQ(table.open(table.user, "/d/e", XS_STORAGE_APPEND, &f), XS_EINVAL);
  EXPECT_EQ(read("/missing").rc, XS_ENOTFOUND);
  EXPECT_EQ(read("/d").rc, XS_EINVAL);
  stat("/missing", XS_ENOTFOUND);
  EXPECT_EQ(table.remove(table.user, "/d/missing"), XS_ENOTFOUND);
  EXPECT_EQ(table.remove(table.user, "/d/e"), XS_EINVAL);
  EXPECT_EQ(table.make_dirs(table.user, "/d/f"), XS_EINVAL);
  EXPECT_EQ(table.make_dirs(table.user, "/d/f/g"), XS_EINVAL);
  EXPECT_EQ(table.make_dirs(table.user, "/d/e"), XS_OK);
  list("/d/missing", XS_ENOTFOUND);
  list("/d/f", XS_ENOTFOUND);
  EXPECT_EQ(table.rename(table.user, "/d/missing", "/d/g", 0), XS_ENOTFOUND);
  EXPECT_EQ(table.rename(table.user, "/d/f", "/nodir/g", 0), XS_ENOTFOUND);
  EXPECT_EQ(table.rename(table.user, "/d/f", "/d/e", 0), XS_EINVAL);
  ASSERT_EQ(create("/d/g", {"g"}), XS_OK);
  EXPECT_EQ(table.rename(table.user, "/d/f", "/d/g", XS_STORAGE_NOREPLACE), XS_EEXISTS);
  EXPECT_EQ(read("/d/g").bytes, "g");  // untouched
  EXPECT_EQ(table.touch(table.user, "/d/missing"), XS_ENOTFOUND);
  ASSERT_EQ(table.remove(table.user, "/d/f"), XS_OK);
  EXPECT_EQ(read("/d/f").rc, XS_ENOTFOUND);
  EXPECT_EQ(Sql(schema).rows("SELECT path FROM files ORDER BY path"), (std::vector<std::string>{"/d/g"}));
}

TEST_F(Table, IdentityChangesWithARenameOverAPathAndNotWithAnAppend) {
  ASSERT_EQ(table.make_dirs(table.user, "/d"), XS_OK);
  ASSERT_EQ(create("/d/a.jsonl", {"one\n"}), XS_OK);
  xs_storage_info before = stat("/d/a.jsonl");
  EXPECT_EQ(before.dev, 1u);
  EXPECT_NE(before.ino, 0u);
  EXPECT_EQ(before.links, 1u);
  EXPECT_EQ(before.size, 4u);
  ASSERT_EQ(append("/d/a.jsonl", "two\n"), XS_OK);
  xs_storage_info appended = stat("/d/a.jsonl");
  EXPECT_EQ(appended.ino, before.ino);
  EXPECT_EQ(appended.size, 8u);

  ASSERT_EQ(create("/d/.a.jsonl.xs-tmp-123", {"new\n"}), XS_OK);
  xs_storage_info temp = stat("/d/.a.jsonl.xs-tmp-123");
  ASSERT_EQ(table.rename(table.user, "/d/.a.jsonl.xs-tmp-123", "/d/a.jsonl", 0), XS_OK);
  xs_storage_info replaced = stat("/d/a.jsonl");
  EXPECT_EQ(replaced.ino, temp.ino);
  EXPECT_NE(replaced.ino, before.ino);
  EXPECT_EQ(read("/d/a.jsonl").bytes, "new\n");
  stat("/d/.a.jsonl.xs-tmp-123", XS_ENOTFOUND);
  EXPECT_EQ(stat("/d").dev, 3u);
  EXPECT_EQ(stat("/d").kind, static_cast<uint32_t>(XS_STORAGE_DIR));
  EXPECT_EQ(stat("/").kind, static_cast<uint32_t>(XS_STORAGE_DIR));
  // Exactly one entry row per line of the file now there; the replaced file's rows are gone.
  EXPECT_EQ(Sql(schema).rows("SELECT count(*) FROM entries"), (std::vector<std::string>{"1"}));
}

TEST_F(Table, WriteIfAppendsOnlyWhileThePathNamesTheFileAtTheExpectedSize) {
  ASSERT_NE(table.write_if, nullptr);
  ASSERT_EQ(table.make_dirs(table.user, "/d"), XS_OK);
  const std::string head = R"({"id":"h"})"
                           "\n",
                    line = R"({"id":"e1","parentId":"h"})"
                           "\n";
  ASSERT_EQ(create("/d/a.jsonl", {head}), XS_OK);
  void* f = nullptr;
  ASSERT_EQ(table.open(table.user, "/d/a.jsonl", XS_STORAGE_APPEND, &f), XS_OK);
  auto write_if = [&](const char* path, uint64_t expected, const std::string& bytes) {
    return table.write_if(table.user, f, path, expected, bytes.data(), bytes.size());
  };

  // The common append (one line): one statement, the row and its ids as write() would store them.
  uint64_t size = head.size();
  ASSERT_EQ(write_if("/d/a.jsonl", size, line), XS_OK);
  size += line.size();
  EXPECT_EQ(Sql(schema).rows("SELECT seq || ' ' || end_offset || ' ' || entry_id || ' ' || parent_id FROM entries "
                             "WHERE seq > 0"),
            (std::vector<std::string>{"1 " + std::to_string(size) + " e1 h"}));
  // Another size than the file has, or another path: nothing written, XS_ECONFLICT.
  EXPECT_EQ(write_if("/d/a.jsonl", head.size(), line), XS_ECONFLICT);
  EXPECT_EQ(write_if("/d/b.jsonl", size, line), XS_ECONFLICT);
  EXPECT_EQ(read("/d/a.jsonl").bytes, head + line);
  // Several lines go through a transaction that checks the same way.
  const std::string two = R"({"id":"e2"})"
                          "\n"
                          R"({"id":"e3"})"
                          "\n";
  EXPECT_EQ(write_if("/d/a.jsonl", size - 1, two), XS_ECONFLICT);
  ASSERT_EQ(write_if("/d/a.jsonl", size, two), XS_OK);
  size += two.size();
  EXPECT_EQ(stat("/d/a.jsonl").size, size);

  // Another process appends (the size grows) or renames a file over the path (another identity):
  // the open file's next write_if is refused, then succeeds at what the file is.
  ASSERT_EQ(append("/d/a.jsonl", R"({"id":"x"})"
                                 "\n"),
            XS_OK);
  uint64_t grown = stat("/d/a.jsonl").size;
  EXPECT_EQ(write_if("/d/a.jsonl", size, line), XS_ECONFLICT);
  ASSERT_EQ(write_if("/d/a.jsonl", grown, line), XS_OK);
  EXPECT_EQ(read("/d/a.jsonl").bytes, head + line + two +
                                          R"({"id":"x"})"
                                          "\n" +
                                          line);
  ASSERT_EQ(create("/d/.tmp", {"new\n"}), XS_OK);
  ASSERT_EQ(table.rename(table.user, "/d/.tmp", "/d/a.jsonl", 0), XS_OK);
  EXPECT_EQ(write_if("/d/a.jsonl", 4, line), XS_ECONFLICT);
  EXPECT_EQ(read("/d/a.jsonl").bytes, "new\n");
  EXPECT_EQ(table.close(table.user, f), XS_OK);
}

TEST_F(Table, BlobsAreRowsOfTheirOwnAndCrossClassRenamesKeepTheBytes) {
  ASSERT_EQ(table.make_dirs(table.user, "/s/blobs/aa"), XS_OK);
  const std::string bytes(
      "\x89PNG\0\n\xff"
      "tail",
      12);
  const std::string temp = "/s/blobs/aa/." + kHash + ".xs-tmp-x1";
  ASSERT_EQ(create(temp, {bytes.substr(0, 5), bytes.substr(5)}), XS_OK);
  ASSERT_EQ(table.rename(table.user, temp.c_str(), ("/s/blobs/aa/" + kHash).c_str(), 0), XS_OK);
  Read r = read("/s/blobs/aa/" + kHash);
  EXPECT_EQ(r.bytes, bytes);
  EXPECT_EQ(r.info.dev, 2u);
  EXPECT_EQ(read("/s/blobs/aa/" + kHash, 4, 3).bytes, std::string("\0\n\xff", 3));
  Sql sql(schema);
  EXPECT_EQ(sql.rows("SELECT path, hash, size FROM blobs"),
            (std::vector<std::string>{"/s/blobs/aa/" + kHash + "|" + kHash + "|12"}));
  EXPECT_EQ(sql.rows("SELECT count(*) FROM files"), (std::vector<std::string>{"0"}));
  ASSERT_EQ(table.touch(table.user, ("/s/blobs/aa/" + kHash).c_str()), XS_OK);

  // blob -> file -> blob: the same bytes, lines split at each '\n'.
  ASSERT_EQ(table.rename(table.user, ("/s/blobs/aa/" + kHash).c_str(), "/s/blobs/aa/copy", 0), XS_OK);
  EXPECT_EQ(read("/s/blobs/aa/copy").bytes, bytes);
  EXPECT_EQ(read("/s/blobs/aa/copy").info.dev, 1u);
  EXPECT_EQ(sql.rows("SELECT seq, end_offset FROM entries ORDER BY seq"), (std::vector<std::string>{"0|6", "1|12"}));
  std::string other(64, 'b');
  ASSERT_EQ(table.rename(table.user, "/s/blobs/aa/copy", ("/s/blobs/aa/" + other).c_str(), 0), XS_OK);
  EXPECT_EQ(read("/s/blobs/aa/" + other).bytes, bytes);
  EXPECT_EQ(sql.rows("SELECT count(*) FROM files"), (std::vector<std::string>{"0"}));
  EXPECT_EQ(sql.rows("SELECT hash FROM blobs"), (std::vector<std::string>{other}));
}

TEST_F(Table, ListNamesFilesBlobsAndDirectoriesOfOneDirectory) {
  ASSERT_EQ(table.make_dirs(table.user, "/r/sessions/--a--"), XS_OK);
  ASSERT_EQ(table.make_dirs(table.user, "/r/blobs"), XS_OK);
  ASSERT_EQ(create("/r/sessions.json", {"{}"}), XS_OK);
  ASSERT_EQ(create("/r/" + kHash, {"b"}), XS_OK);
  ASSERT_EQ(create("/r/sessions/--a--/x.jsonl", {}), XS_OK);
  EXPECT_EQ(list("/r"), (std::set<std::string>{"sessions", "blobs", "sessions.json", kHash}));
  EXPECT_EQ(list("/r/"), (std::set<std::string>{"sessions", "blobs", "sessions.json", kHash}));
  EXPECT_EQ(list("/r/sessions"), (std::set<std::string>{"--a--"}));
  EXPECT_EQ(list("/r/sessions/--a--"), (std::set<std::string>{"x.jsonl"}));
  EXPECT_EQ(list("/r/blobs"), (std::set<std::string>{}));
  EXPECT_EQ(list("/"), (std::set<std::string>{"r"}));
  // A callback's status stops the listing and is returned.
  int calls = 0;
  auto stop = [](void* ctx, const char*, size_t) {
    ++*static_cast<int*>(ctx);
    return XS_ENOSPC;
  };
  EXPECT_EQ(table.list(table.user, "/r", stop, &calls), XS_ENOSPC);
  EXPECT_EQ(calls, 1);
  // A directory moved with what is in it.
  ASSERT_EQ(table.rename(table.user, "/r/sessions", "/r/moved", 0), XS_OK);
  EXPECT_EQ(read("/r/moved/--a--/x.jsonl").rc, XS_OK);
  EXPECT_EQ(list("/r/moved/--a--"), (std::set<std::string>{"x.jsonl"}));
  list("/r/sessions", XS_ENOTFOUND);
}

TEST_F(Table, TheKeyedDocumentRenamedIntoPlaceFillsKeyedSessionsUnlessItIsDamaged) {
  ASSERT_EQ(table.make_dirs(table.user, "/k"), XS_OK);
  ASSERT_EQ(create("/k/.sessions.json.xs-tmp-1", {R"({"a":{"sessionId":"s1"},)",
                                                  "\n"
                                                  R"("b":{"n":2}})"}),
            XS_OK);
  ASSERT_EQ(table.rename(table.user, "/k/.sessions.json.xs-tmp-1", "/k/sessions.json", 0), XS_OK);
  Sql sql(schema);
  EXPECT_EQ(sql.rows("SELECT dir, key, record::text FROM keyed_sessions ORDER BY key"),
            (std::vector<std::string>{R"(/k|a|{"sessionId": "s1"})", R"(/k|b|{"n": 2})"}));
  ASSERT_EQ(create("/k/.sessions.json.xs-tmp-2", {R"({"a":)"}), XS_OK);  // damaged: the rows stay
  ASSERT_EQ(table.rename(table.user, "/k/.sessions.json.xs-tmp-2", "/k/sessions.json", 0), XS_OK);
  EXPECT_EQ(read("/k/sessions.json").bytes, R"({"a":)");
  EXPECT_EQ(sql.rows("SELECT key FROM keyed_sessions ORDER BY key"), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(create("/k/.sessions.json.xs-tmp-3", {R"({"c":"\u0000"})"}), XS_OK);  // jsonb refuses \u0000
  ASSERT_EQ(table.rename(table.user, "/k/.sessions.json.xs-tmp-3", "/k/sessions.json", 0), XS_OK);
  EXPECT_EQ(read("/k/sessions.json").bytes, R"({"c":"\u0000"})");
  EXPECT_EQ(sql.rows("SELECT key FROM keyed_sessions ORDER BY key"), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(table.remove(table.user, "/k/sessions.json"), XS_OK);
  EXPECT_EQ(sql.rows("SELECT count(*) FROM keyed_sessions"), (std::vector<std::string>{"0"}));
}

TEST_F(Table, ALockExcludesASecondHolderInTheSameProcessUntilUnlocked) {
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_EQ(table.lock(table.user, "/d/a.jsonl.lock", 0, &first), XS_OK);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(table.lock(table.user, "/d/a.jsonl.lock", 50, &second), XS_ELOCKED);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
  EXPECT_EQ(table.lock(table.user, "/d/a.jsonl.lock", 0, &second), XS_ELOCKED);
  void* other = nullptr;
  ASSERT_EQ(table.lock(table.user, "/d/b.jsonl.lock", 0, &other), XS_OK);
  table.unlock(table.user, other);
  // Released while the second waits: it gets the lock within its timeout.
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    table.unlock(table.user, first);
  });
  EXPECT_EQ(table.lock(table.user, "/d/a.jsonl.lock", 5000, &second), XS_OK);
  release.join();
  table.unlock(table.user, second);
}

TEST_F(Table, SeveralThreadsWriteTheirOwnFilesAtOnce) {
  ASSERT_EQ(table.make_dirs(table.user, "/t"), XS_OK);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([this, t] {
      std::string path = "/t/f" + std::to_string(t);
      ASSERT_EQ(create(path, {}), XS_OK);
      for (int i = 0; i < 20; ++i) ASSERT_EQ(append(path, std::to_string(i) + "\n"), XS_OK);
    });
  }
  for (std::thread& th : threads) th.join();
  std::string expected;
  for (int i = 0; i < 20; ++i) expected += std::to_string(i) + "\n";
  for (int t = 0; t < 4; ++t) EXPECT_EQ(read("/t/f" + std::to_string(t)).bytes, expected);
}

TEST(PostgresStorage, BadArgumentsAndAnUnreachableServerAreReported) {
  xs_storage t{};
  char err[256] = "x";
  EXPECT_EQ(xs_postgres_storage(nullptr, nullptr, &t, err, sizeof err), XS_EINVAL);
  EXPECT_EQ(xs_postgres_storage(pgtest::conninfo().c_str(), nullptr, nullptr, err, sizeof err), XS_EINVAL);
  EXPECT_EQ(xs_postgres_storage(pgtest::conninfo().c_str(), "Bad-Name", &t, err, sizeof err), XS_EINVAL);
  EXPECT_EQ(xs_postgres_storage(pgtest::conninfo().c_str(), "1abc", &t, err, sizeof err), XS_EINVAL);
  EXPECT_EQ(xs_postgres_storage("host=/nonexistent-socket-dir port=1 dbname=x connect_timeout=2", nullptr, &t, err,
                                sizeof err),
            XS_EIO);
  EXPECT_NE(std::string(err).find("cannot connect"), std::string::npos) << err;
  EXPECT_NE(std::string(err).find("/nonexistent-socket-dir"), std::string::npos) << err;
}

}  // namespace
