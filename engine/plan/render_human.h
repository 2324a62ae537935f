#pragma once
// The human plan, in the text Terraform users know (its jsonformat renderer):
//
//   Strata used the selected providers to generate the following execution
//   plan. Resource actions are indicated with the following symbols:
//     + create
//
//   Strata will perform the following actions:
//
//     # null_resource.a will be created
//     + resource "null_resource" "a" {
//         + id      = (known after apply)
//         + trigger = "x"
//       }
//
//   Plan: 1 to add, 0 to change, 0 to destroy.
//
// Values are printed with engine/value/format.h; unknown values as (known after apply),
// sensitive ones as (sensitive value). Nested maps, objects and lists are diffed element by
// element; unchanged elements are hidden behind "# (N unchanged ... hidden)" except the
// identifying attributes id, name and tags, which Terraform always shows. Strings holding
// JSON are drawn as jsonencode(...) diffs and multi-line strings as heredocs
// (engine/plan/string_diff.h). Values without a type in Terraform's plan (outputs, attributes
// of type any) draw their maps as objects, as Terraform does.

#include <string>

#include "engine/plan/change.h"
#include "engine/plan/state_view.h"
#include "engine/value/schema.h"

namespace strata {

struct HumanRenderOptions {
  //! ANSI colours: green +, yellow ~, red -, cyan <=, bold headings. Off by default
  //! (the CLI turns it on for a TTY without -no-color).
  bool color = false;
  //! The types' schemas: attributes that are blocks are drawn as blocks ("+ vpc_config {",
  //! engine/plan/block_shape.h). Without them every attribute is drawn as a value.
  const SchemaSource* schemas = nullptr;
};

//! The whole plan: legend, every change except NoOp (sorted by address), the summary line
//! and "Changes to Outputs:"; or "No changes. ..." when nothing would change.
std::string RenderPlanHuman(const Plan& plan, const HumanRenderOptions& options = {});

//! Objects changed outside Strata (plan.drift), as Terraform's "Note: Objects have changed
//! outside of Terraform" section: "# x has changed" / "# x has been deleted" blocks. Empty
//! when there is no drift.
std::string RenderDriftHuman(const Plan& plan, const HumanRenderOptions& options = {});

//! A stage's state as `terraform show` prints it: "# addr:" and a `resource "t" "n" {`
//! (or `data`) block with every attribute set (nulls left out, sensitive values as
//! (sensitive value)) per resource, module by module, then "Outputs:"; Terraform's "The
//! state file is empty. ..." when there is nothing.
std::string RenderStateHuman(const StateView& state, const HumanRenderOptions& options = {});

//! One change's block ("  # addr will be created" ... "    }"), each line ending in "\n".
//! Empty for NoOp.
std::string RenderResourceChangeHuman(const ResourceInstanceChange& change,
                                      const HumanRenderOptions& options = {});

}  // namespace strata
