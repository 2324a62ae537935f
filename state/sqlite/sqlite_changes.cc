// SqliteStateStore: change sets and the operations journal. Every method is one write
// transaction, committed (and, with Durability::Full, fsynced) before it returns.

#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"

#include <tuple>

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

void SqliteStateStore::EnsureStage(const std::string& stage, const std::string& lineage) {
  int64_t now = env_->NowMillis();
  db_->Prepare("INSERT OR IGNORE INTO stages(name, lineage, serial, created_at, updated_at) VALUES(?, ?, 0, ?, ?)")
      .Bind(1, Key(stage))
      .Bind(2, lineage.empty() ? NewUuid(*env_) : lineage)
      .Bind(3, now)
      .Bind(4, now)
      .Run();
}

void SqliteStateStore::MarkDirty(int64_t change_set_id) {
  db_->Prepare("UPDATE change_sets SET dirty = 1 WHERE id = ? AND dirty = 0").Bind(1, change_set_id).Run();
}

StateStatus SqliteStateStore::RequireOpenChangeSet(const ChangeSet& cs) {
  if (StateStatus s = RequireLock(cs.stage, cs.lock_id); !s.ok()) return s;
  Statement& st = db_->Prepare("SELECT status FROM change_sets WHERE id = ? AND stage = ?");
  st.Bind(1, cs.id).Bind(2, Key(cs.stage));
  std::string status = st.Step() ? st.Text(0) : "";
  st.Reset();
  if (status != "open") return ChangeSetNotOpen(cs.id, status);
  return StateStatus::Ok();
}

// The common preamble of every change-set write.
#define STRATA_REQUIRE_OPEN(cs)                                                \
  do {                                                                         \
    if (StateStatus s = RequireOpenChangeSet(cs); !s.ok()) return s;           \
  } while (0)

StateResult<ChangeSet> SqliteStateStore::BeginChangeSet(const std::string& lock_id, const std::string& stage,
                                                        const std::string& operation) {
  return Guard([&]() -> StateResult<ChangeSet> {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    EnsureStage(stage);
    int64_t now = env_->NowMillis();
    ChangeSet cs;
    cs.stage = stage;
    cs.lock_id = lock_id;
    cs.operation = operation;
    bool dirty = false;
    {
      Statement& st = db_->Prepare("SELECT id, dirty FROM change_sets WHERE stage = ? AND status = 'open' ORDER BY id");
      st.Bind(1, Key(stage));
      while (st.Step()) {
        cs.interrupted.push_back(st.Int(0));
        dirty = dirty || st.Int(1) != 0;
      }
    }
    db_->Prepare(
           "INSERT INTO change_sets(stage, operation, lock_id, holder, status, dirty, started_at) "
           "VALUES(?, ?, ?, ?, 'open', ?, ?)")
        .Bind(1, Key(stage))
        .Bind(2, operation)
        .Bind(3, lock_id)
        .Bind(4, Holder())
        .Bind(5, int64_t{dirty})
        .Bind(6, now)
        .Run();
    cs.id = sqlite3_last_insert_rowid(db_->handle());
    for (int64_t id : cs.interrupted) {
      db_->Prepare("UPDATE change_sets SET status = 'interrupted', finished_at = ?, absorbed_by = ? WHERE id = ?")
          .Bind(1, now)
          .Bind(2, cs.id)
          .Bind(3, id)
          .Run();
    }
    tx.Commit();
    auto pending = PendingOperations(stage);
    if (!pending.ok()) return pending.status();
    cs.pending = std::move(*pending);
    return cs;
  });
}

StateResult<SqliteStateStore::PendingOp> SqliteStateStore::ReadPendingOp(const std::string& stage, int64_t id) {
  Statement& st = db_->Prepare(
      "SELECT address, action, prior_status, status, idempotency_token, deposed FROM operations WHERE id = ? AND stage = ?");
  st.Bind(1, id).Bind(2, Key(stage));
  if (!st.Step()) {
    st.Reset();
    return NoSuchOperation(stage, id);
  }
  PendingOp op{st.Text(0), st.Text(5), st.Text(1),
               st.IsNull(2) ? std::nullopt : std::optional<std::string>(st.Text(2)), st.Text(4)};
  std::string status = st.Text(3);
  st.Reset();
  if (status != "pending") return OperationFinished(id, op.address, status);
  return op;
}

StateResult<int64_t> SqliteStateStore::BeginOperation(const ChangeSet& cs, const OperationRequest& request) {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    auto op_id = BeginOperationInTx(cs, request);
    if (op_id.ok()) tx.Commit();
    return op_id;
  });
}

