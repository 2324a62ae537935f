#pragma once
// Plans shared by the renderer tests. `TerraformDataPlan` mirrors the Terraform plan made by
// tests/plan_format/compare_with_terraform.sh so the two outputs can be read side by side.

#include "engine/plan/change.h"

namespace strata::plan_test {

inline Value S(const char* s) { return Value::String(s); }

inline ResourceInstanceAddr Addr(const std::string& type, const std::string& name, InstanceKey key = {},
                                 ModulePath module = {}) {
  return ResourceInstanceAddr{module, ResourceAddr{ResourceMode::Managed, type, name}, key};
}

inline ResourceInstanceChange Change(ResourceInstanceAddr addr, Action action, Value before, Value after) {
  ResourceInstanceChange c;
  c.type = addr.resource.type;
  c.addr = std::move(addr);
  c.provider = "strata/builtin";
  c.mode = "managed";
  c.action = action;
  c.before = std::move(before);
  c.after = std::move(after);
  return c;
}

//! terraform_data-like objects: id, input, output, triggers_replace.
inline Value Data(Value id, Value input, Value output, Value triggers = Value()) {
  return Value::Object({{"id", id}, {"input", input}, {"output", output}, {"triggers_replace", triggers}});
}

inline Plan TerraformDataPlan() {
  Plan p;
  p.stage = "app";
  p.prior_lineage = "lin-1";
  p.prior_serial = 3;
  Value upd_before_input = Value::Object(
      {{"list", Value::Tuple({S("p"), S("q")})}, {"name", S("a")},
       {"tags", Value::Object({{"env", S("dev")}, {"team", S("x")}})}});
  Value upd_after_input = Value::Object(
      {{"list", Value::Tuple({S("p"), S("r")})}, {"name", S("b")},
       {"tags", Value::Object({{"env", S("prod")}, {"team", S("x")}})}});
  auto& gone = p.changes.emplace_back(Change(Addr("terraform_data", "gone"), Action::Delete,
                                             Data(S("3f82"), S("bye"), S("bye")), Value()));
  gone.reason = ActionReason::DeleteBecauseNoResourceConfig;
  p.changes.push_back(Change(Addr("terraform_data", "many", InstanceKey::Int(0)), Action::Create, Value(),
                             Data(Value::Unknown(), S("s3cret").MarkSensitive(), Value::Unknown())));
  p.changes.push_back(Change(Addr("terraform_data", "new"), Action::Create, Value(),
                             Data(Value::Unknown(), S("hello"), Value::Unknown())));
  auto& rep = p.changes.emplace_back(Change(Addr("terraform_data", "rep"), Action::DeleteThenCreate,
                                            Data(S("22a1"), S("same"), S("same"), S("v1")),
                                            Data(Value::Unknown(), S("same"), Value::Unknown(), S("v2"))));
  rep.requires_replace = {AttrPath::Of("triggers_replace")};
  rep.reason = ActionReason::ReplaceBecauseCannotUpdate;
  p.changes.push_back(Change(Addr("terraform_data", "same"), Action::NoOp,
                             Data(S("20d3"), S("unchanged"), S("unchanged")),
                             Data(S("20d3"), S("unchanged"), S("unchanged"))));
  p.changes.push_back(Change(Addr("terraform_data", "upd"), Action::Update,
                             Data(S("a26c"), upd_before_input, upd_before_input),
                             Data(S("a26c"), upd_after_input, Value::Unknown())));
  p.output_changes = {
      {"changed", Action::Update, S("old"), S("new"), false},
      {"dropped", Action::Delete, S("d"), Value(), false},
      {"kept", Action::NoOp, S("k"), S("k"), false},
      {"secret", Action::Create, Value(), S("s3cret"), true},
      {"unknown", Action::Create, Value(), Value::Unknown(), false},
  };
  p.variables = {{"secret", S("s3cret").MarkSensitive()}};
  return p;
}

}  // namespace strata::plan_test
