// Load, validate and expand a synthetic stage: N null_resources in chains of 10, each
// reading the previous one's id and a local, plus count- and for_each-expanded resources.
// Run: build/bench/engine_bench   (reports time per full load+graph+evaluate and peak RSS)
#include <sys/resource.h>

#include <filesystem>
#include <fstream>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "engine/core/engine.h"
#include "engine/cli/wiring.h"

namespace fs = std::filesystem;

namespace {

// Writes a project with one stage of `n` resources split over files of 1,000.
fs::path GenerateProject(int n) {
  fs::path root = fs::temp_directory_path() / fmt::format("strata-bench-{}-{}", n, getpid());
  fs::remove_all(root);
  fs::create_directories(root / "stage");
  std::ofstream(root / "strata.yaml") << "project: bench\nstages:\n  - { name: big, path: stage }\n";
  std::ofstream(root / "stage" / "common.yaml")
      << "variables:\n  env: { type: string, default: bench }\n"
         "locals:\n  tags: { Env: \"${var.env}\", Owner: platform }\n  zones: [a, b, c]\n";
  const int per_file = 1000;
  for (int f = 0; f * per_file < n; ++f) {
    std::ofstream out(root / "stage" / fmt::format("r{:03}.yaml", f));
    out << "resources:\n";
    for (int i = f * per_file; i < std::min(n, (f + 1) * per_file); ++i) {
      out << fmt::format("  r{}:\n    type: null_resource\n", i);
      if (i % 100 == 50) out << "    for_each: ${toset(local.zones)}\n";
      if (i % 100 == 75) out << "    count: 3\n";
      out << "    properties:\n      triggers:\n";
      out << fmt::format("        name: r{}-${{var.env}}\n", i);
      out << "        owner: ${local.tags.Owner}\n";
      if (i % 10 != 0 && i % 100 != 51 && i % 100 != 76) out << fmt::format("        prev: ${{r{}.id}}\n", i - 1);
    }
  }
  return root;
}

void BM_LoadValidateExpand(benchmark::State& state) {
  int n = static_cast<int>(state.range(0));
  fs::path root = GenerateProject(n);
  strata::SchemaRegistry schemas = strata::cli::DefaultSchemas();
  size_t instances = 0;
  for (auto _ : state) {
    strata::SourceRegistry sources;
    strata::Engine engine(schemas, sources);
    strata::Diagnostics diags;
    auto project = engine.OpenProject(root.string(), diags);
    auto stage = engine.LoadStage(*project, "big", diags);
    strata::EngineOptions options;
    auto evaluation = engine.EvaluateStage(*project, *stage, options, diags);
    if (diags.HasErrors()) {
      state.SkipWithError("the synthetic stage did not validate");
      break;
    }
    instances = 0;
    for (strata::NodeId id = 0; id < stage->graph->nodes.size(); ++id) instances += evaluation->InstancesOf(id).size();
    benchmark::DoNotOptimize(instances);
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["instances"] = static_cast<double>(instances);
  state.counters["peak_rss_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  fs::remove_all(root);
}

}  // namespace

BENCHMARK(BM_LoadValidateExpand)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
