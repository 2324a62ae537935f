// aws_cloudwatch_event_rule: an EventBridge rule over PutRule / DescribeRule / DeleteRule and
// the tag calls, with Terraform's attribute names. The id is the name on the default bus and
// "bus/name" on another (Terraform's). event_pattern keeps the user's text while the pattern
// AWS holds means the same (key order, whitespace, the order of the values to match), so
// there is no perpetual diff; `state` is ENABLED unless the user says otherwise (or says
// is_enabled = false, the older spelling).
//
// PutRule makes or replaces the rule of that name, so the name is the natural key: an
// interrupted create is found again by it and adopted only when the rule carries the
// create's token in its create-token tag (PutRule sends it among the new rule's Tags).

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/policy_json.h"
#include "providers/aws/services/events/events_api.h"
#include "providers/aws/services/events/events_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kRuleEnabled = "ENABLED";
constexpr const char* kRuleDisabled = "DISABLED";

//! Whether an event pattern is JSON at all (EventBridge checks the rest).
bool IsEventPatternJson(const std::string& text) {
  return !nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false).is_discarded();
}

class AwsCloudwatchEventRule final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_cloudwatch_event_rule", {{"name", OptionalComputed("string", true)},
                                                       {"name_prefix", Optional("string", true)},
                                                       {"description", Optional("string")},
                                                       {"event_pattern", Optional("string")},
                                                       {"schedule_expression", Optional("string")},
                                                       {"state", Optional("string")},
                                                       {"is_enabled", OptionalComputed("bool")},
                                                       {"event_bus_name", Optional("string", true)},
                                                       {"role_arn", Optional("string")},
                                                       {"tags", Optional("map(string)")},
                                                       {"tags_all", Computed("map(string)")},
                                                       {"arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  //! The name is the key; it is the user's, or derived from the create's token.
  std::vector<std::string> RecoveryKey() const override {
    return {"name_prefix", "event_bus_name"};
  }

  Diagnostics Validate(const Value& config) const override {
    Diagnostics diags;
    if (!Get(config, "name").IsNull() && !Get(config, "name_prefix").IsNull()) {
      diags.Append(Error("Conflicting arguments", "Only one of name and name_prefix can be set."));
    }
    if (!Get(config, "state").IsNull() && !Get(config, "is_enabled").IsNull()) {
      diags.Append(Error("Conflicting arguments",
                         "Only one of state and is_enabled can be set (is_enabled is the older "
                         "spelling of state)."));
    }
    Value state = Get(config, "state");
    if (state.IsString() && state.AsString() != kRuleEnabled && state.AsString() != kRuleDisabled &&
        state.AsString() != "ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS") {
      diags.Append(
          Error("Invalid state",
                "state must be ENABLED, DISABLED or ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS, "
                "not \"" +
                    state.AsString() + "\"."));
    }
    Value pattern = Get(config, "event_pattern");
    if (pattern.IsString() && !IsEventPatternJson(pattern.AsString())) {
      diags.Append(
          Error("Invalid event_pattern", "event_pattern is not valid JSON: " + pattern.AsString()));
    }
    if (Get(config, "event_pattern").IsNull() && Get(config, "schedule_expression").IsNull()) {
      diags.Append(
          Error("Missing argument", "One of event_pattern and schedule_expression must be set."));
    }
    return diags;
  }

  //! is_enabled follows state unless the config sets it; a pattern that means the same as
  //! the one in state is no change.
  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    Value adjusted = proposed;
    if (!config.IsNull() && Get(config, "is_enabled").IsNull())
      adjusted = With(adjusted, "is_enabled", Value());
    Value old_pattern = Get(prior, "event_pattern"), new_pattern = Get(adjusted, "event_pattern");
    if (old_pattern.IsString() && new_pattern.IsString() &&
        PolicyEquivalent(old_pattern.AsString(), new_pattern.AsString())) {
      adjusted = With(adjusted, "event_pattern", old_pattern);
    }
    return AwsResourceType::Plan(ctx, prior, adjusted, config);
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    EventRuleAddress at = AddressToCreate(ctx, planned);
    nlohmann::json body = PutRuleBody(at, planned);
    body["Tags"] = EventsTagList(TagsOnCreate(ctx, planned));
    Result<nlohmann::json> put =
        CallEvents(*session_, ctx, "PutRule", body, CreateCallOptionsFor(ctx));
    if (!put.ok()) return CreateFailed("PutRule", put.error());
    return ReadAfterWrite(ctx, planned, at.Id(), {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadRule(ctx, AddressOf(prior), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior,
                     const Value& planned) override {
    EventRuleAddress at = AddressOf(prior);
    Diagnostics diags;
    Result<nlohmann::json> put = CallEvents(*session_, ctx, "PutRule", PutRuleBody(at, planned));
    if (!put.ok()) diags = AwsErrorDiag("PutRule", put.error());
    if (!diags.HasErrors()) {
      diags = UpdateEventsTags(*session_, ctx, GetString(prior, "arn"),
                               GetStringMap(prior, "tags_all"), WantedTags(planned));
    }
    return ReadAfterWrite(ctx, planned, at.Id(), diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    EventRuleAddress at = AddressOf(prior);
    Result<nlohmann::json> deleted = CallEvents(*session_, ctx, "DeleteRule", at.Request());
    if (deleted.ok() || deleted.error().code == kEventsNotFound) return {};
    DeleteResult result{AwsErrorDiag("DeleteRule", deleted.error())};
    if (deleted.error().message.find("targets") != std::string::npos) {
      result.diags.Error(
          "EventBridge rule \"" + at.name + "\" still has targets",
          "AWS deletes a rule only when it has no targets left. Remove its targets first (their "
          "aws_cloudwatch_event_target resources, or targets another tool put on the rule), then "
          "delete the rule.");
    }
    return result;
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    EventRuleAddress at = AddressToCreate(ctx, planned);
    std::string token;
    ReadResult found = ReadRule(ctx, at, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "EventBridge rule \"" + at.name + "\"",
                       at.Id());
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "event_bus_name").IsNull())
      out = With(out, "event_bus_name", Value::String(kDefaultEventBus));
    if (Get(out, "state").IsNull()) {
      Value enabled = Get(out, "is_enabled");
      bool off = enabled.IsBool() && !enabled.AsBool();
      out = With(out, "state", Value::String(off ? kRuleDisabled : kRuleEnabled));
    }
    if (Get(out, "is_enabled").IsNull() && Get(out, "state").IsString()) {
      out = With(out, "is_enabled", Value::Bool(Get(out, "state").AsString() != kRuleDisabled));
    }
    return out;
  }

 private:
  //! From the id when there is one (state, import), else from the arguments.
  static EventRuleAddress AddressOf(const Value& v) {
    std::string id = GetString(v, "id");
    if (!id.empty()) return ParseEventRuleId(id);
    return {GetString(v, "event_bus_name", kDefaultEventBus), GetString(v, "name")};
  }

  //! The rule a create makes: the name given, or one from name_prefix (Terraform's
  //! "terraform-" without one) and the create's token, the same for its recovery.
  static EventRuleAddress AddressToCreate(const OperationContext& ctx, const Value& planned) {
    Value name = Get(planned, "name");
    std::string bus = GetString(planned, "event_bus_name", kDefaultEventBus);
    if (name.IsString() && !name.AsString().empty()) return {bus, name.AsString()};
    return {bus, UniqueName(GetString(planned, "name_prefix", "terraform-"), ctx)};
  }

  //! PutRule's definition of the rule: everything but tags, which PutRule sets only on a new rule.
  static nlohmann::json PutRuleBody(const EventRuleAddress& at, const Value& planned) {
    nlohmann::json body = at.Request();
    body["State"] = GetString(planned, "state", kRuleEnabled);
    for (const auto& [member, attribute] :
         {std::pair{"EventPattern", "event_pattern"},
          std::pair{"ScheduleExpression", "schedule_expression"},
          std::pair{"Description", "description"}, std::pair{"RoleArn", "role_arn"}}) {
      std::string value = GetString(planned, attribute);
      if (!value.empty()) body[member] = value;
    }
    return body;
  }

  //! DescribeRule and the rule's tags as state (`prior` tells what the user wrote); `token`,
  //! when given, receives the rule's create-token tag.
  ReadResult ReadRule(const OperationContext& ctx, const EventRuleAddress& at, const Value& prior,
                      std::string* token = nullptr) {
    Result<nlohmann::json> described = CallEvents(*session_, ctx, "DescribeRule", at.Request());
    if (!described.ok()) {
      if (described.error().code == kEventsNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeRule", described.error())};
    }
    const nlohmann::json& rule = *described;
    std::string arn = JsonString(rule, "Arn");
    Result<TagMap> remote = ListEventsTags(*session_, ctx, arn, token);
    if (!remote.ok()) return {Value(), false, AwsErrorDiag("ListTagsForResource", remote.error())};
    std::string state = JsonString(rule, "State");
    auto text = [&](const char* member, const char* attribute) {
      std::string value = JsonString(rule, member);
      return value.empty() && Get(prior, attribute).IsNull() ? Value() : Value::String(value);
    };
    std::string pattern = JsonString(rule, "EventPattern");
    std::string bus = JsonString(rule, "EventBusName");
    EventRuleAddress read_at{bus.empty() ? at.bus : bus, JsonString(rule, "Name")};
    Value state_value = Value::Object(
        {{"id", Value::String(read_at.Id())},
         {"name", Value::String(read_at.name)},
         {"name_prefix", Get(prior, "name_prefix")},
         {"description", text("Description", "description")},
         {"event_pattern",
          pattern.empty() ? Value() : JsonDocumentForState(pattern, Get(prior, "event_pattern"))},
         {"schedule_expression", text("ScheduleExpression", "schedule_expression")},
         {"state", Value::String(state)},
         {"is_enabled", Value::Bool(state != kRuleDisabled)},
         {"event_bus_name", Value::String(read_at.bus)},
         {"role_arn", text("RoleArn", "role_arn")},
         {"tags", TagsForState(*remote, session_->default_tags, Get(prior, "tags"))},
         {"tags_all", TagsValue(*remote)},
         {"arn", Value::String(arn)}});
    return {state_value, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsCloudwatchEventRule(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsCloudwatchEventRule>(std::move(session));
}

}  // namespace strata::aws
