#pragma once
// Plans are plain data: what the engine intends to do to each resource instance and
// output of one stage, with the values before and after. Modelled on Terraform's
// plans.Changes / plans.ResourceInstanceChange. The rules that compute planned values live
// in rules.h; the renderers (render_human.h, render_json.h) only read these types.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/addr/addr.h"
#include "engine/value/attr_path.h"
#include "engine/value/schema.h"
#include "engine/value/value.h"

namespace strata {

//! What happens to one resource instance (Terraform's plans.Action).
enum class Action {
  NoOp,
  Create,
  Read,              // a data source read during apply
  Update,            // in place
  DeleteThenCreate,  // replace: -/+
  CreateThenDelete,  // replace with create_before_destroy: +/-
  Delete,
  Forget  // leaves state, the object stays (a removed entry with destroy: false)
};

//! Why an action was chosen, when that is not obvious from the diff (Terraform's
//! plans.ResourceInstanceChangeActionReason). Shown in the human plan and as action_reason.
enum class ActionReason {
  None,
  ReplaceBecauseTainted,
  ReplaceByRequest,            // -replace=ADDR
  ReplaceBecauseCannotUpdate,  // a force_new attribute changed
  DeleteBecauseNoResourceConfig,
  DeleteBecauseWrongRepetition,  // count/for_each added or removed
  DeleteBecauseCountIndex,       // index beyond count
  DeleteBecauseEachKey,          // key no longer in for_each
  DeleteBecauseNoModule,         // the module call is gone
  ReadBecauseConfigUnknown,
  ReadBecauseDependencyPending,
  RecreateBecauseGone,  // Strata's own: the object was deleted outside Strata (seen by refresh)
  //! Strata's own: a create was sent but never answered (SIGINT, kill -9, a crash); the
  //! provider first looks for the object it may have made (by the type's CreateRecovery:
  //! client token, token tag or natural key) and adopts it, so nothing is doubled.
  CreateAfterInterruption,
  //! Strata's own, destroy only: the instance's create was interrupted, and its type's
  //! recovery (c.recovery) found the object that create made — a Delete — or found that
  //! it made nothing — a drift entry, and the instance leaves state.
  InterruptedCreate
};

//! True for DeleteThenCreate and CreateThenDelete.
bool IsReplace(Action action);
//! Terraform's JSON spelling: ["create"], ["delete","create"], ["no-op"], ...
std::vector<std::string> ActionJsonNames(Action action);
//! "replace_because_tainted", ...; "" for None. RecreateBecauseGone has no Terraform
//! counterpart and is spelled "recreate_because_gone".
const char* ActionReasonName(ActionReason reason);

//! One resource instance's planned change.
struct ResourceInstanceChange {
  ResourceInstanceAddr addr;
  std::string type;      // resource type (also addr.resource.type)
  std::string provider;  // provider source, e.g. "strata/builtin"; JSON provider_name
  std::string mode;      // "managed" or "data"
  Action action = Action::NoOp;
  //! Null before a create, null after a delete. Unknown parts are Value::Unknown();
  //! sensitive parts carry the sensitive mark.
  Value before;
  Value after;
  //! Attributes that force the replacement (Terraform's RequiredReplace / replace_paths).
  std::vector<AttrPath> requires_replace;
  ActionReason reason = ActionReason::None;
  int schema_version = 0;
  //! The create's idempotency token (kept from an interrupted create; else made at plan
  //! time), so a saved plan applied twice or after a crash sends the same token.
  std::string idempotency_token;
  //! Resource addresses this instance depends on (recorded in state; deletes run in the
  //! reverse of this order).
  std::vector<std::string> dependencies;
  //! lifecycle.create_before_destroy (also decides the order of a replace).
  bool create_before_destroy = false;
  //! The resource's `timeouts:` as written ("create" → "30m"; create, update, delete,
  //! read): the apply sets each provider call's deadline from them. Empty: the types' own
  //! limits.
  std::map<std::string, std::string> timeouts;
  //! For a create after an interruption: how the type finds what the interrupted create
  //! made (the plan says so; the apply asks the provider to look before it creates).
  CreateRecovery recovery = CreateRecovery::Unspecified;
  //! A moved entry gave the object this address: where it was in state (JSON previous_address).
  std::optional<ResourceInstanceAddr> previous_addr;
  //! An import entry takes the object into state from this id (JSON change.importing.id);
  //! `before` is the object as read.
  std::optional<std::string> importing_id;
  //! The imported object had no configuration: -generate-config-out wrote it.
  bool generated_config = false;
  //! A Delete of a *deposed* object (state::ResourceInstanceState::deposed): what an
  //! interrupted or failed create_before_destroy replacement left behind. Empty for a
  //! change of the instance's current object.
  std::string deposed;

