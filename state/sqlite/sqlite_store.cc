// SqliteStateStore: opening, reading, and the row helpers shared by the other sqlite_*.cc.

#include "state/sqlite/sqlite_store.h"

#include <filesystem>

#include "state/sqlite/guard.h"
#include "state/sqlite/schema.h"
#include "state/stage_key.h"

namespace strata::state {

using sqlite::Database;
using sqlite::Statement;
using sqlite::Transaction;

namespace {

constexpr char kResourceColumns[] =
    "address, mode, type, provider, status, attributes, sensitive_paths, secrets, dependencies, "
    "idempotency_token, schema_version, created_at, updated_at, deposed";

StoredResource ResourceFromRow(const Statement& st) {
  StoredResource r;
  r.address = st.Text(0);
  r.mode = st.Text(1);
  r.type = st.Text(2);
  r.provider = st.Text(3);
  r.status = st.Text(4);
  r.attributes = st.Text(5);
  r.sensitive_paths = st.Text(6);
  r.secrets = st.Text(7);
  r.dependencies = st.Text(8);
  r.idempotency_token = st.Text(9);
  r.schema_version = st.Int(10);
  r.created_at = st.Int(11);
  r.updated_at = st.Int(12);
  r.deposed = st.Text(13);
  return r;
}

OperationRecord OperationFromRow(const Statement& st) {
  OperationRecord op;
  op.id = st.Int(0);
  op.stage = SplitStageKey(st.Text(1)).stage;
  op.change_set_id = st.Int(2);
  if (auto a = ParseResourceInstanceAddr(st.Text(3)).addr) op.addr = *a;
  op.action = ParseOperationAction(st.Text(4)).value_or(OperationAction::Create);
  op.idempotency_token = st.Text(5);
  op.status = ParseOperationStatus(st.Text(6)).value_or(OperationStatus::Pending);
  op.started_at = st.Int(7);
  op.finished_at = st.IsNull(8) ? 0 : st.Int(8);
  op.error = st.Text(9);
  op.deposed = st.Text(10);
  return op;
}

}  // namespace

StateStatus SqliteErrorStatus(const std::string& path, int busy_timeout_ms, const sqlite::SqliteError& e) {
  switch (e.code()) {
    case SQLITE_NOTADB:
      return StateStatus::Error(StateCode::Corrupt, "the state database " + path +
                                                        " is not a SQLite database (its header is wrong): restore it "
                                                        "from a backup, or move it away to start a new state");
    case SQLITE_CORRUPT:
      return StateStatus::Error(StateCode::Corrupt,
                                "the state database " + path + " is damaged or is not a SQLite database (" + e.what() +
                                    "). Restore it from a backup; `strata state push` can load a state saved with "
                                    "`strata state pull`");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StateStatus::Error(StateCode::Busy, "the state database " + path +
                                                     " stayed locked by another process for more than " +
                                                     std::to_string(busy_timeout_ms / 1000) + " s (" + e.what() + ")");
    case SQLITE_READONLY:
      return StateStatus::Error(StateCode::Io, "the state database " + path + " cannot be written (" + e.what() +
                                                   "): this command writes state; make the file and its directory "
                                                   "writable for this user");
    case SQLITE_CANTOPEN:
      return StateStatus::Error(StateCode::Io, "cannot open the state database " + path + " (" + e.what() +
                                                   "): check that its directory exists and is writable");
    default:
      return StateStatus::Error(StateCode::Io, "state database " + path + ": " + e.what());
  }
}

SqliteStateStore::SqliteStateStore(SqliteStoreOptions options, std::unique_ptr<Database> db)
    : options_(std::move(options)),
      env_(options_.env ? options_.env : &StateEnvironment::System()),
      db_(std::move(db)) {}

StateResult<std::unique_ptr<SqliteStateStore>> SqliteStateStore::Open(const SqliteStoreOptions& options) {
  const std::string& path = options.path;
  bool read_only = options.access == StoreAccess::ReadOnly;
  std::error_code ec;
  auto dir = std::filesystem::path(path).parent_path();
  if (!dir.empty() && !read_only) std::filesystem::create_directories(dir, ec);
  if (ec) {
    return StateStatus::Error(StateCode::Io, "cannot create the state directory " + dir.string() + ": " + ec.message());
  }
  // The file is never opened here other than through SQLite: closing any other descriptor
  // of it would drop the POSIX locks this process's open connections hold on it (the
  // pipeline opens the store more than once), and another process could then take itself
  // for the last connection and delete the WAL under them. A file that is not a database
  // is refused by SQLite at the first query (SQLITE_NOTADB).
  try {
    StateEnvironment& env = options.env ? *options.env : StateEnvironment::System();
    std::unique_ptr<Database> db;
    StateStatus st;
    // Reading a state that does not exist yet: an empty one, without creating the file.
    bool exists = std::filesystem::file_size(path, ec) > 0 && !ec;
    if (read_only && exists) {
      db = Database::Open(path, options.busy_timeout_ms, sqlite::Access::ReadOnly);
      st = sqlite::CheckSchema(*db);
    } else {
      db = Database::Open(read_only ? ":memory:" : path, options.busy_timeout_ms);
      st = sqlite::PrepareSchema(*db, env.NowMillis());
      if (read_only) db->Exec("PRAGMA query_only=1");
    }
    if (!st.ok()) return st;
    db->Exec(options.durability == Durability::Full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    std::unique_ptr<SqliteStateStore> store(new SqliteStateStore(options, std::move(db)));
    if (StateStatus known = store->RequireEnvironment(); !known.ok()) return known;
    return store;
  } catch (const sqlite::SqliteError& e) {
    return SqliteErrorStatus(path, options.busy_timeout_ms, e);
  }
}

StateStatus SqliteStateStore::CheckIntegrity() {
  return Guard([&]() -> StateStatus {
    Statement& st = db_->Prepare("PRAGMA integrity_check");
    std::string findings;
    while (st.Step()) findings += (findings.empty() ? "" : "; ") + st.Text(0);
    if (findings == "ok") return StateStatus::Ok();
    return StateStatus::Error(StateCode::Corrupt, "the state database " + db_->path() +
                                                      " fails its integrity check: " + findings);
  });
}

std::string SqliteStateStore::Holder() { return env_->UserName() + "@" + env_->Hostname(); }

// --- Rows -------------------------------------------------------------------------------

std::optional<StoredResource> SqliteStateStore::ReadResource(const std::string& stage, const std::string& address,
                                                             const std::string& deposed) {
  Statement& st = db_->Prepare(std::string("SELECT ") + kResourceColumns +
                               " FROM resources WHERE stage = ? AND address = ? AND deposed = ?");
  st.Bind(1, Key(stage)).Bind(2, address).Bind(3, deposed);
  std::optional<StoredResource> row;
  if (st.Step()) row = ResourceFromRow(st);
  st.Reset();
  return row;
}

std::vector<StoredResource> SqliteStateStore::ReadResources(const std::string& stage) {
  Statement& st =
      db_->Prepare(std::string("SELECT ") + kResourceColumns + " FROM resources WHERE stage = ? ORDER BY address, deposed");
  st.Bind(1, Key(stage));
  std::vector<StoredResource> rows;
  while (st.Step()) rows.push_back(ResourceFromRow(st));
  return rows;
}

std::vector<StoredOutput> SqliteStateStore::ReadOutputs(const std::string& stage) {
  Statement& st = db_->Prepare(
      "SELECT name, value, sensitive, sensitive_paths, secrets FROM outputs WHERE stage = ? ORDER BY name");
  st.Bind(1, Key(stage));
  std::vector<StoredOutput> rows;
  while (st.Step()) rows.push_back({st.Text(0), st.Text(1), st.Int(2) != 0, st.Text(3), st.Text(4)});
  return rows;
}

void SqliteStateStore::WriteResource(const std::string& stage, const StoredResource& r) {
  Statement& st = db_->Prepare(std::string("INSERT OR REPLACE INTO resources(stage, ") + kResourceColumns +
                               ") VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.Bind(1, Key(stage)).Bind(2, r.address).Bind(3, r.mode).Bind(4, r.type).Bind(5, r.provider).Bind(6, r.status);
  st.Bind(7, r.attributes).Bind(8, r.sensitive_paths).Bind(9, r.secrets).Bind(10, r.dependencies);
  st.Bind(11, r.idempotency_token).Bind(12, r.schema_version).Bind(13, r.created_at).Bind(14, r.updated_at);
  st.Bind(15, r.deposed);
  st.Run();
}

void SqliteStateStore::WriteOutputs(const std::string& stage, const std::vector<StoredOutput>& outputs) {
  db_->Prepare("DELETE FROM outputs WHERE stage = ?").Bind(1, Key(stage)).Run();
  for (const auto& o : outputs) {
    db_->Prepare("INSERT INTO outputs(stage, name, value, sensitive, sensitive_paths, secrets) VALUES(?,?,?,?,?,?)")
        .Bind(1, Key(stage))
        .Bind(2, o.name)
        .Bind(3, o.value)
        .Bind(4, int64_t{o.sensitive})
        .Bind(5, o.sensitive_paths)
        .Bind(6, o.secrets)
        .Run();
  }
}

// --- Reads ------------------------------------------------------------------------------

StateResult<std::vector<StageSummary>> SqliteStateStore::ListStages() {
  return Guard([&]() -> StateResult<std::vector<StageSummary>> {
    Statement& st = db_->Prepare(
        "SELECT s.name, s.lineage, s.serial, s.updated_at, "
        "(SELECT COUNT(*) FROM resources r WHERE r.stage = s.name) FROM stages s ORDER BY s.name");
    std::vector<StageSummary> out;
    while (st.Step()) {
      StageKeyParts key = SplitStageKey(st.Text(0));
      if (key.environment != options_.environment) continue;
      out.push_back({key.stage, st.Text(1), st.Int(2), st.Int(4), st.Int(3)});
    }
    return out;
  });
}

StateResult<StageState> SqliteStateStore::LoadStage(const std::string& stage, const LoadOptions& options) {
  return Guard([&]() -> StateResult<StageState> {
    Transaction tx(*db_, Transaction::Kind::Read);  // one consistent snapshot
    Statement& st = db_->Prepare("SELECT lineage, serial FROM stages WHERE name = ?");
    st.Bind(1, Key(stage));
    if (!st.Step()) {
      st.Reset();
      StageState empty;
      empty.stage = stage;
      return empty;
    }
    std::string lineage = st.Text(0);
    int64_t serial = st.Int(1);
    st.Reset();
    auto rows = ReadResources(stage);
    auto outputs = ReadOutputs(stage);
    tx.Commit();
    return DecodeStage(stage, lineage, serial, rows, outputs, options_.keys, options.decrypt_secrets);
  });
}

StateResult<std::map<std::string, OutputState>> SqliteStateStore::LoadOutputs(const std::string& stage) {
  return Guard([&]() -> StateResult<std::map<std::string, OutputState>> {
    Transaction tx(*db_, Transaction::Kind::Read);
    int64_t serial = -1;
    Statement& st = db_->Prepare("SELECT serial FROM stages WHERE name = ?");
    st.Bind(1, Key(stage));
    if (st.Step()) serial = st.Int(0);
    st.Reset();
    if (serial <= 0) return NotAppliedYet(stage, options_.environment);
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

StateResult<std::vector<OperationRecord>> SqliteStateStore::PendingOperations(const std::string& stage) {
  return Guard([&]() -> StateResult<std::vector<OperationRecord>> {
    Statement& st = db_->Prepare(
        "SELECT id, stage, change_set_id, address, action, idempotency_token, status, started_at, finished_at, error, "
        "deposed FROM operations WHERE stage = ? AND status = 'pending' ORDER BY id");
    st.Bind(1, Key(stage));
    std::vector<OperationRecord> out;
    while (st.Step()) out.push_back(OperationFromRow(st));
    return out;
  });
}

StateResult<std::vector<HistoryEntry>> SqliteStateStore::History(const std::string& stage) {
  return Guard([&]() -> StateResult<std::vector<HistoryEntry>> {
    Statement& st = db_->Prepare(
        "SELECT serial, lineage, created_at, operation, holder, resource_count, output_count FROM history "
        "WHERE stage = ? ORDER BY serial DESC");
    st.Bind(1, Key(stage));
    std::vector<HistoryEntry> out;
    while (st.Step()) {
      out.push_back({st.Int(0), st.Text(1), st.Int(2), st.Text(3), st.Text(4), st.Int(5), st.Int(6)});
    }
    return out;
  });
}

StateResult<StageState> SqliteStateStore::LoadSnapshot(const std::string& stage, int64_t serial,
                                                       const LoadOptions& options) {
  return Guard([&]() -> StateResult<StageState> {
    Statement& st = db_->Prepare("SELECT lineage, snapshot FROM history WHERE stage = ? AND serial = ?");
    st.Bind(1, Key(stage)).Bind(2, serial);
    if (!st.Step()) {
      st.Reset();
      return NoSnapshot(stage, serial);
    }
    std::string lineage = st.Text(0);
    StoredSnapshot snapshot = ParseSnapshot(st.Text(1));
    st.Reset();
    return DecodeStage(stage, lineage, serial, snapshot.resources, snapshot.outputs, options_.keys,
                       options.decrypt_secrets);
  });
}

}  // namespace strata::state
