#include "engine/core/upstream_reads.h"

#include "engine/base/hash.h"
#include "engine/value/json.h"

namespace strata {

std::string UpstreamValueDigest(const Value& value) {
  // nlohmann::json keeps an object's keys sorted, so equal values dump alike.
  return base::Sha256Hex(ValueToJson(value.DeepUnmark()).dump());
}

std::optional<Value> RecordingStageOutputs::ReadOutput(const std::string& stage, const std::string& output,
                                                       std::string& error) {
  std::optional<Value> value = source_.ReadOutput(stage, output, error);
  if (value && value->IsWhollyKnown()) {
    std::lock_guard lock(mutex_);
    read_.insert_or_assign({stage, output}, *value);
  }
  return value;
}

std::vector<state::UpstreamRead> RecordingStageOutputs::Reads() {
  std::lock_guard lock(mutex_);
  std::vector<state::UpstreamRead> reads;
  for (const auto& [key, value] : read_) {
    reads.push_back({key.first, key.second, source_.StageSerial(key.first).value_or(0), UpstreamValueDigest(value),
                     value.ContainsSensitive()});
  }
  return reads;
}

std::vector<UpstreamOutputChange> ChangedUpstreamOutputs(const std::vector<state::UpstreamRead>& recorded,
                                                         StageOutputSource& now) {
  std::vector<UpstreamOutputChange> changes;
  for (const state::UpstreamRead& read : recorded) {
    std::string error;
    std::optional<Value> value = now.ReadOutput(read.stage, read.output, error);
    if (value && (!value->IsWhollyKnown() || UpstreamValueDigest(*value) == read.digest)) continue;
    UpstreamOutputChange change;
    change.stage = read.stage;
    change.output = read.output;
    change.sensitive = read.sensitive || (value && value->ContainsSensitive());
    change.serial_then = read.serial;
    change.serial_now = now.StageSerial(read.stage).value_or(0);
    if (!value) change.unavailable = error.empty() ? "it cannot be read" : error;
    changes.push_back(std::move(change));
  }
  return changes;
}

}  // namespace strata
