#include "engine/core/stored_stage_outputs.h"

#include <fmt/format.h>

#include "state/stage_outputs.h"

namespace strata {

std::optional<Value> StoredStageOutputs::ReadOutput(const std::string& stage, const std::string& output,
                                                    std::string& error) {
  if (!store_ && unknown_when_missing_) return Value::Unknown();
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(stage, output);
  auto it = answers_.find(key);
  if (it == answers_.end()) {
    SerialLocked(stage);  // before the value: the value is of this serial or a later one
    std::string looked_up_error;
    std::optional<Value> value = Lookup(stage, output, looked_up_error);
    it = answers_.emplace(key, std::make_pair(std::move(value), std::move(looked_up_error))).first;
  }
  error = it->second.second;
  return it->second.first;
}

std::optional<int64_t> StoredStageOutputs::StageSerial(const std::string& stage) {
  std::lock_guard lock(mutex_);
  return SerialLocked(stage);
}

std::optional<int64_t> StoredStageOutputs::SerialLocked(const std::string& stage) {
  auto it = serials_.find(stage);
  if (it != serials_.end()) return it->second;
  std::optional<int64_t> serial;
  if (store_) {
    // A failing listing leaves the serial unknown: it only decorates notes, and the
    // output's own read reports a store that cannot be read.
    auto stages = store_->ListStages();
    if (stages.ok()) {
      for (const state::StageSummary& s : *stages) {
        if (s.name == stage && s.serial > 0) serial = s.serial;
      }
    }
  }
  return serials_.emplace(stage, serial).first->second;
}

std::optional<Value> StoredStageOutputs::Lookup(const std::string& stage, const std::string& output,
                                                std::string& error) {
  if (!store_) {
    error = fmt::format("stage \"{}\" has not been applied yet (the project has no state): run `strata apply {}` first",
                        stage, stage);
    return std::nullopt;
  }
  auto result = state::LookupStageOutput(*store_, stage, output);
  if (result.ok()) return result->value;
  if (result.status().code() == state::StateCode::NotFound && unknown_when_missing_) return Value::Unknown();
  error = result.status().message();
  return std::nullopt;
}

}  // namespace strata
