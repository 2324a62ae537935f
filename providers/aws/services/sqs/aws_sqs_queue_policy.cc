// aws_sqs_queue_policy: the access policy of an SQS queue made elsewhere (the queue
// EventBridge's interruption rules deliver to), as the queue's Policy attribute. The id is
// the queue URL; `queue_url` forces a new policy; `policy` is compared by meaning (SQS
// rewrites the text), and what the user wrote is kept when it means the same. Setting the
// attribute again is the whole create, so the queue is the natural key; SetQueueAttributes
// with an empty Policy removes it.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/policy_json.h"
#include "providers/aws/services/sqs/sqs_api.h"
#include "providers/aws/services/sqs/sqs_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsSqsQueuePolicy final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_sqs_queue_policy",
                         {{"queue_url", Required("string", true)}, {"policy", Required("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string url = GetString(planned, "queue_url");
    Diagnostics diags = SetPolicy(ctx, url, GetString(planned, "policy"));
    if (diags.HasErrors()) return {Value(), diags};
    return ReadAfterWrite(ctx, planned, url, {});
  }

  //! The policy of the planned queue, whoever set it: setting it again is the create.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override { return Read(ctx, planned); }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string url = GetString(prior, "id", GetString(prior, "queue_url"));
    Result<std::optional<QueueAttributes>> got = GetQueueAttributes(*session_, ctx, url);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("GetQueueAttributes", got.error())};
    if (!got->has_value()) return {Value(), true, {}};
    auto policy = (**got).find("Policy");
    if (policy == (**got).end() || policy->second.empty()) return {Value(), true, {}};
    return {Value::Object({{"id", Value::String(url)},
                           {"queue_url", Value::String(url)},
                           {"policy", JsonDocumentForState(policy->second, Get(prior, "policy"))}}),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string url = GetString(prior, "id");
    return ReadAfterWrite(ctx, planned, url, SetPolicy(ctx, url, GetString(planned, "policy")));
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    Result<json> done = CallSqs(*session_, ctx, "SetQueueAttributes",
                                {{"QueueUrl", GetString(prior, "id")}, {"Attributes", {{"Policy", ""}}}});
    // A queue that is gone took its policy with it.
    if (!done.ok() && done.error().code != kSqsQueueDoesNotExist) return {AwsErrorDiag("SetQueueAttributes", done.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 private:
  Diagnostics SetPolicy(const OperationContext& ctx, const std::string& url, const std::string& policy) const {
    Result<json> set = CallSqs(*session_, ctx, "SetQueueAttributes", {{"QueueUrl", url}, {"Attributes", {{"Policy", policy}}}});
    if (!set.ok()) return AwsErrorDiag("SetQueueAttributes", set.error());
    return WaitForQueueAttributes(*session_, ctx, url, {{"Policy", policy}});
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSqsQueuePolicy(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSqsQueuePolicy>(std::move(session));
}

}  // namespace strata::aws