StateResult<int64_t> SqliteStateStore::BeginOperationInTx(const ChangeSet& cs, const OperationRequest& request) {
  std::string address = request.addr.ToString();
  auto prior = ReadResource(cs.stage, address, request.deposed);
  bool needs_prior = request.action == OperationAction::Update || request.action == OperationAction::Delete ||
                     !request.deposed.empty();
  if (needs_prior && !prior) return NothingToOperateOn(request, cs.stage);
  int64_t now = env_->NowMillis();
  db_->Prepare(
         "INSERT INTO operations(stage, change_set_id, address, action, idempotency_token, status, prior_status, "
         "started_at, deposed) VALUES(?, ?, ?, ?, ?, 'pending', ?, ?, ?)")
      .Bind(1, Key(cs.stage))
      .Bind(2, cs.id)
      .Bind(3, address)
      .Bind(4, ToString(request.action))
      .Bind(5, request.idempotency_token)
      .Bind(6, prior ? std::optional<std::string>(prior->status) : std::nullopt)
      .Bind(7, now)
      .Bind(8, request.deposed)
      .Run();
  int64_t op_id = sqlite3_last_insert_rowid(db_->handle());
  if (request.action != OperationAction::Read) {
    ResourceStatus status = PendingStatusOf(request.action);
    if (prior) {
      db_->Prepare("UPDATE resources SET status = ?, idempotency_token = ?, updated_at = ? "
                   "WHERE stage = ? AND address = ? AND deposed = ?")
          .Bind(1, ToString(status))
          .Bind(2, request.idempotency_token)
          .Bind(3, now)
          .Bind(4, Key(cs.stage))
          .Bind(5, address)
          .Bind(6, request.deposed)
          .Run();
    } else {
      ResourceInstanceState placeholder;
      placeholder.addr = request.addr;
      placeholder.provider = request.provider;
      placeholder.status = status;
      placeholder.idempotency_token = request.idempotency_token;
      WriteResource(cs.stage, Encode(placeholder, std::nullopt));
    }
  }
  MarkDirty(cs.id);
  return op_id;
}

StateStatus SqliteStateStore::CompleteOperation(const ChangeSet& cs, int64_t operation_id,
                                                const std::optional<ResourceInstanceState>& result) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    StateStatus s = CompleteOperationInTx(cs, operation_id, result);
    if (s.ok()) tx.Commit();
    return s;
  });
}

StateStatus SqliteStateStore::CompleteOperationInTx(const ChangeSet& cs, int64_t operation_id,
                                                    const std::optional<ResourceInstanceState>& result) {
  auto op = ReadPendingOp(cs.stage, operation_id);
  if (!op.ok()) return op.status();
  if (result && (result->addr.ToString() != op->address || result->deposed != op->deposed)) {
    return OperationOnAnotherObject(operation_id, op->address, result->addr.ToString());
  }
  if (result) {
    ResourceInstanceState r = *result;
    if (r.idempotency_token.empty()) r.idempotency_token = op->token;
    WriteResource(cs.stage, Encode(r, ReadResource(cs.stage, op->address, op->deposed)));
  } else if (op->action != "read") {
    db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ? AND deposed = ?")
        .Bind(1, Key(cs.stage))
        .Bind(2, op->address)
        .Bind(3, op->deposed)
        .Run();
  }
  db_->Prepare("UPDATE operations SET status = 'completed', finished_at = ? WHERE id = ?")
      .Bind(1, env_->NowMillis())
      .Bind(2, operation_id)
      .Run();
  MarkDirty(cs.id);
  return StateStatus::Ok();
}

StateStatus SqliteStateStore::FailOperation(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                                            const std::optional<ResourceInstanceState>& partial) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    StateStatus s = FailOperationInTx(cs, operation_id, error, partial);
    if (s.ok()) tx.Commit();
    return s;
  });
}

StateStatus SqliteStateStore::FailOperationInTx(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                                                const std::optional<ResourceInstanceState>& partial) {
  auto op = ReadPendingOp(cs.stage, operation_id);
  if (!op.ok()) return op.status();
  if (partial) {
    if (partial->addr.ToString() != op->address || partial->deposed != op->deposed) {
      return OperationOnAnotherObject(operation_id, op->address, partial->addr.ToString());
    }
    ResourceInstanceState r = *partial;
    if (r.idempotency_token.empty()) r.idempotency_token = op->token;
    WriteResource(cs.stage, Encode(r, ReadResource(cs.stage, op->address, op->deposed)));
  } else if (op->action != "read") {
    if (op->prior_status) {
      db_->Prepare("UPDATE resources SET status = ?, updated_at = ? WHERE stage = ? AND address = ? AND deposed = ?")
          .Bind(1, *op->prior_status)
          .Bind(2, env_->NowMillis())
          .Bind(3, Key(cs.stage))
          .Bind(4, op->address)
          .Bind(5, op->deposed)
          .Run();
    } else {
      db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ? AND deposed = '' AND status = 'pending-create'")
          .Bind(1, Key(cs.stage))
          .Bind(2, op->address)
          .Run();
    }
  }
  db_->Prepare("UPDATE operations SET status = 'failed', finished_at = ?, error = ? WHERE id = ?")
      .Bind(1, env_->NowMillis())
      .Bind(2, error)
      .Bind(3, operation_id)
      .Run();
  MarkDirty(cs.id);
  return StateStatus::Ok();
}

