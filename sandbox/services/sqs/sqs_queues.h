#pragma once
// The sandbox's SQS queues: names, URLs and attributes as SQS keeps them. Attributes are
// strings on the wire and here; the writable ones are checked as SQS checks them (ranges,
// JSON policies, a redrive policy naming a queue ARN, FIFO-only attributes), the read-only
// ones (QueueArn, timestamps, message counts) are computed.
//
// Storage: one World document per queue under kQueueKind, keyed "<region>/<name>":
// {"region", "name", "attributes": {...}, "tags": {...}, "created", "modified"}.

#include <map>
#include <optional>
#include <string>

#include "sandbox/service.h"

namespace strata::sandbox::sqs {

inline constexpr const char* kQueueKind = "sqs.queue";

using Attributes = std::map<std::string, std::string>;

//! "https://sqs.<region>.amazonaws.com/<account>/<name>", as SQS names its queues.
std::string QueueUrl(const ServiceContext& ctx, const std::string& name);
//! The queue a QueueUrl names (its last path segment), refused with QueueDoesNotExist when
//! the URL is not one of this account's or no such queue exists.
Json RequireQueue(ServiceContext& ctx, const std::string& queue_url);
std::optional<Json> FindQueue(ServiceContext& ctx, const std::string& name);
void SaveQueue(ServiceContext& ctx, const Json& queue);
void EraseQueue(ServiceContext& ctx, const Json& queue);
//! The names of the call's region's queues, in name order.
std::vector<std::string> QueueNames(ServiceContext& ctx);

//! Checks a queue name (1-80 letters, digits, '-' and '_', and ".fifo" at the end for a
//! FIFO queue and only there).
void CheckQueueName(const std::string& name, bool fifo);
//! `given` checked and merged over the defaults of a new queue (or over `current`).
Attributes CheckedAttributes(const Attributes& given, const Attributes& current, bool creating);
//! The attributes of a new queue named `name` made from `given`.
Attributes NewQueueAttributes(const ServiceContext& ctx, const std::string& name, const Attributes& given);
//! Every attribute as GetQueueAttributes answers "All": the stored ones and the computed.
Attributes AllAttributes(const Json& queue);

}  // namespace strata::sandbox::sqs
