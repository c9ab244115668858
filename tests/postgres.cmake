# The PostgreSQL tests' server (docs/testing-postgres.md): one throwaway server per ctest run,
# shared by every test that needs it. Included from the top-level CMakeLists.txt when
# XS_BUILD_POSTGRES and XS_BUILD_TESTS are on, after tests/ (its conformance runner is used here).
#
# CTest fixture `postgres`: postgres.server_start runs `scripts/pg-test-server start <build>/pg`
# before the first test that requires it, postgres.server_stop stops it after the last one (with
# ctest -j too, and also when only some of the tests are selected with -R). A test asks for it with
#   xs_postgres_test(<name> <command> [args...])
# which adds the test with FIXTURES_REQUIRED postgres and XS_TEST_POSTGRES_CONNINFO_FILE, the file
# holding the server's libpq conninfo (one line: host=... port=... dbname=xsession_test user=...).
# Tests share the server and the database and may run at the same time: each works in a schema
# (or a database) of its own, so none needs a RESOURCE_LOCK.
include_guard(GLOBAL)

# The server is found when the tests run, by scripts/pg-test-server; checked here too, so that a
# missing server is one line at configure time instead of a failed fixture at the end of a run.
file(GLOB xs_pg_server_bindirs /usr/lib/postgresql/*/bin/postgres)
find_program(XS_PG_INITDB initdb)
if(NOT xs_pg_server_bindirs AND NOT XS_PG_INITDB AND NOT DEFINED ENV{XS_PG_BINDIR})
  message(FATAL_ERROR "The PostgreSQL tests need a PostgreSQL server (Debian: apt-get install postgresql; "
                      "scripts/setup-deps installs it), or configure with -DXS_BUILD_POSTGRES=OFF")
endif()

set(XS_POSTGRES_TEST_DIR ${CMAKE_BINARY_DIR}/pg)
add_test(NAME postgres.server_start
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/pg-test-server start ${XS_POSTGRES_TEST_DIR})
set_tests_properties(postgres.server_start PROPERTIES FIXTURES_SETUP postgres TIMEOUT 120)
add_test(NAME postgres.server_stop
         COMMAND ${PROJECT_SOURCE_DIR}/scripts/pg-test-server stop ${XS_POSTGRES_TEST_DIR})
set_tests_properties(postgres.server_stop PROPERTIES FIXTURES_CLEANUP postgres TIMEOUT 120)

function(xs_postgres_test name)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED postgres
                       ENVIRONMENT XS_TEST_POSTGRES_CONNINFO_FILE=${CMAKE_BINARY_DIR}/pg/conninfo)
endfunction()

# libpq itself against the server: binary bytea, advisory locks across connections.
add_executable(xs_libpq_smoke ${CMAKE_CURRENT_LIST_DIR}/postgres/libpq_smoke.c)
target_link_libraries(xs_libpq_smoke PRIVATE PostgreSQL::PostgreSQL xs_warnings)
xs_postgres_test(postgres.libpq_smoke xs_libpq_smoke)

# The backend (backends/postgres, docs/postgres.md) through its public header: each table function
# against the contract, and a store over it. Each test works in a fresh schema it drops at its end.
find_package(GTest REQUIRED)
foreach(xs_pg_test storage_table store)
  add_executable(xs_pg_${xs_pg_test}_test ${CMAKE_CURRENT_LIST_DIR}/postgres/${xs_pg_test}_test.cc)
  target_link_libraries(xs_pg_${xs_pg_test}_test PRIVATE xsession_postgres PostgreSQL::PostgreSQL GTest::gtest
                                                         GTest::gtest_main xs_warnings)
  xs_postgres_test(postgres.${xs_pg_test} xs_pg_${xs_pg_test}_test)
endforeach()

# The whole conformance suite with the store in PostgreSQL: the same bytes out, the same contexts
# (tests/conformance/README.md; the runner reads and writes the case's files through the table).
target_link_libraries(xs_conformance PRIVATE xsession_postgres)
target_compile_definitions(xs_conformance PRIVATE XS_CONFORMANCE_POSTGRES)
xs_postgres_test(postgres.conformance xs_conformance)
set_tests_properties(postgres.conformance PROPERTIES ENVIRONMENT
                     "XS_TEST_POSTGRES_CONNINFO_FILE=${CMAKE_BINARY_DIR}/pg/conninfo;XS_CONFORMANCE_STORAGE=postgres")

# Several hosts on one database (own connections each, one contended session), and a server
# killed mid-append (a server of the test's own, scripts/pg-test-server crash and restart).
add_executable(xs_pg_hosts_test ${CMAKE_CURRENT_LIST_DIR}/postgres/multi_host_test.cc)
target_link_libraries(xs_pg_hosts_test PRIVATE xsession_postgres simdjson::simdjson GTest::gtest GTest::gtest_main
                                               xs_warnings)
target_compile_definitions(xs_pg_hosts_test PRIVATE XS_PG_TEST_SERVER="${PROJECT_SOURCE_DIR}/scripts/pg-test-server")
xs_postgres_test(postgres.hosts xs_pg_hosts_test)
set_tests_properties(postgres.hosts PROPERTIES TIMEOUT 300)

# xs --store postgresql://… for every command, and xs copy into the database and back.
xs_postgres_test(postgres.cli ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/postgres/cli_postgres_test.py
                 $<TARGET_FILE:xs> ${PROJECT_SOURCE_DIR}/examples/make_store.py)
