#pragma once
// Saved plan files: what `strata plan -out FILE` writes and `strata apply FILE` reads. They
// live next to the plan and use the state store's pieces for what the two share: the split
// of sensitive values (state/sensitive_paths.h), their sealing (state/crypto/) and the
// file-system errors (StateStatus).
//
// One JSON document (keys of each object in a fixed order, format and version first):
//
//   {"format": "strata-plan", "version": 1,
//    "stage": "eks", "mode": "normal", "errored": false,
//    "prior_lineage": "…", "prior_serial": 3, "config_digest": "…",
//    "targets": [], "replace": [], "variables": {"region": VALUE},
//    "changes": [CHANGE], "drift": [CHANGE],
//    "output_changes": [{"name", "action", "before": VALUE, "after": VALUE, "sensitive"}],
//    "upstream_changes": [{"stage", "output", "sensitive", "serial_then", "serial_now",
//                          "unavailable"}]}        (only when there are any: notes, no values)
//
//   CHANGE = {"address", "type", "provider", "mode", "action": "delete-then-create",
//             "reason": "replace_because_tainted" (or ""), "schema_version",
//             "idempotency_token", "dependencies": [..], "create_before_destroy",
//             "recovery", "previous_address", "importing_id", "generated_config" (when set),
//             "requires_replace": [[STEP, ..]], "before": VALUE, "after": VALUE}
//   STEP  = "attr" | {"key": "k"} | 0
//
// A VALUE is a record that keeps what plain JSON loses. Paths are JSON arrays of object keys
// and sequence indexes, as in sensitive_paths.h:
//
//   {"value": JSON,                         unknown and sensitive nodes are null here
//    "unknown": [PATH, ..],                 Value::Unknown() nodes
//    "kinds": {"list": [PATH, ..], "set": [..], "map": [..]},
//                                           arrays are tuples and objects objects unless listed
//    "nonfinite": [[PATH, "+Inf"], ..],     numbers JSON cannot hold ("+Inf", "-Inf", "NaN")
//    "sensitive": [PATH, ..],               the outermost marked nodes (SplitSensitive) ...
//    "secrets": ["aes256gcm:…", ..]}        ... each the sealed (crypto/sealer.h) text of the
//                                           node's own VALUE record, unmarked at its top
//
// Members other than "value" are left out when empty. Secrets are sealed with ring.primary;
// without one they are stored in clear ("plain:…"), as the state store does.

#include <string>

#include "engine/plan/change.h"
#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/status.h"

namespace strata {

//! The format version this Strata writes; it reads this version only.
inline constexpr int kPlanFileVersion = 1;

//! Writes `plan` to `path` atomically (a temporary file in the same directory, fsynced, then
//! renamed over `path`, and the directory fsynced), with mode 0600. Sensitive parts of every
//! value are sealed with ring.primary (in clear, "plain:…", when the ring has none). Io with
//! the file named when the file system refuses.
state::StateStatus WritePlanFile(const std::string& path, const Plan& plan, const state::crypto::KeyRing& ring,
                                 state::StateEnvironment& env);

//! Reads a plan file back exactly: unknowns, sensitive marks, collection kinds, numbers and
//! every field. Errors name the file and say what to do: NotFound (no such file), Io (cannot
//! be read), InvalidArgument (not a Strata plan file, e.g. a Terraform plan or any other
//! file), SchemaTooNew (written by a newer Strata), Corrupt (truncated or edited), and the
//! sealer's KeyMissing / KeyWrong when a secret needs a key the ring does not hold.
state::StateResult<Plan> ReadPlanFile(const std::string& path, const state::crypto::KeyRing& ring);

}  // namespace strata
