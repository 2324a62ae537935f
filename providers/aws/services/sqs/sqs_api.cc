#include "providers/aws/services/sqs/sqs_api.h"

#include "providers/aws/common/policy_json.h"
#include "providers/aws/common/tags.h"
#include "providers/aws/common/wait.h"
#include "providers/aws/common/json_rpc_call.h"

namespace strata::aws {

Result<nlohmann::json> CallSqs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body) {
  return CallJsonRpc(session, ctx, {"sqs", "AmazonSQS", "1.0"}, operation, body, CallOptionsFor(ctx));
}

Result<std::optional<QueueAttributes>> GetQueueAttributes(const AwsSession& session, const OperationContext& ctx,
                                                          const std::string& url) {
  Result<nlohmann::json> got =
      CallSqs(session, ctx, "GetQueueAttributes", {{"QueueUrl", url}, {"AttributeNames", {"All"}}});
  if (!got.ok()) {
    if (got.error().code == kSqsQueueDoesNotExist) return std::optional<QueueAttributes>();
    return got.error();
  }
  QueueAttributes out;
  if (got->contains("Attributes") && (*got)["Attributes"].is_object()) {
    for (const auto& [name, value] : (*got)["Attributes"].items()) {
      if (value.is_string()) out[name] = value.get<std::string>();
    }
  }
  return std::optional<QueueAttributes>(std::move(out));
}

bool SameQueueAttribute(const std::string& name, const std::string& written, const std::string& read) {
  if (name == "Policy" || name == "RedrivePolicy" || name == "RedriveAllowPolicy") {
    return PolicyEquivalent(written, read);
  }
  return written == read;
}

Diagnostics WaitForQueueAttributes(const AwsSession& session, const OperationContext& ctx, const std::string& url,
                                   const QueueAttributes& written) {
  return WaitFor(
      session, ctx, "the attributes of SQS queue " + url + " to read back as written",
      [&] {
        WaitPoll poll;
        Result<std::optional<QueueAttributes>> read = GetQueueAttributes(session, ctx, url);
        if (!read.ok()) {
          poll.diags = AwsErrorDiag("GetQueueAttributes", read.error());
          return poll;
        }
        if (!read->has_value()) {
          poll.status = "queue not found yet";
          return poll;
        }
        poll.done = true;
        for (const auto& [name, value] : written) {
          auto it = (**read).find(name);
          bool same = it == (**read).end() ? value.empty() : SameQueueAttribute(name, value, it->second);
          if (!same) {
            poll.done = false;
            poll.status = name + " not yet " + (value.empty() ? "removed" : "\"" + value + "\"");
            break;
          }
        }
        return poll;
      },
      kPropagationWait);
}

Result<std::map<std::string, std::string>> ListQueueTags(const AwsSession& session, const OperationContext& ctx,
                                                         const std::string& url, std::string* token) {
  Result<nlohmann::json> got = CallSqs(session, ctx, "ListQueueTags", {{"QueueUrl", url}});
  if (!got.ok()) return got.error();
  std::map<std::string, std::string> tags;
  if (got->contains("Tags") && (*got)["Tags"].is_object()) {
    for (const auto& [key, value] : (*got)["Tags"].items()) {
      if (!value.is_string()) continue;
      if (key == kCreateTokenTag) {
        if (token) *token = value.get<std::string>();
        continue;
      }
      tags[key] = value.get<std::string>();
    }
  }
  return tags;
}

}  // namespace strata::aws
