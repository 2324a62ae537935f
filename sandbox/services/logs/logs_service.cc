// Amazon CloudWatch Logs (awsJson 1.1, target prefix Logs_20140328, signing name "logs") as
// the sandbox serves it: log groups (CreateLogGroup, DescribeLogGroups with a name prefix
// and pages, DeleteLogGroup), their retention (PutRetentionPolicy, DeleteRetentionPolicy),
// KMS key (AssociateKmsKey, DisassociateKmsKey) and tags — by ARN (TagResource,
// UntagResource, ListTagsForResource) and by the older name-based calls (TagLogGroup,
// UntagLogGroup, ListTagsLogGroup). No log events are kept: nothing in Strata writes logs.
//
// Storage: World documents under "logs.log_group" keyed "<region>/<name>", in
// DescribeLogGroups' member names, plus "tags" ({key: value}).

#include <algorithm>
#include <cctype>

#include "sandbox/json_service.h"

namespace strata::sandbox {
namespace logs {
namespace {

constexpr const char* kLogGroupKind = "logs.log_group";

ApiError LogsNotFound() { return ApiError(400, "ResourceNotFoundException", "The specified log group does not exist."); }
ApiError LogsInvalid(const std::string& message) { return ApiError(400, "InvalidParameterException", message); }

std::string GroupArn(const ServiceContext& ctx, const std::string& name) {
  return "arn:aws:logs:" + RegionOf(ctx) + ":" + ctx.settings.account_id + ":log-group:" + name;
}

void CheckGroupName(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 512;
  for (char c : name) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || c == '/' || c == '#');
  }
  if (!ok) {
    throw ApiError(400, "InvalidParameterException",
                   "1 validation error detected: Value '" + name +
                       "' at 'logGroupName' failed to satisfy constraint: Member must satisfy regular expression "
                       "pattern: [\\.\\-_/#A-Za-z0-9]+");
  }
}

Json FindGroup(ServiceContext& ctx, const std::string& name) {
  std::optional<Json> group = ctx.world.Get(kLogGroupKind, RegionOf(ctx) + "/" + name);
  if (!group) throw LogsNotFound();
  return *group;
}

void SaveGroup(ServiceContext& ctx, const Json& group) {
  ctx.world.Put(kLogGroupKind, RegionOf(ctx) + "/" + group["logGroupName"].get<std::string>(), group);
}

//! The group a resourceArn names ("arn:aws:logs:<region>:<account>:log-group:<name>", with or
//! without a trailing ":*").
Json GroupOfArn(ServiceContext& ctx, const std::string& arn) {
  std::string prefix = GroupArn(ctx, "");
  if (arn.rfind(prefix, 0) != 0) throw LogsInvalid("The ARN " + arn + " is not a log group of this account and region.");
  std::string name = arn.substr(prefix.size());
  if (name.size() >= 2 && name.compare(name.size() - 2, 2, ":*") == 0) name.resize(name.size() - 2);
  return FindGroup(ctx, name);
}

Json AddedTags(const Json& input, Json tags) {
  for (const auto& [key, value] : JsonStringMap(input, "tags")) tags[key] = value;
  if (tags.size() > 50) throw ApiError(400, "TooManyTagsException", "A log group holds at most 50 tags.");
  return tags;
}

Json RemovedTags(const Json& input, const char* member, Json tags) {
  if (input.contains(member) && input[member].is_array()) {
    for (const Json& key : input[member]) {
      if (key.is_string()) tags.erase(key.get<std::string>());
    }
  }
  return tags;
}

void CheckRetention(int64_t days) {
  static const std::vector<int64_t> kDays = {1,   3,   5,   7,   14,  30,   60,   90,   120,  150,  180,
                                             365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653};
  if (std::find(kDays.begin(), kDays.end(), days) == kDays.end()) {
    throw LogsInvalid("1 validation error detected: Value '" + std::to_string(days) +
                      "' at 'retentionInDays' failed to satisfy constraint: Member must satisfy enum value set: "
                      "[1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, "
                      "3288, 3653]");
  }
}

Json CreateLogGroup(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "logGroupName");
  CheckGroupName(name);
  if (call.world().Get(kLogGroupKind, RegionOf(call.ctx) + "/" + name)) {
    throw ApiError(400, "ResourceAlreadyExistsException", "The specified log group already exists");
  }
  std::string group_class = OptionalJsonString(call.input, "logGroupClass");
  if (group_class.empty()) group_class = "STANDARD";
  if (group_class != "STANDARD" && group_class != "INFREQUENT_ACCESS") {
    throw LogsInvalid("logGroupClass must be STANDARD or INFREQUENT_ACCESS.");
  }
  std::string arn = GroupArn(call.ctx, name);
  Json group = {{"logGroupName", name},
                {"creationTime", static_cast<int64_t>(EpochSeconds(call.ctx.now) * 1000)},
                {"metricFilterCount", 0},
                {"arn", arn + ":*"},
                {"logGroupArn", arn},
                {"storedBytes", 0},
                {"logGroupClass", group_class},
                {"tags", AddedTags(call.input, Json::object())}};
  std::string kms = OptionalJsonString(call.input, "kmsKeyId");
  if (!kms.empty()) group["kmsKeyId"] = kms;
  SaveGroup(call.ctx, group);
  return Json::object();
}

