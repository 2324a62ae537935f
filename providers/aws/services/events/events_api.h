#pragma once
// Calling EventBridge (awsJson 1.1, target prefix "AWSEvents"; endpoint override key
// "events") from a resource type, and what the rule and target types share: Terraform's
// rule ids ("name" on the default bus, "bus/name" on another), tags by rule ARN.

#include <nlohmann/json.hpp>
#include <string>

#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/json_members.h"
#include "providers/aws/common/tags.h"
#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

inline constexpr const char* kEventsNotFound = "ResourceNotFoundException";
inline constexpr const char* kDefaultEventBus = "default";

//! Sends `operation` with `body` to EventBridge with `options` (default: the context's
//! deadline and cancellation), logging "events:<operation>".
Result<nlohmann::json> CallEvents(const AwsSession& session, const OperationContext& ctx,
                                  const std::string& operation, const nlohmann::json& body);
Result<nlohmann::json> CallEvents(const AwsSession& session, const OperationContext& ctx,
                                  const std::string& operation, const nlohmann::json& body,
                                  const CallOptions& options);

//! A rule: the bus it is on and its name.
struct EventRuleAddress {
  std::string bus = kDefaultEventBus;
  std::string name;
  //! Terraform's id: the name on the default bus, "bus/name" otherwise.
  std::string Id() const;
  //! {"Name": name} and "EventBusName" when the bus is not the default: how calls name it.
  nlohmann::json Request(const char* name_member = "Name") const;
};

//! The address an id names ("name" or "bus/name").
EventRuleAddress ParseEventRuleId(const std::string& id);


//! ListTagsForResource of `arn`, without the create-token tag, whose value goes to `token`
//! when given.
Result<TagMap> ListEventsTags(const AwsSession& session, const OperationContext& ctx,
                              const std::string& arn, std::string* token = nullptr);
//! [{"Key", "Value"}, ...]: EventBridge's tag list.
nlohmann::json EventsTagList(const TagMap& tags);
//! TagResource with what `to` adds or changes, UntagResource with what it lacks.
Diagnostics UpdateEventsTags(const AwsSession& session, const OperationContext& ctx,
                             const std::string& arn, const TagMap& from, const TagMap& to);

}  // namespace strata::aws
