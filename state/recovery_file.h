#pragma once
// The recovery file: what an apply could not write to its state store because the database
// went away (PostgreSQL down past state.retry_timeout), kept on the local disk until
// `strata state recover` pushes it. Terraform's errored.tfstate is the model; this one holds
// the change set's unwritten journal — in order, each entry with the resource instance it
// leaves — and the outputs, so that pushing it writes exactly what the store would have
// held, and pushing it twice writes nothing more.
//
//   .strata/recovery/<stage>-<UTC time>.json        (mode 0600; <env>.<stage>-... outside default)
//   {
//     "format_version": 1, "kind": "strata recovery",
//     "id": "<uuid>", "environment": "default", "stage": "app",
//     "lineage": "…", "base_serial": 4,          // the stage when the apply began
//     "change_set": 17, "operation": "apply",    // the change set left open in the database
//     "created_at": "2026-11-27T06:01:02Z", "where": "postgres://u:***@db/state (schema strata)",
//     "reason": "lost the connection to the state database … within 60 s",
//     "secrets": "sealed" | "masked",            // sealed with the state key, as the store seals
//     "key_id": "…",                             // the key that sealed them ("" when masked)
//     "not_started": ["terraform_data.c"],       // operations refused once the database was gone
//     "writes": [ { "kind": "complete", "operation_id": 5, "address": "terraform_data.a",
//                   "resource": { …stored row: attributes, sensitive_paths, secrets… } },
//                 { "kind": "fail", "operation_id": 6, "address": "…", "error": "…", "resource": null },
//                 { "kind": "put" | "delete" | "restore_deposed", "address": "…", "key": "…", … } ],
//     "outputs": null | [ …stored outputs… ],    // null: the apply did not reach its commit
//     "committed": false                         // whether the apply reached its commit
//   }
//
// Secrets never appear in clear: with a state key they are sealed exactly as the store
// seals them (AES-256-GCM, the same key id); without one they are masked (null), the file
// says so, and `state recover` warns that those values are to be refreshed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "state/status.h"
#include "state/stored_rows.h"

namespace strata::state {

struct RecoveryWrite {
  enum class Kind { Complete, Fail, Put, Delete, RestoreDeposed };
  Kind kind = Kind::Complete;
  int64_t operation_id = 0;               // Complete, Fail
  std::string address;                    // the instance (every kind)
  std::string key;                        // RestoreDeposed: the deposed key
  std::string error;                      // Fail
  std::optional<StoredResource> resource;  // Complete, Fail (partial), Put
};

struct RecoveryFile {
  static constexpr int kFormatVersion = 1;
  std::string id;
  std::string environment;
  std::string stage;
  std::string lineage;
  int64_t base_serial = 0;
  int64_t change_set = 0;
  std::string operation;
  int64_t created_at = 0;  // unix milliseconds
  std::string where;
  std::string reason;
  bool secrets_masked = false;
  std::string key_id;
  std::vector<std::string> not_started;
  std::vector<RecoveryWrite> writes;
  std::optional<std::vector<StoredOutput>> outputs;
  bool committed = false;
};

nlohmann::json ToJson(const RecoveryFile& file);
//! InvalidArgument naming what is wrong (another kind of file, a newer format, a field).
StateResult<RecoveryFile> RecoveryFileFromJson(const nlohmann::json& j);

//! `<root>/.strata/recovery`.
std::string RecoveryDir(const std::string& root_dir);
//! "app-20261127T060102Z.json" ("prod.app-..." outside the default environment).
std::string RecoveryFileName(const RecoveryFile& file);
//! Writes `file` to `path` durably (a temporary file, fsync, rename, fsync of the
//! directory), readable by its owner only (0600); makes the directory (0700). Io on failure.
StateStatus WriteRecoveryFile(const std::string& path, const RecoveryFile& file);
StateResult<RecoveryFile> ReadRecoveryFile(const std::string& path);

//! The recovery files in `dir` waiting to be pushed, oldest first, for `environment` and
//! (when not empty) `stage`. Files that cannot be read are listed too (push reports them).
std::vector<std::string> PendingRecoveryFiles(const std::string& dir, const std::string& environment,
                                              const std::string& stage = "");

}  // namespace strata::state
