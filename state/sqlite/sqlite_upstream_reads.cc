// SqliteStateStore: the outputs of earlier stages each stage read at its last full apply
// (table upstream_reads, schema version 5). Rows of the reader's key; the stages read are
// named plainly, since they are of the reader's environment. The digest of a sensitive
// value is sealed like the other secrets at rest (CountSecrets and Rekey see it too): an
// unkeyed hash of a short secret could be tested against guesses.

#include "state/crypto/sealer.h"
#include "state/sqlite/guard.h"
#include "state/sqlite/sqlite_store.h"

namespace strata::state {

using sqlite::Statement;
using sqlite::Transaction;

StateStatus SqliteStateStore::RecordUpstreamReads(const ChangeSet& cs, const std::vector<UpstreamRead>& reads) {
  return Guard([&]() -> StateStatus {
    Transaction tx(*db_, Transaction::Kind::Write);
    if (StateStatus s = RequireOpenChangeSet(cs); !s.ok()) return s;
    db_->Prepare("DELETE FROM upstream_reads WHERE stage = ?").Bind(1, Key(cs.stage)).Run();
    int64_t now = env_->NowMillis();
    for (const UpstreamRead& read : reads) {
      db_->Prepare(
             "INSERT OR REPLACE INTO upstream_reads(stage, source_stage, output, serial, digest, sensitive, "
             "recorded_at) VALUES(?, ?, ?, ?, ?, ?, ?)")
          .Bind(1, Key(cs.stage))
          .Bind(2, read.stage)
          .Bind(3, read.output)
          .Bind(4, read.serial)
          .Bind(5, read.sensitive ? crypto::Seal(read.digest, options_.keys, *env_) : read.digest)
          .Bind(6, int64_t{read.sensitive})
          .Bind(7, now)
          .Run();
    }
    tx.Commit();
    return StateStatus::Ok();
  });
}

StateResult<std::vector<UpstreamRead>> SqliteStateStore::LoadUpstreamReads(const std::string& stage) {
  return Guard([&]() -> StateResult<std::vector<UpstreamRead>> {
    Statement& st = db_->Prepare(
        "SELECT source_stage, output, serial, digest, sensitive FROM upstream_reads WHERE stage = ? "
        "ORDER BY source_stage, output");
    st.Bind(1, Key(stage));
    std::vector<UpstreamRead> out;
    while (st.Step()) out.push_back({st.Text(0), st.Text(1), st.Int(2), st.Text(3), st.Int(4) != 0});
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
