#include "state/store_copy.h"

#include <algorithm>

#include "engine/base/hash.h"

namespace strata::state {

const std::vector<CopiedTable>& CopiedTables() {
  static const std::vector<CopiedTable> tables = {
      {"environments", {"name", "created_at"}, -1},
      {"stages", {"name", "lineage", "serial", "created_at", "updated_at"}, 0},
      {"resources",
       {"stage", "address", "deposed", "mode", "type", "provider", "status", "attributes", "sensitive_paths", "secrets",
        "dependencies", "idempotency_token", "schema_version", "created_at", "updated_at"},
       0},
      {"outputs", {"stage", "name", "value", "sensitive", "sensitive_paths", "secrets"}, 0},
      {"change_sets",
       {"id", "stage", "operation", "lock_id", "holder", "status", "dirty", "absorbed_by", "serial", "started_at",
        "finished_at"},
       1, 7},
      {"operations",
       {"id", "stage", "change_set_id", "address", "deposed", "action", "idempotency_token", "status", "prior_status",
        "started_at", "finished_at", "error"},
       1},
      {"history",
       {"stage", "serial", "lineage", "created_at", "operation", "holder", "resource_count", "output_count", "snapshot"},
       0},
      {"upstream_reads", {"stage", "source_stage", "output", "serial", "digest", "sensitive", "recorded_at"}, 0},
  };
  return tables;
}

int64_t StoreDump::Rows() const {
  int64_t n = 0;
  for (const auto& [name, rows] : tables) n += static_cast<int64_t>(rows.size());
  return n;
}

void SortDump(StoreDump& dump) {
  for (auto& [name, rows] : dump.tables) std::sort(rows.begin(), rows.end());
}

namespace {

// A row's bytes for the digest: each value length-prefixed, NULL apart from "".
void AppendCopiedRow(std::string& out, const CopiedRow& row) {
  for (const auto& v : row) {
    if (!v) {
      out += "N;";
      continue;
    }
    out += std::to_string(v->size()) + ":" + *v + ";";
  }
  out += "\n";
}

}  // namespace

std::vector<StageCopySummary> SummarizeStages(const StoreDump& dump) {
  std::map<std::string, StageCopySummary> by_key;
  std::map<std::string, std::string> bytes;
  auto stages = dump.tables.find("stages");
  if (stages != dump.tables.end()) {
    for (const auto& row : stages->second) {
      std::string key = row[0].value_or("");
      by_key[key].key = key;
      by_key[key].serial = row[2] ? std::stoll(*row[2]) : 0;
    }
  }
  for (const auto& table : CopiedTables()) {
    if (table.stage_column < 0) continue;
    auto rows = dump.tables.find(table.name);
    for (auto& [key, summary] : by_key) summary.rows[table.name] = 0;
    if (rows == dump.tables.end()) continue;
    for (const auto& row : rows->second) {
      std::string key = row[table.stage_column].value_or("");
      auto it = by_key.find(key);
      if (it == by_key.end()) continue;  // a foreign key keeps this from happening
      ++it->second.rows[table.name];
      std::string& b = bytes[key];
      b += table.name;
      b += "\n";
      AppendCopiedRow(b, row);
    }
  }
  std::vector<StageCopySummary> out;
  for (auto& [key, summary] : by_key) {
    summary.digest = base::Sha256Hex(bytes[key]);
    out.push_back(std::move(summary));
  }
  return out;
}

std::vector<std::string> CompareDumps(const StoreDump& source, const StoreDump& target) {
  std::vector<std::string> differences;
  auto envs = [](const StoreDump& d) {
    auto it = d.tables.find("environments");
    std::vector<std::string> names;
    if (it != d.tables.end()) {
      for (const auto& row : it->second) names.push_back(row[0].value_or(""));
    }
    return names;
  };
  if (envs(source) != envs(target)) differences.push_back("the environments differ");
  std::map<std::string, StageCopySummary> theirs;
  for (auto& s : SummarizeStages(target)) theirs[s.key] = std::move(s);
  for (const auto& mine : SummarizeStages(source)) {
    auto it = theirs.find(mine.key);
    if (it == theirs.end()) {
      differences.push_back("stage " + mine.key + ": missing");
      continue;
    }
    for (const auto& [table, n] : mine.rows) {
      int64_t other = it->second.rows.count(table) ? it->second.rows.at(table) : 0;
      if (n != other) {
        differences.push_back("stage " + mine.key + ": " + table + " " + std::to_string(n) +
                              " != " + std::to_string(other));
      }
    }
    if (mine.digest != it->second.digest) differences.push_back("stage " + mine.key + ": digest differs");
    theirs.erase(it);
  }
  for (const auto& [key, s] : theirs) differences.push_back("stage " + key + ": not in the source");
  return differences;
}

std::string CopySelectSql(const CopiedTable& table) {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < table.columns.size(); ++i) sql += (i ? ", " : "") + std::string(table.columns[i]);
  return sql + " FROM " + table.name;
}

namespace {

std::string CopyInsertSql(const CopiedTable& table, bool numbered) {
  std::string names;
  std::string values;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    names += (i ? ", " : "") + std::string(table.columns[i]);
    values += (i ? ", " : "") + (numbered ? "$" + std::to_string(i + 1) : std::string("?"));
  }
  return "INSERT INTO " + std::string(table.name) + "(" + names + ") VALUES(" + values + ")";
}

std::string CopyDeferredUpdateSql(const CopiedTable& table, bool numbered) {
  return "UPDATE " + std::string(table.name) + " SET " + table.columns[table.deferred_column] + " = " +
         (numbered ? "$1" : "?") + " WHERE " + table.columns[0] + " = " + (numbered ? "$2" : "?");
}

}  // namespace

void WriteDump(const StoreDump& dump, bool numbered,
               const std::function<void(const std::string& sql, const CopiedRow& params)>& run) {
  const auto& tables = CopiedTables();
  for (auto t = tables.rbegin(); t != tables.rend(); ++t) run(std::string("DELETE FROM ") + t->name, {});
  for (const auto& table : tables) {
    auto rows = dump.tables.find(table.name);
    if (rows == dump.tables.end()) continue;
    const std::string insert = CopyInsertSql(table, numbered);
    for (CopiedRow row : rows->second) {
      if (table.deferred_column >= 0) row[table.deferred_column] = std::nullopt;
      run(insert, row);
    }
    if (table.deferred_column < 0) continue;
    const std::string update = CopyDeferredUpdateSql(table, numbered);
    for (const auto& row : rows->second) {
      if (row[table.deferred_column]) run(update, {row[table.deferred_column], row[0]});
    }
  }
}

}  // namespace strata::state
