#pragma once
// A project's stages as one pipeline (`strata pipeline plan|apply|destroy`): which stages
// read which (${stage.S.X}), the slice a command runs (-target-stage, -from, -to), and the
// walk over it — in dependency order (a destroy in reverse), at most N stages side by side,
// no stage started after one failed. What each stage does is the caller's (StageRun).

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/engine.h"

namespace strata {

struct StagePipeline {
  //! Every stage, each after the stages it reads from, otherwise in strata.yaml's order
  //! (Engine::StageOrder).
  std::vector<std::string> order;
  //! Stage → the stages it reads from directly.
  std::map<std::string, std::vector<std::string>> reads;
};

//! The project's stages and what each reads. A cycle between stages, or a stage that does not
//! load, goes to `diags` (nullopt).
std::optional<StagePipeline> LoadStagePipeline(Engine& engine, const ProjectConfig& project, Diagnostics& diags);

//! Which part of the pipeline a command runs. Empty: every stage.
struct StageSlice {
  std::vector<std::string> stages;  // -target-stage (repeatable): only these
  std::string from;                 // -from S: S and every stage after it in `order`
  std::string to;                   // -to S: every stage up to S, S included
};

//! The stages of `slice` in the order they run: `order`'s, reversed for a destroy (-from and
//! -to always name positions in the apply order). An unknown stage name, or -from after -to,
//! goes to `diags` (nullopt); an empty selection too.
std::optional<std::vector<std::string>> SelectStages(const StagePipeline& pipeline, const StageSlice& slice, bool reverse,
                                                     Diagnostics& diags);

//! How the walk left each stage.
enum class StageStatus { NotRun, Succeeded, Failed };

struct PipelineWalkOptions {
  //! At most this many stages at once; stages run side by side only when neither reads from
  //! the other (directly or through stages outside the slice). 1: one after the other, in
  //! the given order.
  int stage_parallelism = 1;
  //! Checked before a stage starts (the interrupt handler's flag); set: no new stage starts.
  const std::atomic<bool>* stop = nullptr;
};

//! Runs `run` for each of `stages` (SelectStages' order; `reverse` for a destroy: a stage
//! waits for the stages that read it). `run` returns false when the stage failed; after a
//! failure no further stage starts (stages already running finish). Returns each stage's
//! status, in `stages`' order.
std::vector<StageStatus> WalkStages(const StagePipeline& pipeline, const std::vector<std::string>& stages, bool reverse,
                                    const PipelineWalkOptions& options, const std::function<bool(const std::string&)>& run);

}  // namespace strata
