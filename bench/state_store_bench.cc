// State store benchmarks (issue 3, item 9):
//   BM_Checkpoints/<durability>: 10,000 resources applied one checkpoint pair at a time —
//     BeginOperation (committed before the provider call) and CompleteOperation (committed
//     after it): 20,000 transactions, each its own commit.
//   BM_LoadStage/<encrypted>: loading a 10,000-resource stage (with a sensitive attribute on
//     each resource, sealed with AES-256-GCM when encrypted).
//   BM_GroupCommitCheckpoints/<batch>: the same creates journaled as parallel operations are
//     (WriteJournal): `batch` begins per commit, then their completes — 2,000 commits.
//   BM_CommitChangeSet: the serial increment with the 10,000-resource history snapshot.
//   BM_PgCheckpoints/<batch>: BM_Checkpoints (1) and BM_GroupCommitCheckpoints (10) on
//     PostgreSQL, next to SQLite's in the same run (STRATA_BENCH_PG_URL: a libpq connection string, e.g. the conninfo of
//     `PG_SERVER_FSYNC=on bash tests/e2e/pg_server.sh start DIR`; skipped without it).
//
//   ./build-bench/bench/state_store_bench --benchmark_counters_tabular=true
// Set STRATA_BENCH_DIR to put the database on a particular file system (default: /tmp).

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <benchmark/benchmark.h>

#include "state/postgres/pg_connection.h"
#include "state/postgres/postgres_store.h"
#include "state/sqlite/sqlite_store.h"

