// PostgresStateStore: change sets and the operations journal. Every method is one
// transaction, committed before it returns.

#include <set>
#include <tuple>

#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

void PostgresStateStore::EnsureStage(const std::string& stage, const std::string& lineage) {
  int64_t now = env_->NowMillis();
  db_->Query(
      "INSERT INTO stages(name, lineage, serial, created_at, updated_at) VALUES($1, $2, 0, $3, $4) "
      "ON CONFLICT (name) DO NOTHING",
      {Key(stage), lineage.empty() ? NewUuid(*env_) : lineage, now, now});
}

void PostgresStateStore::MarkDirty(int64_t change_set_id) {
  db_->Send("UPDATE change_sets SET dirty = 1 WHERE id = $1 AND dirty = 0", {change_set_id});
}

void PostgresStateStore::QueueOpenCheck(const ChangeSet& cs, OpenCheckRows* rows) {
  db_->Send(kPgLockRowForUpdate, {Key(cs.stage)}, [rows](const Rows& r) {
    if (!r.empty()) rows->held = r.Text(0, 0);
  });
  db_->Send("SELECT status FROM change_sets WHERE id = $1 AND stage = $2", {cs.id, Key(cs.stage)},
            [rows](const Rows& r) {
              if (!r.empty()) rows->status = r.Text(0, 0);
            });
}

StateStatus PostgresStateStore::OpenCheck(const ChangeSet& cs, const OpenCheckRows& rows) {
  if (StateStatus s = LockHeldBy(cs.stage, cs.lock_id, rows.held); !s.ok()) return s;
  if (rows.status != "open") return ChangeSetNotOpen(cs.id, rows.status);
  return StateStatus::Ok();
}

StateStatus PostgresStateStore::RequireOpenChangeSet(const ChangeSet& cs) {
  // The lock row and the change set's status in one round trip (pipelined).
  OpenCheckRows rows;
  QueueOpenCheck(cs, &rows);
  db_->Flush();
  return OpenCheck(cs, rows);
}

#define STRATA_PG_REQUIRE_OPEN(cs)                                             \
  do {                                                                         \
    if (StateStatus s = RequireOpenChangeSet(cs); !s.ok()) return s;           \
  } while (0)

StateResult<ChangeSet> PostgresStateStore::BeginChangeSet(const std::string& lock_id, const std::string& stage,
                                                          const std::string& operation) {
  return Guard([&]() -> StateResult<ChangeSet> {
    Transaction tx(*db_);
    if (StateStatus s = RequireLock(stage, lock_id); !s.ok()) return s;
    EnsureStage(stage);
    int64_t now = env_->NowMillis();
    ChangeSet cs;
    cs.stage = stage;
    cs.lock_id = lock_id;
    cs.operation = operation;
    bool dirty = false;
    {
      Rows rows = db_->Query("SELECT id, dirty FROM change_sets WHERE stage = $1 AND status = 'open' ORDER BY id",
                             {Key(stage)});
      for (int i = 0; i < rows.size(); ++i) {
        cs.interrupted.push_back(rows.Int(i, 0));
        dirty = dirty || rows.Int(i, 1) != 0;
      }
    }
    cs.id = db_->Query(
                   "INSERT INTO change_sets(stage, operation, lock_id, holder, status, dirty, started_at) "
                   "VALUES($1, $2, $3, $4, 'open', $5, $6) RETURNING id",
                   {Key(stage), operation, lock_id, Holder(), int64_t{dirty}, now})
                .Int(0, 0);
    for (int64_t id : cs.interrupted) {
      db_->Query("UPDATE change_sets SET status = 'interrupted', finished_at = $1, absorbed_by = $2 WHERE id = $3",
                 {now, cs.id, id});
    }
    tx.Commit();
    auto pending = PendingOperations(stage);
    if (!pending.ok()) return pending.status();
    cs.pending = std::move(*pending);
    return cs;
  });
}

// --- The journal ---------------------------------------------------------------------------
//
// A batch (WriteJournal; BeginOperation, CompleteOperation and FailOperation are batches of
// one) costs two round trips whatever its size: the BEGIN, the open check and every entry's
// read go together; then the entries' writes, pipelined, go with the COMMIT. Each entry
// decides from its read, as its own call would, and a refused one writes nothing (so no
// savepoint is needed). An entry writes only at its own object (address and deposed key) and
// its own operation: when two entries of a batch share one, the later ones are read again
// after the earlier ones' writes, one round trip each.

