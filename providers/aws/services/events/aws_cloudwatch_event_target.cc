// aws_cloudwatch_event_target: one target of an EventBridge rule over PutTargets /
// ListTargetsByRule / RemoveTargets, with Terraform's attribute names: `rule` and
// `target_id` (made from the create's token when not given) name it, a new rule, bus or id
// is a new target; arn, input, input_path and role_arn change in place. The id is
// Terraform's "rule-target_id" ("bus-rule-target_id" off the default bus); import takes
// Terraform's "rule/target_id" or "bus/rule/target_id".
//
// PutTargets sets the target of that id whether or not it is there, so (bus, rule, id) is
// the natural key: an interrupted create is finished by putting the target again, and
// nothing can be doubled.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/events/events_api.h"
#include "providers/aws/services/events/events_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

//! The target's members that map one to one to an attribute.
constexpr std::pair<const char*, const char*> kTargetMembers[] = {
    {"Arn", "arn"}, {"Input", "input"}, {"InputPath", "input_path"}, {"RoleArn", "role_arn"}};

struct TargetAddress {
  EventRuleAddress rule;
  std::string target_id;
  std::string Id() const {
    return (rule.bus == kDefaultEventBus ? "" : rule.bus + "-") + rule.name + "-" + target_id;
  }
};

