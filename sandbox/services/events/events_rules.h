#pragma once
// The sandbox's EventBridge rules and their targets, as EventBridge keeps them: a rule
// belongs to an event bus (only "default" exists here) and carries an event pattern or a
// schedule expression, a state, a description, a role, tags and up to five targets.
//
// Storage: one World document per rule under kRuleKind, keyed "<region>/<bus>/<name>":
// {"region", "bus", "name", "pattern", "schedule", "state", "description", "role_arn",
//  "tags": {...}, "targets": [{"Id", "Arn", ...}, ...]} — targets in the order they were
// first put, each kept as PutTargets sent it.

#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::events {

inline constexpr const char* kRuleKind = "events.rule";
inline constexpr const char* kDefaultBus = "default";
//! EventBridge's quota of targets per rule.
inline constexpr size_t kMaxTargetsPerRule = 5;

//! The bus a call names (EventBusName: a name or an event bus ARN; absent: "default").
//! Refused with ResourceNotFoundException for any bus but the default one.
std::string BusOf(const Json& input);

//! "arn:aws:events:<region>:<account>:rule/<name>" ("rule/<bus>/<name>" off the default bus).
std::string RuleArn(const ServiceContext& ctx, const std::string& bus, const std::string& name);

std::optional<Json> FindRule(ServiceContext& ctx, const std::string& bus, const std::string& name);
//! The rule, or ResourceNotFoundException "Rule <name> does not exist on EventBus <bus>."
Json RequireRule(ServiceContext& ctx, const std::string& bus, const std::string& name);
//! The rule a rule ARN of this account and region names, or ResourceNotFoundException.
Json RequireRuleByArn(ServiceContext& ctx, const std::string& arn);
void SaveRule(ServiceContext& ctx, const Json& rule);
void EraseRule(ServiceContext& ctx, const Json& rule);
//! The bus's rules in the call's region, in name order.
std::vector<Json> RulesOf(ServiceContext& ctx, const std::string& bus);

//! Checks a rule name or target id, the input `member` ("name"): 1-64 of letters, digits,
//! '.', '-' and '_' (ValidationException naming the member).
void CheckEventsName(const std::string& value, const std::string& member);
//! Checks an event pattern as EventBridge does: a JSON object whose every field is an
//! object or a non-empty array (InvalidEventPatternException).
void CheckEventPattern(const std::string& pattern);
//! Checks "rate(<n> minute|minutes|hour|hours|day|days)" or "cron(<six fields>)"
//! (ValidationException "Parameter ScheduleExpression is not valid.").
void CheckScheduleExpression(const std::string& expression);

//! The rule as DescribeRule and ListRules answer it.
Json RuleAnswer(const ServiceContext& ctx, const Json& rule);

}  // namespace strata::sandbox::events
