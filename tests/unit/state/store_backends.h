#pragma once
// The state-store test suites run against every backend: a suite's fixture derives from
// BackendTest and its cases are TEST_P, instantiated with STRATA_ON_EVERY_BACKEND(Suite).
// Cases open stores with Spec(path, ...) and OpenAny(spec): SQLite opens the file `path`;
// PostgreSQL opens a schema of its own for `path` in the one server of the test binary (or
// of the ctest run, pg_server.sh), so each test starts from an empty state and two opens of
// the same path share one state, as with a file.
//
// When no PostgreSQL server can be had, the PostgreSQL cases are skipped with the reason
// (GTEST_SKIP): shown in the output, never silent.

#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "state/postgres/postgres_store.h"
#include "state_test_util.h"

namespace strata::state::testing {

enum class Backend { Sqlite, Postgres };

//! The test PostgreSQL server: started on first use (once per process), or the one of the
//! ctest fixture (STRATA_TEST_PG_DIR). `unavailable` says why there is none.
struct TestPostgres {
  std::string conninfo;  // Unix socket, no password needed
  std::string dir;
  int port = 0;
  std::string password;  // of user strata over TCP (127.0.0.1:port)
  std::string unavailable;
};
const TestPostgres& TestPostgresServer();

//! Backend-neutral store options (the fields the suites set).
struct StoreSpec {
  std::string path;
  std::string environment = kDefaultEnvironment;
  crypto::KeyRing keys;
  int history_retention = 100;
  StateEnvironment* env = nullptr;
  StoreAccess access = StoreAccess::ReadWrite;
};

inline StoreSpec Spec(const std::string& path, StateEnvironment* env,
                      std::optional<crypto::StateKey> key = std::nullopt) {
  StoreSpec s;
  s.path = path;
  s.env = env;
  s.keys.primary = std::move(key);
  return s;
}

//! The backend OpenStore opens (BackendTest sets it for each case).
Backend CurrentBackend();
void UseBackend(Backend backend);

//! The PostgreSQL schema that stands for `path`.
std::string SchemaFor(const std::string& path);
PostgresStoreOptions PostgresOptions(const StoreSpec& spec);

StateResult<std::unique_ptr<StateStore>> OpenStore(const StoreSpec& spec);
//! OpenStore, failing the test when it fails; nullptr (without failing) when the backend is
//! PostgreSQL and no server can be had (the case skips in SetUp).
std::unique_ptr<StateStore> OpenAny(const StoreSpec& spec);

//! Everything the backend stores for `path`, as text (the SQLite file's bytes; every row of
//! every table of the PostgreSQL schema): to check that a secret never reaches it in clear.
std::string StoredText(const std::string& path);

class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  BackendTest() { UseBackend(GetParam()); }
  void SetUp() override {
    if (GetParam() == Backend::Postgres && !TestPostgresServer().unavailable.empty()) {
      GTEST_SKIP() << "SKIPPED (PostgreSQL backend): " << TestPostgresServer().unavailable;
    }
  }
};

std::string BackendName(const ::testing::TestParamInfo<Backend>& info);
//! For gtest's messages and ctest's test names ("GetParam() = Postgres").
inline void PrintTo(Backend backend, std::ostream* os) { *os << (backend == Backend::Sqlite ? "Sqlite" : "Postgres"); }

#define STRATA_ON_EVERY_BACKEND(Suite)                                                                         \
  INSTANTIATE_TEST_SUITE_P(Backends, Suite,                                                                    \
                           ::testing::Values(::strata::state::testing::Backend::Sqlite,                        \
                                             ::strata::state::testing::Backend::Postgres),                     \
                           ::strata::state::testing::BackendName)

}  // namespace strata::state::testing
