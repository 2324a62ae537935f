#include "store_backends.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "state/postgres/pg_connection.h"
#include "state/postgres/pg_schema.h"

namespace strata::state::testing {
namespace {

Backend g_backend = Backend::Sqlite;

std::string ReadTrimmed(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

void ReadServerDir(TestPostgres& server) {
  server.conninfo = ReadTrimmed(server.dir + "/conninfo");
  server.port = std::atoi(ReadTrimmed(server.dir + "/port").c_str());
  server.password = ReadTrimmed(server.dir + "/password");
}

pid_t g_started_by = 0;
std::string g_started_dir;

void StopOwnServer() {
  if (getpid() != g_started_by) return;  // a forked child exiting: the server is its parent's
  std::string cmd = "bash '" STRATA_SOURCE_DIR "/tests/e2e/pg_server.sh' stop '" + g_started_dir + "' >/dev/null 2>&1";
  (void)std::system(cmd.c_str());
}

TestPostgres FindOrStart() {
  TestPostgres server;
  if (const char* shared = std::getenv("STRATA_TEST_PG_DIR"); shared && *shared) {
    server.dir = shared;
    if (std::filesystem::exists(server.dir + "/unavailable")) {
      server.unavailable = ReadTrimmed(server.dir + "/unavailable");
    } else if (std::filesystem::exists(server.dir + "/conninfo")) {
      ReadServerDir(server);
    } else {
      server.unavailable = "the ctest fixture's server directory " + server.dir + " has no conninfo";
    }
    return server;
  }
  std::string tmpl = (std::filesystem::temp_directory_path() / "strata-pg-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    server.unavailable = "cannot create a temporary directory";
    return server;
  }
  server.dir = tmpl;
  std::string cmd = "bash '" STRATA_SOURCE_DIR "/tests/e2e/pg_server.sh' start '" + server.dir + "' 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string output;
  char buffer[512];
  while (p && fgets(buffer, sizeof buffer, p)) output += buffer;
  int status = p ? pclose(p) : -1;
  g_started_by = getpid();
  g_started_dir = server.dir;
  std::atexit(StopOwnServer);
  if (status != 0) {
    server.unavailable = std::filesystem::exists(server.dir + "/unavailable")
                             ? ReadTrimmed(server.dir + "/unavailable")
                             : "pg_server.sh start failed: " + output;
    return server;
  }
  ReadServerDir(server);
  return server;
}

}  // namespace

const TestPostgres& TestPostgresServer() {
  static const TestPostgres server = FindOrStart();
  return server;
}

Backend CurrentBackend() { return g_backend; }
void UseBackend(Backend backend) { g_backend = backend; }

std::string SchemaFor(const std::string& path) {
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(pg::AdvisoryKey(path)));
  return std::string("t_") + hex;
}

PostgresStoreOptions PostgresOptions(const StoreSpec& spec) {
  PostgresStoreOptions o;
  o.url = TestPostgresServer().conninfo;
  o.schema = SchemaFor(spec.path);
  o.environment = spec.environment;
  o.keys = spec.keys;
  o.history_retention = spec.history_retention;
  o.env = spec.env;
  o.access = spec.access;
  return o;
}

StateResult<std::unique_ptr<StateStore>> OpenStore(const StoreSpec& spec) {
  if (g_backend == Backend::Postgres) {
    if (!TestPostgresServer().unavailable.empty()) {
      return StateStatus::Error(StateCode::Io, "no PostgreSQL server: " + TestPostgresServer().unavailable);
    }
    auto store = PostgresStateStore::Open(PostgresOptions(spec));
    if (!store.ok()) return store.status();
    return std::unique_ptr<StateStore>(std::move(*store));
  }
  SqliteStoreOptions o = Options(spec.path, spec.env);
  o.environment = spec.environment;
  o.keys = spec.keys;
  o.history_retention = spec.history_retention;
  o.access = spec.access;
  auto store = SqliteStateStore::Open(o);
  if (!store.ok()) return store.status();
  return std::unique_ptr<StateStore>(std::move(*store));
}

std::unique_ptr<StateStore> OpenAny(const StoreSpec& spec) {
  if (g_backend == Backend::Postgres && !TestPostgresServer().unavailable.empty()) return nullptr;
  auto store = OpenStore(spec);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return nullptr;
  return std::move(*store);
}

std::string StoredText(const std::string& path) {
  if (g_backend == Backend::Sqlite) return ReadFileBytes(path);
  auto conn = pg::Connection::Open(TestPostgresServer().conninfo, SchemaFor(path));
  std::string text;
  pg::Rows tables = conn->Query("SELECT tablename FROM pg_tables WHERE schemaname = $1", {SchemaFor(path)});
  for (int i = 0; i < tables.size(); ++i) {
    // Table names come from the catalogue, not from a user.
    pg::Rows rows = conn->Query("SELECT t::text FROM " + SchemaFor(path) + "." + tables.Text(i, 0) + " t");
    for (int r = 0; r < rows.size(); ++r) text += rows.Text(r, 0) + "\n";
  }
  return text;
}

std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::Sqlite ? "Sqlite" : "Postgres";
}

}  // namespace strata::state::testing