StateResult<PostgresStateStore::PendingOp> PostgresStateStore::PendingOpFromRows(const Rows& rows,
                                                                                 const std::string& stage, int64_t id) {
  if (rows.empty()) return NoSuchOperation(stage, id);
  PendingOp op{rows.Text(0, 0), rows.Text(0, 5), rows.Text(0, 1),
                                   rows.IsNull(0, 2) ? std::nullopt : std::optional<std::string>(rows.Text(0, 2)),
                                   rows.Text(0, 4), std::nullopt};
  if (!rows.IsNull(0, 6)) {
    op.object = StoredResource{};
    op.object->created_at = rows.Int(0, 6);
  }
  std::string status = rows.Text(0, 3);
  if (status != "pending") return OperationFinished(id, op.address, status);
  return op;
}

bool PostgresStateStore::EntriesIndependent(const std::vector<JournalEntry>& entries,
                                            const std::vector<JournalRead>& reads) {
  std::set<std::pair<std::string, std::string>> objects;
  std::set<int64_t> operations;
  for (size_t i = 0; i < entries.size(); ++i) {
    const JournalEntry& e = entries[i];
    std::pair<std::string, std::string> object;
    if (e.kind == JournalEntry::Kind::Begin) {
      object = {e.request.addr.ToString(), e.request.deposed};
    } else {
      if (!operations.insert(e.operation_id).second) return false;
      const auto& op = *reads[i].op;
      if (!op.ok()) continue;  // refused: writes nothing
      object = {op->address, op->deposed};
    }
    if (!objects.insert(object).second) return false;
  }
  return true;
}

void PostgresStateStore::QueueJournalRead(const ChangeSet& cs, const JournalEntry& e, JournalRead* read) {
  *read = JournalRead{};
  if (e.kind == JournalEntry::Kind::Begin) {
    db_->Send("SELECT status FROM resources WHERE stage = $1 AND address = $2 AND deposed = $3",
              {Key(cs.stage), e.request.addr.ToString(), e.request.deposed}, [read](const Rows& rows) {
                if (!rows.empty()) read->prior_status = rows.Text(0, 0);
              });
    return;
  }
  // The operation, with the creation time of the object it is on (Encode keeps it). A
  // subquery on the whole primary key, not a join: the plan a prepared join settles on
  // while the tables are small scans them once they are large.
  db_->Send(
      "SELECT o.address, o.action, o.prior_status, o.status, o.idempotency_token, o.deposed, "
      "(SELECT r.created_at FROM resources r WHERE r.stage = $2 AND r.address = o.address AND "
      "r.deposed = o.deposed) FROM operations o WHERE o.id = $1 AND o.stage = $2",
      {e.operation_id, Key(cs.stage)}, [read, stage = cs.stage, id = e.operation_id](const Rows& rows) {
        read->op = PendingOpFromRows(rows, stage, id);
      });
}

StateResult<int64_t> PostgresStateStore::BeginOperation(const ChangeSet& cs, const OperationRequest& request) {
  JournalEntry e;
  e.request = request;
  return std::move(WriteJournal(cs, {e})[0]);
}

StateStatus PostgresStateStore::CompleteOperation(const ChangeSet& cs, int64_t operation_id,
                                                  const std::optional<ResourceInstanceState>& result) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::Complete;
  e.operation_id = operation_id;
  e.state = result;
  return WriteJournal(cs, {e})[0].status();
}

StateStatus PostgresStateStore::FailOperation(const ChangeSet& cs, int64_t operation_id, const std::string& error,
                                              const std::optional<ResourceInstanceState>& partial) {
  JournalEntry e;
  e.kind = JournalEntry::Kind::Fail;
  e.operation_id = operation_id;
  e.error = error;
  e.state = partial;
  return WriteJournal(cs, {e})[0].status();
}

