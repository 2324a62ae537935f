#pragma once
// The plan as `terraform show -json` prints it (plan representation, format_version "1.2"),
// so tools that read Terraform plan JSON (infracost, OPA/conftest, ...) read Strata's:
//
//   format_version, terraform_version, strata_version, variables, planned_values,
//   resource_changes[], output_changes, prior_state, configuration, timestamp,
//   applyable, complete, errored
//
// Choices, checked against Terraform 1.11 (tests/plan_format/README.md):
//  - terraform_version is "1.11.0", the Terraform release whose format this mirrors, so
//    tools that parse it as a version keep working; Strata's own version is in the extra
//    top-level key strata_version (and prior_state.strata_version).
//  - Like Terraform, sensitive values ARE written in clear in before/after/values/variables;
//    they are flagged by before_sensitive/after_sensitive/sensitive_values (true at each
//    sensitive leaf, false when nothing is). A plan JSON file is therefore as secret as the
//    state itself.
//  - Unknown values are left out of `after`/`values` and flagged by after_unknown, shaped
//    like Terraform's: {} for a wholly known object, true at unknown leaves, false omitted
//    in objects, one entry per element in arrays.
//  - action_reason is omitted for Strata's recreate_because_gone (Terraform has no such
//    reason and tools check the enum); the human plan says why.
//  - configuration is minimal: provider_config keyed by the provider's local name; per
//    resource address, mode, type, name, provider_config_key, schema_version and empty
//    expressions (no constant_value/references, no count_expression), child modules under
//    module_calls.<name>.module as Terraform nests them; outputs with sensitive and an
//    empty expression; variables with sensitive (no default).
//  - prior_state holds the `before` objects and outputs. (Terraform's own prior_state
//    outputs hold the planned output values, a quirk not copied.)
//  - An unknown value has no type here, so after_sensitive/sensitive_values say nothing
//    (omitted) where Terraform writes {} or [] for an unknown object or list.
//  - relevant_attributes is not tracked and left out (Terraform omits it when empty).

#include <string>

#include <nlohmann/json.hpp>

#include "engine/plan/change.h"
#include "engine/plan/state_view.h"

namespace strata {

struct JsonRenderOptions {
  std::string strata_version = "0.1.0";
  //! RFC 3339 UTC; empty means the plan's own (Plan::timestamp), else now.
  std::string timestamp;
};

//! Keys in Terraform's order.
nlohmann::ordered_json RenderPlanJson(const Plan& plan, const JsonRenderOptions& options = {});

//! A stage's state as `terraform show -json` prints a state (format_version "1.0"):
//! values.outputs {sensitive, value, type} and values.root_module {resources[],
//! child_modules[]}, each resource with address, mode, type, name, index, provider_name,
//! schema_version, values, sensitive_values, depends_on (when any), tainted (when so).
//! As in the plan, sensitive values are written in clear and flagged by sensitive_values;
//! an empty state is {"format_version": "1.0"} alone, as Terraform's.
nlohmann::ordered_json RenderStateJson(const StateView& state, const JsonRenderOptions& options = {});

//! Terraform's JSON spelling of a value's type (cty's type JSON: "string", ["list",
//! "string"], ["object", {...}]), as outputs carry it.
nlohmann::ordered_json TypeJson(const Value& v);

//! Terraform's unknownAsBool: after_unknown of a value.
nlohmann::ordered_json UnknownAsBool(const Value& v);
//! Terraform's SensitiveAsBool: before_sensitive/after_sensitive/sensitive_values.
nlohmann::ordered_json SensitiveAsBool(const Value& v);
//! The value without its unknown parts (object attributes and map elements left out,
//! sequence elements null), marks dropped; Terraform's omitUnknowns + JSON encoding.
nlohmann::ordered_json KnownValueJson(const Value& v);

}  // namespace strata
