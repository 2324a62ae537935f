// The EventBridge service (awsJson 1.1, target prefix AWSEvents, signing name "events"):
// rules on the default event bus, made or replaced by PutRule (idempotent by name), their
// targets (PutTargets upserts by Id, at most five per rule), tags by rule ARN. A rule with
// targets cannot be deleted; deleting a rule that is not there succeeds, as on AWS. Events
// are not delivered: nothing in the sandbox emits them.

#include <algorithm>

#include "sandbox/json_service.h"
#include "sandbox/services/events/events_rules.h"

namespace strata::sandbox {
namespace events {
namespace {

constexpr size_t kMaxRuleTags = 50;
constexpr int kDefaultEventsPageSize = 100;

ApiError EventsInvalid(const std::string& message) {
  return ApiError(400, "ValidationException", message);
}

//! [{"Key", "Value"}, ...] as a map; anything else: ValidationException.
std::map<std::string, std::string> EventsTagList(const Json& input) {
  std::map<std::string, std::string> tags;
  auto it = input.find("Tags");
  if (it == input.end() || it->is_null()) return tags;
  if (!it->is_array()) throw EventsInvalid("The value of Tags must be a list of tags.");
  for (const Json& tag : *it) {
    std::string key = tag.is_object() ? RequiredJsonString(tag, "Key") : "";
    std::string value = tag.is_object() ? RequiredJsonString(tag, "Value") : "";
    if (key.empty() || key.size() > 128 || value.size() > 256) {
      throw EventsInvalid("Tag keys must be 1 to 128 characters, values at most 256.");
    }
    tags[key] = value;
  }
  if (tags.size() > kMaxRuleTags)
    throw ApiError(400, "LimitExceededException", "A resource has at most 50 tags.");
  return tags;
}

Json EventsTagAnswer(const Json& tags) {
  Json list = Json::array();
  for (const auto& [key, value] : tags.items()) list.push_back({{"Key", key}, {"Value", value}});
  return list;
}

std::vector<std::string> EventsStringList(const Json& input, const std::string& key) {
  std::vector<std::string> out;
  auto it = input.find(key);
  if (it == input.end() || !it->is_array())
    throw EventsInvalid("The value of " + key + " must be a list of strings.");
  for (const Json& item : *it) {
    if (!item.is_string())
      throw EventsInvalid("The value of " + key + " must be a list of strings.");
    out.push_back(item.get<std::string>());
  }
  return out;
}

//! One page of `items` from NextToken (an offset) and Limit, as {member: [...], NextToken}.
Json EventsPage(const Json& input, const std::string& member, const std::vector<Json>& items) {
  size_t start = 0;
  std::string token = OptionalJsonString(input, "NextToken");
  if (!token.empty()) {
    try {
      start = std::stoul(token);
    } catch (const std::exception&) {
      throw EventsInvalid("The NextToken is not valid.");
    }
  }
  long long limit = kDefaultEventsPageSize;
  if (input.contains("Limit") && input["Limit"].is_number_integer())
    limit = input["Limit"].get<long long>();
  if (limit < 1 || limit > 100) throw EventsInvalid("Limit must be from 1 to 100.");
  Json page = Json::array();
  size_t end = std::min(items.size(), start + static_cast<size_t>(limit));
  for (size_t i = start; i < end; ++i) page.push_back(items[i]);
  Json out = {{member, page}};
  if (end < items.size()) out["NextToken"] = std::to_string(end);
  return out;
}

Json PutRule(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "Name");
  CheckEventsName(name, "name");
  std::string bus = BusOf(call.input);
  std::string pattern = OptionalJsonString(call.input, "EventPattern");
  std::string schedule = OptionalJsonString(call.input, "ScheduleExpression");
  if (pattern.empty() && schedule.empty()) {
    throw EventsInvalid("Parameter(s) EventPattern or ScheduleExpression must be specified.");
  }
  if (!pattern.empty()) CheckEventPattern(pattern);
  if (!schedule.empty()) CheckScheduleExpression(schedule);
  std::string state = OptionalJsonString(call.input, "State");
  if (state.empty()) state = "ENABLED";
  if (state != "ENABLED" && state != "DISABLED" &&
      state != "ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS") {
    throw EventsInvalid(
        "1 validation error detected: Value '" + state +
        "' at 'state' failed to satisfy constraint: Member must satisfy enum value set: [ENABLED, "
        "DISABLED, ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS]");
  }
  std::string description = OptionalJsonString(call.input, "Description");
  if (description.size() > 512) throw EventsInvalid("Description must be at most 512 characters.");
  std::optional<Json> existing = FindRule(call.ctx, bus, name);
  // PutRule replaces the rule's definition; its tags and targets stay (Tags apply to a new rule).
  Json rule = existing ? *existing
                       : Json{{"region", RegionOf(call.ctx)},
                              {"bus", bus},
                              {"name", name},
                              {"tags", Json::object()},
                              {"targets", Json::array()}};
  if (!existing) rule["tags"] = EventsTagList(call.input);
  rule["pattern"] = pattern;
  rule["schedule"] = schedule;
  rule["state"] = state;
  rule["description"] = description;
  rule["role_arn"] = OptionalJsonString(call.input, "RoleArn");
  SaveRule(call.ctx, rule);
  return {{"RuleArn", RuleArn(call.ctx, bus, name)}};
}

Json DescribeRule(JsonCall& call) {
  std::string bus = BusOf(call.input);
  return RuleAnswer(call.ctx, RequireRule(call.ctx, bus, RequiredJsonString(call.input, "Name")));
}

Json ListRules(JsonCall& call) {
  std::string prefix = OptionalJsonString(call.input, "NamePrefix");
  std::vector<Json> rules;
  for (const Json& rule : RulesOf(call.ctx, BusOf(call.input))) {
    if (rule["name"].get<std::string>().rfind(prefix, 0) == 0)
      rules.push_back(RuleAnswer(call.ctx, rule));
  }
  return EventsPage(call.input, "Rules", rules);
}

Json DeleteRule(JsonCall& call) {
  std::string bus = BusOf(call.input);
  std::optional<Json> rule = FindRule(call.ctx, bus, RequiredJsonString(call.input, "Name"));
  if (!rule) return Json::object();  // AWS: deleting a rule that is not there succeeds
  if (!(*rule)["targets"].empty())
    throw EventsInvalid("Rule can't be deleted since it has targets.");
  EraseRule(call.ctx, *rule);
  return Json::object();
}

Json SetRuleState(JsonCall& call, const char* state) {
  std::string bus = BusOf(call.input);
  Json rule = RequireRule(call.ctx, bus, RequiredJsonString(call.input, "Name"));
  rule["state"] = state;
  SaveRule(call.ctx, rule);
  return Json::object();
}

Json EnableRule(JsonCall& call) { return SetRuleState(call, "ENABLED"); }
Json DisableRule(JsonCall& call) { return SetRuleState(call, "DISABLED"); }

//! A target as PutTargets sent it, checked: Id 1-64 of letters, digits, '.', '-', '_';
//! an Arn; at most one of Input, InputPath, InputTransformer; Input valid JSON.
Json CheckedTarget(const Json& target) {
  if (!target.is_object()) throw EventsInvalid("Each target must be an object.");
  std::string id = RequiredJsonString(target, "Id");
  CheckEventsName(id, "targets.member.id");
  if (RequiredJsonString(target, "Arn").empty())
    throw EventsInvalid("Target Arn must not be empty.");
  int inputs = 0;
  for (const char* member : {"Input", "InputPath", "InputTransformer"})
    inputs += target.contains(member) ? 1 : 0;
  if (inputs > 1)
    throw EventsInvalid("Only one of Input, InputPath, or InputTransformer must be provided.");
  std::string input = OptionalJsonString(target, "Input");
  if (target.contains("Input") &&
      Json::parse(input, nullptr, /*allow_exceptions=*/false).is_discarded()) {
    throw EventsInvalid("Input for target " + id + " is not valid JSON text.");
  }
  return target;
}

Json PutTargets(JsonCall& call) {
  std::string bus = BusOf(call.input);
  Json rule = RequireRule(call.ctx, bus, RequiredJsonString(call.input, "Rule"));
  auto given = call.input.find("Targets");
  if (given == call.input.end() || !given->is_array() || given->empty() || given->size() > 10) {
    throw EventsInvalid("Targets must be a list of 1 to 10 targets.");
  }
  Json& targets = rule["targets"];
  for (const Json& raw : *given) {
    Json target = CheckedTarget(raw);
    bool replaced = false;
    for (Json& kept : targets) {
      if (kept["Id"] == target["Id"]) kept = target, replaced = true;
    }
    if (!replaced) targets.push_back(target);
  }
  if (targets.size() > kMaxTargetsPerRule) {
    throw ApiError(
        400, "LimitExceededException",
        "The requested resource exceeds the maximum number allowed: a rule has at most 5 targets.");
  }
  SaveRule(call.ctx, rule);
  return {{"FailedEntryCount", 0}, {"FailedEntries", Json::array()}};
}

Json RemoveTargets(JsonCall& call) {
  std::string bus = BusOf(call.input);
  Json rule = RequireRule(call.ctx, bus, RequiredJsonString(call.input, "Rule"));
  std::vector<std::string> ids = EventsStringList(call.input, "Ids");
  Json kept = Json::array();
  for (const Json& target : rule["targets"]) {
    if (std::find(ids.begin(), ids.end(), target["Id"].get<std::string>()) == ids.end())
      kept.push_back(target);
  }
  rule["targets"] = kept;
  SaveRule(call.ctx, rule);
  return {{"FailedEntryCount", 0}, {"FailedEntries", Json::array()}};
}

Json ListTargetsByRule(JsonCall& call) {
  std::string bus = BusOf(call.input);
  Json rule = RequireRule(call.ctx, bus, RequiredJsonString(call.input, "Rule"));
  return EventsPage(call.input, "Targets", rule["targets"].get<std::vector<Json>>());
}

Json TagResource(JsonCall& call) {
  Json rule = RequireRuleByArn(call.ctx, RequiredJsonString(call.input, "ResourceARN"));
  std::map<std::string, std::string> tags = rule["tags"].get<std::map<std::string, std::string>>();
  for (const auto& [key, value] : EventsTagList(call.input)) tags[key] = value;
  if (tags.size() > kMaxRuleTags)
    throw ApiError(400, "LimitExceededException", "A resource has at most 50 tags.");
  rule["tags"] = tags;
  SaveRule(call.ctx, rule);
  return Json::object();
}

Json UntagResource(JsonCall& call) {
  Json rule = RequireRuleByArn(call.ctx, RequiredJsonString(call.input, "ResourceARN"));
  for (const std::string& key : EventsStringList(call.input, "TagKeys")) rule["tags"].erase(key);
  SaveRule(call.ctx, rule);
  return Json::object();
}

Json ListTagsForResource(JsonCall& call) {
  Json rule = RequireRuleByArn(call.ctx, RequiredJsonString(call.input, "ResourceARN"));
  return {{"Tags", EventsTagAnswer(rule["tags"])}};
}

}  // namespace
}  // namespace events

std::unique_ptr<Service> NewEventsService() {
  JsonActionTable actions = {{"PutRule", events::PutRule},
                             {"DescribeRule", events::DescribeRule},
                             {"ListRules", events::ListRules},
                             {"DeleteRule", events::DeleteRule},
                             {"EnableRule", events::EnableRule},
                             {"DisableRule", events::DisableRule},
                             {"PutTargets", events::PutTargets},
                             {"RemoveTargets", events::RemoveTargets},
                             {"ListTargetsByRule", events::ListTargetsByRule},
                             {"TagResource", events::TagResource},
                             {"UntagResource", events::UntagResource},
                             {"ListTagsForResource", events::ListTagsForResource}};
  return NewJsonService("events", {"AWSEvents", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
