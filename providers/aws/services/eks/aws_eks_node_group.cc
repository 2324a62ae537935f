// aws_eks_node_group: an EKS managed node group over CreateNodegroup / DescribeNodegroup /
// UpdateNodegroupConfig / UpdateNodegroupVersion / TagResource / UntagResource /
// DeleteNodegroup, with Terraform's attribute names. The id is "cluster:nodegroup".
//
// scaling_config (desired 0 allowed), labels, taints and update_config change in place
// through one UpdateNodegroupConfig (labels and taints as add-or-update / remove lists);
// version, release_version and launch_template's version through UpdateNodegroupVersion (a
// launch_template's id or name, and remote_access, force a new node group; the one of id and
// name not written is EKS's to tell, as Terraform has it). Each write waits for its
// update to be Successful and the node group to be ACTIVE. Create sends the engine's
// idempotency token as clientRequestToken, which EKS answers with the node group it
// already made; a name without node_group_name comes from node_group_name_prefix and the
// token, so a re-sent create asks for the same name. The create also tags the node group
// with the token (left out of tags/tags_all), so a destroy that meets an interrupted
// create can look for it without creating. (lifecycle.ignore_changes on scaling_config is
// the user's business.)

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

json Taint(const Value& t) {
  json j = {{"key", GetString(t, "key")}, {"effect", GetString(t, "effect")}};
  if (Get(t, "value").IsString()) j["value"] = GetString(t, "value");
  return j;
}

// launch_template's members that EKS fills in when the config leaves them out.
const std::set<std::string> kNodeGroupTemplateCarried = {"id", "name"};

//! Whether `planned` names another launch template than `prior` (or adds or drops one): the
//! node group must then be replaced. An id or name not yet known counts as another.
bool LaunchTemplateReplaced(const Value& prior, const Value& planned) {
  Value before = FirstBlock(prior, "launch_template"), after = FirstBlock(planned, "launch_template");
  if (before.IsNull() != after.IsNull()) return true;
  for (const char* attr : {"id", "name"}) {
    Value want = Get(after, attr);
    if (!want.IsNull() && !want.Equals(Get(before, attr))) return true;
  }
  return false;
}

//! The launchTemplate of a request: the id when known (EKS refuses both), else the name.
json LaunchTemplateJson(const Value& block) {
  json j = json::object();
  if (!GetString(block, "id").empty()) {
    j["id"] = GetString(block, "id");
  } else {
    j["name"] = GetString(block, "name");
  }
  if (!GetString(block, "version").empty()) j["version"] = GetString(block, "version");
  return j;
}

bool SameTaint(const Value& a, const Value& b) {
  return GetString(a, "key") == GetString(b, "key") && GetString(a, "effect") == GetString(b, "effect") &&
         GetString(a, "value") == GetString(b, "value");
}

