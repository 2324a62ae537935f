#include "state/sqlite/schema.h"

#include <string>

namespace strata::state::sqlite {
namespace {

// Version 1: stages, their resources and outputs, locks.
constexpr const char* kV1 = R"sql(
CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,
  applied_at INTEGER NOT NULL
);
CREATE TABLE stages (
  name       TEXT PRIMARY KEY,
  lineage    TEXT NOT NULL,
  serial     INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE resources (
  stage             TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  address           TEXT NOT NULL,
  mode              TEXT NOT NULL CHECK (mode IN ('managed', 'data')),
  type              TEXT NOT NULL,
  provider          TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('created', 'tainted', 'pending-create',
                                                    'pending-update', 'pending-delete')),
  attributes        TEXT NOT NULL,              -- JSON, sensitive subtrees replaced by null
  sensitive_paths   TEXT NOT NULL DEFAULT '[]', -- JSON array of paths
  secrets           TEXT NOT NULL DEFAULT '[]', -- JSON array of sealed values, parallel to paths
  dependencies      TEXT NOT NULL DEFAULT '[]', -- JSON array of addresses
  idempotency_token TEXT NOT NULL DEFAULT '',
  schema_version    INTEGER NOT NULL DEFAULT 0,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  PRIMARY KEY (stage, address)
) WITHOUT ROWID;
CREATE TABLE outputs (
  stage           TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  name            TEXT NOT NULL,
  value           TEXT NOT NULL,                -- JSON, sensitive subtrees replaced by null
  sensitive       INTEGER NOT NULL DEFAULT 0,
  sensitive_paths TEXT NOT NULL DEFAULT '[]',
  secrets         TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (stage, name)
) WITHOUT ROWID;
CREATE TABLE locks (
  stage         TEXT PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  user          TEXT NOT NULL,
  host          TEXT NOT NULL,
  pid           INTEGER NOT NULL,
  process_start INTEGER NOT NULL DEFAULT 0,
  operation     TEXT NOT NULL,
  since         INTEGER NOT NULL
);
)sql";

// Version 2: the operations journal, change sets and the history of serials.
constexpr const char* kV2 = R"sql(
CREATE TABLE change_sets (
  id          INTEGER PRIMARY KEY,
  stage       TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  operation   TEXT NOT NULL,
  lock_id     TEXT NOT NULL,
  holder      TEXT NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('open', 'committed', 'interrupted')),
  dirty       INTEGER NOT NULL DEFAULT 0,
  absorbed_by INTEGER REFERENCES change_sets(id),
  serial      INTEGER,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE INDEX change_sets_open ON change_sets(stage, status);
CREATE TABLE operations (
  id                INTEGER PRIMARY KEY,
  stage             TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  change_set_id     INTEGER NOT NULL REFERENCES change_sets(id) ON DELETE CASCADE,
  address           TEXT NOT NULL,
  action            TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'read')),
  idempotency_token TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
  prior_status      TEXT,               -- the instance's status before, to restore on failure
  started_at        INTEGER NOT NULL,
  finished_at       INTEGER,
  error             TEXT NOT NULL DEFAULT ''
);
CREATE INDEX operations_pending ON operations(stage, status);
CREATE INDEX operations_change_set ON operations(change_set_id);
CREATE TABLE history (
  stage          TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  serial         INTEGER NOT NULL,
  lineage        TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  operation      TEXT NOT NULL,
  holder         TEXT NOT NULL,
  resource_count INTEGER NOT NULL,
  output_count   INTEGER NOT NULL,
  snapshot       TEXT NOT NULL,         -- JSON of the stored rows (secrets stay sealed)
  PRIMARY KEY (stage, serial)
) WITHOUT ROWID;
)sql";

// Version 3: environments (state/environments.h). A stage of `default` keeps its name as
// its key in every table, so a state from before environments is `default`'s unchanged; a
// stage of another environment is keyed "ENV/STAGE" (state/stage_key.h). Neither part holds '/'.
constexpr const char* kV3 = R"sql(
CREATE TABLE environments (
  name       TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);
INSERT INTO environments(name, created_at) VALUES('default', CAST(strftime('%s', 'now') AS INTEGER) * 1000);
)sql";

