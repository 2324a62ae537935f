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

class ApplyView {
 public:
  ApplyView(std::ostream& out, bool color) : out_(out), color_(color) {}

  //! One event's line; called from the apply's threads.
  void Event(const ApplyEvent& event);

  //! The closing lines: "Apply complete! ..." (or "Destroy complete! ..."), or, after
  //! failures or an interruption, what failed and what was skipped; then the outputs.
  void Summary(const ApplyOutcome& outcome, bool destroy, const Plan& plan);

 private:
  std::ostream& out_;
  bool color_;
  std::mutex mu_;
};

//! "Outputs:\n\nname = value\n" for the stage's outputs (sensitive ones masked).
std::string RenderOutputs(const std::map<std::string, Value>& outputs, const Plan& plan);

}  // namespace strata::cli
