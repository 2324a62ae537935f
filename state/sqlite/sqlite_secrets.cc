// SqliteStateStore: counting and re-sealing secrets at rest (key rotation).

#include "state/crypto/sealer.h"
#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

StateResult<StateStore::SecretCounts> SqliteStateStore::CountSecrets() {
  return Guard([&]() -> StateResult<SecretCounts> {
    SecretCounts counts;
    std::string primary = options_.keys.primary ? options_.keys.primary->id : "";
    auto count = [&](const std::string& sealed) { CountSealed(sealed, primary, counts); };
    for (const char* sql : {"SELECT secrets FROM resources WHERE secrets != '[]'",
                            "SELECT secrets FROM outputs WHERE secrets != '[]'"}) {
      Statement& st = db_->Prepare(sql);
      while (st.Step()) {
        for (const auto& s : nlohmann::json::parse(st.Text(0))) count(s.get<std::string>());
      }
    }
    // The digests of sensitive values a stage read from earlier stages, one sealed form each.
    Statement& reads = db_->Prepare("SELECT digest FROM upstream_reads WHERE sensitive = 1");
    while (reads.Step()) count(reads.Text(0));
    return counts;
  });
}

StateResult<int64_t> SqliteStateStore::Rekey() {
  return Guard([&]() -> StateResult<int64_t> {
    Transaction tx(*db_, Transaction::Kind::Write);
    {
      Statement& st = db_->Prepare("SELECT stage FROM locks ORDER BY stage");
      if (st.Step()) {
        auto lock = ReadLockByKey(st.Text(0));
        st.Reset();
        return StateStatus::Error(StateCode::LockHeld, "re-encrypting needs every stage unlocked: " +
                                                           LockHeldMessage(*lock, env_->NowMillis()));
      }
      st.Reset();
    }
    int64_t resealed = 0;
    // Current rows.
    for (const char* table : {"resources", "outputs"}) {
      // A resource row is keyed by address and deposed key together.
      std::string key_column = std::string(table) == "resources" ? "address || ' ' || deposed" : "name";
      std::vector<std::tuple<std::string, std::string, std::string>> rows;  // stage, key, secrets
      {
        Statement& st =
            db_->Prepare("SELECT stage, " + key_column + ", secrets FROM " + table + " WHERE secrets != '[]'");
        while (st.Step()) rows.emplace_back(st.Text(0), st.Text(1), st.Text(2));
      }
      for (const auto& [stage, key, secrets] : rows) {
        auto updated = ResealSecrets(secrets, options_.keys, *env_, "stage " + stage + ": " + key, resealed);
        if (!updated.ok()) return updated.status();
        if (*updated == secrets) continue;
        db_->Prepare("UPDATE " + std::string(table) + " SET secrets = ? WHERE stage = ? AND " + key_column + " = ?")
            .Bind(1, *updated)
            .Bind(2, stage)
            .Bind(3, key)
            .Run();
      }
    }
    // Digests of sensitive upstream reads: one sealed form per row.
    std::vector<std::tuple<std::string, std::string, std::string, std::string>> reads;  // stage, source, output, digest
    {
      Statement& st = db_->Prepare("SELECT stage, source_stage, output, digest FROM upstream_reads WHERE sensitive = 1");
      while (st.Step()) reads.emplace_back(st.Text(0), st.Text(1), st.Text(2), st.Text(3));
    }
    for (const auto& [stage, source, output, digest] : reads) {
      std::string one = nlohmann::json::array({digest}).dump();
      auto updated = ResealSecrets(one, options_.keys, *env_,
                                   "stage " + stage + ": the digest of stage " + source + " output " + output, resealed);
      if (!updated.ok()) return updated.status();
      if (*updated == one) continue;
      db_->Prepare("UPDATE upstream_reads SET digest = ? WHERE stage = ? AND source_stage = ? AND output = ?")
          .Bind(1, nlohmann::json::parse(*updated).at(0).get<std::string>())
          .Bind(2, stage)
          .Bind(3, source)
          .Bind(4, output)
          .Run();
    }
    // History snapshots.
    std::vector<std::tuple<std::string, int64_t, std::string>> snapshots;
    {
      Statement& st = db_->Prepare("SELECT stage, serial, snapshot FROM history");
      while (st.Step()) snapshots.emplace_back(st.Text(0), st.Int(1), st.Text(2));
    }
    for (const auto& [stage, serial, text] : snapshots) {
      auto snapshot = nlohmann::json::parse(text);
      int64_t before = resealed;
      std::string where = "stage " + stage + " serial " + std::to_string(serial) + ": ";
      for (const char* part : {"resources", "outputs"}) {
        for (auto& row : snapshot.at(part)) {
          std::string name = row.contains("address") ? row["address"].get<std::string>() : row["name"].get<std::string>();
          auto updated = ResealSecrets(row.at("secrets").get<std::string>(), options_.keys, *env_, where + name, resealed);
          if (!updated.ok()) return updated.status();
          row["secrets"] = *updated;
        }
      }
      if (resealed == before) continue;
      db_->Prepare("UPDATE history SET snapshot = ? WHERE stage = ? AND serial = ?")
          .Bind(1, snapshot.dump())
          .Bind(2, stage)
          .Bind(3, serial)
          .Run();
    }
    tx.Commit();
    return resealed;
  });
}

}  // namespace strata::state
