#pragma once
// The rules of planned values, as pure functions over Values and schemas (Terraform's
// objchange.ProposedNew, the replace decision, ignore_changes and the plan summary).
// Nothing here talks to a provider or to state; tests call them directly.

#include <optional>
#include <string>
#include <vector>

#include "engine/plan/change.h"
#include "engine/value/schema.h"

namespace strata {

//! The value the engine proposes to the provider for a resource (objchange.ProposedNew):
//!  - a non-null config value wins;
//!  - a computed (or optional+computed) attribute not set in config keeps its prior value,
//!    or becomes unknown when there is no prior object (a create): that is what every
//!    provider's plan would answer, so a provider without custom planning needs no code;
//!  - a non-computed attribute not set in config is null;
//!  - attributes of a `dynamic` schema not listed in it come from config.
//! Values of sensitive attributes get the sensitive mark. A null config returns null (the
//! object is to be deleted).
Value ProposedNewValue(const ResourceSchema& schema, const Value& prior, const Value& config);

//! The paths where `before` and `after` differ, deepest first reached: objects and maps are
//! compared key by key, lists/tuples of equal length element by element; anything else that
//! differs (including a known value becoming unknown) is reported at its own path.
//! Sensitive marks are ignored. Paths are in key order.
std::vector<AttrPath> DiffAttributes(const Value& before, const Value& after);

//! The force_new attributes of `schema` whose planned value differs from the prior one, or
//! is unknown while the prior was known. Empty when there is no prior object (a create).
std::vector<AttrPath> RequiresReplace(const ResourceSchema& schema, const Value& before,
                                      const Value& after);

//! lifecycle.ignore_changes: a list of attribute paths, or `all`.
struct IgnoreChanges {
  bool all = false;
  std::vector<AttrPath> paths;
  bool empty() const { return !all && paths.empty(); }
};

//! Puts the prior value back at every ignored path of `planned` (Terraform applies
//! ignore_changes to the config before planning, so the provider sees no change there).
//! Creates (null prior) are not affected; `all` keeps the whole prior object, except
//! attributes the planned value has and the prior lacks.
Value ApplyIgnoreChanges(const Value& prior, const Value& planned, const IgnoreChanges& ignore);

struct ActionInputs {
  bool prior_exists = false;  // an object is in state (after refresh)
  bool in_config = true;      // the instance is still declared
  Value prior;
  Value planned;
  std::vector<AttrPath> requires_replace;
  bool create_before_destroy = false;
  bool tainted = false;
  bool replace_requested = false;  // -replace=ADDR
  //! State had the object but refresh found it deleted outside Strata (prior_exists is
  //! then false).
  bool gone = false;
  //! Why an instance no longer in config is deleted (count index, each key, no module...).
  ActionReason delete_reason = ActionReason::DeleteBecauseNoResourceConfig;
};

struct ActionDecision {
  Action action = Action::NoOp;
  ActionReason reason = ActionReason::None;
};

//! Terraform's decision, in order: not in config → Delete (with delete_reason) or NoOp;
//! gone → Create (RecreateBecauseGone); no prior → Create; tainted, -replace, or any
//! requires_replace → replace (CreateThenDelete with create_before_destroy, else
//! DeleteThenCreate); prior equals planned → NoOp; otherwise Update.
ActionDecision DecideAction(const ActionInputs& in);

//! lifecycle.prevent_destroy: the error detail when `action` would destroy the object of a
//! resource that forbids it, nullopt when the plan may go ahead.
std::optional<std::string> CheckPreventDestroy(const ResourceInstanceAddr& addr, Action action,
                                               bool prevent_destroy);

//! The numbers of "Plan: N to add, M to change, K to destroy." Terraform counts managed
//! resources only: Create +1 add; Update +1 change; Delete +1 destroy; a replace +1 add and
//! +1 destroy; Read and NoOp nothing.
struct PlanCounts {
  int add = 0;
  int change = 0;
  int destroy = 0;
  int import = 0;  // imports, whatever else happens to the object ("Plan: 1 to import, ...")
  bool operator==(const PlanCounts&) const = default;
};
PlanCounts CountChanges(const std::vector<ResourceInstanceChange>& changes);
//! "Plan: 1 to add, 0 to change, 0 to destroy.", with "1 to import, " first when there are
//! imports, as Terraform 1.11 writes it (objects forgotten are not counted there either).
std::string FormatPlanSummary(const PlanCounts& counts);

}  // namespace strata
