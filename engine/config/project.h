#pragma once
// The project file, strata.yaml, at the deployment root:
//   project: kubeflow-eks
//   state: { backend: sqlite, path: .strata/state.db, key_file: ... }
//   sandbox: { enabled: true, latency_ms: 0, throttle_rate: 0 }   (optional)
//   limits: { max_instances: 10000 }                              (optional)
//   lint: { disable: [k8s-deprecated-api] }                       (optional)
//   allow_paths_outside_project: false                             (optional)
//   stages:
//     - { name: eks, path: 01-eks }
//
// The project is the directory of strata.yaml. Stage paths and module sources must lead to
// directories inside it (after resolving symlinks), so that a project can be copied,
// reviewed and checked out as one tree; `allow_paths_outside_project: true` lifts that.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/diag/diagnostic.h"
#include "engine/diag/source.h"

namespace strata {

struct StateSettings {
  std::string backend = "sqlite";         // "sqlite" or "postgres"
  bool backend_given = false;             // written in strata.yaml (else STRATA_PG_URL may choose postgres)
  std::string path = ".strata/state.db";  // sqlite: relative to the project root
  std::string url;                        // postgres: libpq connection string (STRATA_PG_URL overrides)
  std::string schema = "strata";          // postgres: the PostgreSQL schema holding the tables
  std::string key_file;                   // optional: file holding the encryption key
  int history_retention = 100;            // snapshots of serials kept per stage (0: keep all)
  //! postgres: how long a write keeps reconnecting after the database went away before the
  //! apply saves what it could not write in a recovery file (`retry_timeout: 60s`).
  std::chrono::milliseconds retry_timeout{60000};
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
  int workload_delay_ms = 1000;
  int load_balancer_delay_ms = 2000;
  //! Domains the sandbox's account holds an ISSUED ACM certificate for ("*.example.com").
  std::vector<std::string> seed_certificates;
  int route53_change_delay_ms = 1000;
  //! Public hosted zones the sandbox account holds from the start ("example.com").
  std::vector<std::string> seed_hosted_zones;
  int efs_delay_ms = 1000;  //!< EFS file systems, mount targets, access points
  int fsx_delay_ms = 2000;  //!< FSx file systems
  int cognito_domain_delay_ms = 1000;  //!< Cognito user pool domains CREATING/DELETING
  SourceRange range;
};

//! `limits:` — bounds that keep a mistaken or hostile configuration from taking the
//! machine's memory and time, for the rare project that needs more. The fixed bounds on
//! input (nesting, YAML aliases) are in engine/value/limits.h.
struct LimitsSettings {
  //! Instances one resource or data source may have through count or for_each: count: 1e12
  //! would otherwise take every byte of memory before any error.
  int max_instances = 10000;
  SourceRange max_instances_range;  // where strata.yaml sets it, if it does
};

//! `lint:` — `strata lint`'s settings: the rule ids it does not report (engine/lint checks
//! that each names a rule).
struct LintSettings {
  std::vector<std::string> disable;
  std::vector<SourceRange> disable_ranges;  // where each entry is written
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
  LimitsSettings limits;
  LintSettings lint;
  std::vector<StageConfig> stages;
  bool allow_paths_outside_project = false;

  const StageConfig* FindStage(const std::string& name) const;
  //! Where `path` (absolute, or relative to `from`) leads, symlinks resolved, when that is
  //! outside the project directory and strata.yaml does not allow it; nullopt otherwise.
  std::optional<std::string> Escape(const std::string& from, const std::string& path) const;
  //! The detail of the error for a path that Escape() found outside: "`what` `written`
  //! (, which is `resolved`), ..." and what to do about it.
  static std::string EscapeDetail(const std::string& what, const std::string& written, const std::string& resolved);
  //! Absolute path of the state database.
  std::string StatePath() const;
  //! Absolute path of the sandbox's world.
  std::string SandboxPath() const;
};

//! Finds strata.yaml in `dir` and loads it. Problems go to `diags` with positions.
std::optional<ProjectConfig> LoadProject(const std::string& dir, SourceRegistry& sources, Diagnostics& diags);

}  // namespace strata