// Version 4: deposed objects (create_before_destroy). A resource row is keyed by its
// address and its deposed key ('' for the current object); the journal names the object
// an operation is on the same way. SQLite cannot change a primary key in place, so the
// resources table is rebuilt.
constexpr const char* kV4 = R"sql(
CREATE TABLE resources_v4 (
  stage             TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  address           TEXT NOT NULL,
  deposed           TEXT NOT NULL DEFAULT '',
  mode              TEXT NOT NULL CHECK (mode IN ('managed', 'data')),
  type              TEXT NOT NULL,
  provider          TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('created', 'tainted', 'pending-create',
                                                    'pending-update', 'pending-delete')),
  attributes        TEXT NOT NULL,
  sensitive_paths   TEXT NOT NULL DEFAULT '[]',
  secrets           TEXT NOT NULL DEFAULT '[]',
  dependencies      TEXT NOT NULL DEFAULT '[]',
  idempotency_token TEXT NOT NULL DEFAULT '',
  schema_version    INTEGER NOT NULL DEFAULT 0,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  PRIMARY KEY (stage, address, deposed)
) WITHOUT ROWID;
INSERT INTO resources_v4(stage, address, deposed, mode, type, provider, status, attributes, sensitive_paths,
                         secrets, dependencies, idempotency_token, schema_version, created_at, updated_at)
  SELECT stage, address, '', mode, type, provider, status, attributes, sensitive_paths, secrets, dependencies,
         idempotency_token, schema_version, created_at, updated_at FROM resources;
DROP TABLE resources;
ALTER TABLE resources_v4 RENAME TO resources;
ALTER TABLE operations ADD COLUMN deposed TEXT NOT NULL DEFAULT '';
)sql";

// Version 5: the outputs of earlier stages (${stage.S.X}) each stage read at its last full
// apply, with a digest of each value and never the value, so that its plan can say which
// of them changed since (StateStore::RecordUpstreamReads). `stage` is the reader's key;
// `source_stage` is a plain stage name of the reader's environment.
constexpr const char* kV5 = R"sql(
CREATE TABLE upstream_reads (
  stage        TEXT NOT NULL REFERENCES stages(name) ON DELETE CASCADE,
  source_stage TEXT NOT NULL,
  output       TEXT NOT NULL,
  serial       INTEGER NOT NULL,            -- source_stage's serial when read
  digest       TEXT NOT NULL,               -- hex SHA-256 of the value's canonical JSON (sealed when sensitive)
  sensitive    INTEGER NOT NULL DEFAULT 0,
  recorded_at  INTEGER NOT NULL,
  PRIMARY KEY (stage, source_stage, output)
) WITHOUT ROWID;
)sql";

constexpr const char* kMigrations[] = {kV1, kV2, kV3, kV4, kV5};
static_assert(sizeof kMigrations / sizeof kMigrations[0] == kSchemaVersion);

}  // namespace

const char* MigrationSql(int version) {
  if (version < 1 || version > kSchemaVersion) return "";
  return kMigrations[version - 1];
}

namespace {

StateStatus TooNew(Database& db, int64_t version) {
  return StateStatus::Error(StateCode::SchemaTooNew,
                            "the state database " + db.path() + " has schema version " + std::to_string(version) +
                                ", but this strata supports schema version " + std::to_string(kSchemaVersion) +
                                " at most: upgrade strata (the database was left untouched)");
}

}  // namespace

StateStatus PrepareSchema(Database& db, int64_t now_millis) {
  // A file that is not a database fails here, on the first read of the header.
  int64_t version = db.QueryInt("PRAGMA user_version");
  if (version > kSchemaVersion) return TooNew(db, version);
  // WAL: readers never block the writer and a commit is one append to the log. (An
  // in-memory database has nothing to log.)
  if (!db.in_memory()) {
    Statement& wal = db.Prepare("PRAGMA journal_mode=WAL");
    std::string mode = wal.Step() ? wal.Text(0) : "";
    wal.Reset();
    if (mode != "wal") {
      return StateStatus::Error(StateCode::Io, "cannot switch " + db.path() + " to WAL mode (journal mode is '" +
                                                   mode + "'): is it on a network file system?");
    }
  }
  db.Exec("PRAGMA foreign_keys=ON");
  if (version == kSchemaVersion) return StateStatus::Ok();

  Transaction tx(db, Transaction::Kind::Write);
  version = db.QueryInt("PRAGMA user_version");  // another process may have migrated meanwhile
  if (version > kSchemaVersion) return PrepareSchema(db, now_millis);
  for (int v = static_cast<int>(version) + 1; v <= kSchemaVersion; ++v) {
    db.Exec(MigrationSql(v));
    db.Prepare("INSERT INTO schema_migrations(version, applied_at) VALUES(?, ?)").Bind(1, int64_t{v}).Bind(2, now_millis).Run();
  }
  db.Exec("PRAGMA user_version=" + std::to_string(kSchemaVersion));
  tx.Commit();
  return StateStatus::Ok();
}

StateStatus CheckSchema(Database& db) {
  int64_t version = db.QueryInt("PRAGMA user_version");
  if (version > kSchemaVersion) return TooNew(db, version);
  if (version == kSchemaVersion) return StateStatus::Ok();
  return StateStatus::Error(StateCode::Io, "the state database " + db.path() + " has schema version " +
                                               std::to_string(version) + " and needs upgrading to version " +
                                               std::to_string(kSchemaVersion) +
                                               ", which a command that only reads cannot do: run one that writes "
                                               "state (plan, apply, refresh) where the file is writable");
}

}  // namespace strata::state::sqlite
