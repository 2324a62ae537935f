#pragma once
// The PostgreSQL state schema and its migrations. All tables live in the store's own
// PostgreSQL schema (the `schema` setting), so several projects can share one database.
//
// The version is the one row of `strata_schema_version`; `schema_migrations` records when
// each step was applied. Opening:
//  - older (including an empty or missing schema): every missing step runs in ONE
//    transaction, under a transaction-level advisory lock so that two processes opening a
//    new database at once do not both migrate;
//  - newer: refused (SchemaTooNew) with both versions named — never touched.

#include <cstdint>
#include <string>

#include "state/postgres/pg_connection.h"
#include "state/status.h"

namespace strata::state::pg {

//! The version this build writes (PostgreSQL's own numbering, independent of SQLite's).
constexpr int kPgSchemaVersion = 1;

//! Creates or migrates `schema` (a valid name: conninfo.h). `where` names the database in
//! messages (its masked URL and schema). Throws PgError for database failures.
StateStatus PreparePgSchema(Connection& conn, const std::string& schema, const std::string& where, int64_t now_millis);

//! The schema's version: 0 when it has no version table yet.
int64_t ReadPgSchemaVersion(Connection& conn);

//! A 64-bit key for PostgreSQL's advisory locks: FNV-1a of `text` (the same in every process).
int64_t AdvisoryKey(const std::string& text);

}  // namespace strata::state::pg