class AwsCloudwatchEventTarget final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cloudwatch_event_target",
                         {{"rule", Required("string", true)},
                          {"target_id", OptionalComputed("string", true)},
                          {"arn", Required("string")},
                          {"event_bus_name", Optional("string", true)},
                          {"input", Optional("string")},
                          {"input_path", Optional("string")},
                          {"role_arn", Optional("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  //! The target id is the user's, or derived from the create's token.
  std::vector<std::string> RecoveryKey() const override { return {"rule", "event_bus_name"}; }

  Diagnostics Validate(const Value& config) const override {
    if (!Get(config, "input").IsNull() && !Get(config, "input_path").IsNull()) {
      return Error("Conflicting arguments", "Only one of input and input_path can be set.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    TargetAddress at = AddressToCreate(ctx, planned);
    Result<nlohmann::json> put = Put(ctx, at, planned, CreateCallOptionsFor(ctx));
    if (!put.ok()) return CreateFailed("PutTargets", put.error());
    Diagnostics failed = FailedEntries(*put);
    if (failed.HasErrors()) return {Value(), failed};
    return ReadAfterWrite(ctx, With(planned, "target_id", Value::String(at.target_id)), at.Id(),
                          {});
  }

  //! The target of the planned (bus, rule, id), whoever put it: putting it again is the create.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    return ReadTarget(ctx, AddressToCreate(ctx, planned));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadTarget(ctx, AddressOf(prior));
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior,
                     const Value& planned) override {
    TargetAddress at = AddressOf(prior);
    Result<nlohmann::json> put = Put(ctx, at, planned, CallOptionsFor(ctx));
    Diagnostics diags = put.ok() ? FailedEntries(*put) : AwsErrorDiag("PutTargets", put.error());
    return ReadAfterWrite(ctx, planned, at.Id(), diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    TargetAddress at = AddressOf(prior);
    nlohmann::json body = at.rule.Request("Rule");
    body["Ids"] = {at.target_id};
    Result<nlohmann::json> removed = CallEvents(*session_, ctx, "RemoveTargets", body);
    // A rule that is gone took its targets with it.
    if (!removed.ok() && removed.error().code != kEventsNotFound)
      return {AwsErrorDiag("RemoveTargets", removed.error())};
    return {removed.ok() ? FailedEntries(*removed) : Diagnostics{}};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
      size_t slash = id.find('/', start);
      parts.push_back(
          id.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
      if (slash == std::string::npos) break;
      start = slash + 1;
    }
    bool empty_part = false;
    for (const std::string& part : parts) empty_part = empty_part || part.empty();
    if ((parts.size() != 2 && parts.size() != 3) || empty_part) {
      return {Value(), Error("Invalid import id",
                             "An aws_cloudwatch_event_target is imported by \"rule/target_id\" or "
                             "\"event_bus_name/rule/target_id\", not \"" +
                                 id + "\".")};
    }
    TargetAddress at{{parts.size() == 3 ? parts[0] : kDefaultEventBus, parts[parts.size() - 2]},
                     parts.back()};
    ReadResult read = ReadTarget(ctx, at);
    ApplyResult result{read.state, read.diags};
    if (read.gone) {
      result.diags.Error("Cannot import non-existent remote object",
                         "Rule \"" + at.rule.name + "\" has no target \"" + at.target_id + "\".");
    }
    return result;
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "event_bus_name").IsNull())
      out = With(out, "event_bus_name", Value::String(kDefaultEventBus));
    return out;
  }

 private:
  static TargetAddress AddressOf(const Value& v) {
    return {{GetString(v, "event_bus_name", kDefaultEventBus), GetString(v, "rule")},
            GetString(v, "target_id")};
  }

  //! The target a create puts: the id given, or Terraform's "terraform-" and the create's
  //! token (the same for its recovery).
  static TargetAddress AddressToCreate(const OperationContext& ctx, const Value& planned) {
    TargetAddress at = AddressOf(planned);
    if (!Get(planned, "target_id").IsString() || at.target_id.empty())
      at.target_id = UniqueName("terraform-", ctx);
    return at;
  }

  Result<nlohmann::json> Put(const OperationContext& ctx, const TargetAddress& at,
                             const Value& planned, const CallOptions& options) const {
    nlohmann::json target = {{"Id", at.target_id}};
    for (const auto& [member, attribute] : kTargetMembers) {
      std::string value = GetString(planned, attribute);
      if (!value.empty()) target[member] = value;
    }
    nlohmann::json body = at.rule.Request("Rule");
    body["Targets"] = {target};
    return CallEvents(*session_, ctx, "PutTargets", body, options);
  }

  //! PutTargets and RemoveTargets answer a refused entry in FailedEntries, not as an error.
  static Diagnostics FailedEntries(const nlohmann::json& answer) {
    Diagnostics diags;
    if (!answer.contains("FailedEntries") || !answer["FailedEntries"].is_array()) return diags;
    for (const auto& entry : answer["FailedEntries"]) {
      diags.Error("EventBridge refused target \"" + JsonString(entry, "TargetId") + "\"",
                  JsonString(entry, "ErrorCode") + ": " + JsonString(entry, "ErrorMessage"));
    }
    return diags;
  }

  //! The target from ListTargetsByRule's pages; gone when the rule or the target is.
  ReadResult ReadTarget(const OperationContext& ctx, const TargetAddress& at) {
    nlohmann::json body = at.rule.Request("Rule");
    for (;;) {
      Result<nlohmann::json> listed = CallEvents(*session_, ctx, "ListTargetsByRule", body);
      if (!listed.ok()) {
        if (listed.error().code == kEventsNotFound) return {Value(), true, {}};
        return {Value(), false, AwsErrorDiag("ListTargetsByRule", listed.error())};
      }
      if (listed->contains("Targets") && (*listed)["Targets"].is_array()) {
        for (const auto& target : (*listed)["Targets"]) {
          if (JsonString(target, "Id") == at.target_id) return {StateOf(at, target), false, {}};
        }
      }
      std::string next = JsonString(*listed, "NextToken");
      if (next.empty()) return {Value(), true, {}};
      body["NextToken"] = next;
    }
  }

  static Value StateOf(const TargetAddress& at, const nlohmann::json& target) {
    ValueMap state = {{"id", Value::String(at.Id())},
                      {"rule", Value::String(at.rule.name)},
                      {"target_id", Value::String(at.target_id)},
                      {"event_bus_name", Value::String(at.rule.bus)}};
    for (const auto& [member, attribute] : kTargetMembers) {
      std::string value = JsonString(target, member);
      state[attribute] = value.empty() ? Value() : Value::String(value);
    }
    return Value::Object(std::move(state));
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCloudwatchEventTarget(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCloudwatchEventTarget>(std::move(session));
}

}  // namespace strata::aws
