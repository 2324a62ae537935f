// aws_autoscaling_group: an Auto Scaling group launched from a launch template, or from a
// mixed instances policy (an on-demand base and percentage over spot, instance type
// overrides), over CreateAutoScalingGroup / DescribeAutoScalingGroups /
// UpdateAutoScalingGroup / CreateOrUpdateTags / DeleteTags / DeleteAutoScalingGroup, with
// Terraform's attribute names. The id is the name. Sizes, the policy, health checks,
// termination policies, subnets and tags change in place; suspended_processes take
// SuspendProcesses / ResumeProcesses. A create waits until `desired_capacity` instances are
// InService for up to wait_for_capacity_timeout ("10m"; "0" does not wait). A delete without
// force_delete first scales the group to zero and waits for its instances to go, as
// Terraform does; then it deletes and waits until the group is gone.
//
// CreateAutoScalingGroup takes no client token, so the create call itself tags the group with
// the engine's token and is never sent twice. The name is the natural key: after an
// interruption the group of the planned name is this create's only when it holds this
// create's token.

#include <set>

#include "engine/base/duration.h"
#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/common/wait.h"
#include "providers/aws/services/autoscaling/autoscaling_api.h"
#include "providers/aws/services/autoscaling/autoscaling_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kAsgDistributionType =
    "list(object({on_demand_allocation_strategy=optional(string), on_demand_base_capacity=optional(number), "
    "on_demand_percentage_above_base_capacity=optional(number), spot_allocation_strategy=optional(string), "
    "spot_instance_pools=optional(number), spot_max_price=optional(string)}))";
constexpr const char* kAsgMixedType =
    "list(object({instances_distribution=optional(list(object({on_demand_allocation_strategy=optional(string), "
    "on_demand_base_capacity=optional(number), on_demand_percentage_above_base_capacity=optional(number), "
    "spot_allocation_strategy=optional(string), spot_instance_pools=optional(number), "
    "spot_max_price=optional(string)}))), launch_template=list(object({launch_template_specification=list(object({"
    "launch_template_id=optional(string), launch_template_name=optional(string), version=optional(string)})), "
    "override=optional(list(object({instance_type=optional(string), weighted_capacity=optional(string)})))}))}))";

//! The instances_distribution members, Terraform's name → the API's, and Auto Scaling's
//! default for each (filled into the plan so that a read of the defaults is no change).
struct AsgDistributionField {
  const char* attr;
  const char* api;
  bool number;
  const char* fallback;
};
constexpr AsgDistributionField kAsgDistributionFields[] = {
    {"on_demand_allocation_strategy", "OnDemandAllocationStrategy", false, "prioritized"},
    {"on_demand_base_capacity", "OnDemandBaseCapacity", true, "0"},
    {"on_demand_percentage_above_base_capacity", "OnDemandPercentageAboveBaseCapacity", true, "100"},
    {"spot_allocation_strategy", "SpotAllocationStrategy", false, "lowest-price"},
    {"spot_instance_pools", "SpotInstancePools", true, "2"},
    {"spot_max_price", "SpotMaxPrice", false, ""},
};

std::string AsgNumberText(const Value& v, const std::string& name) {
  std::optional<double> n = GetNumber(v, name);
  return n ? std::to_string(static_cast<long long>(*n)) : "";
}

Value AsgOptionalString(const std::string& s) { return s.empty() ? Value() : Value::String(s); }

