#pragma once
// The rows of a whole state store, backend-neutral, for `strata state migrate` (a store
// copied to another backend with its history): what each store dumps and loads
// (StateStore::DumpRows / LoadRows), and the per-stage counts and digests that prove a
// copy equal to its source.
//
// Both stores keep the same tables with the same column names (state/sqlite/schema.cc,
// state/postgres/pg_schema.cc), so a row is its columns' values as text (integers in
// decimal, NULL as nullopt) and copies as is: secrets stay sealed (the ciphertext moves,
// never a clear value), serials, lineages, change set and operation ids are kept. Locks
// and the schema's own bookkeeping are not copied.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace strata::state {

struct CopiedTable {
  const char* name;
  //! Columns in the order dumped and inserted.
  std::vector<const char*> columns;
  //! The column holding the stage key, or -1 for a table of the whole store (environments).
  int stage_column;
  //! A column referring to a later row of the same table (change_sets.absorbed_by): inserted
  //! as NULL, then set once every row is in (WriteDump); -1 for none. The table's first
  //! column is its id.
  int deferred_column = -1;
};

//! Every copied table, in an order that inserts parents before children.
const std::vector<CopiedTable>& CopiedTables();

using CopiedRow = std::vector<std::optional<std::string>>;

//! The copied tables' rows, by table name; each table's rows sorted (SortDump) so that two
//! dumps of equal stores are equal whatever order each backend returned them in.
struct StoreDump {
  std::map<std::string, std::vector<CopiedRow>> tables;
  int64_t Rows() const;
};

//! Sorts every table's rows bytewise (collations differ between backends).
void SortDump(StoreDump& dump);

//! What one stage (a stage key: "STAGE" or "ENV/STAGE") holds in a dump.
struct StageCopySummary {
  std::string key;
  int64_t serial = 0;
  std::map<std::string, int64_t> rows;  // by table
  std::string digest;                   // hex SHA-256 of its rows in every table
};

//! One summary per stage key of the dump (the stages table), by key.
std::vector<StageCopySummary> SummarizeStages(const StoreDump& dump);

//! The differences between two dumps' summaries ("stage web: resources 3 != 4", "stage
//! web: digest differs", "stage db: missing"), empty when equal; the environments table is
//! compared too.
std::vector<std::string> CompareDumps(const StoreDump& source, const StoreDump& target);

//! Replaces the copied tables' rows with `dump` through `run` (a statement and its
//! parameters, in the caller's transaction): every table emptied, children first, then
//! filled, parents first, each deferred column set once its table is full. `numbered`:
//! $1, $2 (PostgreSQL) rather than ?.
void WriteDump(const StoreDump& dump, bool numbered,
               const std::function<void(const std::string& sql, const CopiedRow& params)>& run);

//! "SELECT c1, c2 FROM t".
std::string CopySelectSql(const CopiedTable& table);

}  // namespace strata::state
