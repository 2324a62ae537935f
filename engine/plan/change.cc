#include "engine/plan/change.h"

namespace strata {

bool IsReplace(Action action) {
  return action == Action::DeleteThenCreate || action == Action::CreateThenDelete;
}

std::vector<std::string> ActionJsonNames(Action action) {
  switch (action) {
    case Action::NoOp: return {"no-op"};
    case Action::Create: return {"create"};
    case Action::Read: return {"read"};
    case Action::Update: return {"update"};
    case Action::DeleteThenCreate: return {"delete", "create"};
    case Action::CreateThenDelete: return {"create", "delete"};
    case Action::Delete: return {"delete"};
    case Action::Forget: return {"forget"};
  }
  return {};
}

const char* ActionReasonName(ActionReason reason) {
  switch (reason) {
    case ActionReason::None: return "";
    case ActionReason::ReplaceBecauseTainted: return "replace_because_tainted";
    case ActionReason::ReplaceByRequest: return "replace_by_request";
    case ActionReason::ReplaceBecauseCannotUpdate: return "replace_because_cannot_update";
    case ActionReason::DeleteBecauseNoResourceConfig: return "delete_because_no_resource_config";
    case ActionReason::DeleteBecauseWrongRepetition: return "delete_because_wrong_repetition";
    case ActionReason::DeleteBecauseCountIndex: return "delete_because_count_index";
    case ActionReason::DeleteBecauseEachKey: return "delete_because_each_key";
    case ActionReason::DeleteBecauseNoModule: return "delete_because_no_module";
    case ActionReason::ReadBecauseConfigUnknown: return "read_because_config_unknown";
    case ActionReason::ReadBecauseDependencyPending: return "read_because_dependency_pending";
    case ActionReason::RecreateBecauseGone: return "recreate_because_gone";
    case ActionReason::CreateAfterInterruption: return "create_after_interruption";
    case ActionReason::InterruptedCreate: return "interrupted_create";
  }
  return "";
}

const char* PlanModeName(PlanMode mode) {
  switch (mode) {
    case PlanMode::Normal: return "normal";
    case PlanMode::Destroy: return "destroy";
    case PlanMode::RefreshOnly: return "refresh-only";
  }
  return "normal";
}

bool Plan::HasChanges() const {
  for (const auto& c : changes) {
    if (c.ChangesState()) return true;
  }
  for (const auto& o : output_changes) {
    if (o.action != Action::NoOp) return true;
  }
  return mode == PlanMode::RefreshOnly && !drift.empty();
}

std::string ResourceInstanceChange::ObjectName() const {
  return deposed.empty() ? addr.ToString() : addr.ToString() + " (deposed object " + deposed + ")";
}

}  // namespace strata
