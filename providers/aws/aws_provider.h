#pragma once
// The aws provider: the resource and data source types of each service under services/
// (ec2, iam, eks, sts, and meta for the provider-wide data sources), with Terraform's
// names and attributes, registered here by name (TypedProvider dispatches to them). Configure builds one AwsClient (see
// common/aws_settings.h) shared by every type.

#include <memory>
#include <string>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/credentials/environment.h"
#include "providers/typed_provider.h"

namespace strata::aws {

class AwsProvider : public TypedProvider {
 public:
  //! `env` is where the region and credentials fall back to (the process by default).
  explicit AwsProvider(std::shared_ptr<const Environment> env = std::make_shared<SystemEnvironment>());

  std::string Name() const override { return "aws"; }
  Diagnostics Configure(const OperationContext& ctx, const Value& config) override;

 private:
  ResourceSchema SettingsSchema() const override;
  //! An error until Configure has built the client.
  Diagnostics NotReady() const override;

  std::shared_ptr<const Environment> env_;
  std::shared_ptr<AwsSession> session_;
};

}  // namespace strata::aws
