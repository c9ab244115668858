/* What the PostgreSQL backend will rely on, checked against the tests' server (tests/postgres.cmake,
 * docs/testing-postgres.md) through libpq alone: a connection from the conninfo file, a table in a
 * schema of its own, bytea that round-trips a NUL and a byte that is not UTF-8, and a session-level
 * advisory lock that a second connection is refused until the first connection ends.
 * Exits 0 only when every value is exactly the expected one; otherwise prints what differed. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int failures = 0;

static void fail(const char* what, const char* expected, const char* got) {
  fprintf(stderr, "libpq_smoke: %s: expected %s, got %s\n", what, expected, got);
  failures++;
}

/* Runs sql (text parameters, if any) and returns the result when its status is `expected`; else
 * reports the server's message and returns NULL. */
static PGresult* exec_expect(PGconn* conn, const char* sql, int n_params, const char* const* params,
                             ExecStatusType expected) {
  PGresult* res = PQexecParams(conn, sql, n_params, NULL, params, NULL, NULL, 0);
  if (PQresultStatus(res) != expected) {
    fprintf(stderr, "libpq_smoke: %s: %s, expected %s: %s", sql, PQresStatus(PQresultStatus(res)),
            PQresStatus(expected), PQerrorMessage(conn));
    failures++;
    PQclear(res);
    return NULL;
  }
  return res;
}

/* The single text value of a one-row, one-column query, compared with `expected`. */
static void expect_value(PGconn* conn, const char* what, const char* sql, int n_params, const char* const* params,
                         const char* expected) {
  PGresult* res = exec_expect(conn, sql, n_params, params, PGRES_TUPLES_OK);
  if (res == NULL) return;
  if (PQntuples(res) != 1 || PQnfields(res) != 1) {
    char shape[64];
    snprintf(shape, sizeof shape, "%d rows of %d columns", PQntuples(res), PQnfields(res));
    fail(what, "1 row of 1 column", shape);
  } else if (strcmp(PQgetvalue(res, 0, 0), expected) != 0) {
    fail(what, expected, PQgetvalue(res, 0, 0));
  }
  PQclear(res);
}

static PGconn* connect_or_report(const char* conninfo) {
  PGconn* conn = PQconnectdb(conninfo);
  if (PQstatus(conn) != CONNECTION_OK) {
    fprintf(stderr, "libpq_smoke: cannot connect with \"%s\": %s", conninfo, PQerrorMessage(conn));
    PQfinish(conn);
    return NULL;
  }
  return conn;
}

/* The conninfo the fixture wrote (its single line, without the newline), or NULL. */
static char* read_conninfo(void) {
  const char* path = getenv("XS_TEST_POSTGRES_CONNINFO_FILE");
  if (path == NULL || path[0] == '\0') {
    fprintf(stderr, "libpq_smoke: XS_TEST_POSTGRES_CONNINFO_FILE is not set (run it through ctest)\n");
    return NULL;
  }
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "libpq_smoke: cannot open %s (did postgres.server_start run?)\n", path);
    return NULL;
  }
  static char line[1024];
  char* got = fgets(line, sizeof line, f);
  fclose(f);
  if (got == NULL) {
    fprintf(stderr, "libpq_smoke: %s is empty\n", path);
    return NULL;
  }
  line[strcspn(line, "\n")] = '\0';
  return line;
}

/* 'a', NUL, 0xff (never valid in UTF-8), 0xc3 without its continuation byte, 'z'. */
static const char kBytes[] = {'a', '\0', (char)0xff, (char)0xc3, 'z'};