class AwsEksNodeGroup final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema(
        "aws_eks_node_group",
        {{"cluster_name", Required("string", true)},
         {"node_group_name", OptionalComputed("string", true)},
         {"node_group_name_prefix", Optional("string", true)},
         {"node_role_arn", Required("string", true)},
         {"subnet_ids", Required("set(string)", true)},
         {"scaling_config", Required("list(object({desired_size=number, min_size=number, max_size=number}))")},
         {"instance_types", OptionalComputed("list(string)", true)},
         {"capacity_type", OptionalComputed("string", true)},
         {"ami_type", OptionalComputed("string", true)},
         {"disk_size", OptionalComputed("number", true)},
         {"labels", Optional("map(string)")},
         {"taint", Optional("set(object({key=string, value=optional(string), effect=string}))")},
         {"version", OptionalComputed("string")},
         {"release_version", OptionalComputed("string")},
         {"launch_template", Optional("list(object({id=optional(string), name=optional(string), version=string}))")},
         {"remote_access",
          Optional("list(object({ec2_ssh_key=optional(string), source_security_group_ids=optional(set(string))}))", true)},
         {"update_config",
          OptionalComputed("list(object({max_unavailable=optional(number), max_unavailable_percentage=optional(number)}))")},
         {"tags", Optional("map(string)")},
         {"tags_all", Computed("map(string)")},
         {"arn", Computed("string")},
         {"status", Computed("string")},
         {"resources",
          Computed("list(object({autoscaling_groups=list(object({name=string})), remote_access_security_group_id=string}))")}});
  }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    bool template_replaced = !prior.IsNull() && !proposed.IsNull() && LaunchTemplateReplaced(prior, proposed);
    Value p = proposed;
    if (!prior.IsNull() && !p.IsNull() && !template_replaced) {
      p = CarryNested(p, prior, "launch_template", kNodeGroupTemplateCarried);
    }
    PlanResult result = AwsResourceType::Plan(ctx, prior, p, config);
    if (result.planned.IsNull() || result.diags.HasErrors()) return result;
    if (template_replaced) {
      // Another launch template: a create's plan, as for any force-new attribute.
      std::vector<AttrPath> others = result.requires_replace;
      result = AwsResourceType::Plan(ctx, Value(), p, config);
      result.requires_replace = others;
      result.requires_replace.push_back(AttrPath::Of("launch_template"));
    }
    if (prior.IsNull() || !result.requires_replace.empty()) {
      result.planned = CarryNested(result.planned, Value(), "launch_template", kNodeGroupTemplateCarried);
    }
    return result;
  }

  //! Create sends the idempotency token as clientRequestToken (see the top): a recovery
  //! sends it again, and there is nothing to look for first.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  //! A destroy's look needs the node group's name (or its prefix) and cluster.
  std::vector<std::string> RecoveryKey() const override { return {"cluster_name", "node_group_name", "node_group_name_prefix"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string cluster = GetString(planned, "cluster_name");
    std::string name = GetString(planned, "node_group_name");
    // Stable across a retried create (the token is), so clientRequestToken can do its job.
    if (name.empty()) name = UniqueName(GetString(planned, "node_group_name_prefix", "strata-"), ctx);
    json body = CreateBody(ctx, planned, name);
    if (!ctx.idempotency_token.empty()) body["clientRequestToken"] = ctx.idempotency_token;
    RestJsonRequest call;
    call.method = "POST";
    call.path = EksPath({"clusters", cluster, "node-groups"});
    call.body = body;
    // EKS answers a repeated clientRequestToken with the node group it made. (Unlike a
    // cluster, a node group does not tell its token back, so ResourceInUseException cannot
    // be told apart from someone else's node group: it is an error.)
    Result<json> created = CallEks(*session_, ctx, "CreateNodegroup", call);
    if (!created.ok()) return CreateFailed("CreateNodegroup", created.error());
    std::string id = cluster + ":" + name;
    Diagnostics diags = WaitActive(ctx, cluster, name, "creation", std::chrono::minutes(60));
    return ReadAfterWrite(ctx, With(planned, "node_group_name", Value::String(name)), id, diags);
  }

  //! A destroy cannot resend the token (that would create): the create also tags the node
  //! group with it, so the node group under the planned name is this create's only when it
  //! carries that tag; any other is someone else's and is left alone.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    std::string cluster = GetString(planned, "cluster_name");
    std::string name = GetString(planned, "node_group_name");
    if (name.empty()) name = UniqueName(GetString(planned, "node_group_name_prefix", "strata-"), ctx);
    return ClaimIfTaggedByThisCreate(ctx, Describe(ctx, cluster, name), "DescribeNodegroup", "nodegroup", [&] {
      return Read(ctx, With(planned, "id", Value::String(cluster + ":" + name)));
    });
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    auto [cluster, name] = SplitClusterScopedId(prior, "node_group_name");
    Result<json> got = Describe(ctx, cluster, name);
    if (!got.ok()) {
      if (got.error().code == kEksNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeNodegroup", got.error())};
    }
    const json& ng = (*got)["nodegroup"];
    const json scaling = ng.value("scalingConfig", json::object());
    auto number = [](const json& j, const char* key) {
      auto it = j.find(key);
      return it != j.end() && it->is_number() ? Value::Number(it->get<double>()) : Value();
    };
    ValueList taints;
    for (const auto& t : ng.value("taints", json::array())) {
      taints.push_back(Value::Object({{"key", Value::String(JsonString(t, "key"))},
                                      {"value", t.contains("value") && t["value"].is_string()
                                                    ? Value::String(t["value"].get<std::string>())
                                                    : Value()},
                                      {"effect", Value::String(JsonString(t, "effect"))}}));
    }
    TagMap labels = JsonStringMap(ng, "labels");
    TagMap remote = EksTags(ng);
    Value update_config;
    if (ng.contains("updateConfig") && ng["updateConfig"].is_object()) {
      update_config = Value::List({Value::Object(
          {{"max_unavailable", number(ng["updateConfig"], "maxUnavailable")},
           {"max_unavailable_percentage", number(ng["updateConfig"], "maxUnavailablePercentage")}})});
    }
    ValueList groups;
    const json resources = ng.value("resources", json::object());
    for (const auto& g : resources.value("autoScalingGroups", json::array())) {
      groups.push_back(Value::Object({{"name", Value::String(JsonString(g, "name"))}}));
    }
    std::string remote_sg = JsonString(resources, "remoteAccessSecurityGroup");
    Value launch_template;
    if (ng.contains("launchTemplate") && ng["launchTemplate"].is_object()) {
      const json& lt = ng["launchTemplate"];
      auto text = [&](const char* key) { return JsonString(lt, key).empty() ? Value() : Value::String(JsonString(lt, key)); };
      launch_template = Value::List({Value::Object({{"id", text("id")}, {"name", text("name")}, {"version", text("version")}})});
    }
    Value remote_access;
    if (ng.contains("remoteAccess") && ng["remoteAccess"].is_object()) {
      const json& ra = ng["remoteAccess"];
      Value groups = NullIfEmptyAndUnset(JsonStringList(ra, "sourceSecurityGroups", true),
                                         Get(FirstBlock(prior, "remote_access"), "source_security_group_ids"));
      std::string key = JsonString(ra, "ec2SshKey");
      remote_access = Value::List({Value::Object(
          {{"ec2_ssh_key", key.empty() ? Value() : Value::String(key)}, {"source_security_group_ids", groups}})});
    }
    Value state = Value::Object({
        {"id", Value::String(cluster + ":" + name)},
        {"cluster_name", Value::String(JsonString(ng, "clusterName").empty() ? cluster : JsonString(ng, "clusterName"))},
        {"node_group_name", Value::String(JsonString(ng, "nodegroupName"))},
        {"node_group_name_prefix", Get(prior, "node_group_name_prefix")},
        {"node_role_arn", Value::String(JsonString(ng, "nodeRole"))},
        {"subnet_ids", JsonStringList(ng, "subnets", true)},
        {"scaling_config", Value::List({Value::Object({{"desired_size", number(scaling, "desiredSize")},
                                                       {"min_size", number(scaling, "minSize")},
                                                       {"max_size", number(scaling, "maxSize")}})})},
        {"instance_types", JsonStringList(ng, "instanceTypes")},
        {"capacity_type", Value::String(JsonString(ng, "capacityType"))},
        {"ami_type", Value::String(JsonString(ng, "amiType"))},
        {"disk_size", DiskSize(ng)},
        {"labels", labels.empty() && Get(prior, "labels").IsNull() ? Value() : TagsValue(labels)},
        {"taint", NullIfEmptyAndUnset(Value::Set(std::move(taints)), Get(prior, "taint"))},
        {"version", Value::String(JsonString(ng, "version"))},
        {"release_version", Value::String(JsonString(ng, "releaseVersion"))},
        {"update_config", update_config},
        {"launch_template", launch_template},
        {"remote_access", remote_access},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(JsonString(ng, "nodegroupArn"))},
        {"status", Value::String(JsonString(ng, "status"))},
        {"resources", Value::List({Value::Object(
                          {{"autoscaling_groups", Value::List(std::move(groups))},
                           {"remote_access_security_group_id",
                            remote_sg.empty() ? Value() : Value::String(remote_sg)}})})},
    });
    return {state, false, {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    auto [cluster, name] = SplitClusterScopedId(prior, "node_group_name");
    std::string id = cluster + ":" + name;
    Diagnostics diags;
    json config = ConfigUpdate(prior, planned);
    if (!config.empty()) diags = RunUpdate(ctx, cluster, name, "UpdateNodegroupConfig", "update-config", config);
    std::string version = GetString(planned, "version"), release = GetString(planned, "release_version");
    bool version_changed = !version.empty() && version != GetString(prior, "version");
    bool release_changed = !release.empty() && release != GetString(prior, "release_version");
    Value launch_template = FirstBlock(planned, "launch_template");
    bool template_changed = !launch_template.IsNull() &&
                            GetString(launch_template, "version") != GetString(FirstBlock(prior, "launch_template"), "version");
    if (!diags.HasErrors() && (version_changed || release_changed || template_changed)) {
      json body = json::object();
      if (version_changed) body["version"] = version;
      if (release_changed) body["releaseVersion"] = release;
      if (!launch_template.IsNull()) body["launchTemplate"] = LaunchTemplateJson(launch_template);
      diags = RunUpdate(ctx, cluster, name, "UpdateNodegroupVersion", "update-version", body);
    }
    if (!diags.HasErrors()) {
      diags = UpdateEksTags(*session_, ctx, GetString(prior, "arn"), GetStringMap(prior, "tags_all"),
                            WantedTags(planned));
    }
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    auto [cluster, name] = SplitClusterScopedId(prior, "node_group_name");
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EksPath({"clusters", cluster, "node-groups", name});
    Result<json> deleted = CallEks(*session_, ctx, "DeleteNodegroup", call);
    if (!deleted.ok()) {
      if (deleted.error().code == kEksNotFound) return {};
      return {AwsErrorDiag("DeleteNodegroup", deleted.error())};
    }
    EksWaitOptions wait{"EKS node group \"" + cluster + ":" + name + "\" deletion", std::chrono::minutes(60)};
    return {WaitUntil(*session_, ctx, wait, [&]() {
      Result<json> got = Describe(ctx, cluster, name);
      if (!got.ok()) {
        if (got.error().code == kEksNotFound) return EksPoll::Done();
        return EksPoll::Failed(AwsErrorDiag("DescribeNodegroup", got.error()));
      }
      std::string status = JsonString((*got)["nodegroup"], "status");
      if (status == "DELETE_FAILED") return EksPoll::Failed(Health("deletion", *got));
      return EksPoll::Pending(status);
    })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.find(':') == std::string::npos) {
      return {Value(), Error("Invalid import id", "An aws_eks_node_group is imported by \"cluster_name:node_group_name\", not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    Value out = planned;
    if (GetString(prior, "version") != GetString(planned, "version") && Get(planned, "release_version").Equals(Get(prior, "release_version"))) {
      out = With(out, "release_version", Value::Unknown());
    }
    return out;
  }

 private:
  static Value DiskSize(const json& ng) {
    auto it = ng.find("diskSize");
    if (it == ng.end()) return Value();
    if (it->is_number()) return Value::Number(it->get<double>());
    if (it->is_string()) return Value::Number(std::stod(it->get<std::string>()));
    return Value();
  }

  static json ScalingJson(const Value& planned) {
    Value s = FirstBlock(planned, "scaling_config");
    json j = json::object();
    if (auto n = GetNumber(s, "desired_size")) j["desiredSize"] = static_cast<long>(*n);
    if (auto n = GetNumber(s, "min_size")) j["minSize"] = static_cast<long>(*n);
    if (auto n = GetNumber(s, "max_size")) j["maxSize"] = static_cast<long>(*n);
    return j;
  }

  static json UpdateConfigJson(const Value& planned) {
    Value u = FirstBlock(planned, "update_config");
    json j = json::object();
    if (auto n = GetNumber(u, "max_unavailable")) j["maxUnavailable"] = static_cast<long>(*n);
    if (auto n = GetNumber(u, "max_unavailable_percentage")) j["maxUnavailablePercentage"] = static_cast<long>(*n);
    return j;
  }

  json CreateBody(const OperationContext& ctx, const Value& planned, const std::string& name) const {
    json body = {{"nodegroupName", name},
                 {"nodeRole", GetString(planned, "node_role_arn")},
                 {"subnets", ToJson(GetStringList(planned, "subnet_ids"))},
                 {"scalingConfig", ScalingJson(planned)}};
    if (Get(planned, "instance_types").IsWhollyKnown() && !GetStringList(planned, "instance_types").empty()) {
      body["instanceTypes"] = ToJson(GetStringList(planned, "instance_types"));
    }
    auto put = [&](const char* key, const char* attr) {
      if (Get(planned, attr).IsString()) body[key] = GetString(planned, attr);
    };
    put("capacityType", "capacity_type");
    put("amiType", "ami_type");
    put("version", "version");
    put("releaseVersion", "release_version");
    if (auto n = GetNumber(planned, "disk_size")) body["diskSize"] = static_cast<long>(*n);
    TagMap labels = GetStringMap(planned, "labels");
    if (!labels.empty()) body["labels"] = ToJson(labels);
    json taints = json::array();
    for (const Value& t : Blocks(planned, "taint")) taints.push_back(Taint(t));
    if (!taints.empty()) body["taints"] = taints;
    json update = UpdateConfigJson(planned);
    if (!update.empty()) body["updateConfig"] = update;
    Value launch_template = FirstBlock(planned, "launch_template");
    if (!launch_template.IsNull()) body["launchTemplate"] = LaunchTemplateJson(launch_template);
    Value remote = FirstBlock(planned, "remote_access");
    if (!remote.IsNull()) {
      json access = json::object();
      if (!GetString(remote, "ec2_ssh_key").empty()) access["ec2SshKey"] = GetString(remote, "ec2_ssh_key");
      std::vector<std::string> groups = GetStringList(remote, "source_security_group_ids");
      if (!groups.empty()) access["sourceSecurityGroups"] = ToJson(groups);
      body["remoteAccess"] = access;
    }
    TagMap tags = TagsOnCreate(ctx, planned);
    if (!tags.empty()) body["tags"] = ToJson(tags);
    return body;
  }

  //! The UpdateNodegroupConfig body for what changed; empty when nothing did.
  static json ConfigUpdate(const Value& prior, const Value& planned) {
    json body = json::object();
    if (!Get(planned, "scaling_config").Equals(Get(prior, "scaling_config"))) body["scalingConfig"] = ScalingJson(planned);
    TagMap old_labels = GetStringMap(prior, "labels"), new_labels = GetStringMap(planned, "labels");
    json add_labels = json::object(), remove_labels = json::array();
    for (const auto& [k, v] : new_labels) {
      auto old = old_labels.find(k);
      if (old == old_labels.end() || old->second != v) add_labels[k] = v;
    }
    for (const auto& [k, v] : old_labels) {
      if (!new_labels.count(k)) remove_labels.push_back(k);
    }
    if (!add_labels.empty() || !remove_labels.empty()) {
      json labels = json::object();
      if (!add_labels.empty()) labels["addOrUpdateLabels"] = add_labels;
      if (!remove_labels.empty()) labels["removeLabels"] = remove_labels;
      body["labels"] = labels;
    }
    ValueList old_taints = Blocks(prior, "taint"), new_taints = Blocks(planned, "taint");
    json add_taints = json::array(), remove_taints = json::array();
    for (const Value& t : new_taints) {
      bool present = std::any_of(old_taints.begin(), old_taints.end(), [&](const Value& o) { return SameTaint(o, t); });
      if (!present) add_taints.push_back(Taint(t));
    }
    for (const Value& o : old_taints) {
      // A taint is identified by key and effect: one re-added with a new value is an update.
      bool kept = std::any_of(new_taints.begin(), new_taints.end(), [&](const Value& t) {
        return GetString(o, "key") == GetString(t, "key") && GetString(o, "effect") == GetString(t, "effect");
      });
      if (!kept) remove_taints.push_back(Taint(o));
    }
    if (!add_taints.empty() || !remove_taints.empty()) {
      json taints = json::object();
      if (!add_taints.empty()) taints["addOrUpdateTaints"] = add_taints;
      if (!remove_taints.empty()) taints["removeTaints"] = remove_taints;
      body["taints"] = taints;
    }
    json update = UpdateConfigJson(planned);
    if (!update.empty() && update != UpdateConfigJson(prior)) body["updateConfig"] = update;
    return body;
  }

  Diagnostics RunUpdate(const OperationContext& ctx, const std::string& cluster, const std::string& name,
                        const std::string& operation, const std::string& verb, const json& body) {
    RestJsonRequest call;
    call.method = "POST";
    call.path = EksPath({"clusters", cluster, "node-groups", name, verb});
    call.body = body;
    Result<json> answer = CallEks(*session_, ctx, operation, call);
    if (!answer.ok()) return AwsErrorDiag(operation, answer.error());
    EksWaitOptions wait{"EKS node group \"" + cluster + ":" + name + "\"", std::chrono::minutes(60)};
    Diagnostics diags = WaitForEksUpdate(*session_, ctx, cluster, *answer, name, "", wait);
    if (diags.HasErrors()) return diags;
    return WaitActive(ctx, cluster, name, "update", std::chrono::minutes(60));
  }

  Result<json> Describe(const OperationContext& ctx, const std::string& cluster, const std::string& name) const {
    RestJsonRequest call;
    call.path = EksPath({"clusters", cluster, "node-groups", name});
    return CallEks(*session_, ctx, "DescribeNodegroup", call);
  }

  static Diagnostics Health(const std::string& during, const json& answer) {
    std::string detail = "EKS node group \"" + JsonString(answer["nodegroup"], "nodegroupName") + "\" is " +
                         JsonString(answer["nodegroup"], "status") + " after its " + during;
    const json& ng = answer["nodegroup"];
    if (ng.contains("health") && ng["health"].contains("issues")) {
      for (const auto& issue : ng["health"]["issues"]) {
        detail += "; " + JsonString(issue, "code") + ": " + JsonString(issue, "message");
      }
    }
    return Error("EKS node group " + during + " failed", detail + ".");
  }

  Diagnostics WaitActive(const OperationContext& ctx, const std::string& cluster, const std::string& name,
                         const std::string& during, std::chrono::minutes limit) {
    EksWaitOptions wait{"EKS node group \"" + cluster + ":" + name + "\"", limit};
    return WaitUntil(*session_, ctx, wait, [&]() {
      Result<json> got = Describe(ctx, cluster, name);
      if (!got.ok()) return EksPoll::Failed(AwsErrorDiag("DescribeNodegroup", got.error()));
      std::string status = JsonString((*got)["nodegroup"], "status");
      if (status == "ACTIVE") return EksPoll::Done();
      if (status == "CREATE_FAILED" || status == "DELETE_FAILED" || status == "DEGRADED") {
        return EksPoll::Failed(Health(during, *got));
      }
      return EksPoll::Pending(status);
    });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEksNodeGroup(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksNodeGroup>(std::move(session));
}

}  // namespace strata::aws
