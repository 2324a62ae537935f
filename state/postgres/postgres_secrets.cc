// PostgresStateStore: counting and re-sealing secrets at rest (key rotation). Values are
// opened and sealed here, in the client; the database only ever holds sealed text.

#include <tuple>

#include "state/crypto/sealer.h"
#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

StateResult<StateStore::SecretCounts> PostgresStateStore::CountSecrets() {
  return Guard([&]() -> StateResult<SecretCounts> {
    SecretCounts counts;
    std::string primary = options_.keys.primary ? options_.keys.primary->id : "";
    auto count = [&](const std::string& sealed) { CountSealed(sealed, primary, counts); };
    Transaction tx(*db_, pg::kSnapshotRead);
    for (const char* sql : {"SELECT secrets FROM resources WHERE secrets != '[]'",
                            "SELECT secrets FROM outputs WHERE secrets != '[]'"}) {
      Rows rows = db_->Query(sql);
      for (int i = 0; i < rows.size(); ++i) {
        for (const auto& s : nlohmann::json::parse(rows.Text(i, 0))) count(s.get<std::string>());
      }
    }
    Rows reads = db_->Query("SELECT digest FROM upstream_reads WHERE sensitive = 1");
    for (int i = 0; i < reads.size(); ++i) count(reads.Text(i, 0));
    tx.Commit();
    return counts;
  });
}

StateResult<int64_t> PostgresStateStore::Rekey() {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_);
    // Every lock row is held FOR UPDATE meanwhile: a stage locked after this check still
    // cannot write until the re-sealing commits.
    Rows locks = db_->Query("SELECT stage FROM locks ORDER BY stage COLLATE \"C\" FOR UPDATE");
    if (!locks.empty()) {
      auto lock = ReadLockByKey(locks.Text(0, 0));
      return StateStatus::Error(StateCode::LockHeld, "re-encrypting needs every stage unlocked: " +
                                                         LockHeldMessage(*lock, env_->NowMillis()));
    }
    int64_t resealed = 0;
    // Current rows.
    {
      Rows rows = db_->Query("SELECT stage, address, deposed, secrets FROM resources WHERE secrets != '[]'");
      for (int i = 0; i < rows.size(); ++i) {
        std::string secrets = rows.Text(i, 3);
        auto updated = ResealSecrets(secrets, options_.keys, *env_,
                                     "stage " + rows.Text(i, 0) + ": " + rows.Text(i, 1) + " " + rows.Text(i, 2), resealed);
        if (!updated.ok()) return updated.status();
        if (*updated == secrets) continue;
        db_->Query("UPDATE resources SET secrets = $1 WHERE stage = $2 AND address = $3 AND deposed = $4",
                   {*updated, rows.Text(i, 0), rows.Text(i, 1), rows.Text(i, 2)});
      }
    }
    {
      Rows rows = db_->Query("SELECT stage, name, secrets FROM outputs WHERE secrets != '[]'");
      for (int i = 0; i < rows.size(); ++i) {
        std::string secrets = rows.Text(i, 2);
        auto updated =
            ResealSecrets(secrets, options_.keys, *env_, "stage " + rows.Text(i, 0) + ": " + rows.Text(i, 1), resealed);
        if (!updated.ok()) return updated.status();
        if (*updated == secrets) continue;
        db_->Query("UPDATE outputs SET secrets = $1 WHERE stage = $2 AND name = $3",
                   {*updated, rows.Text(i, 0), rows.Text(i, 1)});
      }
    }
    // Digests of sensitive upstream reads: one sealed form per row.
    {
      Rows rows = db_->Query("SELECT stage, source_stage, output, digest FROM upstream_reads WHERE sensitive = 1");
      for (int i = 0; i < rows.size(); ++i) {
        std::string one = nlohmann::json::array({rows.Text(i, 3)}).dump();
        auto updated = ResealSecrets(one, options_.keys, *env_,
                                     "stage " + rows.Text(i, 0) + ": the digest of stage " + rows.Text(i, 1) +
                                         " output " + rows.Text(i, 2),
                                     resealed);
        if (!updated.ok()) return updated.status();
        if (*updated == one) continue;
        db_->Query("UPDATE upstream_reads SET digest = $1 WHERE stage = $2 AND source_stage = $3 AND output = $4",
                   {nlohmann::json::parse(*updated).at(0).get<std::string>(), rows.Text(i, 0), rows.Text(i, 1),
                    rows.Text(i, 2)});
      }
    }
    // History snapshots.
    Rows snapshots = db_->Query("SELECT stage, serial, snapshot FROM history");
    for (int i = 0; i < snapshots.size(); ++i) {
      auto snapshot = nlohmann::json::parse(snapshots.Text(i, 2));
      int64_t before = resealed;
      std::string where = "stage " + snapshots.Text(i, 0) + " serial " + snapshots.Text(i, 1) + ": ";
      for (const char* part : {"resources", "outputs"}) {
        for (auto& row : snapshot.at(part)) {
          std::string name = row.contains("address") ? row["address"].get<std::string>() : row["name"].get<std::string>();
          auto updated = ResealSecrets(row.at("secrets").get<std::string>(), options_.keys, *env_, where + name, resealed);
          if (!updated.ok()) return updated.status();
          row["secrets"] = *updated;
        }
      }
      if (resealed == before) continue;
      db_->Query("UPDATE history SET snapshot = $1 WHERE stage = $2 AND serial = $3",
                 {snapshot.dump(), snapshots.Text(i, 0), snapshots.Int(i, 1)});
    }
    tx.Commit();
    return resealed;
  });
}

}  // namespace strata::state
