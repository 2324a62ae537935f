#pragma once
// ${stage.S.X} during `strata pipeline plan`: a later stage is planned before the earlier
// ones are applied, so it reads what their plans say their outputs will be — known values
// known, the rest unknown — rather than being refused for a stage "not applied yet". Stages
// not planned in this pipeline are read from `base` (the state store).

#include <map>
#include <mutex>
#include <string>

#include "engine/core/engine.h"
#include "engine/plan/change.h"

namespace strata {

class PlannedStageOutputs : public StageOutputSource {
 public:
  //! `base` must outlive this source.
  explicit PlannedStageOutputs(StageOutputSource& base) : base_(base) {}

  //! From now on `plan`'s outputs (their planned values) answer for its stage. Safe to call
  //! while other stages read.
  void Add(const Plan& plan);

  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override;
  //! The store's serial of a stage not planned here; none for a planned one (its values are
  //! of no serial yet: the plan's note about a changed output says "serial N then" only).
  std::optional<int64_t> StageSerial(const std::string& stage) override;

 private:
  StageOutputSource& base_;
  std::mutex mutex_;
  std::map<std::string, std::map<std::string, Value>> planned_;  // stage → output → planned value
};

}  // namespace strata
