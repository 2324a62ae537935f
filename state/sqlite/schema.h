#pragma once
// The state database's schema and its migrations.
//
// The schema version is SQLite's `PRAGMA user_version`; `schema_migrations` records when each
// step was applied. Opening a database:
//  - older (including a new, empty file): every missing migration runs in ONE write
//    transaction, so a crash mid-migration leaves the old version intact;
//  - newer: refused (SchemaTooNew) with both versions named — never touched.

#include "engine/base/sqlite.h"
#include "state/status.h"

namespace strata::state::sqlite {

// The state store's SQLite code names the shared wrapper's types as its own.
using strata::sqlite::Access;
using strata::sqlite::Database;
using strata::sqlite::SqliteError;
using strata::sqlite::Statement;
using strata::sqlite::Transaction;

//! The version this build writes.
constexpr int kSchemaVersion = 4;

//! Applies WAL mode, the synchronous level, foreign keys, then migrations.
//! `now_millis` is recorded in schema_migrations.
StateStatus PrepareSchema(Database& db, int64_t now_millis);

//! For a read-only connection: Ok for this build's version, SchemaTooNew for a newer one,
//! Io for an older one (migrating is a write). Sets nothing.
StateStatus CheckSchema(Database& db);

//! The DDL of one migration step (1-based), for tests that build an old database.
const char* MigrationSql(int version);

}  // namespace strata::state::sqlite
