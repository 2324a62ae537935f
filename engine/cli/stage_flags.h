#pragma once
// Flags and steps shared by the verbs that work on a project's stages.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/command.h"
#include "engine/core/engine.h"
#include "state/crypto/state_key.h"

namespace strata::cli {

//! -var NAME=VALUE (repeatable) and -var-file FILE (repeatable), kept in the order they
//! were given: a later one overrides an earlier one, whichever the flag.
struct VariableFlags {
  struct Given {
    bool file = false;
    std::string text;  // NAME=VALUE or FILE
  };
  std::vector<Given> given;

  void AddTo(CLI::App* cmd);
  //! Builds the engine's inputs (adds STRATA_VAR_* from the environment); bad flags go to diags.
  VariableInputs ToInputs(const std::string& working_dir, Diagnostics& diags) const;
};

//! The engine with the compiled-in schemas, and the project in the working directory.
class ProjectSession {
 public:
  explicit ProjectSession(CommandContext& ctx);
  ~ProjectSession();
  ProjectSession(const ProjectSession&) = delete;
  ProjectSession& operator=(const ProjectSession&) = delete;
  //! Loads strata.yaml and chooses the environment (environment_selection.h); reports and
  //! returns false when it cannot.
  bool Open();
  //! The environment chosen by Open.
  const std::string& environment() const { return environment_; }
  Engine& engine() { return *engine_; }
  const ProjectConfig& project() const { return *project_; }
  SourceRegistry& sources() { return sources_; }
  Diagnostics& diags() { return diags_; }
  //! Prints the gathered diagnostics; returns true when there were errors.
  bool Report() { return ctx_.Report(diags_, &sources_); }
  //! Reads ${stage.S.X} from the project's state. For validate and the console: a stage
  //! not applied yet (or no state database at all) gives unknown values, not errors.
  StageOutputSource* StageOutputsOrUnknown();
  //! The same for plan and apply: with `unknown_when_missing` false, a stage not applied yet
  //! is an error saying to apply it first. The first call decides for the session.
  StageOutputSource* StageOutputs(bool unknown_when_missing);
  //! The project's state key ring (loaded once), for what an apply saves in a recovery
  //! file; null when it cannot be loaded (opening the store reports why).
  const state::crypto::KeyRing* Keys();

 private:
  CommandContext& ctx_;
  SourceRegistry sources_;
  Diagnostics diags_;
  std::unique_ptr<Engine> engine_;
  std::optional<ProjectConfig> project_;
  std::string environment_ = "default";
  std::unique_ptr<StageOutputSource> stage_outputs_;
  std::optional<state::crypto::KeyRing> keys_;
};

}  // namespace strata::cli
