#pragma once
// The portable JSON form of a stage's state: what `strata state pull` prints and
// `strata state push` reads.
//
//   {
//     "format_version": 1,
//     "stage": "eks", "lineage": "…", "serial": 3,
//     "secrets_masked": true,                    // pulled without -show-sensitive
//     "resources": [
//       { "address": "aws_db_instance.main", "mode": "managed", "type": "aws_db_instance",
//         "provider": "aws", "status": "created", "schema_version": 0,
//         "attributes": { "engine": "postgres", "password": null },
//         "sensitive_attributes": [["password"]],
//         "dependencies": ["aws_subnet.a"], "idempotency_token": "…",
//         "created_at": "2026-11-22T06:18:28Z", "updated_at": "…" } ],
//     "outputs": { "endpoint": { "value": "db.example", "sensitive": false } }
//   }
//
// Masked secrets are null and listed in sensitive_attributes; a masked file cannot be pushed
// (it would erase the secrets).

#include <string>

#include <nlohmann/json.hpp>

#include "state/state.h"
#include "state/status.h"

namespace strata::state {

//! `reveal_sensitive` false: secrets are replaced by null and "secrets_masked" is true.
nlohmann::json StageStateToJson(const StageState& state, bool reveal_sensitive);

//! Parses the JSON form back. InvalidArgument with the problem named (a masked file, a bad
//! address, a missing field, an unknown format_version).
StateResult<StageState> StageStateFromJson(const nlohmann::json& j);

}  // namespace strata::state
