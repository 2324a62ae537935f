// PostgresStateStore: opening, reading, and the row helpers shared by the other postgres_*.cc.

#include "state/postgres/postgres_store.h"

#include "state/postgres/conninfo.h"
#include "state/postgres/pg_pool.h"
#include "state/postgres/pg_schema.h"
#include "state/postgres/postgres_guard.h"
#include "state/stage_key.h"

namespace strata::state {

using pg::Param;
using pg::Rows;
using pg::Transaction;

namespace {

constexpr char kPgResourceColumns[] =
    "address, mode, type, provider, status, attributes, sensitive_paths, secrets, dependencies, "
    "idempotency_token, schema_version, created_at, updated_at, deposed";

StoredResource PgResourceFromRow(const Rows& rows, int i) {
  StoredResource r;
  r.address = rows.Text(i, 0);
  r.mode = rows.Text(i, 1);
  r.type = rows.Text(i, 2);
  r.provider = rows.Text(i, 3);
  r.status = rows.Text(i, 4);
  r.attributes = rows.Text(i, 5);
  r.sensitive_paths = rows.Text(i, 6);
  r.secrets = rows.Text(i, 7);
  r.dependencies = rows.Text(i, 8);
  r.idempotency_token = rows.Text(i, 9);
  r.schema_version = rows.Int(i, 10);
  r.created_at = rows.Int(i, 11);
  r.updated_at = rows.Int(i, 12);
  r.deposed = rows.Text(i, 13);
  return r;
}

OperationRecord PgOperationFromRow(const Rows& rows, int i) {
  OperationRecord op;
  op.id = rows.Int(i, 0);
  op.stage = SplitStageKey(rows.Text(i, 1)).stage;
  op.change_set_id = rows.Int(i, 2);
  if (auto a = ParseResourceInstanceAddr(rows.Text(i, 3)).addr) op.addr = *a;
  op.action = ParseOperationAction(rows.Text(i, 4)).value_or(OperationAction::Create);
  op.idempotency_token = rows.Text(i, 5);
  op.status = ParseOperationStatus(rows.Text(i, 6)).value_or(OperationStatus::Pending);
  op.started_at = rows.Int(i, 7);
  op.finished_at = rows.Int(i, 8);
  op.error = rows.Text(i, 9);
  op.deposed = rows.Text(i, 10);
  return op;
}

}  // namespace

StateStatus PgErrorStatus(const std::string& where, const pg::PgError& e) {
  const std::string& state = e.sqlstate();
  if (state.rfind("08", 0) == 0 || state == "57P01" || state == "57P02" || state == "57P03") {
    std::string what = e.what();
    for (size_t nl = what.find('\n'); nl != std::string::npos; nl = what.find('\n', nl)) what.replace(nl, 1, " ");
    while (what.find("  ") != std::string::npos) what.replace(what.find("  "), 2, " ");
    return StateStatus::Error(StateCode::Io, "cannot reach the state database " + where + " (" + what +
                                                 "): check the server, the URL (state.url or STRATA_PG_URL) and the "
                                                 "credentials (PGPASSWORD or ~/.pgpass)");
  }
  if (state == "40001" || state == "40P01" || state == "55P03") {
    return StateStatus::Error(StateCode::Busy, "the state database " + where + " was busy (" + e.what() + ")");
  }
  if (state == "25006") {
    return StateStatus::Error(StateCode::Io, "the state database " + where + " cannot be written by this command (" +
                                                 e.what() + ")");
  }
  return StateStatus::Error(StateCode::Io, "state database " + where + ": " + e.what() +
                                               (state.empty() ? "" : " (SQLSTATE " + state + ")"));
}

PostgresStateStore::PostgresStateStore(PostgresStoreOptions options, std::unique_ptr<pg::Connection> db)
    : options_(std::move(options)),
      env_(options_.env ? options_.env : &StateEnvironment::System()),
      db_(std::move(db)) {}

PostgresStateStore::~PostgresStateStore() {
  // The connections go back to the process's pool (pg_pool.h) for the next store opened.
  // The lock connection's advisory locks are released first, so that a pooled connection
  // holds none. Rows of locks not unlocked stay, and show as stale, as after a crash.
  auto& pool = pg::ConnectionPool::Process();
  if (lock_db_) {
    try {
      if (!held_.empty()) lock_db_->Query("SELECT pg_advisory_unlock_all()");
      pool.Release(options_.url, options_.schema, false, std::move(lock_db_));
    } catch (const pg::PgError&) {
      // The connection is gone already, and its locks with it.
    }
  }
  pool.Release(options_.url, options_.schema, options_.access == StoreAccess::ReadOnly, std::move(db_));
}

std::string PostgresStateStore::Where() const {
  std::string url = options_.url.empty() ? "(libpq defaults: PGHOST, PGDATABASE, ...)" : pg::MaskConnectionUrl(options_.url);
  return url + " (schema " + options_.schema + ")";
}

StateResult<std::unique_ptr<PostgresStateStore>> PostgresStateStore::Open(const PostgresStoreOptions& options) {
  if (std::string why = pg::InvalidSchemaReason(options.schema); !why.empty()) {
    return StateStatus::Error(StateCode::InvalidArgument, why);
  }
  std::unique_ptr<PostgresStateStore> store(new PostgresStateStore(options, nullptr));
  try {
    store->db_ = pg::ConnectionPool::Process().Acquire(options.url, options.schema,
                                                       options.access == StoreAccess::ReadOnly);
    StateStatus st = pg::PreparePgSchema(*store->db_, options.schema, store->Where(), store->env_->NowMillis());
    if (!st.ok()) return st;
    if (options.access == StoreAccess::ReadOnly) store->db_->Exec("SET default_transaction_read_only = on");
  } catch (const pg::PgError& e) {
    return PgErrorStatus(store->Where(), e);
  }
  if (StateStatus known = store->RequireEnvironment(); !known.ok()) return known;
  return store;
}

std::string PostgresStateStore::Holder() { return env_->UserName() + "@" + env_->Hostname(); }

std::string PostgresStateStore::Key(const std::string& stage) const { return StageKey(options_.environment, stage); }

int64_t PostgresStateStore::LockKey(const std::string& key) const {
  return pg::AdvisoryKey("strata lock\n" + options_.schema + "\n" + key);
}

// --- Rows -------------------------------------------------------------------------------

std::optional<StoredResource> PostgresStateStore::ReadResource(const std::string& stage, const std::string& address,
                                                               const std::string& deposed) {
  Rows rows = db_->Query(std::string("SELECT ") + kPgResourceColumns +
                             " FROM resources WHERE stage = $1 AND address = $2 AND deposed = $3",
                         {Key(stage), address, deposed});
  if (rows.empty()) return std::nullopt;
  return PgResourceFromRow(rows, 0);
}

std::vector<StoredResource> PostgresStateStore::ReadResources(const std::string& stage) {
  // COLLATE "C": the order SQLite gives (bytes), whatever the database's collation.
  Rows rows = db_->Query(std::string("SELECT ") + kPgResourceColumns +
                             " FROM resources WHERE stage = $1 ORDER BY address COLLATE \"C\", deposed COLLATE \"C\"",
                         {Key(stage)});
  std::vector<StoredResource> out;
  out.reserve(rows.size());
  for (int i = 0; i < rows.size(); ++i) out.push_back(PgResourceFromRow(rows, i));
  return out;
}

std::vector<StoredOutput> PostgresStateStore::ReadOutputs(const std::string& stage) {
  Rows rows = db_->Query(
      "SELECT name, value, sensitive, sensitive_paths, secrets FROM outputs WHERE stage = $1 ORDER BY name COLLATE \"C\"",
      {Key(stage)});
  std::vector<StoredOutput> out;
  for (int i = 0; i < rows.size(); ++i) {
    out.push_back({rows.Text(i, 0), rows.Text(i, 1), rows.Int(i, 2) != 0, rows.Text(i, 3), rows.Text(i, 4)});
  }
  return out;
}

void PostgresStateStore::WriteResource(const std::string& stage, const StoredResource& r) {
  db_->Send(std::string("INSERT INTO resources(stage, ") + kPgResourceColumns +
                 ") VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) "
                 "ON CONFLICT (stage, address, deposed) DO UPDATE SET mode = EXCLUDED.mode, type = EXCLUDED.type, "
                 "provider = EXCLUDED.provider, status = EXCLUDED.status, attributes = EXCLUDED.attributes, "
                 "sensitive_paths = EXCLUDED.sensitive_paths, secrets = EXCLUDED.secrets, "
                 "dependencies = EXCLUDED.dependencies, idempotency_token = EXCLUDED.idempotency_token, "
                 "schema_version = EXCLUDED.schema_version, created_at = EXCLUDED.created_at, "
                 "updated_at = EXCLUDED.updated_at",
             {Key(stage), r.address, r.mode, r.type, r.provider, r.status, r.attributes, r.sensitive_paths, r.secrets,
              r.dependencies, r.idempotency_token, r.schema_version, r.created_at, r.updated_at, r.deposed});
}

void PostgresStateStore::WriteOutputs(const std::string& stage, const std::vector<StoredOutput>& outputs) {
  db_->Query("DELETE FROM outputs WHERE stage = $1", {Key(stage)});
  for (const auto& o : outputs) {
    db_->Query("INSERT INTO outputs(stage, name, value, sensitive, sensitive_paths, secrets) VALUES($1,$2,$3,$4,$5,$6)",
               {Key(stage), o.name, o.value, int64_t{o.sensitive}, o.sensitive_paths, o.secrets});
  }
}

// --- Reads ------------------------------------------------------------------------------

StateResult<std::vector<StageSummary>> PostgresStateStore::ListStages() {
  return Guard([&]() -> StateResult<std::vector<StageSummary>> {
    Rows rows = db_->Query(
        "SELECT s.name, s.lineage, s.serial, s.updated_at, "
        "(SELECT COUNT(*) FROM resources r WHERE r.stage = s.name) FROM stages s ORDER BY s.name COLLATE \"C\"");
    std::vector<StageSummary> out;
    for (int i = 0; i < rows.size(); ++i) {
      StageKeyParts key = SplitStageKey(rows.Text(i, 0));
      if (key.environment != options_.environment) continue;
      out.push_back({key.stage, rows.Text(i, 1), rows.Int(i, 2), rows.Int(i, 4), rows.Int(i, 3)});
    }
    return out;
  });
}

StateResult<StageState> PostgresStateStore::LoadStage(const std::string& stage, const LoadOptions& options) {
  return Guard([&]() -> StateResult<StageState> {
    // One consistent snapshot of the three reads.
    Transaction tx(*db_, pg::kSnapshotRead);
    auto header = ReadLineageAndSerial(stage);
    if (!header) {
      StageState empty;
      empty.stage = stage;
      return empty;
    }
    auto rows = ReadResources(stage);
    auto outputs = ReadOutputs(stage);
    tx.Commit();
    return DecodeStage(stage, header->first, header->second, rows, outputs, options_.keys, options.decrypt_secrets);
  });
}

StateResult<std::map<std::string, OutputState>> PostgresStateStore::LoadOutputs(const std::string& stage) {
  return Guard([&]() -> StateResult<std::map<std::string, OutputState>> {
    Transaction tx(*db_, pg::kSnapshotRead);
    auto header = ReadLineageAndSerial(stage);
    if (!header || header->second <= 0) return NotAppliedYet(stage, options_.environment);
    auto rows = ReadOutputs(stage);
    tx.Commit();
    std::map<std::string, OutputState> out;
    for (const auto& row : rows) {
      auto o = DecodeOutput(row, options_.keys, true, stage);
      if (!o.ok()) return o.status();
      out.emplace(o->name, std::move(*o));
    }
    return out;
  });
}

StateResult<std::vector<OperationRecord>> PostgresStateStore::PendingOperations(const std::string& stage) {
  return Guard([&]() -> StateResult<std::vector<OperationRecord>> {
    Rows rows = db_->Query(
        "SELECT id, stage, change_set_id, address, action, idempotency_token, status, started_at, finished_at, error, "
        "deposed FROM operations WHERE stage = $1 AND status = 'pending' ORDER BY id",
        {Key(stage)});
    std::vector<OperationRecord> out;
    for (int i = 0; i < rows.size(); ++i) out.push_back(PgOperationFromRow(rows, i));
    return out;
  });
}

StateResult<std::vector<HistoryEntry>> PostgresStateStore::History(const std::string& stage) {
  return Guard([&]() -> StateResult<std::vector<HistoryEntry>> {
    Rows rows = db_->Query(
        "SELECT serial, lineage, created_at, operation, holder, resource_count, output_count FROM history "
        "WHERE stage = $1 ORDER BY serial DESC",
        {Key(stage)});
    std::vector<HistoryEntry> out;
    for (int i = 0; i < rows.size(); ++i) {
      out.push_back({rows.Int(i, 0), rows.Text(i, 1), rows.Int(i, 2), rows.Text(i, 3), rows.Text(i, 4), rows.Int(i, 5),
                     rows.Int(i, 6)});
    }
    return out;
  });
}

StateResult<StageState> PostgresStateStore::LoadSnapshot(const std::string& stage, int64_t serial,
                                                         const LoadOptions& options) {
  return Guard([&]() -> StateResult<StageState> {
    Rows rows = db_->Query("SELECT lineage, snapshot FROM history WHERE stage = $1 AND serial = $2", {Key(stage), serial});
    if (rows.empty()) return NoSnapshot(stage, serial);
    StoredSnapshot snapshot = ParseSnapshot(rows.Text(0, 1));
    return DecodeStage(stage, rows.Text(0, 0), serial, snapshot.resources, snapshot.outputs, options_.keys,
                       options.decrypt_secrets);
  });
}

}  // namespace strata::state
