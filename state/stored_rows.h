#pragma once
// The stored form of resource instances and outputs: what a backend writes in its rows and
// what a history snapshot holds. Sensitive subtrees are split out (sensitive_paths.h) and
// sealed (crypto/sealer.h) here, so that the clear columns never hold a secret, and so
// that history, rollback and moves copy sealed values without needing the key.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/state.h"
#include "state/status.h"

namespace strata::state {

struct StoredResource {
  std::string address;
  std::string deposed;  // "" for the current object
  std::string mode;  // "managed" | "data"
  std::string type;
  std::string provider;
  std::string status;
  std::string attributes = "null";       // JSON text
  std::string sensitive_paths = "[]";    // JSON array of paths
  std::string secrets = "[]";            // JSON array of sealed strings
  std::string dependencies = "[]";       // JSON array of strings
  std::string idempotency_token;
  int64_t schema_version = 0;
  int64_t created_at = 0;
  int64_t updated_at = 0;
};

struct StoredOutput {
  std::string name;
  std::string value = "null";
  bool sensitive = false;
  std::string sensitive_paths = "[]";
  std::string secrets = "[]";
};

//! Seals with ring.primary (in clear without one). Timestamps are copied as given.
StoredResource EncodeResource(const ResourceInstanceState& r, const crypto::KeyRing& ring, StateEnvironment& env);
//! Restores marks; `decrypt` false leaves secrets as null marked sensitive. `stage` is for
//! messages. Corrupt when the row does not parse; KeyMissing/KeyWrong from the sealer.
StateResult<ResourceInstanceState> DecodeResource(const StoredResource& row, const crypto::KeyRing& ring,
                                                  bool decrypt, const std::string& stage);

//! A sensitive output has its whole value sealed.
StoredOutput EncodeOutput(const OutputState& o, const crypto::KeyRing& ring, StateEnvironment& env);
StateResult<OutputState> DecodeOutput(const StoredOutput& row, const crypto::KeyRing& ring, bool decrypt,
                                      const std::string& stage);

//! Re-seals every secret of a `secrets` JSON array with ring.primary; returns how many
//! changed (those already under the primary key are kept as they are).
StateResult<std::string> ResealSecrets(const std::string& secrets, const crypto::KeyRing& ring, StateEnvironment& env,
                                       const std::string& what, int64_t& resealed);

nlohmann::json ToJson(const StoredResource& r);
nlohmann::json ToJson(const StoredOutput& o);
//! Throws nlohmann::json::exception on a malformed snapshot (callers map it to Corrupt).
StoredResource StoredResourceFromJson(const nlohmann::json& j);
StoredOutput StoredOutputFromJson(const nlohmann::json& j);

}  // namespace strata::state
