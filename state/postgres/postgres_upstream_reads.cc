// PostgresStateStore: the outputs of earlier stages each stage read at its last full apply
// (table upstream_reads). The digest of a sensitive value is sealed like the other secrets.

#include "state/crypto/sealer.h"
#include "state/postgres/postgres_guard.h"
#include "state/postgres/postgres_store.h"

namespace strata::state {

using pg::Rows;
using pg::Transaction;

StateStatus PostgresStateStore::RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_);
    if (StateStatus s = RequireOpenChangeSet(cs); !s.ok()) return s;
    db_->Query("DELETE FROM upstream_reads WHERE stage = $1", {Key(cs.stage)});
    int64_t now = env_->NowMillis();
    for (const UpstreamRead& read : reads) {
      db_->Query(
          "INSERT INTO upstream_reads(stage, source_stage, output, serial, digest, sensitive, recorded_at) "
          "VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (stage, source_stage, output) DO UPDATE SET "
          "serial = EXCLUDED.serial, digest = EXCLUDED.digest, sensitive = EXCLUDED.sensitive, "
          "recorded_at = EXCLUDED.recorded_at",
          {Key(cs.stage), read.stage, read.output, read.serial,
           read.sensitive ? crypto::Seal(read.digest, options_.keys, *env_) : read.digest, int64_t{read.sensitive}, now});
    }
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateResult<std::vector<UpstreamRead>> PostgresStateStore::LoadUpstreamReads(const std::string& stage) {
  return Guard([&]() -> StateResult<std::vector<UpstreamRead>> {
    Rows rows = db_->Query(
        "SELECT source_stage, output, serial, digest, sensitive FROM upstream_reads WHERE stage = $1 "
        "ORDER BY source_stage COLLATE \"C\", output COLLATE \"C\"",
        {Key(stage)});
    std::vector<UpstreamRead> out;
    for (int i = 0; i < rows.size(); ++i) {
      out.push_back({rows.Text(i, 0), rows.Text(i, 1), rows.Int(i, 2), rows.Text(i, 3), rows.Int(i, 4) != 0});
    }
    for (UpstreamRead& read : out) {
      if (!read.sensitive) continue;
      auto digest = crypto::Open(read.digest, options_.keys,
                                 "stage " + stage + ": the digest of stage " + read.stage + " output " + read.output);
      if (!digest.ok()) return digest.status();
      read.digest = std::move(*digest);
    }
    return out;
  });
}

}  // namespace strata::state
