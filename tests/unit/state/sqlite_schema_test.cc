#include <sqlite3.h>

#include <gtest/gtest.h>

#include "state/sqlite/schema.h"
#include "state_test_util.h"

namespace strata::state {
namespace {

using namespace testing;

int64_t Pragma(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
  int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

std::string PragmaText(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
  std::string v = sqlite3_step(st) == SQLITE_ROW ? reinterpret_cast<const char*>(sqlite3_column_text(st, 0)) : "";
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

void ExecRaw(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
  sqlite3_close(db);
}

TEST(SqliteSchemaTest, NewDatabaseIsCurrentAndInWalMode) {
  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File(".strata/state.db");  // the directory is created
  auto store = OpenOrDie(Options(path, &env));
  ASSERT_TRUE(store);
  store.reset();
  EXPECT_EQ(Pragma(path, "PRAGMA user_version"), sqlite::kSchemaVersion);
  EXPECT_EQ(PragmaText(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(Pragma(path, "SELECT COUNT(*) FROM schema_migrations"), sqlite::kSchemaVersion);
}

TEST(SqliteSchemaTest, MigratesAnOlderSchemaKeepingData) {
  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  ExecRaw(path, std::string(sqlite::MigrationSql(1)) +
                    "INSERT INTO schema_migrations VALUES(1, 0);"
                    "INSERT INTO stages VALUES('eks', 'lineage-1', 3, 0, 0);"
                    "INSERT INTO resources(stage, address, mode, type, provider, status, attributes, created_at, "
                    "updated_at) VALUES('eks', 'aws_vpc.main', 'managed', 'aws_vpc', 'aws', 'created', "
                    "'{\"id\":\"vpc-1\"}', 0, 0);"
                    "PRAGMA user_version=1;");
  auto store = OpenOrDie(Options(path, &env));
  ASSERT_TRUE(store);
  auto stage = store->LoadStage("eks", {});
  ASSERT_TRUE(stage.ok()) << stage.status().message();
  EXPECT_EQ(stage->serial, 3);
  ASSERT_EQ(stage->resources.size(), 1u);
  EXPECT_EQ(stage->resources[0].attributes.AsMap().at("id").AsString(), "vpc-1");
  EXPECT_TRUE(store->History("eks").ok());  // a version-2 table
  store.reset();
  EXPECT_EQ(Pragma(path, "PRAGMA user_version"), sqlite::kSchemaVersion);
}

// Version 3 (environments): a version-2 state becomes environment `default`'s, as it was,
// and other environments start empty beside it.
TEST(SqliteSchemaTest, MigratesAVersion2StateIntoTheDefaultEnvironment) {
  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  ExecRaw(path, std::string(sqlite::MigrationSql(1)) + sqlite::MigrationSql(2) +
                    "INSERT INTO schema_migrations VALUES(1, 0);"
                    "INSERT INTO schema_migrations VALUES(2, 0);"
                    "INSERT INTO stages VALUES('eks', 'lineage-1', 4, 0, 0);"
                    "INSERT INTO resources(stage, address, mode, type, provider, status, attributes, created_at, "
                    "updated_at) VALUES('eks', 'aws_vpc.main', 'managed', 'aws_vpc', 'aws', 'created', "
                    "'{\"id\":\"vpc-1\"}', 0, 0);"
                    "INSERT INTO outputs(stage, name, value) VALUES('eks', 'vpc_id', '\"vpc-1\"');"
                    "INSERT INTO history(stage, serial, lineage, created_at, operation, holder, resource_count, "
                    "output_count, snapshot) VALUES('eks', 4, 'lineage-1', 0, 'apply', 'a@b', 1, 1, "
                    "'{\"resources\":[],\"outputs\":[]}');"
                    "PRAGMA user_version=2;");
  auto store = OpenOrDie(Options(path, &env));
  ASSERT_TRUE(store);
  EXPECT_EQ(store->Environment(), "default");
  auto stage = store->LoadStage("eks", {});
  ASSERT_TRUE(stage.ok()) << stage.status().message();
  EXPECT_EQ(stage->lineage, "lineage-1");
  EXPECT_EQ(stage->serial, 4);
  ASSERT_EQ(stage->resources.size(), 1u);
  EXPECT_EQ(store->LoadOutputs("eks")->at("vpc_id").value.AsString(), "vpc-1");
  EXPECT_EQ(store->History("eks")->size(), 1u);
  auto environments = store->ListEnvironments();
  ASSERT_TRUE(environments.ok()) << environments.status().message();
  ASSERT_EQ(environments->size(), 1u);
  EXPECT_EQ((*environments)[0].name, "default");
  EXPECT_EQ((*environments)[0].stages, 1);
  EXPECT_EQ((*environments)[0].resources, 1);
  ASSERT_TRUE(store->CreateEnvironment("prod").ok());
  SqliteStoreOptions prod_options = Options(path, &env);
  prod_options.environment = "prod";
  auto prod = OpenOrDie(prod_options);
  ASSERT_TRUE(prod);
  EXPECT_FALSE(prod->LoadStage("eks")->exists);
  store.reset();
  prod.reset();
  EXPECT_EQ(Pragma(path, "PRAGMA user_version"), sqlite::kSchemaVersion);
  EXPECT_EQ(Pragma(path, "SELECT COUNT(*) FROM schema_migrations WHERE version = 3"), 1);
  // Version 4 rebuilt the resources table with the deposed key: the row is a current object.
  EXPECT_EQ(Pragma(path, "SELECT COUNT(*) FROM resources WHERE deposed = ''"), 1);
  EXPECT_EQ(Pragma(path, "SELECT COUNT(*) FROM schema_migrations WHERE version = 4"), 1);
}

TEST(SqliteSchemaTest, RefusesANewerSchemaNamingBothVersions) {
  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  ExecRaw(path, "CREATE TABLE future(x); PRAGMA user_version=99;");
  auto store = SqliteStateStore::Open(Options(path, &env));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), StateCode::SchemaTooNew);
  EXPECT_NE(store.status().message().find("99"), std::string::npos);
  EXPECT_NE(store.status().message().find(std::to_string(sqlite::kSchemaVersion)), std::string::npos);
  EXPECT_EQ(Pragma(path, "PRAGMA user_version"), 99);  // untouched
}

TEST(SqliteSchemaTest, ForeignKeysAreEnforced) {
  TempDir dir;
  FakeEnvironment env;
  std::string path = dir.File("state.db");
  auto store = OpenOrDie(Options(path, &env));
  ApplyResources(*store, "eks", {Resource("aws_vpc.main")});
  // Deleting a stage through SQL cascades to its rows (foreign keys are on in our connection).
  auto* db = sqlite::Database::Open(path, 1000).release();
  db->Exec("PRAGMA foreign_keys=ON; DELETE FROM stages WHERE name='eks'");
  EXPECT_EQ(db->QueryInt("SELECT COUNT(*) FROM resources"), 0);
  delete db;
}

}  // namespace
}  // namespace strata::state
