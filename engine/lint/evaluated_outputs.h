#pragma once
// ${stage.S.X} for lint: the outputs of the stages evaluated before, as far as configuration
// alone knows them (a cluster name from a variable is known, an id is unknown). No state is
// read: lint judges the project as written, not as last applied.

#include <map>
#include <string>

#include "engine/core/engine.h"

namespace strata::lint {

class EvaluatedStageOutputs : public StageOutputSource {
 public:
  //! From now on `outputs` answer for `stage`.
  void Add(const std::string& stage, std::map<std::string, Value> outputs) { stages_[stage] = std::move(outputs); }
  //! The output's evaluated value; unknown when the stage or output was not evaluated.
  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override;

 private:
  std::map<std::string, std::map<std::string, Value>> stages_;
};

}  // namespace strata::lint