Json DescribeLogGroups(JsonCall& call) {
  std::string prefix = OptionalJsonString(call.input, "logGroupNamePrefix");
  std::string pattern = OptionalJsonString(call.input, "logGroupNamePattern");
  if (!prefix.empty() && !pattern.empty()) throw LogsInvalid("logGroupNamePrefix and logGroupNamePattern are mutually exclusive.");
  int64_t limit = call.input.value("limit", int64_t{50});
  if (limit < 1 || limit > 50) throw LogsInvalid("limit must be from 1 to 50.");
  std::vector<Json> selected;
  for (auto& [id, group] : call.world().ListPrefix(kLogGroupKind, RegionOf(call.ctx) + "/" + prefix)) {
    std::string name = group["logGroupName"];
    if (!pattern.empty() && name.find(pattern) == std::string::npos) continue;
    group.erase("tags");
    selected.push_back(group);
  }
  Json out = Json::object();
  AnswerJsonPage(call.input, {"nextToken", "logs-page-", LogsInvalid("The specified nextToken is invalid.")}, selected,
                 static_cast<size_t>(limit), "logGroups", out);
  return out;
}

Json DeleteLogGroup(JsonCall& call) {
  std::string name = RequiredJsonString(call.input, "logGroupName");
  if (!call.world().Erase(kLogGroupKind, RegionOf(call.ctx) + "/" + name)) throw LogsNotFound();
  return Json::object();
}

Json PutRetentionPolicy(JsonCall& call) {
  Json group = FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"));
  if (!call.input.contains("retentionInDays") || !call.input["retentionInDays"].is_number_integer()) {
    throw LogsInvalid("1 validation error detected: Value null at 'retentionInDays' failed to satisfy constraint: "
                      "Member must not be null");
  }
  int64_t days = call.input["retentionInDays"].get<int64_t>();
  CheckRetention(days);
  group["retentionInDays"] = days;
  SaveGroup(call.ctx, group);
  return Json::object();
}

Json DeleteRetentionPolicy(JsonCall& call) {
  Json group = FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"));
  group.erase("retentionInDays");
  SaveGroup(call.ctx, group);
  return Json::object();
}

Json AssociateKmsKey(JsonCall& call) {
  Json group = FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"));
  std::string key = RequiredJsonString(call.input, "kmsKeyId");
  if (key.rfind("arn:", 0) != 0) throw LogsInvalid("Specified KMS key ARN is invalid: " + key);
  group["kmsKeyId"] = key;
  SaveGroup(call.ctx, group);
  return Json::object();
}

Json DisassociateKmsKey(JsonCall& call) {
  Json group = FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"));
  group.erase("kmsKeyId");
  SaveGroup(call.ctx, group);
  return Json::object();
}

//! Saves `group` with `tags` (a tag call's answer: nothing).
Json SaveTags(JsonCall& call, Json group, Json tags) {
  group["tags"] = std::move(tags);
  SaveGroup(call.ctx, group);
  return Json::object();
}

// The tag calls by ARN (TagResource, UntagResource, ListTagsForResource), and the older ones
// by name (TagLogGroup, UntagLogGroup, ListTagsLogGroup), which AWS keeps answering.
Json TagResource(JsonCall& call) {
  Json group = GroupOfArn(call.ctx, RequiredJsonString(call.input, "resourceArn"));
  return SaveTags(call, group, AddedTags(call.input, group["tags"]));
}
Json UntagResource(JsonCall& call) {
  Json group = GroupOfArn(call.ctx, RequiredJsonString(call.input, "resourceArn"));
  return SaveTags(call, group, RemovedTags(call.input, "tagKeys", group["tags"]));
}
Json ListTagsForResource(JsonCall& call) {
  return Json{{"tags", GroupOfArn(call.ctx, RequiredJsonString(call.input, "resourceArn"))["tags"]}};
}
Json TagLogGroup(JsonCall& call) {
  Json group = FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"));
  return SaveTags(call, group, AddedTags(call.input, group["tags"]));
}
Json UntagLogGroup(JsonCall& call) {
  Json group = FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"));
  return SaveTags(call, group, RemovedTags(call.input, "tags", group["tags"]));
}
Json ListTagsLogGroup(JsonCall& call) {
  return Json{{"tags", FindGroup(call.ctx, RequiredJsonString(call.input, "logGroupName"))["tags"]}};
}

}  // namespace
}  // namespace logs

std::unique_ptr<Service> NewLogsService() {
  JsonActionTable actions = {{"CreateLogGroup", logs::CreateLogGroup},
                             {"DescribeLogGroups", logs::DescribeLogGroups},
                             {"DeleteLogGroup", logs::DeleteLogGroup},
                             {"PutRetentionPolicy", logs::PutRetentionPolicy},
                             {"DeleteRetentionPolicy", logs::DeleteRetentionPolicy},
                             {"AssociateKmsKey", logs::AssociateKmsKey},
                             {"DisassociateKmsKey", logs::DisassociateKmsKey},
                             {"TagResource", logs::TagResource},
                             {"UntagResource", logs::UntagResource},
                             {"ListTagsForResource", logs::ListTagsForResource},
                             {"TagLogGroup", logs::TagLogGroup},
                             {"UntagLogGroup", logs::UntagLogGroup},
                             {"ListTagsLogGroup", logs::ListTagsLogGroup}};
  return NewJsonService("logs", {"Logs_20140328", "1.1"}, std::move(actions));
}

}  // namespace strata::sandbox
