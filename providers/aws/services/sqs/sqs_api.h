#pragma once
// Calling SQS (awsJson 1.0, target prefix AmazonSQS; regional, endpoint override key "sqs")
// from a resource type, and what the SQS types share: a queue's attributes (strings on the
// wire), read with GetQueueAttributes, and the wait until what was written reads back —
// SQS applies attribute changes eventually (up to a minute; 15 for the retention period).

#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/common/aws_session.h"

namespace strata::aws {

inline constexpr const char* kSqsQueueDoesNotExist = "QueueDoesNotExist";

//! Sends the SQS action `operation` with `body`.
Result<nlohmann::json> CallSqs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const nlohmann::json& body);

using QueueAttributes = std::map<std::string, std::string>;

//! Every attribute of the queue at `url`; nullopt when the queue does not exist.
Result<std::optional<QueueAttributes>> GetQueueAttributes(const AwsSession& session, const OperationContext& ctx,
                                                          const std::string& url);

//! Whether an attribute as read means what was written: JSON documents (policies) by
//! meaning, everything else as text.
bool SameQueueAttribute(const std::string& name, const std::string& written, const std::string& read);

//! Waits until every attribute of `written` reads back from the queue at `url` as
//! SameQueueAttribute says (and, for an empty value, until it is gone).
Diagnostics WaitForQueueAttributes(const AwsSession& session, const OperationContext& ctx, const std::string& url,
                                   const QueueAttributes& written);

//! The queue's tags (ListQueueTags), without the create-token tag, whose value goes to
//! `token` when given.
Result<std::map<std::string, std::string>> ListQueueTags(const AwsSession& session, const OperationContext& ctx,
                                                         const std::string& url, std::string* token = nullptr);

}  // namespace strata::aws
