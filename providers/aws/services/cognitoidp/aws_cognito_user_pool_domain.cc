// aws_cognito_user_pool_domain: a user pool's hosted-UI domain prefix
// ("<domain>.auth.<region>.amazoncognito.com"), over CreateUserPoolDomain /
// DescribeUserPoolDomain / DeleteUserPoolDomain, with Terraform's attributes. The id is the
// domain, also the import id. Create waits until the domain is ACTIVE; delete waits until
// DescribeUserPoolDomain no longer knows it (AWS answers an unknown domain with an empty
// description). Every argument forces a new domain. Custom domains (certificate_arn) are
// not offered.
//
// Recovery is by natural key: a domain prefix is unique in the region, so the domain of the
// planned name is what the create made when it belongs to the planned pool.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/wait.h"
#include "providers/aws/services/cognitoidp/cognitoidp_api.h"
#include "providers/aws/services/cognitoidp/cognitoidp_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsCognitoUserPoolDomain final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cognito_user_pool_domain", {{"domain", Required("string", true)},
                                                          {"user_pool_id", Required("string", true)},
                                                          {"aws_account_id", Computed("string")},
                                                          {"cloudfront_distribution", Computed("string")},
                                                          {"cloudfront_distribution_arn", Computed("string")},
                                                          {"cloudfront_distribution_zone_id", Computed("string")},
                                                          {"s3_bucket", Computed("string")},
                                                          {"version", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"domain", "user_pool_id"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string domain = GetString(planned, "domain");
    // A second attempt would be refused ("Domain already exists"): a lost answer is left to
    // recovery, which reads the domain.
    Result<json> created = CallCognito(*session_, ctx, "CreateUserPoolDomain",
                                       {{"Domain", domain}, {"UserPoolId", GetString(planned, "user_pool_id")}},
                                       CreateCallOptionsFor(ctx));
    if (!created.ok()) {
      ApplyResult failed = CreateFailed("CreateUserPoolDomain", created.error());
      if (created.error().message.find("already exists") != std::string::npos) {
        failed.diags.Error("Domain \"" + domain + "\" is taken",
                           ctx.address + ": domain prefixes are unique in a region; choose another `domain`.");
      }
      return failed;
    }
    return ReadAfterWrite(ctx, planned, domain, WaitActive(ctx, domain));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadDomain(ctx, GetString(prior, "id", GetString(prior, "domain")));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string domain = GetString(prior, "id");
    Result<json> done = CallCognito(*session_, ctx, "DeleteUserPoolDomain",
                                    {{"Domain", domain}, {"UserPoolId", GetString(prior, "user_pool_id")}});
    if (!done.ok()) {
      ReadResult still = ReadDomain(ctx, domain);
      if (still.gone && !still.diags.HasErrors()) return {};
      return {AwsErrorDiag("DeleteUserPoolDomain", done.error())};
    }
    return {WaitFor(*session_, ctx, "Cognito domain " + domain + " to be deleted", [&]() -> WaitPoll {
      Result<json> got = CallCognito(*session_, ctx, "DescribeUserPoolDomain", {{"Domain", domain}});
      if (!got.ok()) return {false, "", AwsErrorDiag("DescribeUserPoolDomain", got.error())};
      const json description = (*got).value("DomainDescription", json::object());
      return {!description.contains("Domain"), description.value("Status", "gone"), {}};
    })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  //! The domain of the planned name: ours when it belongs to the planned pool.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string domain = GetString(planned, "domain");
    ReadResult found = ReadDomain(ctx, domain);
    if (found.gone || found.diags.HasErrors()) return found;
    if (GetString(found.state, "user_pool_id") == GetString(planned, "user_pool_id")) {
      // An interrupted create may not have waited: wait now.
      found.diags.Append(WaitActive(ctx, domain));
      return found.diags.HasErrors() ? found : ReadDomain(ctx, domain);
    }
    return NotCreatedByThisApply(ctx, "Cognito domain \"" + domain + "\"", "it belongs to another user pool", domain);
  }

 private:
  Diagnostics WaitActive(const OperationContext& ctx, const std::string& domain) {
    return WaitFor(*session_, ctx, "Cognito domain " + domain + " to become ACTIVE", [&]() -> WaitPoll {
      Result<json> got = CallCognito(*session_, ctx, "DescribeUserPoolDomain", {{"Domain", domain}});
      if (!got.ok()) return {false, "", AwsErrorDiag("DescribeUserPoolDomain", got.error())};
      std::string status = (*got).value("DomainDescription", json::object()).value("Status", "");
      if (status == "FAILED") {
        return {false, status, Error("Cognito domain failed", ctx.address + ": domain " + domain + " is FAILED; delete it and create it again.")};
      }
      return {status == "ACTIVE", status, {}};
    });
  }

  ReadResult ReadDomain(const OperationContext& ctx, const std::string& domain) {
    Result<json> got = CallCognito(*session_, ctx, "DescribeUserPoolDomain", {{"Domain", domain}});
    if (!got.ok()) {
      if (got.error().code == kCognitoNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeUserPoolDomain", got.error())};
    }
    const json d = (*got).value("DomainDescription", json::object());
    if (!d.contains("Domain") || d.value("Status", "") == "DELETING") return {Value(), true, {}};
    std::string distribution = d.value("CloudFrontDistribution", "");
    return {Value::Object({{"id", Value::String(domain)},
                           {"domain", Value::String(domain)},
                           {"user_pool_id", Value::String(d.value("UserPoolId", ""))},
                           {"aws_account_id", Value::String(d.value("AWSAccountId", ""))},
                           {"cloudfront_distribution", Value::String(distribution)},
                           {"cloudfront_distribution_arn", Value::String(distribution)},
                           // CloudFront's one hosted zone, as Terraform reports it.
                           {"cloudfront_distribution_zone_id", Value::String("Z2FDTNDATAQYW2")},
                           {"s3_bucket", Value::String(d.value("S3Bucket", ""))},
                           {"version", Value::String(d.value("Version", ""))}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCognitoUserPoolDomain(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCognitoUserPoolDomain>(std::move(session));
}

}  // namespace strata::aws