namespace strata::state {
namespace {

constexpr int kResources = 10000;

std::string FreshPath(const std::string& name) {
  const char* base = std::getenv("STRATA_BENCH_DIR");
  std::filesystem::path dir = std::filesystem::path(base ? base : "/tmp") /
                              ("strata-state-bench-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

void RemoveDir(const std::string& path) { std::filesystem::remove_all(std::filesystem::path(path).parent_path()); }

ResourceInstanceState MakeResource(int i) {
  ResourceInstanceState r;
  r.addr = *ParseResourceInstanceAddr("aws_instance.web[" + std::to_string(i) + "]").addr;
  r.provider = "aws";
  r.attributes = Value::Object({
      {"id", Value::String("i-" + std::to_string(1000000 + i))},
      {"ami", Value::String("ami-0abcdef1234567890")},
      {"instance_type", Value::String("m5.large")},
      {"subnet_id", Value::String("subnet-0123456789abcdef0")},
      {"tags", Value::Object({{"Name", Value::String("web-" + std::to_string(i))}, {"Project", Value::String("bench")}})},
      {"user_data_password", Value::String("secret-" + std::to_string(i)).MarkSensitive()},
  });
  r.dependencies = {"aws_subnet.private[0]", "aws_security_group.web"};
  return r;
}

std::unique_ptr<SqliteStateStore> Open(const std::string& path, Durability durability, bool encrypted) {
  SqliteStoreOptions o;
  o.path = path;
  o.durability = durability;
  if (encrypted) o.keys.primary = *crypto::ParseStateKey(std::string(64, 'a'));
  auto store = SqliteStateStore::Open(o);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    std::abort();
  }
  return std::move(*store);
}

// Applies kResources creates, one Begin/Complete pair each.
void ApplyAll(StateStore& store) {
  auto lock = store.TryLock({"bench", "apply"});
  auto cs = store.BeginChangeSet(lock->id, "bench", "apply");
  for (int i = 0; i < kResources; ++i) {
    ResourceInstanceState r = MakeResource(i);
    auto op = store.BeginOperation(*cs, {r.addr, OperationAction::Create, "aws", "token-" + std::to_string(i)});
    if (!op.ok() || !store.CompleteOperation(*cs, *op, r).ok()) std::abort();
  }
  if (!store.CommitChangeSet(*cs, std::nullopt).ok()) std::abort();
  store.Unlock("bench", lock->id);
}

void BM_Checkpoints(benchmark::State& state) {
  Durability durability = state.range(0) ? Durability::Full : Durability::Normal;
  for (auto _ : state) {
    state.PauseTiming();
    std::string path = FreshPath("state.db");
    auto store = Open(path, durability, true);
    state.ResumeTiming();
    ApplyAll(*store);
    state.PauseTiming();
    store.reset();
    RemoveDir(path);
    state.ResumeTiming();
  }
  state.counters["resources/s"] =
      benchmark::Counter(kResources, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["commits/s"] =
      benchmark::Counter(2.0 * kResources + 2, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(durability == Durability::Full ? "synchronous=FULL" : "synchronous=NORMAL");
}
BENCHMARK(BM_Checkpoints)->Arg(1)->Arg(0)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same creates as an apply of parallel operations journals them through group commit
// (StateStore::WriteJournal): `batch` begins in one durable step, then their completes in
// another — what ten walker threads at -parallelism=10 share when every provider call is quick.
void ApplyAllInBatches(StateStore& store, int batch) {
  auto lock = store.TryLock({"bench", "apply"});
  auto cs = store.BeginChangeSet(lock->id, "bench", "apply");
  for (int first = 0; first < kResources; first += batch) {
    int last = std::min(kResources, first + batch);
    std::vector<JournalEntry> begins;
    for (int i = first; i < last; ++i) {
      JournalEntry e;
      e.request = {MakeResource(i).addr, OperationAction::Create, "aws", "token-" + std::to_string(i)};
      begins.push_back(std::move(e));
    }
    std::vector<StateResult<int64_t>> ids = store.WriteJournal(*cs, begins);
    std::vector<JournalEntry> completes;
    for (int i = first; i < last; ++i) {
      if (!ids[i - first].ok()) std::abort();
      JournalEntry e;
      e.kind = JournalEntry::Kind::Complete;
      e.operation_id = *ids[i - first];
      e.state = MakeResource(i);
      completes.push_back(std::move(e));
    }
    for (const auto& r : store.WriteJournal(*cs, completes)) {
      if (!r.ok()) std::abort();
    }
  }
  if (!store.CommitChangeSet(*cs, std::nullopt).ok()) std::abort();
  store.Unlock("bench", lock->id);
}

void BM_GroupCommitCheckpoints(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    std::string path = FreshPath("state.db");
    auto store = Open(path, Durability::Full, true);
    state.ResumeTiming();
    ApplyAllInBatches(*store, batch);
    state.PauseTiming();
    store.reset();
    RemoveDir(path);
    state.ResumeTiming();
  }
  state.counters["resources/s"] = benchmark::Counter(kResources, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["commits/s"] =
      benchmark::Counter(2.0 * ((kResources + batch - 1) / batch) + 2, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("synchronous=FULL, " + std::to_string(batch) + " operations per commit");
}
BENCHMARK(BM_GroupCommitCheckpoints)->Arg(10)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// A fresh PostgreSQL store in a schema of its own, or null (the benchmark skipped) without
// STRATA_BENCH_PG_URL. DropPg removes the schema.
std::unique_ptr<PostgresStateStore> OpenPg(benchmark::State& state, const std::string& schema) {
  const char* url = std::getenv("STRATA_BENCH_PG_URL");
  if (!url || !*url) {
    state.SkipWithError("set STRATA_BENCH_PG_URL to a PostgreSQL connection string to measure it");
    return nullptr;
  }
  PostgresStoreOptions o;
  o.url = url;
  o.schema = schema;
  o.keys.primary = *crypto::ParseStateKey(std::string(64, 'a'));
  auto store = PostgresStateStore::Open(o);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    std::abort();
  }
  return std::move(*store);
}

void DropPg(const std::string& schema) {
  pg::Connection::Open(std::getenv("STRATA_BENCH_PG_URL"), schema)->Exec("DROP SCHEMA " + schema + " CASCADE");
}

// BM_Checkpoints (batch 1) and BM_GroupCommitCheckpoints (batch > 1) on PostgreSQL.
void BM_PgCheckpoints(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  int run = 0;
  for (auto _ : state) {
    state.PauseTiming();
    std::string schema = "bench_" + std::to_string(getpid()) + "_" + std::to_string(batch) + "_" + std::to_string(run++);
    auto store = OpenPg(state, schema);
    if (!store) return;
    state.ResumeTiming();
    if (batch == 1) {
      ApplyAll(*store);
    } else {
      ApplyAllInBatches(*store, batch);
    }
    state.PauseTiming();
    store.reset();
    DropPg(schema);
    state.ResumeTiming();
  }
  state.counters["resources/s"] =
      benchmark::Counter(kResources, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["commits/s"] = benchmark::Counter(2.0 * ((kResources + batch - 1) / batch) + 2,
                                                   benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("PostgreSQL, synchronous_commit=on, " + std::to_string(batch) + " operation(s) per commit");
}
BENCHMARK(BM_PgCheckpoints)->Arg(1)->Arg(10)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_LoadStage(benchmark::State& state) {
  bool encrypted = state.range(0) != 0;
  std::string path = FreshPath("state.db");
  auto store = Open(path, Durability::Normal, encrypted);
  ApplyAll(*store);
  for (auto _ : state) {
    auto stage = store->LoadStage("bench");
    if (!stage.ok() || stage->resources.size() != kResources) std::abort();
    benchmark::DoNotOptimize(stage);
  }
  state.counters["resources/s"] = benchmark::Counter(kResources, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(encrypted ? "10k resources, secrets AES-256-GCM" : "10k resources, secrets in clear");
  store.reset();
  RemoveDir(path);
}
BENCHMARK(BM_LoadStage)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CommitChangeSet(benchmark::State& state) {
  std::string path = FreshPath("state.db");
  auto store = Open(path, Durability::Full, true);
  ApplyAll(*store);
  auto lock = store->TryLock({"bench", "apply"});
  int n = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto cs = store->BeginChangeSet(lock->id, "bench", "apply");
    ResourceInstanceState r = MakeResource(n++ % kResources);
    auto op = store->BeginOperation(*cs, {r.addr, OperationAction::Update, "aws", "u"});
    store->CompleteOperation(*cs, *op, r);
    state.ResumeTiming();
    if (!store->CommitChangeSet(*cs, std::nullopt).ok()) std::abort();
  }
  state.SetLabel("serial + 1 with a 10k-resource snapshot");
  store.reset();
  RemoveDir(path);
}
BENCHMARK(BM_CommitChangeSet)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace strata::state

BENCHMARK_MAIN();
