#pragma once
// How apply reports as it goes and when it ends, in the lines Terraform users know:
//
//   null_resource.a: Creating...
//   null_resource.a: Still creating... [10s elapsed]
//   null_resource.a: Creation complete after 12s [id=4852]
//   Apply complete! Resources: 1 added, 0 changed, 0 destroyed.

#include <mutex>
#include <ostream>
#include <string>

#include "engine/core/applier.h"

namespace strata::cli {

//! "0s", "12s", "1m10s", "1h2m3s".
std::string FormatElapsed(std::chrono::milliseconds elapsed);

//! Terraform's line for one apply event, without colour: "null_resource.a: Creating...",
//! "...: Still creating... [10s elapsed]", "...: Creation complete after 12s [id=4852]",
//! "...: Creation failed after 1s".
std::string EventLine(const ApplyEvent& event);

//! "Resources: 1 added, 0 changed, 0 destroyed." (a destroy: "Resources: 2 destroyed.").
std::string CountsLine(const ApplyOutcome& outcome, bool destroy);

//! How an apply reports as it goes and when it ends: ApplyView for people, JsonApplyView
//! (json_ui.h) for machines.
class ApplyReporter {
 public:
  virtual ~ApplyReporter() = default;
  //! One event; called from the apply's threads.
  virtual void Event(const ApplyEvent& event) = 0;
  //! When the apply has ended: what it did, and the outputs.
  virtual void Summary(const ApplyOutcome& outcome, bool destroy, const Plan& plan) = 0;
};

class ApplyView : public ApplyReporter {
 public:
  ApplyView(std::ostream& out, bool color) : out_(out), color_(color) {}

  //! One event's line.
  void Event(const ApplyEvent& event) override;

  //! The closing lines: "Apply complete! ..." (or "Destroy complete! ..."), or, after
  //! failures or an interruption, what failed and what was skipped; then the outputs.
  void Summary(const ApplyOutcome& outcome, bool destroy, const Plan& plan) override;

 private:
  std::ostream& out_;
  bool color_;
  std::mutex mu_;
};

//! "Outputs:\n\nname = value\n" for the stage's outputs (sensitive ones masked).
std::string RenderOutputs(const std::map<std::string, Value>& outputs, const Plan& plan);

}  // namespace strata::cli
