#pragma once
// Terraform's machine-readable UI (`terraform plan|apply -json`), which Strata prints under
// -json-events: one JSON object per line, each with "@level", "@message", "@module"
// ("strata.ui"), "@timestamp" (RFC 3339 UTC, microseconds) and "type":
//
//   version          first: {"strata", "terraform" (the release whose format this is), "ui"}
//   resource_drift   an object changed outside Strata: {"change": {resource, action}}
//   planned_change   {"change": {"resource": {...}, "action", "reason"}}
//   change_summary   {"changes": {add, change, import, remove, operation}}: "plan",
//                    "apply" or "destroy"
//   outputs          after the plan {name: {sensitive, action}}; after the apply
//                    {name: {sensitive, type, value}} (no value when sensitive)
//   apply_start / apply_progress / apply_complete / apply_errored
//                    {"hook": {"resource", "action", "id_key", "id_value", "elapsed_seconds"}}
//   diagnostic       {"diagnostic": {severity, summary, detail, range, snippet, address}}
//
// `strata pipeline -json` adds its own types (pipeline_view.h) and a "stage" key on every
// message of one stage (ForStage).
//
// "resource" is Terraform's {addr, module, resource, implied_provider, resource_type,
// resource_name, resource_key}. Keys are in Terraform's order (top level alphabetical).
// Timestamps come from the clock given, fixed in tests by STRATA_UI_TIME (RFC 3339).

#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/base/clock.h"
#include "engine/cli/apply_view.h"
#include "engine/cli/command.h"
#include "engine/plan/change.h"

namespace strata::cli {

class JsonUi {
 public:
  JsonUi(std::ostream& out, const base::Clock& clock) : out_(out), clock_(clock) {}

  //! The first message.
  void Version();
  //! The plan: resource_drift and planned_change per change, its change_summary
  //! (operation "plan") and its outputs.
  void Plan(const strata::Plan& plan);
  //! One "diagnostic" message per diagnostic.
  void Diagnostics(const strata::Diagnostics& diags, const SourceRegistry* sources);
  //! Writes one message: `body`'s keys go beside the "@" keys and "type".
  void Message(const std::string& level, const std::string& message, const std::string& type,
               const nlohmann::ordered_json& body);
  //! A UI writing to the same stream, one whole line at a time with this one, whose messages
  //! carry "stage": `stage`. It must not outlive this one.
  std::unique_ptr<JsonUi> ForStage(const std::string& stage);
  const base::Clock& clock() const { return clock_; }

 private:
  std::ostream& out_;
  const base::Clock& clock_;
  std::mutex own_mu_;
  std::mutex* mu_ = &own_mu_;  // a ForStage UI's is its parent's
  std::string stage_;
};

//! The clock of the UI's timestamps and the pipeline's durations: the system's, or fixed at
//! STRATA_UI_TIME (RFC 3339) when that is set, for tests.
std::unique_ptr<base::Clock> UiClock();

//! Terraform's "resource" object of a change or hook.
nlohmann::ordered_json ResourceJson(const ResourceInstanceAddr& addr);

//! The apply's events as apply_* messages, then change_summary and outputs (after a
//! failure, as Terraform, only diagnostics).
class JsonApplyView : public ApplyReporter {
 public:
  explicit JsonApplyView(JsonUi& ui) : ui_(ui) {}
  void Event(const ApplyEvent& event) override;
  void Summary(const ApplyOutcome& outcome, bool destroy, const strata::Plan& plan) override;

 private:
  JsonUi& ui_;
};

//! -json-events for one command: while it lives, the context's diagnostics go to the
//! stream as messages; it writes the version message first. The clock is the system's, or
//! fixed at STRATA_UI_TIME when that is set (for tests).
class JsonEventsScope {
 public:
  explicit JsonEventsScope(CommandContext& ctx);
  ~JsonEventsScope();
  JsonUi& ui() { return *ui_; }

 private:
  CommandContext& ctx_;
  std::unique_ptr<base::Clock> clock_;
  std::unique_ptr<JsonUi> ui_;
};

}  // namespace strata::cli