class AwsAutoscalingGroup final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "aws_autoscaling_group",
        {{"name", OptionalComputed("string", true)},
         {"name_prefix", Optional("string", true)},
         {"min_size", Required("number")},
         {"max_size", Required("number")},
         {"desired_capacity", OptionalComputed("number")},
         {"vpc_zone_identifier", OptionalComputed("set(string)")},
         {"launch_template", Optional("list(object({id=optional(string), name=optional(string), version=optional(string)}))")},
         {"mixed_instances_policy", Optional(kAsgMixedType)},
         {"tag", Optional("set(object({key=string, value=string, propagate_at_launch=bool}))")},
         {"health_check_type", OptionalComputed("string")},
         {"health_check_grace_period", OptionalComputed("number")},
         {"capacity_rebalance", OptionalComputed("bool")},
         {"protect_from_scale_in", OptionalComputed("bool")},
         {"default_cooldown", OptionalComputed("number")},
         {"termination_policies", Optional("list(string)")},
         {"suspended_processes", Optional("set(string)")},
         {"wait_for_capacity_timeout", OptionalComputed("string")},
         {"force_delete", OptionalComputed("bool")},
         {"arn", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"name", "name_prefix"}; }

  Diagnostics Validate(const Value& config) const override {
    if (Diagnostics conflict = NameAndPrefixConflict(config); conflict.HasErrors()) return conflict;
    bool template_given = !Blocks(config, "launch_template").empty();
    bool mixed_given = !Blocks(config, "mixed_instances_policy").empty();
    if (template_given && mixed_given) {
      return Error("Conflicting arguments",
                   "launch_template and mixed_instances_policy cannot both be set: the policy names its own launch "
                   "template in mixed_instances_policy.launch_template.launch_template_specification.");
    }
    if (Get(config, "launch_template").IsSequence() && Get(config, "mixed_instances_policy").IsSequence() &&
        !template_given && !mixed_given) {
      return Error("Missing launch template", "An Auto Scaling group needs launch_template or mixed_instances_policy.");
    }
    Value timeout = Get(config, "wait_for_capacity_timeout");
    if (timeout.IsString() && timeout.AsString() != "0" && !base::ParseDuration(timeout.AsString())) {
      return Error("Invalid wait_for_capacity_timeout",
                   "\"" + timeout.AsString() + "\" is no duration: write one like \"10m\", or \"0\" not to wait.");
    }
    return {};
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GroupName(ctx, planned);
    QueryRequest call = AutoScalingCall("CreateAutoScalingGroup");
    call.Add("AutoScalingGroupName", name);
    AddSettings(call, planned);
    std::string desired = AsgNumberText(planned, "desired_capacity");
    if (!desired.empty()) call.Add("DesiredCapacity", desired);
    AddTemplate(call, planned);
    int n = 0;
    for (const GroupTag& tag : WantedGroupTags(planned)) AddGroupTag(call, ++n, name, tag);
    AddGroupTag(call, ++n, name, GroupTag{kCreateTokenTag, ctx.idempotency_token, false});
    // No client token: an attempt whose outcome is unknown is not sent again (recovery looks).
    Result<XmlResponse> created = CallAutoScaling(*session_, ctx, call);
    if (!created.ok()) return CreateFailed("CreateAutoScalingGroup", created.error());
    Diagnostics diags = SyncSuspended(ctx, name, {}, GetStringList(planned, "suspended_processes"));
    if (!diags.HasErrors()) diags.Append(WaitForCapacity(ctx, name, planned));
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadGroup(ctx, GetString(prior, "id", GetString(prior, "name")), prior, nullptr);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id");
    QueryRequest call = AutoScalingCall("UpdateAutoScalingGroup");
    call.Add("AutoScalingGroupName", name);
    AddSettings(call, planned);
    std::string desired = AsgNumberText(planned, "desired_capacity");
    if (!desired.empty() && !Get(planned, "desired_capacity").Equals(Get(prior, "desired_capacity"))) {
      call.Add("DesiredCapacity", desired);
    }
    AddTemplate(call, planned);
    Result<XmlResponse> updated = CallAutoScaling(*session_, ctx, call);
    Diagnostics diags;
    if (!updated.ok()) diags = AwsErrorDiag("UpdateAutoScalingGroup", updated.error());
    if (!diags.HasErrors()) diags = SyncTags(ctx, name, TagsOf(prior), WantedGroupTags(planned));
    if (!diags.HasErrors()) {
      diags = SyncSuspended(ctx, name, GetStringList(prior, "suspended_processes"),
                            GetStringList(planned, "suspended_processes"));
    }
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string name = GetString(prior, "id");
    bool force = GetBool(prior, "force_delete", false);
    if (!force) {
      // As Terraform: drain the group first, so that its instances end by its own rules.
      QueryRequest drain = AutoScalingCall("UpdateAutoScalingGroup");
      drain.Add("AutoScalingGroupName", name);
      drain.Add("MinSize", "0");
      drain.Add("MaxSize", "0");
      drain.Add("DesiredCapacity", "0");
      Result<XmlResponse> drained = CallAutoScaling(*session_, ctx, drain);
      if (!drained.ok()) {
        if (IsGroupNotFound(drained.error())) return {};
        return {AwsErrorDiag("UpdateAutoScalingGroup", drained.error())};
      }
      Diagnostics waited = WaitFor(*session_, ctx, "Auto Scaling group " + name + " to drain its instances", [&] {
        Result<AsgFound> group = Describe(ctx, name);
        if (!group.ok()) return WaitPoll{false, "", AwsErrorDiag("DescribeAutoScalingGroups", group.error())};
        size_t left = 0;
        for (pugi::xml_node instance : group->node.child("Instances").children("member")) left += instance ? 1 : 0;
        return WaitPoll{left == 0, std::to_string(left) + " instances left", {}};
      });
      if (waited.HasErrors()) return {waited};
    }
    QueryRequest call = AutoScalingCall("DeleteAutoScalingGroup");
    call.Add("AutoScalingGroupName", name);
    if (force) call.Add("ForceDelete", "true");
    Result<XmlResponse> deleted = CallAutoScaling(*session_, ctx, call);
    if (!deleted.ok()) {
      if (IsGroupNotFound(deleted.error())) return {};
      return {AwsErrorDiag("DeleteAutoScalingGroup", deleted.error())};
    }
    return {WaitFor(*session_, ctx, "Auto Scaling group " + name + " to be deleted", [&] {
      Result<AsgFound> group = Describe(ctx, name);
      if (!group.ok()) return WaitPoll{false, "", AwsErrorDiag("DescribeAutoScalingGroups", group.error())};
      return WaitPoll{!group->node, "Delete in progress", {}};
    })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override { return ImportById(ctx, id); }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = GroupName(ctx, planned), token;
    ReadResult found = ReadGroup(ctx, name, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "Auto Scaling group \"" + name + "\"", name);
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    auto fill = [&out](const char* name, Value value) {
      if (Get(out, name).IsNull()) out = With(out, name, std::move(value));
    };
    fill("health_check_type", Value::String("EC2"));
    fill("health_check_grace_period", Value::Number(300));
    fill("capacity_rebalance", Value::Bool(false));
    fill("protect_from_scale_in", Value::Bool(false));
    fill("default_cooldown", Value::Number(300));
    fill("wait_for_capacity_timeout", Value::String("10m"));
    fill("force_delete", Value::Bool(false));
    Value mixed = FirstBlock(out, "mixed_instances_policy");
    if (mixed.IsMapping()) {
      Value distribution = FirstBlock(mixed, "instances_distribution");
      if (!distribution.IsMapping()) distribution = Value::Object({});
      for (const AsgDistributionField& field : kAsgDistributionFields) {
        if (!Get(distribution, field.attr).IsNull()) continue;
        if (std::string(field.attr) == "spot_instance_pools" &&
            GetString(distribution, "spot_allocation_strategy", "lowest-price") != "lowest-price") {
          continue;  // pools only apply to lowest-price
        }
        if (std::string(field.attr) == "spot_max_price") {
          distribution = With(distribution, field.attr, Value::String(""));
          continue;
        }
        distribution = With(distribution, field.attr,
                            field.number ? Value::Number(std::stod(field.fallback)) : Value::String(field.fallback));
      }
      mixed = With(mixed, "instances_distribution", Value::List({distribution}));
      out = With(out, "mixed_instances_policy", Value::List({mixed}));
    }
    return out;
  }

 private:
  //! The name given, or one from name_prefix (Terraform's "terraform-" without either) and
  //! the create's token, the same for its recovery.
  static std::string GroupName(const OperationContext& ctx, const Value& planned) {
    return NameOrUnique(ctx, planned, "terraform-");
  }

  //! The settings CreateAutoScalingGroup and UpdateAutoScalingGroup share.
  static void AddSettings(QueryRequest& call, const Value& planned) {
    call.Add("MinSize", AsgNumberText(planned, "min_size"));
    call.Add("MaxSize", AsgNumberText(planned, "max_size"));
    std::vector<std::string> subnets = GetStringList(planned, "vpc_zone_identifier");
    if (!subnets.empty()) {
      std::string joined;
      for (const std::string& id : subnets) joined += (joined.empty() ? "" : ",") + id;
      call.Add("VPCZoneIdentifier", joined);
    }
    call.Add("HealthCheckType", GetString(planned, "health_check_type", "EC2"));
    call.Add("HealthCheckGracePeriod", AsgNumberText(planned, "health_check_grace_period"));
    call.Add("DefaultCooldown", AsgNumberText(planned, "default_cooldown"));
    call.Add("CapacityRebalance", GetBool(planned, "capacity_rebalance", false) ? "true" : "false");
    call.Add("NewInstancesProtectedFromScaleIn", GetBool(planned, "protect_from_scale_in", false) ? "true" : "false");
    int n = 0;
    for (const std::string& policy : GetStringList(planned, "termination_policies")) {
      call.Add("TerminationPolicies.member." + std::to_string(++n), policy);
    }
  }

  static void AddSpecification(QueryRequest& call, const std::string& prefix, const Value& spec, const char* id_attr,
                               const char* name_attr) {
    std::string id = GetString(spec, id_attr), name = GetString(spec, name_attr), version = GetString(spec, "version");
    if (!id.empty()) call.Add(prefix + "LaunchTemplateId", id);
    if (!name.empty()) call.Add(prefix + "LaunchTemplateName", name);
    if (!version.empty()) call.Add(prefix + "Version", version);
  }

  //! LaunchTemplate, or MixedInstancesPolicy with its distribution and overrides.
  static void AddTemplate(QueryRequest& call, const Value& planned) {
    Value plain = FirstBlock(planned, "launch_template");
    if (plain.IsMapping()) AddSpecification(call, "LaunchTemplate.", plain, "id", "name");
    Value mixed = FirstBlock(planned, "mixed_instances_policy");
    if (!mixed.IsMapping()) return;
    Value distribution = FirstBlock(mixed, "instances_distribution");
    for (const AsgDistributionField& field : kAsgDistributionFields) {
      Value value = Get(distribution, field.attr);
      if (value.IsNull() || !value.IsKnown()) continue;
      std::string text = field.number ? AsgNumberText(distribution, field.attr) : value.AsString();
      call.Add(std::string("MixedInstancesPolicy.InstancesDistribution.") + field.api, text);
    }
    Value launch = FirstBlock(mixed, "launch_template");
    AddSpecification(call, "MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification.",
                     FirstBlock(launch, "launch_template_specification"), "launch_template_id", "launch_template_name");
    int n = 0;
    for (const Value& item : Blocks(launch, "override")) {
      std::string prefix = "MixedInstancesPolicy.LaunchTemplate.Overrides.member." + std::to_string(++n) + ".";
      std::string type = GetString(item, "instance_type"), weight = GetString(item, "weighted_capacity");
      if (!type.empty()) call.Add(prefix + "InstanceType", type);
      if (!weight.empty()) call.Add(prefix + "WeightedCapacity", weight);
    }
  }

  static std::vector<GroupTag> TagsOf(const Value& v) {
    std::vector<GroupTag> tags;
    for (const Value& tag : Blocks(v, "tag")) {
      tags.push_back({GetString(tag, "key"), GetString(tag, "value"), GetBool(tag, "propagate_at_launch", false)});
    }
    return tags;
  }

  //! The tag blocks, then default_tags the blocks do not name (propagated, as Terraform does).
  std::vector<GroupTag> WantedGroupTags(const Value& planned) const {
    std::vector<GroupTag> tags = TagsOf(planned);
    std::set<std::string> keys;
    for (const GroupTag& tag : tags) keys.insert(tag.key);
    for (const auto& [key, value] : session_->default_tags) {
      if (!keys.count(key)) tags.push_back({key, value, true});
    }
    return tags;
  }

  Diagnostics SyncTags(const OperationContext& ctx, const std::string& name, const std::vector<GroupTag>& from,
                       const std::vector<GroupTag>& to) {
    std::map<std::string, const GroupTag*> wanted;
    for (const GroupTag& tag : to) wanted[tag.key] = &tag;
    QueryRequest removal = AutoScalingCall("DeleteTags");
    int removed = 0;
    for (const GroupTag& tag : from) {
      if (!wanted.count(tag.key)) AddGroupTag(removal, ++removed, name, tag);
    }
    if (removed > 0) {
      Result<XmlResponse> done = CallAutoScaling(*session_, ctx, removal);
      if (!done.ok()) return AwsErrorDiag("DeleteTags", done.error());
    }
    std::map<std::string, const GroupTag*> had;
    for (const GroupTag& tag : from) had[tag.key] = &tag;
    QueryRequest upsert = AutoScalingCall("CreateOrUpdateTags");
    int changed = 0;
    for (const GroupTag& tag : to) {
      auto old = had.find(tag.key);
      bool same = old != had.end() && old->second->value == tag.value &&
                  old->second->propagate_at_launch == tag.propagate_at_launch;
      if (!same) AddGroupTag(upsert, ++changed, name, tag);
    }
    if (changed > 0) {
      Result<XmlResponse> done = CallAutoScaling(*session_, ctx, upsert);
      if (!done.ok()) return AwsErrorDiag("CreateOrUpdateTags", done.error());
    }
    return {};
  }

  Diagnostics SyncSuspended(const OperationContext& ctx, const std::string& name, std::vector<std::string> from,
                            std::vector<std::string> to) {
    std::set<std::string> old_set(from.begin(), from.end()), new_set(to.begin(), to.end());
    for (bool suspend : {false, true}) {
      QueryRequest call = AutoScalingCall(suspend ? "SuspendProcesses" : "ResumeProcesses");
      call.Add("AutoScalingGroupName", name);
      int n = 0;
      for (const std::string& process : suspend ? new_set : old_set) {
        if ((suspend ? old_set : new_set).count(process)) continue;
        call.Add("ScalingProcesses.member." + std::to_string(++n), process);
      }
      if (n == 0) continue;
      Result<XmlResponse> done = CallAutoScaling(*session_, ctx, call);
      if (!done.ok()) return AwsErrorDiag(call.action, done.error());
    }
    return {};
  }

  //! Waits until the group has desired_capacity instances InService (Terraform's
  //! wait_for_capacity_timeout; "0" does not wait).
  Diagnostics WaitForCapacity(const OperationContext& ctx, const std::string& name, const Value& planned) {
    std::string timeout = GetString(planned, "wait_for_capacity_timeout", "10m");
    if (timeout == "0") return {};
    std::optional<std::chrono::nanoseconds> limit = base::ParseDuration(timeout);
    Duration max_wait = limit ? std::chrono::duration_cast<Duration>(*limit) : kDefaultMaxWait;
    return WaitFor(
        *session_, ctx, "Auto Scaling group " + name + " to reach its desired capacity",
        [&] {
          Result<AsgFound> group = Describe(ctx, name);
          if (!group.ok()) return WaitPoll{false, "", AwsErrorDiag("DescribeAutoScalingGroups", group.error())};
          if (!group->node) return WaitPoll{false, "not listed yet", {}};
          long long desired = std::stoll("0" + XmlText(group->node, "DesiredCapacity"));
          long long in_service = 0;
          for (pugi::xml_node instance : group->node.child("Instances").children("member")) {
            if (XmlText(instance, "LifecycleState") == "InService") ++in_service;
          }
          return WaitPoll{in_service >= desired,
                          std::to_string(in_service) + " of " + std::to_string(desired) + " instances InService", {}};
        },
        max_wait);
  }

  //! The group `name` as DescribeAutoScalingGroups answers it; `node` is empty when there is
  //! none. `page` keeps the document `node` points into.
  struct AsgFound {
    XmlResponse page;
    pugi::xml_node node;
    //! Its Status is "Delete in progress": gone for a read, not yet for a delete's wait.
    bool deleting = false;
  };
  Result<AsgFound> Describe(const OperationContext& ctx, const std::string& name) {
    QueryRequest call = AutoScalingCall("DescribeAutoScalingGroups");
    call.Add("AutoScalingGroupNames.member.1", name);
    Result<XmlResponse> page = CallAutoScaling(*session_, ctx, call);
    if (!page.ok()) return page.error();
    AsgFound found{std::move(*page), {}};
    for (pugi::xml_node group : found.page.result.child("AutoScalingGroups").children("member")) {
      if (XmlText(group, "AutoScalingGroupName") != name) continue;
      found.node = group;
      found.deleting = XmlText(group, "Status") == "Delete in progress";
    }
    return found;
  }

  static Value SpecificationValue(pugi::xml_node spec, const Value& prior, const char* id_attr, const char* name_attr) {
    // Auto Scaling answers both id and name: state keeps the one the configuration gave.
    bool by_name = GetString(prior, name_attr) != "" && GetString(prior, id_attr) == "";
    return Value::Object(
        {{id_attr, by_name ? Value() : AsgOptionalString(XmlText(spec, "LaunchTemplateId"))},
         {name_attr, by_name ? AsgOptionalString(XmlText(spec, "LaunchTemplateName")) : Get(prior, name_attr)},
         {"version", AsgOptionalString(XmlText(spec, "Version"))}});
  }

  static Value MixedValue(pugi::xml_node policy, const Value& prior) {
    Value prior_mixed = FirstBlock(prior, "mixed_instances_policy");
    Value prior_distribution = FirstBlock(prior_mixed, "instances_distribution");
    pugi::xml_node distribution = policy.child("InstancesDistribution");
    std::map<std::string, Value> fields;
    for (const AsgDistributionField& field : kAsgDistributionFields) {
      std::string text = XmlText(distribution, field.api);
      if (std::string(field.attr) == "spot_max_price") {
        fields[field.attr] = Value::String(text);
      } else if (text.empty()) {
        fields[field.attr] = Value();
      } else {
        fields[field.attr] = field.number ? Value::Number(std::stod(text)) : Value::String(text);
      }
    }
    pugi::xml_node launch = policy.child("LaunchTemplate");
    Value prior_launch = FirstBlock(prior_mixed, "launch_template");
    ValueList overrides;
    for (pugi::xml_node item : launch.child("Overrides").children("member")) {
      overrides.push_back(Value::Object({{"instance_type", AsgOptionalString(XmlText(item, "InstanceType"))},
                                         {"weighted_capacity", AsgOptionalString(XmlText(item, "WeightedCapacity"))}}));
    }
    Value override_value = overrides.empty() && Get(prior_launch, "override").IsNull() ? Value() : Value::List(overrides);
    Value spec = SpecificationValue(launch.child("LaunchTemplateSpecification"),
                                    FirstBlock(prior_launch, "launch_template_specification"), "launch_template_id",
                                    "launch_template_name");
    (void)prior_distribution;
    return Value::List({Value::Object(
        {{"instances_distribution", Value::List({Value::Object(ValueMap(fields.begin(), fields.end()))})},
         {"launch_template", Value::List({Value::Object({{"launch_template_specification", Value::List({spec})},
                                                        {"override", override_value}})})}})});
  }

  //! The group `name` as state holds it; `token` receives its create-token tag.
  ReadResult ReadGroup(const OperationContext& ctx, const std::string& name, const Value& prior, std::string* token) {
    Result<AsgFound> found = Describe(ctx, name);
    if (!found.ok()) {
      if (IsGroupNotFound(found.error())) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeAutoScalingGroups", found.error())};
    }
    if (!found->node || found->deleting) return {Value(), true, {}};
    pugi::xml_node group = found->node;
    ValueList tags;
    std::string token_value;
    for (pugi::xml_node tag : group.child("Tags").children("member")) {
      std::string key = XmlText(tag, "Key");
      if (key == kCreateTokenTag) {
        token_value = XmlText(tag, "Value");
        continue;
      }
      bool propagate = XmlText(tag, "PropagateAtLaunch") == "true";
      auto from_defaults = session_->default_tags.find(key);
      bool in_prior = false;
      for (const Value& t : Blocks(prior, "tag")) in_prior = in_prior || GetString(t, "key") == key;
      if (!in_prior && from_defaults != session_->default_tags.end() && from_defaults->second == XmlText(tag, "Value")) {
        continue;  // default_tags, not the user's blocks
      }
      tags.push_back(Value::Object({{"key", Value::String(key)},
                                    {"value", Value::String(XmlText(tag, "Value"))},
                                    {"propagate_at_launch", Value::Bool(propagate)}}));
    }
    if (token) *token = token_value;
    std::vector<std::string> subnets;
    std::string zone_identifier = XmlText(group, "VPCZoneIdentifier");
    for (size_t start = 0; !zone_identifier.empty() && start <= zone_identifier.size();) {
      size_t comma = zone_identifier.find(',', start);
      if (comma == std::string::npos) comma = zone_identifier.size();
      if (comma > start) subnets.push_back(zone_identifier.substr(start, comma - start));
      start = comma + 1;
    }
    ValueList subnet_values, policies, suspended;
    for (const std::string& id : subnets) subnet_values.push_back(Value::String(id));
    for (pugi::xml_node p : group.child("TerminationPolicies").children("member")) policies.push_back(Value::String(p.text().get()));
    // Auto Scaling answers ["Default"] for a group given none: unset, as the configuration has it.
    if (policies.size() == 1 && policies[0].AsString() == "Default" && Get(prior, "termination_policies").IsNull()) {
      policies.clear();
    }
    for (pugi::xml_node p : group.child("SuspendedProcesses").children("member")) {
      suspended.push_back(Value::String(XmlText(p, "ProcessName")));
    }
    pugi::xml_node plain = group.child("LaunchTemplate");
    Value launch_template = plain ? Value::List({SpecificationValue(plain, FirstBlock(prior, "launch_template"), "id", "name")})
                                  : NullIfEmptyAndUnset(Value::List({}), Get(prior, "launch_template"));
    pugi::xml_node policy = group.child("MixedInstancesPolicy");
    Value mixed = policy ? MixedValue(policy, prior) : NullIfEmptyAndUnset(Value::List({}), Get(prior, "mixed_instances_policy"));
    auto number = [&group](const char* member) { return Value::Number(std::stod("0" + XmlText(group, member))); };
    Value prior_timeout = Get(prior, "wait_for_capacity_timeout");
    return {Value::Object(
                {{"id", Value::String(name)},
                 {"name", Value::String(name)},
                 {"name_prefix", Get(prior, "name_prefix")},
                 {"arn", Value::String(XmlText(group, "AutoScalingGroupARN"))},
                 {"min_size", number("MinSize")},
                 {"max_size", number("MaxSize")},
                 {"desired_capacity", number("DesiredCapacity")},
                 {"vpc_zone_identifier", NullIfEmptyAndUnset(Value::Set(subnet_values), Get(prior, "vpc_zone_identifier"))},
                 {"launch_template", launch_template},
                 {"mixed_instances_policy", mixed},
                 {"tag", NullIfEmptyAndUnset(Value::Set(tags), Get(prior, "tag"))},
                 {"health_check_type", Value::String(XmlText(group, "HealthCheckType"))},
                 {"health_check_grace_period", number("HealthCheckGracePeriod")},
                 {"capacity_rebalance", Value::Bool(XmlText(group, "CapacityRebalance") == "true")},
                 {"protect_from_scale_in", Value::Bool(XmlText(group, "NewInstancesProtectedFromScaleIn") == "true")},
                 {"default_cooldown", number("DefaultCooldown")},
                 {"termination_policies", NullIfEmptyAndUnset(Value::List(policies), Get(prior, "termination_policies"))},
                 {"suspended_processes", NullIfEmptyAndUnset(Value::Set(suspended), Get(prior, "suspended_processes"))},
                 {"wait_for_capacity_timeout",
                  prior_timeout.IsString() ? prior_timeout : Value::String("10m")},
                 {"force_delete", Value::Bool(GetBool(prior, "force_delete", false))}}),
            false,
            {}};
  }

};

}  // namespace

std::unique_ptr<ResourceType> NewAwsAutoscalingGroup(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsAutoscalingGroup>(std::move(session));
}

}  // namespace strata::aws
