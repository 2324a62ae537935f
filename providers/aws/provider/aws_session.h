#pragma once
// What every aws resource and data source type shares once the provider is configured:
// the AwsClient, the region, the provider's default_tags — and the small glue between the
// provider interface and AwsClient (call options from an OperationContext, AwsError to
// Diagnostic).

#include <map>
#include <memory>
#include <string>

#include "engine/diag/diagnostic.h"
#include "providers/aws/client/aws_client.h"
#include "providers/provider.h"

namespace strata::aws {

//! Filled in by AwsProvider::Configure; the types hold it from construction.
struct AwsSession {
  std::shared_ptr<AwsClient> client;
  std::map<std::string, std::string> default_tags;

  bool Configured() const { return client != nullptr; }
  const std::string& Region() const { return client->region(); }
};

//! The context's deadline and cancellation as an AwsClient call's options.
CallOptions CallOptionsFor(const OperationContext& ctx);

//! "AWS CreateVpc failed" with the AWS code, message, HTTP status and request id.
Diagnostics AwsErrorDiag(const std::string& operation, const AwsError& error);

//! The ARN partition of a region: "aws", "aws-cn", "aws-us-gov".
std::string PartitionOf(const std::string& region);

//! "arn:<partition>:<service>:<region>:<account>:<resource>".
std::string MakeArn(const std::string& service, const std::string& region,
                    const std::string& account, const std::string& resource);

}  // namespace strata::aws
