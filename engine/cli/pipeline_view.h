#pragma once
// How `strata pipeline` reports: each stage's result, the closing table for people, and the
// pipeline's own messages in the -json stream (beside each stage's Terraform messages, which
// carry "stage"):
//
//   pipeline_start   {"pipeline": {"operation": "plan"|"apply"|"destroy", "stages": [...]}}
//   stage_start      {"stage": S, "operation": "plan"|"apply"|"destroy"}
//   stage_complete   {"stage": S, "result": {stage, result, add, change, remove, duration_seconds}}
//   pipeline_summary {"pipeline": {"operation", "stages": [result...], "not_run": [...]}}
//
// A result is "no changes", "planned" (a plan with changes), "applied", "destroyed",
// "failed", "cancelled" (the approval was declined) or "not run".

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/cli/json_ui.h"

namespace strata::cli {

struct StageReport {
  std::string stage;
  std::string result = "not run";
  bool ran = false;
  int add = 0;
  int change = 0;
  int destroy = 0;
  std::chrono::milliseconds duration{0};
};

//! The closing lines: "Pipeline apply: 2 applied, 1 failed, 1 not run.", the table (one row
//! per stage: added, changed, destroyed, duration, result) and, when stages were not run,
//! which and why.
std::string RenderPipelineSummary(const std::string& operation, const std::vector<StageReport>& rows);

//! The -json messages.
void PipelineStartEvent(JsonUi& ui, const std::string& operation, const std::vector<std::string>& stages);
void StageStartEvent(JsonUi& stage_ui, const std::string& stage, const std::string& operation);
void StageCompleteEvent(JsonUi& stage_ui, const StageReport& report);
void PipelineSummaryEvent(JsonUi& ui, const std::string& operation, const std::vector<StageReport>& rows);

}  // namespace strata::cli
