#include "providers/resource_type.h"

namespace strata {

using namespace attrs;

const ResourceSchema& ResourceType::CachedSchema() const {
  std::call_once(schema_once_, [this] { schema_ = Schema(); });
  return schema_;
}

ResourceSchema ResourceType::PublishedSchema() const {
  ResourceSchema schema = CachedSchema();
  schema.create_recovery = Recovery();
  return schema;
}

ApplyResult ResourceType::CreateOrAdopt(const OperationContext& ctx, const Value& planned) {
  if (ctx.resume_interrupted_create) {
    ReadResult found = FindCreated(ctx, planned);
    if (found.diags.HasErrors()) return {Value(), found.diags};
    if (!found.gone && !found.state.IsNull()) {
      ctx.Progress("found the object the interrupted create made; adopting it");
      return AdoptFound(ctx, found, planned);
    }
  }
  ApplyResult created = Create(ctx, planned);
  if (!created.outcome_unknown || !created.state.IsNull() || !LooksForLostCreates()) return created;
  // The create's answer was lost: it may have made the object. Look for it now, by the
  // type's recovery, rather than leave it to the next run (a type whose API takes a client
  // token resends the same token there instead).
  ReadResult found = FindCreated(ctx, planned);
  if (found.diags.HasErrors() || found.gone || found.state.IsNull()) return created;
  ctx.Progress("the create's answer was lost, but the object it made was found; adopting it");
  return AdoptFound(ctx, found, planned);
}

std::vector<std::string> ResourceType::RecoveryKey() const {
  std::vector<std::string> key;
  for (const auto& [name, a] : CachedSchema().attributes) {
    if (a.required || a.optional) key.push_back(name);
  }
  return key;
}

ReadResult ResourceType::FindInterrupted(const OperationContext& ctx, const Value& planned) {
  if (Recovery() == CreateRecovery::StateOnly) return {Value(), true, {}};
  for (const std::string& name : RecoveryKey()) {
    if (!Get(planned, name).IsWhollyKnown()) return {};  // cannot tell: the key is not known
  }
  switch (Recovery()) {
    case CreateRecovery::StateOnly: return {Value(), true, {}};
    case CreateRecovery::CreateTag:
    case CreateRecovery::NaturalKey: {
      ReadResult found = FindCreated(ctx, planned);
      if (!found.not_ours) return found;
      // Someone else's object holds the key: the interrupted create made nothing of ours.
      ReadResult nothing{Value(), true, {}};
      for (const Diagnostic& d : found.diags) {
        nothing.diags.Warning(d.summary, d.detail + " Strata leaves it alone.");
      }
      return nothing;
    }
    case CreateRecovery::ClientToken:
    case CreateRecovery::Rerun:
    case CreateRecovery::Unspecified: break;
  }
  return {};
}

bool ResourceType::LooksForLostCreates() const {
  CreateRecovery recovery = Recovery();
  return recovery == CreateRecovery::CreateTag || recovery == CreateRecovery::NaturalKey;
}

ApplyResult ResourceType::AdoptFound(const OperationContext& ctx, const ReadResult& found, const Value& planned) {
  ApplyResult adopted = Adopt(ctx, found.state, planned);
  adopted.diags.Append(found.diags);
  // A failed adjustment still leaves an object that exists: keep it (tainted by the engine).
  if (adopted.state.IsNull() && adopted.diags.HasErrors()) adopted.state = found.state;
  return adopted;
}

Value ResourceType::KnownFrom(const Value& planned, const Value& found) {
  // What the provider computes (ids, ARNs) is unknown in `planned`: the found object has it.
  Value target = planned;
  if (planned.IsMapping()) {
    for (const auto& [name, v] : planned.AsMap()) {
      if (v.IsUnknown()) target = With(target, name, Get(found, name));
    }
  }
  return target;
}

ReadResult ResourceType::FindCreated(const OperationContext& ctx, const Value& planned) {
  (void)ctx, (void)planned;
  return {Value(), true, {}};
}

Diagnostics ResourceType::Validate(const Value& config) const {
  (void)config;
  return {};
}

namespace {

bool SameValue(const Value& a, const Value& b) {
  if (a.IsNull() && b.IsNull()) return true;
  return a.Equals(b);
}

}  // namespace

PlanResult ResourceType::Plan(const OperationContext& ctx, const Value& prior,
                              const Value& proposed, const Value& config) const {
  (void)ctx;
  PlanResult result;
  if (proposed.IsNull()) return result;  // destroy
  const ResourceSchema& schema = CachedSchema();
  result.diags = Validate(config.IsNull() ? proposed : config);
  if (result.diags.HasErrors()) return result;

  auto set_by_user = [&](const std::string& name, const AttributeSchema& a) {
    if (!config.IsNull()) return !Get(config, name).IsNull();
    return a.optional && !Get(proposed, name).IsNull();
  };
  // The value a create would start from: computed attributes not set by the user reset.
  auto create_shape = [&]() {
    Value v = proposed;
    for (const auto& [name, a] : schema.attributes) {
      if (a.computed && !set_by_user(name, a)) v = With(v, name, Value());
    }
    v = ApplyDefaults(v);
    for (const auto& [name, a] : schema.attributes) {
      if (a.computed && Get(v, name).IsNull()) v = With(v, name, Value::Unknown());
    }
    return Normalize(schema, v);
  };

  if (prior.IsNull()) {
    result.planned = create_shape();
    return result;
  }
  Value planned = ApplyDefaults(proposed);
  for (const auto& [name, a] : schema.attributes) {
    if (a.force_new && !SameValue(Get(prior, name), Get(planned, name))) {
      result.requires_replace.push_back(AttrPath::Of(name));
    }
  }
  if (!result.requires_replace.empty()) {
    result.planned = create_shape();
    return result;
  }
  result.planned = Normalize(schema, PlanUpdate(prior, planned));
  return result;
}

ReadResult ResourceType::Read(const OperationContext& ctx, const Value& prior) {
  (void)ctx;
  return {prior, false, {}};
}

std::vector<ReadResult> ResourceType::ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) {
  std::vector<ReadResult> results;
  results.reserve(priors.size());
  for (const Value& prior : priors) results.push_back(Read(ctx, prior));
  return results;
}

ApplyResult ResourceType::Update(const OperationContext& ctx, const Value& prior,
                                 const Value& planned) {
  (void)ctx, (void)prior;
  return {planned, {}};
}

DeleteResult ResourceType::Delete(const OperationContext& ctx, const Value& prior) {
  (void)ctx, (void)prior;
  return {};
}

ApplyResult ResourceType::Import(const OperationContext& ctx, const std::string& id) {
  (void)ctx, (void)id;
  ApplyResult result;
  result.diags = Error("Resource type cannot be imported",
                       "The " + Schema().type + " resource type does not support import.");
  return result;
}

MoveResult ResourceType::MoveFrom(const ResourceType* from, const MoveStateRequest& request) const {
  (void)from;
  MoveResult result;
  result.diags = CannotMoveAcrossTypes(request, Schema().type + " takes no other type's objects");
  return result;
}

}  // namespace strata
