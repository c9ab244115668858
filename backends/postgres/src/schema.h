// The store's tables in its schema, made and migrated by an ordered list of steps
// (docs/postgres.md#schema).
#ifndef XS_POSTGRES_SCHEMA_H
#define XS_POSTGRES_SCHEMA_H

#include <string>

#include "pg_conn.h"

namespace xspg {

// True for a schema name this library accepts: 1-63 chars of [a-z0-9_], not starting with a digit
// (a plain identifier: never quoted, never folded).
bool valid_schema_name(const std::string& name);

// Creates the schema and its tables, or migrates them to the newest version, under a transaction
// -level advisory lock so that two processes opening one schema at once do not race.
// XS_OK; XS_EVERSION when the schema is newer than this library; XS_EIO with *error set.
xs_status migrate(Conn& conn, const std::string& schema, std::string* error);

}  // namespace xspg

#endif  // XS_POSTGRES_SCHEMA_H