std::vector<StateResult<int64_t>> SqliteStateStore::WriteJournal(const ChangeSet& cs,
                                                                 const std::vector<JournalEntry>& entries) {
  std::vector<StateResult<int64_t>> results;
  StateStatus failed = Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    for (const JournalEntry& e : entries) {
      // Each entry under its own savepoint: one refused leaves no trace and the rest stand.
      db_->Prepare("SAVEPOINT journal_entry").Run();
      StateResult<int64_t> r = WriteJournalEntryInTx(cs, e);
      if (!r.ok()) db_->Prepare("ROLLBACK TO journal_entry").Run();
      db_->Prepare("RELEASE journal_entry").Run();
      results.push_back(std::move(r));
    }
    tx.Commit();
    return StateStatus::Ok();
  });
  if (!failed.ok()) results.assign(entries.size(), StateResult<int64_t>(failed));
  return results;
}

StateResult<int64_t> SqliteStateStore::WriteJournalEntryInTx(const ChangeSet& cs, const JournalEntry& e) {
  StateStatus s = StateStatus::Ok();
  switch (e.kind) {
    case JournalEntry::Kind::Begin: return BeginOperationInTx(cs, e.request);
    case JournalEntry::Kind::Complete: s = CompleteOperationInTx(cs, e.operation_id, e.state); break;
    case JournalEntry::Kind::Fail: s = FailOperationInTx(cs, e.operation_id, e.error, e.state); break;
  }
  if (!s.ok()) return s;
  return int64_t{0};
}

StateStatus SqliteStateStore::PutResource(const ChangeSet& cs, const ResourceInstanceState& resource) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    WriteResource(cs.stage, Encode(resource, ReadResource(cs.stage, resource.addr.ToString(), resource.deposed)));
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus SqliteStateStore::DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& addr) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    db_->Prepare("DELETE FROM resources WHERE stage = ? AND address = ? AND deposed = ''")
        .Bind(1, Key(cs.stage))
        .Bind(2, addr.ToString())
        .Run();
    if (db_->Changes() == 0) {
      return StateStatus::Error(StateCode::NotFound,
                                addr.ToString() + " is not in the state of stage \"" + cs.stage + "\"");
    }
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus SqliteStateStore::RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from,
                                             const ResourceInstanceAddr& to, const ResourceInstanceState* converted) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    if (ReadResource(cs.stage, to.ToString())) {
      return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + from.ToString() + " to " + to.ToString() +
                                                                ": that address is already in the state of stage \"" +
                                                                cs.stage + "\"");
    }
    db_->Prepare("UPDATE resources SET address = ?, updated_at = ? WHERE stage = ? AND address = ?")
        .Bind(1, to.ToString())
        .Bind(2, env_->NowMillis())
        .Bind(3, Key(cs.stage))
        .Bind(4, from.ToString())
        .Run();
    if (db_->Changes() == 0) {
      return StateStatus::Error(StateCode::NotFound, from.ToString() + " is not in the state of stage \"" + cs.stage + "\"");
    }
    // Across types: the current object under its new type, in the same transaction.
    if (converted) WriteResource(cs.stage, Encode(*converted, ReadResource(cs.stage, to.ToString())));
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus SqliteStateStore::DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                             const std::string& key) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    std::string address = addr.ToString();
    if (key.empty() || ReadResource(cs.stage, address, key)) {
      return StateStatus::Error(StateCode::InvalidArgument, "cannot depose " + address + " under the key \"" + key +
                                                                "\": " + (key.empty() ? "the key is empty" : "it is taken"));
    }
    db_->Prepare("UPDATE resources SET deposed = ?, updated_at = ? WHERE stage = ? AND address = ? AND deposed = ''")
        .Bind(1, key)
        .Bind(2, env_->NowMillis())
        .Bind(3, Key(cs.stage))
        .Bind(4, address)
        .Run();
    if (db_->Changes() == 0) {
      return StateStatus::Error(StateCode::NotFound, address + " has no current object in the state of stage \"" +
                                                         cs.stage + "\" to depose");
    }
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus SqliteStateStore::RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                             const std::string& key) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    std::string address = addr.ToString();
    if (ReadResource(cs.stage, address)) {
      return StateStatus::Error(StateCode::InvalidArgument, address + " has a current object: its deposed object " +
                                                                key + " stays deposed");
    }
    db_->Prepare("UPDATE resources SET deposed = '', updated_at = ? WHERE stage = ? AND address = ? AND deposed = ?")
        .Bind(1, env_->NowMillis())
        .Bind(2, Key(cs.stage))
        .Bind(3, address)
        .Bind(4, key)
        .Run();
    if (db_->Changes() == 0) {
      return StateStatus::Error(StateCode::NotFound, address + " has no object deposed under " + key +
                                                         " in the state of stage \"" + cs.stage + "\"");
    }
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateResult<CommitResult> SqliteStateStore::CommitChangeSet(const ChangeSet& cs,
                                                            const std::optional<std::vector<OutputState>>& outputs) {
  return Guard([&]() -> StateResult<CommitResult> {
    Transaction tx(*db_, Transaction::Kind::Write);
    STRATA_REQUIRE_OPEN(cs);
    bool dirty = false;
    {
      Statement& st = db_->Prepare("SELECT dirty FROM change_sets WHERE id = ?");
      st.Bind(1, cs.id);
      dirty = st.Step() && st.Int(0) != 0;
      st.Reset();
    }
    if (outputs) {
      bool same = SameOutputs(ReadOutputs(cs.stage), *outputs, options_.keys, cs.stage);
      if (!same) {
        std::vector<StoredOutput> rows;
        for (const auto& o : *outputs) rows.push_back(EncodeOutput(o, options_.keys, *env_));
        WriteOutputs(cs.stage, rows);
        dirty = true;
      }
    }
    db_->Prepare("UPDATE change_sets SET status = 'committed', finished_at = ?, dirty = ? WHERE id = ?")
        .Bind(1, env_->NowMillis())
        .Bind(2, int64_t{dirty})
        .Bind(3, cs.id)
        .Run();
    int64_t serial = 0;
    if (dirty) {
      serial = CommitSerial(cs.stage, cs.operation);
    } else {
      Statement& st = db_->Prepare("SELECT serial FROM stages WHERE name = ?");
      st.Bind(1, Key(cs.stage));
      serial = st.Step() ? st.Int(0) : 0;
      st.Reset();
    }
    db_->Prepare("UPDATE change_sets SET serial = ? WHERE id = ?").Bind(1, serial).Bind(2, cs.id).Run();
    tx.Commit();
    return CommitResult{serial, dirty};
  });
}

