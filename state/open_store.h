#pragma once
// Opening the project's state store from strata.yaml's `state:` settings: what the CLI and
// the engine's wiring call, so that the path, key and retention rules live in one place.

#include <memory>
#include <string>

#include "engine/config/project.h"
#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/store.h"

namespace strata::state {

//! Opens the SQLite store at project.StatePath(), with the key ring from STRATA_STATE_KEY /
//! state.key_file (relative to the project root) / STRATA_STATE_OLD_KEY and the history
//! retention. InvalidArgument for a backend other than "sqlite". `access`: see StoreAccess.
StateResult<std::unique_ptr<StateStore>> OpenProjectStore(const ProjectConfig& project,
                                                          StateEnvironment& env = StateEnvironment::System(),
                                                          StoreAccess access = StoreAccess::ReadWrite);

//! The project's key ring (STRATA_STATE_KEY / state.key_file / STRATA_STATE_OLD_KEY), for
//! what else holds secrets (saved plans).
StateResult<crypto::KeyRing> LoadProjectKeyRing(const ProjectConfig& project,
                                                StateEnvironment& env = StateEnvironment::System());

//! The warning `strata init` prints when no key is configured (empty when one is).
std::string UnencryptedSecretsWarning(const StateStore& store);

}  // namespace strata::state
