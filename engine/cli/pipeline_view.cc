#include "engine/cli/pipeline_view.h"

#include <map>

#include <fmt/format.h>

#include "engine/cli/apply_view.h"

namespace strata::cli {
namespace {

using json = nlohmann::ordered_json;

// "2 applied, 1 failed, 1 not run", results in the order they first appear.
std::string ResultCounts(const std::vector<StageReport>& rows) {
  std::vector<std::string> order;
  std::map<std::string, int> counts;
  for (const StageReport& r : rows) {
    if (counts[r.result]++ == 0) order.push_back(r.result);
  }
  std::string text;
  for (const std::string& result : order) text += (text.empty() ? "" : ", ") + fmt::format("{} {}", counts[result], result);
  return text;
}

std::vector<std::string> NotRun(const std::vector<StageReport>& rows) {
  std::vector<std::string> names;
  for (const StageReport& r : rows) {
    if (!r.ran) names.push_back(r.stage);
  }
  return names;
}

json ReportJson(const StageReport& r) {
  return json{{"stage", r.stage},
              {"result", r.result},
              {"add", r.add},
              {"change", r.change},
              {"remove", r.destroy},
              {"duration_seconds", r.duration.count() / 1000}};
}

}  // namespace

std::string RenderPipelineSummary(const std::string& operation, const std::vector<StageReport>& rows) {
  bool plan = operation == "plan";
  std::vector<std::vector<std::string>> table;
  table.push_back({"STAGE", plan ? "ADD" : "ADDED", plan ? "CHANGE" : "CHANGED", plan ? "DESTROY" : "DESTROYED",
                   "DURATION", "RESULT"});
  for (const StageReport& r : rows) {
    if (!r.ran) {
      table.push_back({r.stage, "-", "-", "-", "-", r.result});
      continue;
    }
    table.push_back({r.stage, std::to_string(r.add), std::to_string(r.change), std::to_string(r.destroy),
                     FormatElapsed(r.duration), r.result});
  }
  std::vector<size_t> width(6, 0);
  for (const auto& row : table) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out = fmt::format("\nPipeline {}: {}.\n\n", operation, ResultCounts(rows));
  for (const auto& row : table) {
    std::string line = "  " + fmt::format("{:<{}}", row[0], width[0]);
    for (size_t i = 1; i <= 3; ++i) line += "  " + fmt::format("{:>{}}", row[i], width[i]);
    line += "  " + fmt::format("{:<{}}", row[4], width[4]) + "  " + row[5];
    out += line + "\n";
  }
  std::vector<std::string> not_run = NotRun(rows);
  if (!not_run.empty()) {
    std::string names, failed;
    for (const std::string& n : not_run) names += (names.empty() ? "" : ", ") + n;
    for (const StageReport& r : rows) {
      if (r.result == "failed" || r.result == "cancelled") failed += (failed.empty() ? "" : ", ") + r.stage;
    }
    out += fmt::format("\nNot run: {}{}.\n", names,
                       failed.empty() ? " (the pipeline was interrupted)"
                                      : fmt::format(" (the pipeline stopped after stage {} did not complete)", failed));
  }
  return out;
}

void PipelineStartEvent(JsonUi& ui, const std::string& operation, const std::vector<std::string>& stages) {
  std::string names;
  for (const std::string& s : stages) names += (names.empty() ? "" : ", ") + s;
  ui.Message("info", fmt::format("Pipeline {}: {}", operation, names), "pipeline_start",
             json{{"pipeline", json{{"operation", operation}, {"stages", stages}}}});
}

void StageStartEvent(JsonUi& stage_ui, const std::string& stage, const std::string& operation) {
  stage_ui.Message("info", fmt::format("Stage {}: {}", stage, operation), "stage_start", json{{"operation", operation}});
}

void StageCompleteEvent(JsonUi& stage_ui, const StageReport& report) {
  stage_ui.Message(report.result == "failed" ? "error" : "info", fmt::format("Stage {}: {}", report.stage, report.result),
                   "stage_complete", json{{"result", ReportJson(report)}});
}

void PipelineSummaryEvent(JsonUi& ui, const std::string& operation, const std::vector<StageReport>& rows) {
  json stages = json::array();
  for (const StageReport& r : rows) stages.push_back(ReportJson(r));
  bool complete = true;
  for (const StageReport& r : rows) complete = complete && r.ran && r.result != "failed" && r.result != "cancelled";
  ui.Message(complete ? "info" : "error", fmt::format("Pipeline {}: {}", operation, ResultCounts(rows)),
             "pipeline_summary",
             json{{"pipeline", json{{"operation", operation}, {"stages", stages}, {"not_run", NotRun(rows)}}}});
}

}  // namespace strata::cli
