// data "aws_eks_cluster_auth": a bearer token for an EKS cluster's Kubernetes API, what
// `aws eks get-token` prints: "k8s-aws-v1." + a presigned STS GetCallerIdentity URL that
// covers the header x-k8s-aws-id: <name>, made with the provider's credentials and region
// and aimed at its (possibly overridden) STS endpoint. No network call; the token is
// valid for about 15 minutes, so it is made afresh at every read. `token` is sensitive.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_types.h"
#include "providers/aws/sts/eks_token.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsEksClusterAuth final : public AwsDataSourceType {
 public:
  using AwsDataSourceType::AwsDataSourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema("aws_eks_cluster_auth", {{"name", Required("string")},
                                                              {"token", Computed("string", /*sensitive=*/true)}});
    s.mode = ResourceMode::Data;
    return s;
  }

  ReadResult Read(const OperationContext& ctx, const Value& config) override {
    (void)ctx;
    std::string name = GetString(config, "name");
    const AwsClientDeps& deps = session_->client->deps();
    if (!deps.credentials) {
      return {Value(), false, Error("No AWS credentials", "aws_eks_cluster_auth needs credentials to sign the token.")};
    }
    Result<Credentials> creds = deps.credentials->GetCredentials();
    if (!creds.ok()) return {Value(), false, AwsErrorDiag("GetCredentials", creds.error())};
    EksTokenRequest request;
    request.cluster_id = name;
    request.region = session_->Region();
    Result<ResolvedEndpoint> sts = session_->client->Endpoint("sts");
    if (sts.ok()) request.sts_endpoint = sts->url;
    request.now = deps.clock->Now();
    Result<EksToken> token = MakeEksToken(*creds, request);
    if (!token.ok()) return {Value(), false, AwsErrorDiag("MakeEksToken", token.error())};
    Value state = Value::Object({{"id", Value::String(name)},
                                 {"name", Value::String(name)},
                                 {"token", Value::String(token->token).MarkSensitive()}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<DataSourceType> NewAwsEksClusterAuth(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksClusterAuth>(std::move(session));
}

}  // namespace strata::aws
