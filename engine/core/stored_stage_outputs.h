#pragma once
// ${stage.S.X} read from the project's state store: the StageOutputSource of plan, apply,
// validate and the console.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "engine/core/engine.h"
#include "state/store.h"

namespace strata {

//! Reads other stages' outputs through its own store connection (`store` may be null: the
//! project has no state yet). With `unknown_when_missing` (validate, the console), values
//! of stages not applied yet are unknown; without (plan, apply), they are errors saying
//! which stage to apply first. The evaluator calls it from several walker threads at once
//! and a store connection is not for concurrent use: reads are serialised, each answer kept.
//! A stage's serial is taken before its first output is read and kept with the answers.
class StoredStageOutputs : public StageOutputSource {
 public:
  StoredStageOutputs(std::unique_ptr<state::StateStore> store, bool unknown_when_missing)
      : store_(std::move(store)), unknown_when_missing_(unknown_when_missing) {}

  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override;
  std::optional<int64_t> StageSerial(const std::string& stage) override;

 private:
  std::optional<Value> Lookup(const std::string& stage, const std::string& output, std::string& error);
  // With mutex_ held: the stage's serial, read from the store the first time it is asked for.
  std::optional<int64_t> SerialLocked(const std::string& stage);

  std::unique_ptr<state::StateStore> store_;
  bool unknown_when_missing_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::pair<std::optional<Value>, std::string>> answers_;
  std::map<std::string, std::optional<int64_t>> serials_;
};

}  // namespace strata
