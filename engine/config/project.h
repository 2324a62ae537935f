#pragma once
// The project file, strata.yaml, at the deployment root:
//   project: kubeflow-eks
//   state: { backend: sqlite, path: .strata/state.db, key_file: ... }
//   sandbox: { enabled: true, latency_ms: 0, throttle_rate: 0 }   (optional)
//   stages:
//     - { name: eks, path: 01-eks }

#include <optional>
#include <string>
#include <vector>

#include "engine/diag/diagnostic.h"
#include "engine/diag/source.h"

namespace strata {

struct StateSettings {
  std::string backend = "sqlite";
  std::string path = ".strata/state.db";  // relative to the project root
  std::string key_file;                   // optional: file holding the encryption key
  int history_retention = 100;            // snapshots of serials kept per stage (0: keep all)
  SourceRange range;
};

//! `sandbox:` — run plan/apply/destroy/refresh against an embedded sandbox cloud instead
//! of AWS (the same as passing -sandbox). Numbers tune its latency, faults and lifecycles.
struct SandboxConfig {
  bool enabled = false;
  std::string path = ".strata/sandbox.db";  // the sandbox's world, relative to the root
  int latency_ms = 0;
  double throttle_rate = 0;
  double fault_rate = 0;
  int seed = 1;
  int cluster_delay_ms = 3000;
  int nodegroup_delay_ms = 2000;
  SourceRange range;
};

struct StageConfig {
  std::string name;
  std::string path;  // relative to the project root
  SourceRange range;
};

struct ProjectConfig {
  std::string root_dir;  // absolute directory holding strata.yaml
  std::string file;      // absolute path of strata.yaml
  std::string name;
  StateSettings state;
  SandboxConfig sandbox;
  std::vector<StageConfig> stages;

  const StageConfig* FindStage(const std::string& name) const;
  //! Absolute path of the state database.
  std::string StatePath() const;
  //! Absolute path of the sandbox's world.
  std::string SandboxPath() const;
};

//! Finds strata.yaml in `dir` and loads it. Problems go to `diags` with positions.
std::optional<ProjectConfig> LoadProject(const std::string& dir, SourceRegistry& sources, Diagnostics& diags);

}  // namespace strata