static void check_bytea(PGconn* conn, const char* schema) {
  char sql[256];
  snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
  PQclear(exec_expect(conn, sql, 0, NULL, PGRES_COMMAND_OK));
  snprintf(sql, sizeof sql, "CREATE TABLE %s.blobs (id integer PRIMARY KEY, data bytea NOT NULL)", schema);
  PQclear(exec_expect(conn, sql, 0, NULL, PGRES_COMMAND_OK));

  /* Sent as a binary parameter: the bytes go over the wire as they are, no escaping. */
  snprintf(sql, sizeof sql, "INSERT INTO %s.blobs (id, data) VALUES (1, $1::bytea)", schema);
  const char* values[1] = {kBytes};
  const int lengths[1] = {(int)sizeof kBytes};
  const int formats[1] = {1};
  PGresult* res = PQexecParams(conn, sql, 1, NULL, values, lengths, formats, 0);
  if (PQresultStatus(res) != PGRES_COMMAND_OK) {
    fprintf(stderr, "libpq_smoke: insert: %s", PQerrorMessage(conn));
    failures++;
  } else if (strcmp(PQcmdTuples(res), "1") != 0) {
    fail("rows inserted", "1", PQcmdTuples(res));
  }
  PQclear(res);

  /* Read back in binary: exactly the five bytes. */
  snprintf(sql, sizeof sql, "SELECT data FROM %s.blobs WHERE id = 1", schema);
  res = PQexecParams(conn, sql, 0, NULL, NULL, NULL, NULL, 1);
  if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
    fprintf(stderr, "libpq_smoke: select data: %s", PQerrorMessage(conn));
    failures++;
  } else {
    int length = PQgetlength(res, 0, 0);
    if (length != (int)sizeof kBytes) {
      char got[32];
      snprintf(got, sizeof got, "%d bytes", length);
      fail("bytea read back in binary", "5 bytes", got);
    } else if (memcmp(PQgetvalue(res, 0, 0), kBytes, sizeof kBytes) != 0) {
      const unsigned char* got = (const unsigned char*)PQgetvalue(res, 0, 0);
      char hex[16];
      snprintf(hex, sizeof hex, "%02x%02x%02x%02x%02x", got[0], got[1], got[2], got[3], got[4]);
      fail("bytea read back in binary", "6100ffc37a", hex);
    }
  }
  PQclear(res);

  /* And as the server itself sees them. */
  snprintf(sql, sizeof sql, "SELECT encode(data, 'hex') || ' ' || octet_length(data) FROM %s.blobs", schema);
  expect_value(conn, "bytea as the server stores it", sql, 0, NULL, "6100ffc37a 5");
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* A session-level advisory lock held by `first` is refused to `second`, and granted to it once
 * `first` is gone (PQfinish). The server releases the lock when the first backend has processed
 * the termination, which is not synchronous with PQfinish: `second` retries for up to 10 s. */
static void check_advisory_lock(PGconn* first, PGconn* second) {
  char key[32];
  snprintf(key, sizeof key, "%ld", (long)getpid());
  const char* params[1] = {key};
  /* Two-key form: a first key of this test's own, the process id as the second. */
  const char* sql = "SELECT pg_try_advisory_lock(2021161080, $1::integer)";

  expect_value(first, "first connection's pg_try_advisory_lock", sql, 1, params, "t");
  expect_value(second, "second connection's pg_try_advisory_lock while the first holds it", sql, 1, params, "f");
  expect_value(second, "second connection's pg_try_advisory_lock, asked again", sql, 1, params, "f");
  PQfinish(first);

  for (int attempt = 0;; attempt++) {
    PGresult* res = exec_expect(second, sql, 1, params, PGRES_TUPLES_OK);
    if (res == NULL) return;
    int granted = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
    PQclear(res);
    if (granted) break;
    if (attempt == 1000) {
      fail("second connection's pg_try_advisory_lock after the first's PQfinish, within 10 s", "t", "f");
      return;
    }
    sleep_ms(10);
  }
  expect_value(second, "pg_advisory_unlock by its holder", "SELECT pg_advisory_unlock(2021161080, $1::integer)", 1,
               params, "t");
}

int main(void) {
  const char* conninfo = read_conninfo();
  if (conninfo == NULL) return 1;
  PGconn* first = connect_or_report(conninfo);
  if (first == NULL) return 1;
  PGconn* second = connect_or_report(conninfo);
  if (second == NULL) {
    PQfinish(first);
    return 1;
  }
  expect_value(first, "database", "SELECT current_database()", 0, NULL, "xsession_test");
  expect_value(first, "server encoding", "SHOW server_encoding", 0, NULL, "UTF8");

  /* A schema of this process's own: tests share the database and may run at the same time. */
  char schema[64];
  snprintf(schema, sizeof schema, "xs_libpq_smoke_%ld", (long)getpid());
  check_bytea(first, schema);
  check_advisory_lock(first, second); /* ends `first` */

  char sql[128];
  snprintf(sql, sizeof sql, "DROP TABLE %s.blobs", schema);
  PQclear(exec_expect(second, sql, 0, NULL, PGRES_COMMAND_OK));
  snprintf(sql, sizeof sql, "DROP SCHEMA %s", schema);
  PQclear(exec_expect(second, sql, 0, NULL, PGRES_COMMAND_OK));
  PQfinish(second);
  if (failures != 0) {
    fprintf(stderr, "libpq_smoke: %d check(s) failed\n", failures);
    return 1;
  }
  printf(
      "libpq_smoke: connection, bytea with NUL and non-UTF-8 bytes, advisory lock across connections: as expected\n");
  return 0;
}
