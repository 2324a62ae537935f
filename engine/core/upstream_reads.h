#pragma once
// What a stage read of earlier stages' outputs (${stage.S.X}), and which of those changed
// since: a full apply records what it read (StateStore::RecordUpstreamReads), and the
// stage's next plan compares that with the outputs now (Plan::upstream_changes), so that a
// plan can say an earlier stage moved on even where no attribute shows it (a value used
// only in a provider block, a data source or an ignore_changes attribute).
//
// Values are compared by digest, SHA-256 of their canonical JSON: the reader's state never
// holds another stage's value, nor a secret in clear.

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/engine.h"
#include "engine/plan/change.h"
#include "state/state.h"

namespace strata {

//! Hex SHA-256 of `value`'s JSON with marks dropped and object keys sorted.
std::string UpstreamValueDigest(const Value& value);

//! A StageOutputSource that forwards to another and remembers what it answered. Safe to
//! call from several walker threads at once.
class RecordingStageOutputs : public StageOutputSource {
 public:
  explicit RecordingStageOutputs(StageOutputSource& source) : source_(source) {}

  std::optional<Value> ReadOutput(const std::string& stage, const std::string& output, std::string& error) override;
  std::optional<int64_t> StageSerial(const std::string& stage) override { return source_.StageSerial(stage); }

  //! Every output read with a known value, by stage and output, as the store records them.
  std::vector<state::UpstreamRead> Reads();

 private:
  StageOutputSource& source_;
  std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, Value> read_;
};

//! The recorded reads whose output `now` answers with another value or not at all, in the
//! order recorded. An output whose value is unknown now is not compared.
std::vector<UpstreamOutputChange> ChangedUpstreamOutputs(const std::vector<state::UpstreamRead>& recorded,
                                                         StageOutputSource& now);

}  // namespace strata