std::vector<StateResult<int64_t>> PostgresStateStore::WriteJournal(const ChangeSet& cs,
                                                                   const std::vector<JournalEntry>& entries) {
  std::vector<StateResult<int64_t>> results;
  StateStatus failed = Guard([&]() -> StateStatus {
    results.clear();  // a retry after a lost connection starts over
    pg::Connection::Pipeline pipeline(*db_);
    Transaction tx(*db_);
    OpenCheckRows open;
    QueueOpenCheck(cs, &open);
    std::vector<JournalRead> reads(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) QueueJournalRead(cs, entries[i], &reads[i]);
    db_->Flush();
    if (StateStatus s = OpenCheck(cs, open); !s.ok()) return s;
    bool independent = EntriesIndependent(entries, reads);
    // The operation ids of the Begin entries, known once their INSERTs have run (at the
    // latest with the COMMIT).
    std::vector<int64_t> ids(entries.size(), 0);
    std::vector<StateStatus> statuses;
    statuses.reserve(entries.size());
    bool wrote = false;
    for (size_t i = 0; i < entries.size(); ++i) {
      if (!independent && i > 0) {
        QueueJournalRead(cs, entries[i], &reads[i]);
        db_->Flush();
      }
      statuses.push_back(WriteJournalEntryInTx(cs, entries[i], reads[i], &ids[i]));
      wrote = wrote || statuses.back().ok();
    }
    if (wrote) MarkDirty(cs.id);
    tx.Commit();
    for (size_t i = 0; i < entries.size(); ++i) {
      if (statuses[i].ok()) {
        results.emplace_back(ids[i]);
      } else {
        results.emplace_back(statuses[i]);
      }
    }
    return StateStatus::Ok();
  });
  if (!failed.ok()) results.assign(entries.size(), StateResult<int64_t>(failed));
  return results;
}

StateStatus PostgresStateStore::WriteJournalEntryInTx(const ChangeSet& cs, const JournalEntry& e,
                                                      const JournalRead& read, int64_t* op_id) {
  switch (e.kind) {
    case JournalEntry::Kind::Begin: return BeginOperationInTx(cs, e.request, read, op_id);
    case JournalEntry::Kind::Complete: return CompleteOperationInTx(cs, *read.op, e.operation_id, e.state);
    case JournalEntry::Kind::Fail: return FailOperationInTx(cs, *read.op, e.operation_id, e.error, e.state);
  }
  return StateStatus::Ok();
}

StateStatus PostgresStateStore::BeginOperationInTx(const ChangeSet& cs, const OperationRequest& request,
                                                   const JournalRead& read, int64_t* op_id) {
  std::string address = request.addr.ToString();
  const std::optional<std::string>& prior = read.prior_status;
  bool needs_prior = request.action == OperationAction::Update || request.action == OperationAction::Delete ||
                     !request.deposed.empty();
  if (needs_prior && !prior) return NothingToOperateOn(request, cs.stage);
  int64_t now = env_->NowMillis();
  db_->Send(
      "INSERT INTO operations(stage, change_set_id, address, action, idempotency_token, status, "
      "prior_status, started_at, deposed) VALUES($1, $2, $3, $4, $5, 'pending', $6, $7, $8) "
      "RETURNING id",
      {Key(cs.stage), cs.id, address, ToString(request.action), request.idempotency_token, prior, now,
       request.deposed},
      [op_id](const Rows& rows) { *op_id = rows.Int(0, 0); });
  if (request.action != OperationAction::Read) {
    ResourceStatus status = PendingStatusOf(request.action);
    if (prior) {
      db_->Send(
          "UPDATE resources SET status = $1, idempotency_token = $2, updated_at = $3 "
          "WHERE stage = $4 AND address = $5 AND deposed = $6",
          {ToString(status), request.idempotency_token, now, Key(cs.stage), address, request.deposed});
    } else {
      ResourceInstanceState placeholder;
      placeholder.addr = request.addr;
      placeholder.provider = request.provider;
      placeholder.status = status;
      placeholder.idempotency_token = request.idempotency_token;
      WriteResource(cs.stage, Encode(placeholder, std::nullopt));
    }
  }
  return StateStatus::Ok();
}

StateStatus PostgresStateStore::CompleteOperationInTx(const ChangeSet& cs, const StateResult<PendingOp>& op,
                                                      int64_t operation_id,
                                                      const std::optional<ResourceInstanceState>& result) {
  if (!op.ok()) return op.status();
  if (result && (result->addr.ToString() != op->address || result->deposed != op->deposed)) {
    return OperationOnAnotherObject(operation_id, op->address, result->addr.ToString());
  }
  if (result) {
    ResourceInstanceState r = *result;
    if (r.idempotency_token.empty()) r.idempotency_token = op->token;
    WriteResource(cs.stage, Encode(r, op->object));
  } else if (op->action != "read") {
    db_->Send("DELETE FROM resources WHERE stage = $1 AND address = $2 AND deposed = $3",
              {Key(cs.stage), op->address, op->deposed});
  }
  db_->Send("UPDATE operations SET status = 'completed', finished_at = $1 WHERE id = $2",
            {env_->NowMillis(), operation_id});
  return StateStatus::Ok();
}

