#pragma once
// The composition root: the one place that picks the implementations behind the engine's
// interfaces — which providers are compiled in, which state backend a project's
// strata.yaml selects (with its key and retention rules). Only the CLI (and tests) include
// it; the engine sees ProviderRegistry and StateStore only.

#include <memory>
#include <string>

#include "engine/config/project.h"
#include "providers/registry.h"
#include "providers/schema_registry.h"
#include "state/crypto/state_key.h"
#include "state/environment.h"
#include "state/store.h"

namespace strata::cli {

//! A registry with every provider compiled in: "builtin" and "aws".
ProviderRegistry DefaultProviders();
//! Every compiled-in provider's resource and data source schemas.
SchemaRegistry DefaultSchemas();

using state::StateEnvironment;
using state::StateResult;
using state::StateStore;
using state::StoreAccess;
namespace crypto = state::crypto;

//! "postgres" when strata.yaml's state.backend says so, or names no backend while
//! STRATA_PG_URL is set; else "sqlite".
std::string ProjectStateBackend(const ProjectConfig& project, StateEnvironment& env = StateEnvironment::System());

//! Where the project's state is, for messages: ".strata/state.db (sqlite)", or the
//! PostgreSQL URL with its password masked and the schema.
std::string ProjectStateLocation(const ProjectConfig& project, StateEnvironment& env = StateEnvironment::System());

//! Opens the project's store — SQLite at project.StatePath(), or PostgreSQL at STRATA_PG_URL
//! / state.url (ProjectStateBackend) in state.schema — with the key ring from
//! STRATA_STATE_KEY / state.key_file (relative to the project root) / STRATA_STATE_OLD_KEY
//! and the history retention, for `environment` (NotFound when it does not exist;
//! environment_selection.h chooses it). `access`: see StoreAccess.
StateResult<std::unique_ptr<StateStore>> OpenProjectStore(const ProjectConfig& project, const std::string& environment,
                                                          StateEnvironment& env = StateEnvironment::System(),
                                                          StoreAccess access = StoreAccess::ReadWrite);

//! A state store named on the command line (`state migrate -to`): "postgres://..." or
//! "postgresql://..." (a libpq URI) is PostgreSQL in `schema`; "sqlite:PATH" or any other
//! text a SQLite file (relative to the project root).
struct StateLocation {
  std::string backend;  // "sqlite" or "postgres"
  std::string path;     // sqlite: absolute
  std::string url;      // postgres
  std::string schema;   // postgres
};
StateLocation ParseStateLocation(const std::string& text, const ProjectConfig& project, const std::string& schema);
//! The project's own store's location (ProjectStateBackend, STRATA_PG_URL or state.url, state.path).
StateLocation ProjectStateLocationOf(const ProjectConfig& project, StateEnvironment& env = StateEnvironment::System());
//! OpenProjectStore, at `location` instead of where strata.yaml points (same keys and retention).
StateResult<std::unique_ptr<StateStore>> OpenStoreAt(const ProjectConfig& project, const StateLocation& location,
                                                     const std::string& environment,
                                                     StateEnvironment& env = StateEnvironment::System(),
                                                     StoreAccess access = StoreAccess::ReadWrite);

//! The project's key ring (STRATA_STATE_KEY / state.key_file / STRATA_STATE_OLD_KEY), for
//! what else holds secrets (saved plans).
StateResult<crypto::KeyRing> LoadProjectKeyRing(const ProjectConfig& project,
                                                StateEnvironment& env = StateEnvironment::System());

//! The warning `strata init` prints when no key is configured (empty when one is).
std::string UnencryptedSecretsWarning(const StateStore& store);

}  // namespace strata::cli