  //! How plans, progress lines and errors name the object: the address, followed by
  //! " (deposed object KEY)" for a deposed one.
  std::string ObjectName() const;

  //! Whether applying it changes state: an action, a move, an import or a forget.
  bool ChangesState() const { return action != Action::NoOp || previous_addr || importing_id; }
};

//! One root-module output's planned change.
struct OutputChange {
  std::string name;
  Action action = Action::NoOp;  // Create, Update, Delete or NoOp
  Value before;                  // null if new
  Value after;                   // null if removed; may be unknown
  bool sensitive = false;        // declared sensitive (values may also carry the mark)
};

//! What a plan is for (Terraform's plans.Mode).
enum class PlanMode { Normal, Destroy, RefreshOnly };
//! "normal", "destroy", "refresh-only".
const char* PlanModeName(PlanMode mode);

//! The plan of one stage. `changes` holds every resource instance the plan considered,
//! NoOp ones included: the JSON view derives prior_state and planned_values from them.
//! An output of an earlier stage that this stage read (${stage.S.X}) at its last full apply
//! and that has changed since, or can no longer be read: a note in the plan's header. Never
//! the value: a sensitive one is only said to be sensitive.
struct UpstreamOutputChange {
  std::string stage;   // the earlier stage
  std::string output;
  bool sensitive = false;
  int64_t serial_then = 0;  // the earlier stage's serial when this stage read it (0: unknown)
  int64_t serial_now = 0;   // ... and now (0: unknown)
  //! Why the output cannot be read now (the stage has no such output any more, was never
  //! applied in this environment, ...); empty when it was read and its value differs.
  std::string unavailable;

  bool operator==(const UpstreamOutputChange&) const = default;
};

struct Plan {
  std::string stage;
  //! The environment the plan was made in (state/environments.h): a saved plan applies only there.
  std::string environment = "default";
  std::vector<ResourceInstanceChange> changes;
  std::vector<OutputChange> output_changes;
  //! The state the plan was made against (apply refuses a plan whose prior is stale).
  std::string prior_lineage;
  int64_t prior_serial = 0;
  //! A digest of the prior state's resources (statuses included), so that a plan made
  //! before an interrupted apply is stale after it, although the serial did not move.
  //! Empty in a plan made to be applied in the same run (StagePlanOptions::for_saving).
  std::string prior_state_digest;
  //! A digest of the stage's configuration files.
  std::string config_digest;
  //! When planning began (RFC 3339): plantimestamp()'s value, at plan and again at apply.
  //! Empty in plan files written before it was recorded.
  std::string timestamp;
  //! Root input variables as set for this plan.
  std::map<std::string, Value> variables;
  //! The plan stopped on an error: it is incomplete and must not be applied.
  bool errored = false;
  PlanMode mode = PlanMode::Normal;
  //! -target and -replace as given (resource or instance addresses).
  std::vector<std::string> targets;
  std::vector<std::string> replace;
  //! Objects changed or deleted outside Strata, found by refresh (before = state, after =
  //! refreshed; action Update or Delete). A refresh-only plan applies exactly these.
  std::vector<ResourceInstanceChange> drift;
  //! Outputs of earlier stages read at this stage's last full apply that changed since (by
  //! stage and output). Notes only: they make no change by themselves.
  std::vector<UpstreamOutputChange> upstream_changes;

  //! True if anything would change: a resource action other than NoOp, or an output change.
  bool HasChanges() const;
};

}  // namespace strata