StateStatus PostgresStateStore::FailOperationInTx(const ChangeSet& cs, const StateResult<PendingOp>& op,
                                                  int64_t operation_id, const std::string& error,
                                                  const std::optional<ResourceInstanceState>& partial) {
  if (!op.ok()) return op.status();
  if (partial) {
    if (partial->addr.ToString() != op->address || partial->deposed != op->deposed) {
      return OperationOnAnotherObject(operation_id, op->address, partial->addr.ToString());
    }
    ResourceInstanceState r = *partial;
    if (r.idempotency_token.empty()) r.idempotency_token = op->token;
    WriteResource(cs.stage, Encode(r, op->object));
  } else if (op->action != "read") {
    if (op->prior_status) {
      db_->Send("UPDATE resources SET status = $1, updated_at = $2 WHERE stage = $3 AND address = $4 AND deposed = $5",
                {*op->prior_status, env_->NowMillis(), Key(cs.stage), op->address, op->deposed});
    } else {
      db_->Send(
          "DELETE FROM resources WHERE stage = $1 AND address = $2 AND deposed = '' AND status = 'pending-create'",
          {Key(cs.stage), op->address});
    }
  }
  db_->Send("UPDATE operations SET status = 'failed', finished_at = $1, error = $2 WHERE id = $3",
            {env_->NowMillis(), error, operation_id});
  return StateStatus::Ok();
}

StateStatus PostgresStateStore::PutResource(const ChangeSet& cs, const ResourceInstanceState& resource) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    STRATA_PG_REQUIRE_OPEN(cs);
    WriteResource(cs.stage, Encode(resource, ReadResource(cs.stage, resource.addr.ToString(), resource.deposed)));
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus PostgresStateStore::DeleteResource(const ChangeSet& cs, const ResourceInstanceAddr& addr) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    STRATA_PG_REQUIRE_OPEN(cs);
    Rows deleted = db_->Query("DELETE FROM resources WHERE stage = $1 AND address = $2 AND deposed = ''",
                              {Key(cs.stage), addr.ToString()});
    if (deleted.Affected() == 0) {
      return StateStatus::Error(StateCode::NotFound,
                                addr.ToString() + " is not in the state of stage \"" + cs.stage + "\"");
    }
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus PostgresStateStore::RenameResource(const ChangeSet& cs, const ResourceInstanceAddr& from,
                                               const ResourceInstanceAddr& to, const ResourceInstanceState* converted) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    STRATA_PG_REQUIRE_OPEN(cs);
    if (ReadResource(cs.stage, to.ToString())) {
      return StateStatus::Error(StateCode::InvalidArgument, "cannot move " + from.ToString() + " to " + to.ToString() +
                                                                ": that address is already in the state of stage \"" +
                                                                cs.stage + "\"");
    }
    Rows renamed = db_->Query("UPDATE resources SET address = $1, updated_at = $2 WHERE stage = $3 AND address = $4",
                              {to.ToString(), env_->NowMillis(), Key(cs.stage), from.ToString()});
    if (renamed.Affected() == 0) {
      return StateStatus::Error(StateCode::NotFound, from.ToString() + " is not in the state of stage \"" + cs.stage + "\"");
    }
    // Across types: the current object under its new type, in the same transaction.
    if (converted) WriteResource(cs.stage, Encode(*converted, ReadResource(cs.stage, to.ToString())));
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus PostgresStateStore::DeposeResource(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                               const std::string& key) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    STRATA_PG_REQUIRE_OPEN(cs);
    std::string address = addr.ToString();
    if (key.empty() || ReadResource(cs.stage, address, key)) {
      return StateStatus::Error(StateCode::InvalidArgument, "cannot depose " + address + " under the key \"" + key +
                                                                "\": " + (key.empty() ? "the key is empty" : "it is taken"));
    }
    Rows deposed = db_->Query(
        "UPDATE resources SET deposed = $1, updated_at = $2 WHERE stage = $3 AND address = $4 AND deposed = ''",
        {key, env_->NowMillis(), Key(cs.stage), address});
    if (deposed.Affected() == 0) {
      return StateStatus::Error(StateCode::NotFound, address + " has no current object in the state of stage \"" +
                                                         cs.stage + "\" to depose");
    }
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateStatus PostgresStateStore::RestoreDeposed(const ChangeSet& cs, const ResourceInstanceAddr& addr,
                                               const std::string& key) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    STRATA_PG_REQUIRE_OPEN(cs);
    std::string address = addr.ToString();
    if (ReadResource(cs.stage, address)) {
      return StateStatus::Error(StateCode::InvalidArgument, address + " has a current object: its deposed object " +
                                                                key + " stays deposed");
    }
    Rows restored = db_->Query(
        "UPDATE resources SET deposed = '', updated_at = $1 WHERE stage = $2 AND address = $3 AND deposed = $4",
        {env_->NowMillis(), Key(cs.stage), address, key});
    if (restored.Affected() == 0) {
      return StateStatus::Error(StateCode::NotFound, address + " has no object deposed under " + key +
                                                         " in the state of stage \"" + cs.stage + "\"");
    }
    MarkDirty(cs.id);
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateResult<CommitResult> PostgresStateStore::CommitChangeSet(const ChangeSet& cs,
                                                              const std::optional<std::vector<OutputState>>& outputs) {
  return Guard([&]() -> StateResult<CommitResult> {
    Transaction tx(*db_);
    STRATA_PG_REQUIRE_OPEN(cs);
    Rows flag = db_->Query("SELECT dirty FROM change_sets WHERE id = $1", {cs.id});
    bool dirty = !flag.empty() && flag.Int(0, 0) != 0;
    if (outputs) {
      bool same = SameOutputs(ReadOutputs(cs.stage), *outputs, options_.keys, cs.stage);
      if (!same) {
        std::vector<StoredOutput> rows;
        for (const auto& o : *outputs) rows.push_back(EncodeOutput(o, options_.keys, *env_));
        WriteOutputs(cs.stage, rows);
        dirty = true;
      }
    }
    db_->Query("UPDATE change_sets SET status = 'committed', finished_at = $1, dirty = $2 WHERE id = $3",
               {env_->NowMillis(), int64_t{dirty}, cs.id});
    int64_t serial = 0;
    if (dirty) {
      serial = CommitSerial(cs.stage, cs.operation);
    } else if (auto header = ReadLineageAndSerial(cs.stage)) {
      serial = header->second;
    }
    db_->Query("UPDATE change_sets SET serial = $1 WHERE id = $2", {serial, cs.id});
    tx.Commit();
    return CommitResult{serial, dirty};
  });
}

