#include "providers/typed_provider.h"

namespace strata {
namespace {

Diagnostics UnsupportedResourceType(const std::string& provider, const std::string& type) {
  return attrs::Error("Unsupported resource type", "The " + provider + " provider has no resource type \"" + type + "\".");
}

}  // namespace

void TypedProvider::Add(std::unique_ptr<ResourceType> type) {
  std::string name = type->Schema().type;
  resources_[name] = std::move(type);
}

void TypedProvider::Add(std::unique_ptr<DataSourceType> type) {
  std::string name = type->Schema().type;
  data_sources_[name] = std::move(type);
}

ProviderSchema TypedProvider::Schema() const {
  ProviderSchema schema;
  schema.provider = SettingsSchema();
  for (const auto& [name, type] : resources_) schema.resources.push_back(type->PublishedSchema());
  for (const auto& [name, type] : data_sources_) schema.data_sources.push_back(type->Schema());
  return schema;
}

ResourceType* TypedProvider::FindResource(const std::string& type, Diagnostics& diags) const {
  auto it = resources_.find(type);
  if (it == resources_.end()) {
    diags = UnsupportedResourceType(Name(), type);
    return nullptr;
  }
  diags = NotReady();
  return diags.HasErrors() ? nullptr : it->second.get();
}

MoveResult TypedProvider::MoveResourceState(const MoveStateRequest& request) const {
  auto to = resources_.find(request.to_type);
  if (to == resources_.end()) {
    MoveResult result;
    result.diags = UnsupportedResourceType(Name(), request.to_type);
    return result;
  }
  auto from = resources_.find(request.from_type);
  return to->second->MoveFrom(from == resources_.end() ? nullptr : from->second.get(), request);
}

template <typename R, typename F>
R TypedProvider::Dispatch(const std::string& type, F&& call) const {
  R result;
  ResourceType* t = FindResource(type, result.diags);
  return t ? call(*t) : result;
}

template <typename R, typename F>
R TypedProvider::DispatchNormalized(const std::string& type, F&& call) const {
  R result;
  ResourceType* t = FindResource(type, result.diags);
  if (!t) return result;
  result = call(*t);
  result.state = attrs::Normalize(t->CachedSchema(), result.state);  // null stays null
  return result;
}

Diagnostics TypedProvider::ValidateResourceConfig(const OperationContext&, ResourceMode mode, const std::string& type,
                                                  const Value& config) {
  if (mode == ResourceMode::Data) return {};
  auto it = resources_.find(type);
  if (it == resources_.end()) return UnsupportedResourceType(Name(), type);
  return it->second->Validate(config);
}

ReadResult TypedProvider::ReadResource(const OperationContext& ctx, const std::string& type, const Value& prior) {
  return DispatchNormalized<ReadResult>(type, [&](ResourceType& t) { return t.Read(ctx, prior); });
}

bool TypedProvider::ReadsInBatches(const std::string& type) const {
  auto it = resources_.find(type);
  return it != resources_.end() && it->second->ReadsInBatches();
}

std::vector<ReadResult> TypedProvider::ReadResources(const OperationContext& ctx, const std::string& type,
                                                     const std::vector<Value>& priors) {
  Diagnostics diags;
  ResourceType* t = FindResource(type, diags);
  if (!t) return std::vector<ReadResult>(priors.size(), ReadResult{Value(), false, diags});
  std::vector<ReadResult> results = t->ReadMany(ctx, priors);
  const ResourceSchema& schema = t->CachedSchema();
  for (ReadResult& r : results) r.state = attrs::Normalize(schema, r.state);  // null stays null
  return results;
}

PlanResult TypedProvider::PlanResourceChange(const OperationContext& ctx, const std::string& type, const Value& prior,
                                             const Value& proposed, const Value& config) {
  return Dispatch<PlanResult>(type, [&](ResourceType& t) { return t.Plan(ctx, prior, proposed, config); });
}

ApplyResult TypedProvider::CreateResource(const OperationContext& ctx, const std::string& type, const Value& planned) {
  return DispatchNormalized<ApplyResult>(type, [&](ResourceType& t) { return t.CreateOrAdopt(ctx, planned); });
}

ApplyResult TypedProvider::UpdateResource(const OperationContext& ctx, const std::string& type, const Value& prior,
                                          const Value& planned) {
  return DispatchNormalized<ApplyResult>(type, [&](ResourceType& t) { return t.Update(ctx, prior, planned); });
}

DeleteResult TypedProvider::DeleteResource(const OperationContext& ctx, const std::string& type, const Value& prior) {
  return Dispatch<DeleteResult>(type, [&](ResourceType& t) { return t.Delete(ctx, prior); });
}

ReadResult TypedProvider::FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                                const Value& planned) {
  return DispatchNormalized<ReadResult>(type, [&](ResourceType& t) { return t.FindInterrupted(ctx, planned); });
}

ApplyResult TypedProvider::ImportResource(const OperationContext& ctx, const std::string& type, const std::string& id) {
  return DispatchNormalized<ApplyResult>(type, [&](ResourceType& t) { return t.Import(ctx, id); });
}

ReadResult TypedProvider::ReadDataSource(const OperationContext& ctx, const std::string& type, const Value& config) {
  auto it = data_sources_.find(type);
  if (it == data_sources_.end()) {
    return {{}, false, attrs::Error("Unsupported data source", "The " + Name() + " provider has no data source \"" + type + "\".")};
  }
  Diagnostics not_ready = NotReady();
  if (not_ready.HasErrors()) return {{}, false, not_ready};
  ReadResult result = it->second->Read(ctx, config);
  result.state = attrs::Normalize(it->second->Schema(), result.state);
  return result;
}

int TypedProvider::OrderingClass(const std::string& type, const Value& value) const {
  auto it = resources_.find(type);
  return it == resources_.end() ? 0 : it->second->OrderingClass(value);
}

}  // namespace strata
