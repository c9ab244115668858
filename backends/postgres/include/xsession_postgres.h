/* xsession_postgres.h -- storage in a PostgreSQL database (docs/postgres.md).
 *
 * A separate library, libxsession_postgres (it links libpq; libxsession does not). It fills an
 * xs_storage (xsession_storage.h) whose functions keep every file, blob and directory of a store
 * in tables of one schema, and whose locks are PostgreSQL advisory locks, so that stores on
 * several hosts sharing one database exclude each other's writers. Pass the table in
 * xs_store_options.storage:
 *
 *   xs_storage pg;
 *   char err[256];
 *   if (xs_postgres_storage("postgresql://db/agents", NULL, &pg, err, sizeof err) != XS_OK) ...;
 *   xs_store_options o;
 *   xs_store_options_init(&o, XS_STORE_OPTIONS_VERSION);
 *   o.storage = &pg;
 *   xs_store_open(st, "/store", &o);   // paths under "/store" are rows, not files
 */
#ifndef XSESSION_POSTGRES_H
#define XSESSION_POSTGRES_H

#include "xsession_storage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The newest schema version this library creates and reads (the schema's schema_version table). */
#define XS_POSTGRES_SCHEMA_VERSION 2

/** Fills *out with storage in the PostgreSQL database `conninfo` (a libpq connection string or a
 *  postgresql:// URI) under schema `schema` (NULL = "xsession"), creating or migrating its tables
 *  first (two processes doing so at once are serialised by the server). out->release closes
 *  every connection.
 *  Ownership: out->user is a new instance owned by whoever holds the table: pass it to
 *  xs_store_open (which then owns it and calls release), or call out->release(out->user) yourself.
 *  Nothing of conninfo or schema is kept by reference.
 *  @param schema  NULL, or 1-63 chars of [a-z0-9_] starting with a letter or '_'.
 *  @param errbuf  NULL, or errcap bytes that receive a NUL-terminated message on failure
 *                 (truncated to fit; "" on success).
 *  @return XS_OK; XS_EINVAL (NULL conninfo/out, bad schema name); XS_EIO (cannot connect or create:
 *          libpq's message in errbuf); XS_EVERSION (the schema is newer than this library);
 *          XS_ENOMEM.
 *  @thread any thread; the table's functions are safe to call from several threads at once. */
XS_API xs_status xs_postgres_storage(const char *conninfo, const char *schema, xs_storage *out,
                                     char *errbuf, size_t errcap);

#ifdef __cplusplus
}
#endif

#endif /* XSESSION_POSTGRES_H */