std::optional<std::pair<std::string, int64_t>> PostgresStateStore::ReadLineageAndSerial(const std::string& stage) {
  Rows rows = db_->Query("SELECT lineage, serial FROM stages WHERE name = $1", {Key(stage)});
  if (rows.empty()) return std::nullopt;
  return std::make_pair(rows.Text(0, 0), rows.Int(0, 1));
}

int64_t PostgresStateStore::CommitSerial(const std::string& stage, const std::string& operation) {
  int64_t now = env_->NowMillis();
  std::string lineage;
  int64_t serial = 0;
  if (auto header = ReadLineageAndSerial(stage)) std::tie(lineage, serial) = *header;
  ++serial;
  db_->Query("UPDATE stages SET serial = $1, updated_at = $2 WHERE name = $3", {serial, now, Key(stage)});
  // Writes that change sets left open (their process died) are covered by this serial.
  db_->Query("UPDATE change_sets SET status = 'interrupted', finished_at = $1 WHERE stage = $2 AND status = 'open'",
             {now, Key(stage)});
  auto resources = ReadResources(stage);
  auto outputs = ReadOutputs(stage);
  db_->Query(
      "INSERT INTO history(stage, serial, lineage, created_at, operation, holder, resource_count, output_count, "
      "snapshot) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (stage, serial) DO UPDATE SET "
      "lineage = EXCLUDED.lineage, created_at = EXCLUDED.created_at, operation = EXCLUDED.operation, "
      "holder = EXCLUDED.holder, resource_count = EXCLUDED.resource_count, output_count = EXCLUDED.output_count, "
      "snapshot = EXCLUDED.snapshot",
      {Key(stage), serial, lineage, now, operation, Holder(), static_cast<int64_t>(resources.size()),
       static_cast<int64_t>(outputs.size()), SnapshotText(resources, outputs)});
  if (options_.history_retention > 0) {
    db_->Query("DELETE FROM history WHERE stage = $1 AND serial <= $2",
               {Key(stage), serial - options_.history_retention});
  }
  return serial;
}

}  // namespace strata::state
