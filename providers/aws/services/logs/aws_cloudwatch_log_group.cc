// aws_cloudwatch_log_group: a CloudWatch Logs log group (an EKS cluster's control plane
// logs, a workload's logs), over CreateLogGroup / DescribeLogGroups / DeleteLogGroup, with
// Terraform's attributes. The id is the name; `arn` is the group's ARN without the ":*"
// DescribeLogGroups appends, as Terraform keeps it. Retention (PutRetentionPolicy /
// DeleteRetentionPolicy), the KMS key (AssociateKmsKey / DisassociateKmsKey) and tags
// (TagResource / UntagResource on that ARN) change in place; a new name or class is a new
// group. With `skip_destroy` a destroy forgets the group and leaves it in AWS.
//
// CreateLogGroup takes no client token, so the create call tags the group with the engine's
// token and is never sent twice. The name is the natural key: after an interruption the
// group of the planned name is this create's only when it carries this create's token
// (a ResourceAlreadyExistsException for a group without it means someone else's group).

#include <algorithm>
#include <iterator>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/logs/logs_api.h"
#include "providers/aws/services/logs/logs_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

//! The string member `key` of `object`; `fallback` when it is absent, null or not a string
//! (moto answers absent members as null).
std::string LogsString(const json& object, const char* key, const std::string& fallback = "") {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

json LogsTagMap(const TagMap& tags) {
  json out = json::object();
  for (const auto& [key, value] : tags) out[key] = value;
  return out;
}

class AwsCloudwatchLogGroup final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cloudwatch_log_group", {{"name", OptionalComputed("string", true)},
                                                      {"name_prefix", Optional("string", true)},
                                                      {"retention_in_days", OptionalComputed("number")},
                                                      {"kms_key_id", Optional("string")},
                                                      {"log_group_class", OptionalComputed("string", true)},
                                                      {"skip_destroy", OptionalComputed("bool")},
                                                      {"tags", Optional("map(string)")},
                                                      {"tags_all", Computed("map(string)")},
                                                      {"arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"name", "name_prefix"}; }

  Diagnostics Validate(const Value& config) const override {
    if (Diagnostics conflict = NameAndPrefixConflict(config); conflict.HasErrors()) return conflict;
    std::optional<double> days = GetNumber(config, "retention_in_days");
    static const int kDays[] = {0,   1,   3,   5,    7,    14,   30,   60,   90,   120,  150, 180,
                                365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653};
    if (days && std::find(std::begin(kDays), std::end(kDays), static_cast<int>(*days)) == std::end(kDays)) {
      return Error("Invalid retention_in_days",
                   "retention_in_days must be 0 (never expire) or one of 1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, "
                   "365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653.");
    }
    Value group_class = Get(config, "log_group_class");
    if (group_class.IsString() && group_class.AsString() != "STANDARD" && group_class.AsString() != "INFREQUENT_ACCESS") {
      return Error("Invalid log_group_class", "log_group_class must be STANDARD or INFREQUENT_ACCESS.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GroupName(ctx, planned);
    json body = {{"logGroupName", name},
                 {"logGroupClass", GetString(planned, "log_group_class", "STANDARD")},
                 {"tags", LogsTagMap(TagsOnCreate(ctx, planned))}};
    std::string kms = GetString(planned, "kms_key_id");
    if (!kms.empty()) body["kmsKeyId"] = kms;
    // No client token: an attempt whose outcome is unknown is not sent again (recovery looks).
    Result<json> created = CallLogs(*session_, ctx, "CreateLogGroup", body, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("CreateLogGroup", created.error());
    Diagnostics diags;
    int days = Retention(planned);
    if (days > 0) diags = Run(ctx, "PutRetentionPolicy", {{"logGroupName", name}, {"retentionInDays", days}});
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadGroup(ctx, GetString(prior, "id", GetString(prior, "name")), prior, nullptr);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id");
    Diagnostics diags;
    int days = Retention(planned);
    if (days != Retention(prior)) {
      diags = days > 0 ? Run(ctx, "PutRetentionPolicy", {{"logGroupName", name}, {"retentionInDays", days}})
                       : Run(ctx, "DeleteRetentionPolicy", {{"logGroupName", name}});
    }
    std::string kms = GetString(planned, "kms_key_id");
    if (!diags.HasErrors() && kms != GetString(prior, "kms_key_id")) {
      diags = kms.empty() ? Run(ctx, "DisassociateKmsKey", {{"logGroupName", name}})
                          : Run(ctx, "AssociateKmsKey", {{"logGroupName", name}, {"kmsKeyId", kms}});
    }
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    std::string arn = GetString(prior, "arn");
    std::vector<std::string> removed = RemovedTagKeys(from, to);
    if (!diags.HasErrors() && !removed.empty()) diags = Run(ctx, "UntagResource", {{"resourceArn", arn}, {"tagKeys", removed}});
    TagMap added = ChangedTags(from, to);
    if (!diags.HasErrors() && !added.empty()) diags = Run(ctx, "TagResource", {{"resourceArn", arn}, {"tags", LogsTagMap(added)}});
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    if (GetBool(prior, "skip_destroy", false)) return {};  // forgotten, left in AWS
    Result<json> done = CallLogs(*session_, ctx, "DeleteLogGroup", {{"logGroupName", GetString(prior, "id")}});
    if (!done.ok() && done.error().code != kLogsNotFound) return {AwsErrorDiag("DeleteLogGroup", done.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = GroupName(ctx, planned), token;
    ReadResult found = ReadGroup(ctx, name, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "CloudWatch log group \"" + name + "\"", name);
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "retention_in_days").IsNull()) out = With(out, "retention_in_days", Value::Number(0));
    if (Get(out, "log_group_class").IsNull()) out = With(out, "log_group_class", Value::String("STANDARD"));
    if (Get(out, "skip_destroy").IsNull()) out = With(out, "skip_destroy", Value::Bool(false));
    return out;
  }

 private:
  static int Retention(const Value& v) { return static_cast<int>(GetNumber(v, "retention_in_days").value_or(0)); }

  //! The name given, or one from name_prefix (Terraform's "terraform-" without either) and
  //! the create's token, the same for its recovery.
  static std::string GroupName(const OperationContext& ctx, const Value& planned) {
    return NameOrUnique(ctx, planned, "terraform-");
  }

  Diagnostics Run(const OperationContext& ctx, const std::string& operation, const json& body) {
    Result<json> done = CallLogs(*session_, ctx, operation, body);
    return done.ok() ? Diagnostics{} : AwsErrorDiag(operation, done.error());
  }

  //! The group `name` (DescribeLogGroups by prefix, every page, the exact name kept) and its
  //! tags; `token` receives its create-token tag.
  ReadResult ReadGroup(const OperationContext& ctx, const std::string& name, const Value& prior, std::string* token) {
    std::optional<json> group;
    std::string next;
    do {
      json body = {{"logGroupNamePrefix", name}};
      if (!next.empty()) body["nextToken"] = next;
      Result<json> page = CallLogs(*session_, ctx, "DescribeLogGroups", body);
      if (!page.ok()) return {Value(), false, AwsErrorDiag("DescribeLogGroups", page.error())};
      for (const json& g : page->value("logGroups", json::array())) {
        if (LogsString(g, "logGroupName") == name) group = g;
      }
      next = LogsString(*page, "nextToken");
    } while (!group && !next.empty());
    if (!group) return {Value(), true, {}};
    std::string arn = LogsString(*group, "arn");
    if (arn.size() >= 2 && arn.compare(arn.size() - 2, 2, ":*") == 0) arn.resize(arn.size() - 2);
    Result<json> tags = CallLogs(*session_, ctx, "ListTagsForResource", {{"resourceArn", arn}});
    if (!tags.ok()) {
      if (tags.error().code == kLogsNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("ListTagsForResource", tags.error())};
    }
    TagMap remote;
    const json remote_tags = tags->value("tags", json::object());
    for (const auto& [key, value] : remote_tags.items()) remote[key] = value.is_string() ? value.get<std::string>() : "";
    if (token) *token = remote.count(kCreateTokenTag) ? remote[kCreateTokenTag] : "";
    remote.erase(kCreateTokenTag);
    std::string kms_key = LogsString(*group, "kmsKeyId");
    Value kms = kms_key.empty() ? Value() : Value::String(kms_key);
    const json& days = (*group)["retentionInDays"];
    return {Value::Object({{"id", Value::String(name)},
                           {"name", Value::String(name)},
                           {"name_prefix", Get(prior, "name_prefix")},
                           {"retention_in_days", Value::Number(days.is_number() ? days.get<double>() : 0)},
                           {"kms_key_id", kms},
                           {"log_group_class", Value::String(LogsString(*group, "logGroupClass", "STANDARD"))},
                           {"skip_destroy", Value::Bool(GetBool(prior, "skip_destroy", false))},
                           {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                           {"tags_all", TagsValue(remote)},
                           {"arn", Value::String(arn)}}),
            false,
            {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCloudwatchLogGroup(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCloudwatchLogGroup>(std::move(session));
}

}  // namespace strata::aws