std::optional<std::pair<std::string, int64_t>> SqliteStateStore::ReadLineageAndSerial(const std::string& stage) {
  Statement& st = db_->Prepare("SELECT lineage, serial FROM stages WHERE name = ?");
  st.Bind(1, Key(stage));
  std::optional<std::pair<std::string, int64_t>> header;
  if (st.Step()) header.emplace(st.Text(0), st.Int(1));
  st.Reset();
  return header;
}

int64_t SqliteStateStore::CommitSerial(const std::string& stage, const std::string& operation) {
  int64_t now = env_->NowMillis();
  std::string lineage;
  int64_t serial = 0;
  if (auto header = ReadLineageAndSerial(stage)) std::tie(lineage, serial) = *header;
  ++serial;
  db_->Prepare("UPDATE stages SET serial = ?, updated_at = ? WHERE name = ?").Bind(1, serial).Bind(2, now).Bind(3, Key(stage)).Run();
  // Writes that change sets left open (their process died) are covered by this serial.
  db_->Prepare("UPDATE change_sets SET status = 'interrupted', finished_at = ? WHERE stage = ? AND status = 'open'")
      .Bind(1, now)
      .Bind(2, Key(stage))
      .Run();
  auto resources = ReadResources(stage);
  auto outputs = ReadOutputs(stage);
  db_->Prepare(
         "INSERT OR REPLACE INTO history(stage, serial, lineage, created_at, operation, holder, resource_count, "
         "output_count, snapshot) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)")
      .Bind(1, Key(stage))
      .Bind(2, serial)
      .Bind(3, lineage)
      .Bind(4, now)
      .Bind(5, operation)
      .Bind(6, Holder())
      .Bind(7, static_cast<int64_t>(resources.size()))
      .Bind(8, static_cast<int64_t>(outputs.size()))
      .Bind(9, SnapshotText(resources, outputs))
      .Run();
  TrimHistory(stage, serial);
  return serial;
}

void SqliteStateStore::TrimHistory(const std::string& stage, int64_t serial) {
  if (options_.history_retention <= 0) return;
  db_->Prepare("DELETE FROM history WHERE stage = ? AND serial <= ?")
      .Bind(1, Key(stage))
      .Bind(2, serial - options_.history_retention)
      .Run();
}

}  // namespace strata::state
