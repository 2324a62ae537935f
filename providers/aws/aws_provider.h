#pragma once
// The aws provider: the resource and data source types of each service under services/
// (ec2, iam, eks, sts, and meta for the provider-wide data sources), with Terraform's
// names and attributes, registered here by name. Configure builds one AwsClient (see
// common/aws_settings.h) shared by every type.

#include <map>
#include <memory>
#include <string>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/credentials/environment.h"
#include "providers/provider.h"

namespace strata::aws {

class AwsProvider : public Provider {
 public:
  //! `env` is where the region and credentials fall back to (the process by default).
  explicit AwsProvider(std::shared_ptr<const Environment> env = std::make_shared<SystemEnvironment>());

  std::string Name() const override { return "aws"; }
  ProviderSchema Schema() const override;
  Diagnostics Configure(const OperationContext& ctx, const Value& config) override;
  ReadResult ReadResource(const OperationContext& ctx, const std::string& type,
                          const Value& prior) override;
  PlanResult PlanResourceChange(const OperationContext& ctx, const std::string& type,
                                const Value& prior, const Value& proposed,
                                const Value& config) override;
  ApplyResult CreateResource(const OperationContext& ctx, const std::string& type,
                             const Value& planned) override;
  ApplyResult UpdateResource(const OperationContext& ctx, const std::string& type,
                             const Value& prior, const Value& planned) override;
  DeleteResult DeleteResource(const OperationContext& ctx, const std::string& type,
                              const Value& prior) override;
  ReadResult FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                   const Value& planned) override;
  ApplyResult ImportResource(const OperationContext& ctx, const std::string& type,
                             const std::string& id) override;
  ReadResult ReadDataSource(const OperationContext& ctx, const std::string& type,
                            const Value& config) override;

 private:
  //! The type, or null with an error when it is unknown or the provider is not configured.
  ResourceType* Find(const std::string& type, Diagnostics& diags) const;
  //! `call(type)`, or an error result when the type is unknown or not configured.
  template <typename R, typename F>
  R Dispatch(const std::string& type, F&& call) const {
    R result;
    ResourceType* t = Find(type, result.diags);
    return t ? call(*t) : result;
  }
  //! `result` with its state normalized to the type's schema (null stays null).
  template <typename R>
  R Normalized(const std::string& type, R result) const {
    if (resources_.count(type)) result.state = attrs::Normalize(resources_.at(type)->Schema(), result.state);
    return result;
  }

  std::shared_ptr<const Environment> env_;
  std::shared_ptr<AwsSession> session_;
  std::map<std::string, std::unique_ptr<ResourceType>> resources_;
  std::map<std::string, std::unique_ptr<DataSourceType>> data_sources_;
};

}  // namespace strata::aws
