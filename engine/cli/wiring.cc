#include "engine/cli/wiring.h"

#include <filesystem>
#include <optional>

#include "providers/aws/aws_provider.h"
#include "providers/builtin/builtin_provider.h"
#include "providers/kubernetes/kubernetes_provider.h"
#include "state/crypto/state_key.h"
#include "state/postgres/conninfo.h"
#include "state/postgres/postgres_store.h"
#include "state/sqlite/sqlite_store.h"

namespace strata::cli {

using state::StateCode;
using state::StateStatus;

ProviderRegistry DefaultProviders() {
  ProviderRegistry registry;
  registry.Register("builtin", [] { return std::make_unique<BuiltinProvider>(); });
  registry.Register("aws", [] { return std::make_unique<aws::AwsProvider>(); });
  registry.Register("kubernetes", [] { return std::make_unique<kubernetes::KubernetesProvider>(); });
  return registry;
}

SchemaRegistry DefaultSchemas() { return DefaultProviders().Schemas(); }

namespace {

std::string UnderRoot(const std::string& root_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(root_dir) / path).lexically_normal().string();
}

}  // namespace

StateResult<crypto::KeyRing> LoadProjectKeyRing(const ProjectConfig& project, StateEnvironment& env) {
  return crypto::LoadKeyRing(env, UnderRoot(project.root_dir, project.state.key_file));
}

namespace {

// STRATA_PG_URL when set and not empty: a CI secret that expands to nothing must not switch
// the project to PostgreSQL (and libpq's PG* defaults) behind the user's back.
std::optional<std::string> PgUrlVariable(StateEnvironment& env) {
  std::optional<std::string> url = env.Getenv("STRATA_PG_URL");
  if (url && url->empty()) return std::nullopt;
  return url;
}

// STRATA_PG_URL, else state.url (empty: libpq's PG* variables).
std::string PostgresUrl(const ProjectConfig& project, StateEnvironment& env) {
  return PgUrlVariable(env).value_or(project.state.url);
}

}  // namespace

std::string ProjectStateBackend(const ProjectConfig& project, StateEnvironment& env) {
  if (project.state.backend_given) return project.state.backend;
  return PgUrlVariable(env).has_value() ? "postgres" : project.state.backend;
}

std::string ProjectStateLocation(const ProjectConfig& project, StateEnvironment& env) {
  if (ProjectStateBackend(project, env) != "postgres") {
    std::error_code ec;
    return std::filesystem::relative(project.StatePath(), project.root_dir, ec).string() + " (sqlite)";
  }
  std::string url = PostgresUrl(project, env);
  return (url.empty() ? std::string("PostgreSQL from PGHOST/PGDATABASE/...") : state::pg::MaskConnectionUrl(url)) +
         ", schema " + project.state.schema + " (postgres)";
}

StateLocation ParseStateLocation(const std::string& text, const ProjectConfig& project, const std::string& schema) {
  StateLocation location;
  if (text.rfind("postgres://", 0) == 0 || text.rfind("postgresql://", 0) == 0) {
    location.backend = "postgres";
    location.url = text;
    location.schema = schema;
    return location;
  }
  location.backend = "sqlite";
  location.path = UnderRoot(project.root_dir, text.rfind("sqlite:", 0) == 0 ? text.substr(7) : text);
  return location;
}

StateLocation ProjectStateLocationOf(const ProjectConfig& project, StateEnvironment& env) {
  StateLocation location;
  location.backend = ProjectStateBackend(project, env);
  if (location.backend == "postgres") {
    location.url = PostgresUrl(project, env);
    location.schema = project.state.schema;
  } else {
    location.path = project.StatePath();
  }
  return location;
}

StateResult<std::unique_ptr<StateStore>> OpenProjectStore(const ProjectConfig& project, const std::string& environment,
                                                          StateEnvironment& env,
                                                          StoreAccess access) {
  return OpenStoreAt(project, ProjectStateLocationOf(project, env), environment, env, access);
}

StateResult<std::unique_ptr<StateStore>> OpenStoreAt(const ProjectConfig& project, const StateLocation& location,
                                                     const std::string& environment, StateEnvironment& env,
                                                     StoreAccess access) {
  const StateSettings& settings = project.state;
  const std::string& backend = location.backend;
  if (backend != "sqlite" && backend != "postgres") {
    return StateStatus::Error(StateCode::InvalidArgument, "state backend \"" + backend +
                                                              "\" is not supported: use \"sqlite\" or \"postgres\"");
  }
  auto keys = LoadProjectKeyRing(project, env);
  if (!keys.ok()) return keys.status();
  if (backend == "postgres") {
    state::PostgresStoreOptions options;
    options.url = location.url;
    options.schema = location.schema;
    options.environment = environment;
    options.keys = *keys;
    options.history_retention = settings.history_retention;
    options.env = &env;
    options.access = access;
    options.retry_timeout = settings.retry_timeout;
    auto store = state::PostgresStateStore::Open(options);
    if (!store.ok()) return store.status();
    return std::unique_ptr<StateStore>(std::move(*store));
  }
  state::SqliteStoreOptions options;
  options.path = location.path;
  options.environment = environment;
  options.keys = *keys;
  options.history_retention = settings.history_retention;
  options.env = &env;
  options.access = access;
  auto store = state::SqliteStateStore::Open(options);
  if (!store.ok()) return store.status();
  return std::unique_ptr<StateStore>(std::move(*store));
}

std::string UnencryptedSecretsWarning(const StateStore& store) {
  if (store.EncryptsSecrets()) return "";
  return "Sensitive values in state are stored in clear: set STRATA_STATE_KEY (e.g. from `openssl rand -base64 32`) "
         "or state.key_file in strata.yaml to encrypt them at rest with AES-256-GCM. Keep the key safe: the state's "
         "secrets cannot be read without it.";
}

}  // namespace strata::cli
