#include "providers/aws/aws_provider.h"

#include "providers/aws/common/aws_settings.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/eks/eks_types.h"
#include "providers/aws/services/iam/iam_types.h"
#include "providers/aws/services/meta/meta_types.h"
#include "providers/aws/services/sts/sts_types.h"

namespace strata::aws {

using attrs::Error;

AwsProvider::AwsProvider(std::shared_ptr<const Environment> env)
    : env_(std::move(env)), session_(std::make_shared<AwsSession>()) {
  for (auto factory : {NewAwsVpc, NewAwsSubnet, NewAwsInternetGateway, NewAwsEip, NewAwsNatGateway,
                       NewAwsRouteTable, NewAwsRoute, NewAwsRouteTableAssociation, NewAwsSecurityGroup,
                       NewAwsSecurityGroupRule, NewAwsIamRole, NewAwsIamPolicy, NewAwsIamRolePolicyAttachment,
                       NewAwsIamOpenidConnectProvider, NewAwsIamInstanceProfile, NewAwsEksCluster,
                       NewAwsEksNodeGroup, NewAwsEksAddon}) {
    std::unique_ptr<ResourceType> type = factory(session_);
    resources_[type->Schema().type] = std::move(type);
  }
  for (auto factory : {NewAwsCallerIdentity, NewAwsRegion, NewAwsAvailabilityZones, NewAwsPartition,
                       NewAwsIamPolicyDocument, NewAwsEksClusterData, NewAwsEksClusterAuth}) {
    std::unique_ptr<DataSourceType> type = factory(session_);
    data_sources_[type->Schema().type] = std::move(type);
  }
}

ProviderSchema AwsProvider::Schema() const {
  ProviderSchema schema;
  schema.provider = AwsSettingsSchema();
  for (const auto& [name, type] : resources_) schema.resources.push_back(type->PublishedSchema());
  for (const auto& [name, type] : data_sources_) schema.data_sources.push_back(type->Schema());
  return schema;
}

Diagnostics AwsProvider::Configure(const OperationContext& ctx, const Value& config) {
  AwsSettings settings;
  Diagnostics diags = ParseAwsSettings(config, *env_, settings);
  if (diags.HasErrors()) return diags;
  auto log = [ctx](const std::string& line) { ctx.Log(LogLevel::Debug, line); };
  session_->client = MakeAwsClient(settings, env_, log);
  session_->default_tags = settings.default_tags;
  return diags;
}

ResourceType* AwsProvider::Find(const std::string& type, Diagnostics& diags) const {
  auto it = resources_.find(type);
  if (it == resources_.end()) {
    diags = Error("Unsupported resource type", "The aws provider has no resource type \"" + type + "\".");
    return nullptr;
  }
  if (!session_->Configured()) {
    diags = Error("Provider not configured", "The aws provider was used before Configure.");
    return nullptr;
  }
  return it->second.get();
}

ReadResult AwsProvider::ReadResource(const OperationContext& ctx, const std::string& type,
                                     const Value& prior) {
  return Normalized(type, Dispatch<ReadResult>(type, [&](ResourceType& t) { return t.Read(ctx, prior); }));
}

PlanResult AwsProvider::PlanResourceChange(const OperationContext& ctx, const std::string& type,
                                           const Value& prior, const Value& proposed,
                                           const Value& config) {
  return Dispatch<PlanResult>(
      type, [&](ResourceType& t) { return t.Plan(ctx, prior, proposed, config); });
}

ApplyResult AwsProvider::CreateResource(const OperationContext& ctx, const std::string& type,
                                        const Value& planned) {
  return Normalized(type, Dispatch<ApplyResult>(type, [&](ResourceType& t) { return t.CreateOrAdopt(ctx, planned); }));
}

ApplyResult AwsProvider::UpdateResource(const OperationContext& ctx, const std::string& type,
                                        const Value& prior, const Value& planned) {
  return Normalized(type, Dispatch<ApplyResult>(
                              type, [&](ResourceType& t) { return t.Update(ctx, prior, planned); }));
}

DeleteResult AwsProvider::DeleteResource(const OperationContext& ctx, const std::string& type,
                                         const Value& prior) {
  return Dispatch<DeleteResult>(type, [&](ResourceType& t) { return t.Delete(ctx, prior); });
}

ReadResult AwsProvider::FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                              const Value& planned) {
  return Normalized(type, Dispatch<ReadResult>(type, [&](ResourceType& t) { return t.FindInterrupted(ctx, planned); }));
}

ApplyResult AwsProvider::ImportResource(const OperationContext& ctx, const std::string& type,
                                        const std::string& id) {
  return Normalized(type, Dispatch<ApplyResult>(type, [&](ResourceType& t) { return t.Import(ctx, id); }));
}

ReadResult AwsProvider::ReadDataSource(const OperationContext& ctx, const std::string& type,
                                       const Value& config) {
  auto it = data_sources_.find(type);
  if (it == data_sources_.end()) {
    return {{}, false, Error("Unsupported data source", "The aws provider has no data source \"" + type + "\".")};
  }
  if (!session_->Configured()) {
    return {{}, false, Error("Provider not configured", "The aws provider was used before Configure.")};
  }
  ReadResult result = it->second->Read(ctx, config);
  result.state = attrs::Normalize(it->second->Schema(), result.state);
  return result;
}

}  // namespace strata::aws
