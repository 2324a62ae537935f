#pragma once
// The provider interface: what the engine asks of every provider — builtin, aws,
// kubernetes — to learn schemas, refresh, plan, create, update, delete, import and
// read data sources. Modelled on Terraform's provider protocol (GetProviderSchema,
// ReadResource, PlanResourceChange, ApplyResourceChange, ImportResourceState,
// ReadDataSource), with apply split into Create/Update/Delete.
//
// Conventions shared by every call:
//  - Resource values are Value objects whose attributes follow the type's schema; an
//    attribute not present is the same as null.
//  - Expected failures (API errors, a command exiting non-zero, a timeout) are returned as
//    Diagnostics in the result, never thrown. Exceptions are for programmer errors only.
//  - Every call gets an OperationContext: cancellation, a deadline, a logger, a progress
//    callback and (for creates) an idempotency token. Long waits must poll the context and
//    report progress.
//  - Providers are used from one engine thread per resource instance (or ReadResources batch);
//    a provider instance must allow concurrent calls for different instances after Configure.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/diag/diagnostic.h"
#include "engine/value/attr_path.h"
#include "engine/value/schema.h"
#include "engine/value/value.h"

namespace strata {

// ---------------------------------------------------------------------------------------
// Operation context

//! A shared cancellation flag. Copies observe the same flag: the engine keeps one and hands
//! copies to every call; Cancel() (Ctrl-C, a failed sibling) is seen by all of them.
class CancellationToken {
 public:
  CancellationToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void Cancel() const { flag_->store(true); }
  bool IsCancelled() const { return flag_->load(); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

enum class LogLevel { Debug, Info, Warn, Error };

//! Everything a provider call may need from the caller besides its arguments.
struct OperationContext {
  using Clock = std::chrono::steady_clock;

  CancellationToken cancellation;
  //! When the operation must give up (an error "timed out" is expected); none = no limit.
  std::optional<Clock::time_point> deadline;
  //! Provider logs (shown with -v / written to the run log). May be empty.
  std::function<void(LogLevel, const std::string&)> logger;
  //! Human progress for long waits: "still creating... (2m10s elapsed)". May be empty.
  std::function<void(const std::string&)> progress;
  //! A stable token for the create of one resource instance: the same value when a create
  //! is retried after a crash (from the operation journal), so APIs that take a client
  //! token (EC2 RunInstances, EKS CreateCluster) do not create twice. Empty when unknown.
  std::string idempotency_token;
  //! CreateResource only: an earlier create of this instance, with this same token, was
  //! sent by a process that died before recording the answer. The object it made may
  //! exist: the provider must look for it by the type's CreateRecovery mechanism (client
  //! token, the token tag, the natural key) and adopt it, brought to `planned`, instead of
  //! making a second one; it creates only when nothing is found. An object that matches
  //! the natural key but is not ours is an error that names `import`.
  bool resume_interrupted_create = false;
  //! The resource instance address this call is for ("aws_vpc.main"), for messages.
  std::string address;
  //! The user asked to stop (the first Ctrl-C): a request in flight is finished, but a long
  //! wait that follows it (a rollout, a deletion's finalizers) ends early and says so. May
  //! be empty.
  std::function<bool()> stop_requested;

  bool Cancelled() const { return cancellation.IsCancelled(); }
  bool StopRequested() const { return stop_requested && stop_requested(); }
  //! True if the deadline is set and `now` is at or past it.
  bool DeadlinePassed(Clock::time_point now = Clock::now()) const {
    return deadline && now >= *deadline;
  }
  void Log(LogLevel level, const std::string& message) const {
    if (logger) logger(level, message);
  }
  void Progress(const std::string& message) const {
    if (progress) progress(message);
  }
};

// ---------------------------------------------------------------------------------------
// Attribute paths

// Attribute paths are AttrPath (engine/value/attr_path.h): "this change forces
// replacement", "this part is owned by someone else", and pointing diagnostics at an
// attribute. ValueAtPath reads the part a path names.

// ---------------------------------------------------------------------------------------
// Schemas and results

//! Everything a provider serves.
struct ProviderSchema {
  //! The provider block's own settings (region, kubeconfig...); type is the provider name.
  ResourceSchema provider;
  std::vector<ResourceSchema> resources;     // mode Managed
  std::vector<ResourceSchema> data_sources;  // mode Data

  const ResourceSchema* Find(ResourceMode mode, const std::string& type) const;
};

//! ReadResource / ReadDataSource.
struct ReadResult {
  //! The current state (refresh) or the data source's value; null when gone or on error.
  Value state;
  //! The object no longer exists (deleted outside Strata): a normal answer, not an error.
  //! The engine drops it from state and plans to create it again.
  bool gone = false;
  Diagnostics diags;
  //! FindInterruptedCreate (and a provider's own recovery lookups): an object holds the
  //! create's natural key, but it is not the one that create made (diags say why). A
  //! create resumed over it is an error; a destroy leaves it alone.
  bool not_ours = false;
};

//! MoveResourceState: an object's state as another resource type holds it (a `moved`
//! entry or `state mv` across types). The addresses are for messages only.
struct MoveStateRequest {
  std::string from_address, to_address;
  std::string from_provider;  // the provider recorded with the object, e.g. "registry.terraform.io/hashicorp/kubernetes"
  std::string from_type;
  int64_t from_schema_version = 0;
  Value from_state;
  std::string to_type;
};

struct MoveResult {
  //! The state under `to_type` (null on error); sensitive parts marked.
  Value state;
  Diagnostics diags;
};

//! The refusal of a move across types, naming both addresses and what to do instead:
//! `why` says why this pair cannot move ("the kinds differ: ...").
Diagnostics CannotMoveAcrossTypes(const MoveStateRequest& request, const std::string& why);

//! PlanResourceChange.
struct PlanResult {
  //! The value the resource will have after apply: every attribute the provider cannot
  //! know before then is Value::Unknown(). When requires_replace is non-empty, this is the
  //! value the replacement will be created with. Null when planning a destroy.
  Value planned;
  //! Attributes whose change cannot be made in place: the resource is replaced.
  std::vector<AttrPath> requires_replace;
  //! Parts of the value owned by someone else (Kubernetes fields another field manager
  //! owns, an autoscaler's desired count): the engine ignores differences there when it
  //! decides between no-op and update and when it renders the diff.
  std::vector<AttrPath> ignored_paths;
  Diagnostics diags;
};

//! CreateResource / UpdateResource / ImportResource.
struct ApplyResult {
  //! The new state. On a failed create it may still be non-null: the object exists but is
  //! not healthy (the engine records it as tainted, as Terraform does).
  Value state;
  Diagnostics diags;
  //! A failed create whose request may have taken effect (its answer was lost, it timed
  //! out, the API answered 5xx): the object may exist although no state came back. The
  //! engine keeps the instance pending with its idempotency token, so the next plan looks
  //! for the object by the type's create recovery instead of creating a second one.
  bool outcome_unknown = false;
};

//! DeleteResource.
struct DeleteResult {
  Diagnostics diags;
};

// ---------------------------------------------------------------------------------------
// The interface

//! One configured provider. Create instances through the ProviderRegistry; call Configure
//! once before anything but Name/Schema.
class Provider {
 public:
  virtual ~Provider() = default;

  //! "builtin", "aws", "kubernetes".
  virtual std::string Name() const = 0;

  //! Every resource and data source type served, with static schemas. A type whose shape
  //! is only known at run time (a Kubernetes manifest) is marked ResourceSchema::dynamic
  //! and checked by ValidateResourceConfig once configured.
  virtual ProviderSchema Schema() const = 0;

  //! Applies the provider block's settings (`config` is an object following
  //! Schema().provider; null when there is no block). May contact the remote API (to learn
  //! a server's schema, to resolve credentials).
  virtual Diagnostics Configure(const OperationContext& ctx, const Value& config) = 0;

  //! Checks a resource or data source config beyond what its schema says (value ranges,
  //! conflicting attributes, a dynamic type's run-time schema). Values may be unknown.
  virtual Diagnostics ValidateResourceConfig(const OperationContext& ctx, ResourceMode mode,
                                             const std::string& type, const Value& config) {
    (void)ctx, (void)mode, (void)type, (void)config;
    return {};
  }

  //! Refresh: returns the object's current state given the prior state (the provider reads
  //! what it needs, usually the id, from `prior`). A deleted object is `gone`.
  virtual ReadResult ReadResource(const OperationContext& ctx, const std::string& type,
                                  const Value& prior) = 0;

  //! True when ReadResources reads objects of `type` in fewer calls than one per object (EC2's
  //! Describe* with many ids): the engine then refreshes that type's instances in batches.
  //! Asked of unconfigured instances too (depends on `type` only); false (the default): one each.
  virtual bool ReadsInBatches(const std::string& type) const {
    (void)type;
    return false;
  }

  //! Refresh of many objects of one type: result i is ReadResource(ctx, type, priors[i])'s
  //! answer, with the same contract — `gone` for an object deleted outside, diagnostics that
  //! belong to that object alone. An error reading one object never fails the others; an
  //! object missing from a batch answer is gone exactly as the single read would say.
  //! Always returns priors.size() results. The default loops ReadResource.
  virtual std::vector<ReadResult> ReadResources(const OperationContext& ctx, const std::string& type,
                                                const std::vector<Value>& priors) {
    std::vector<ReadResult> results;
    results.reserve(priors.size());
    for (const Value& prior : priors) results.push_back(ReadResource(ctx, type, prior));
    return results;
  }

  //! Plans a change. `prior` is null for a create; `proposed` is null for a destroy, else
  //! the config merged with prior state (Terraform's ProposedNew: computed attributes, and
  //! optional+computed ones left null in config, take the prior value); `config` is the
  //! resource's config as written (for telling "set by the user" from "carried over").
  //! Must not change anything remote.
  virtual PlanResult PlanResourceChange(const OperationContext& ctx, const std::string& type,
                                        const Value& prior, const Value& proposed,
                                        const Value& config) = 0;

  //! Creates the object. `planned` is PlanResult::planned re-evaluated at apply time:
  //! references to other resources are now known; only attributes the provider itself
  //! computes may still be unknown, and the returned state has none left.
  //! ctx.idempotency_token identifies this create across retries.
  virtual ApplyResult CreateResource(const OperationContext& ctx, const std::string& type,
                                     const Value& planned) = 0;

  //! Updates the object in place (only called when the plan had no requires_replace);
  //! `planned` as for CreateResource.
  virtual ApplyResult UpdateResource(const OperationContext& ctx, const std::string& type,
                                     const Value& prior, const Value& planned) = 0;

  //! Deletes the object. Deleting something already gone succeeds.
  virtual DeleteResult DeleteResource(const OperationContext& ctx, const std::string& type,
                                      const Value& prior) = 0;

  //! Looks, without changing anything, for the object an interrupted create of this type
  //! made: ctx.idempotency_token is the create's token, `planned` the value it would have
  //! been created with (known where the config is; what the provider computes unknown).
  //! The answer has three shapes: the object (state set) when the type's CreateRecovery
  //! finds it (token tag, natural key, client token read back); nothing was made (`gone`);
  //! or neither, when the type cannot tell without sending the create again (a client
  //! token the API never reads back, a command re-run) — the engine then keeps the
  //! instance pending rather than forget an object that may exist. A destroy asks this of
  //! every instance whose create was interrupted. The default cannot tell.
  virtual ReadResult FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                           const Value& planned) {
    (void)ctx, (void)type, (void)planned;
    return {};
  }

  //! Adopts an existing object by its provider-specific id; the result is its full state.
  //! Types that cannot be imported return an error diagnostic.
  virtual ApplyResult ImportResource(const OperationContext& ctx, const std::string& type,
                                     const std::string& id) = 0;

  //! The instance's ordering class: among the instances of a stage served by this provider,
  //! lower classes are created and updated first and deleted last (Kubernetes: namespaces
  //! and CRDs before what lives in them, RBAC before workloads, webhook configurations
  //! last). `value` is the planned value (or, for a delete, the prior state) and may hold
  //! unknowns. Called on an instance that was never configured: the answer may depend only
  //! on `type` and `value`. Dependencies between resources always win over classes. The
  //! default, 0 for everything, orders nothing.
  virtual int OrderingClass(const std::string& type, const Value& value) const {
    (void)type, (void)value;
    return 0;
  }

  //! Terraform's MoveResourceState: the target type's provider converts the state of an
  //! object recorded under another type (`request.from_type`, perhaps another provider's)
  //! into `request.to_type`'s attributes, for the same remote object. Pure: it calls no API
  //! and never touches state (the engine writes the answer), and it is asked of an instance
  //! that was never configured. A type that cannot take the object returns an error naming
  //! both addresses and what to do. The default refuses every move across types.
  virtual MoveResult MoveResourceState(const MoveStateRequest& request) const;

  //! Reads a data source: `config` follows the data source schema; the result fills in
  //! its computed attributes.
  virtual ReadResult ReadDataSource(const OperationContext& ctx, const std::string& type,
                                    const Value& config) = 0;
};

}  // namespace strata
