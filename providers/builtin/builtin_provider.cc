#include "providers/builtin/builtin_provider.h"

namespace strata {

using attrs::Error;

BuiltinProvider::BuiltinProvider(BuiltinEnv env) {
  for (auto factory : {NewNullResource, NewTerraformData, NewRandomId, NewRandomString,
                       NewRandomPassword, NewLocalFile, NewLocalSensitiveFile, NewTimeSleep,
                       NewExec}) {
    std::unique_ptr<ResourceType> type = factory(env);
    std::string name = type->Schema().type;
    resources_[name] = std::move(type);
  }
  std::unique_ptr<DataSourceType> data = NewLocalFileData(env);
  std::string name = data->Schema().type;
  data_sources_[name] = std::move(data);
}

ProviderSchema BuiltinProvider::Schema() const {
  ProviderSchema schema;
  schema.provider.type = "builtin";
  for (const auto& [name, type] : resources_) schema.resources.push_back(type->PublishedSchema());
  for (const auto& [name, type] : data_sources_) schema.data_sources.push_back(type->Schema());
  return schema;
}

Diagnostics BuiltinProvider::Configure(const OperationContext&, const Value&) { return {}; }

Diagnostics BuiltinProvider::ValidateResourceConfig(const OperationContext&, ResourceMode mode,
                                                    const std::string& type,
                                                    const Value& config) {
  if (mode == ResourceMode::Data) return {};
  Diagnostics diags;
  ResourceType* t = Find(type, diags);
  return t ? t->Validate(config) : diags;
}

ResourceType* BuiltinProvider::Find(const std::string& type, Diagnostics& diags) const {
  auto it = resources_.find(type);
  if (it != resources_.end()) return it->second.get();
  diags = Error("Unsupported resource type",
                "The builtin provider has no resource type \"" + type + "\".");
  return nullptr;
}

ReadResult BuiltinProvider::ReadWith(const std::string& type,
                                     const std::function<ReadResult(ResourceType&)>& read) const {
  ReadResult result;
  ResourceType* t = Find(type, result.diags);
  if (!t) return result;
  result = read(*t);
  if (!result.state.IsNull()) result.state = attrs::Normalize(t->Schema(), result.state);
  return result;
}

ReadResult BuiltinProvider::ReadResource(const OperationContext& ctx, const std::string& type,
                                         const Value& prior) {
  return ReadWith(type, [&](ResourceType& t) { return t.Read(ctx, prior); });
}

PlanResult BuiltinProvider::PlanResourceChange(const OperationContext& ctx,
                                               const std::string& type, const Value& prior,
                                               const Value& proposed, const Value& config) {
  PlanResult result;
  ResourceType* t = Find(type, result.diags);
  return t ? t->Plan(ctx, prior, proposed, config) : result;
}

ApplyResult BuiltinProvider::CreateResource(const OperationContext& ctx, const std::string& type,
                                            const Value& planned) {
  ApplyResult result;
  ResourceType* t = Find(type, result.diags);
  if (!t) return result;
  // Computed attributes are unknown in the plan; the type fills them in. Anything else
  // still unknown is the engine's mistake.
  const ResourceSchema schema = t->Schema();
  Value known = planned;
  for (const auto& [name, a] : schema.attributes) {
    Value v = attrs::Get(planned, name);
    if (v.IsWhollyKnown()) continue;
    if (a.computed && v.IsUnknown()) {
      known = attrs::With(known, name, Value());
      continue;
    }
    result.diags = Error("Unknown value at apply",
                         "Attribute \"" + name + "\" of " + type +
                             " is still unknown when creating it; this is a bug in Strata.");
    return result;
  }
  result = t->CreateOrAdopt(ctx, known);
  if (!result.state.IsNull()) result.state = attrs::Normalize(schema, result.state);
  return result;
}

ApplyResult BuiltinProvider::UpdateResource(const OperationContext& ctx, const std::string& type,
                                            const Value& prior, const Value& planned) {
  ApplyResult result;
  ResourceType* t = Find(type, result.diags);
  return t ? t->Update(ctx, prior, planned) : result;
}

DeleteResult BuiltinProvider::DeleteResource(const OperationContext& ctx, const std::string& type,
                                             const Value& prior) {
  DeleteResult result;
  ResourceType* t = Find(type, result.diags);
  return t ? t->Delete(ctx, prior) : result;
}

ReadResult BuiltinProvider::FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                                  const Value& planned) {
  return ReadWith(type, [&](ResourceType& t) { return t.FindInterrupted(ctx, planned); });
}

ApplyResult BuiltinProvider::ImportResource(const OperationContext& ctx, const std::string& type,
                                            const std::string& id) {
  ApplyResult result;
  ResourceType* t = Find(type, result.diags);
  return t ? t->Import(ctx, id) : result;
}

ReadResult BuiltinProvider::ReadDataSource(const OperationContext& ctx, const std::string& type,
                                           const Value& config) {
  auto it = data_sources_.find(type);
  if (it == data_sources_.end()) {
    return {{}, false, Error("Unsupported data source",
                             "The builtin provider has no data source \"" + type + "\".")};
  }
  return it->second->Read(ctx, config);
}

}  // namespace strata
