// aws_eks_cluster: an EKS control plane over CreateCluster / DescribeCluster /
// UpdateClusterVersion / UpdateClusterConfig / TagResource / UntagResource / DeleteCluster,
// with Terraform's attribute names. The id is the name.
//
// Create sends the engine's idempotency token as clientRequestToken, so a create re-sent
// after an interruption finds the same cluster: EKS answers a repeated token with the
// cluster it made, and when it answers ResourceInUseException instead, the existing
// cluster is adopted only if it carries our token. Right after its role was created, IAM
// may not yet let EKS assume it (InvalidParameterException "...could not be assumed"):
// that is retried for about two minutes. Creates, updates and deletes wait (with capped
// backoff, progress and the context's cancellation and deadline) for ACTIVE, the update's
// Successful, or ResourceNotFoundException.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

const std::set<std::string> kVpcCarried = {"security_group_ids", "endpoint_private_access",
                                           "endpoint_public_access", "public_access_cidrs",
                                           "cluster_security_group_id", "vpc_id"};
const std::set<std::string> kVpcComputedOnly = {"cluster_security_group_id", "vpc_id"};
const std::set<std::string> kNetworkCarried = {"service_ipv4_cidr", "service_ipv6_cidr", "ip_family"};
const std::set<std::string> kAccessCarried = {"authentication_mode",
                                              "bootstrap_cluster_creator_admin_permissions"};

bool IsRoleNotReady(const AwsError& e) {
  if (e.code != kEksInvalidParameter) return false;
  return e.message.find("could not be assumed") != std::string::npos ||
         (e.message.find("Role") != std::string::npos &&
          e.message.find("does not exist") != std::string::npos);
}

void PutStrings(json& j, const char* key, const Value& block, const std::string& attr) {
  Value v = Get(block, attr);
  if (!v.IsSequence() || !v.IsWhollyKnown()) return;
  j[key] = ToJson(GetStringList(block, attr));
}
void PutBool(json& j, const char* key, const Value& block, const std::string& attr) {
  Value v = Get(block, attr);
  if (v.IsBool()) j[key] = v.AsBool();
}
void PutString(json& j, const char* key, const Value& block, const std::string& attr) {
  Value v = Get(block, attr);
  if (v.IsString()) j[key] = v.AsString();
}

json LoggingJson(const Value& planned, const Value& prior) {
  std::vector<std::string> enabled = GetStringList(planned, "enabled_cluster_log_types");
  std::vector<std::string> disabled;
  for (const std::string& t : GetStringList(prior, "enabled_cluster_log_types")) {
    if (std::find(enabled.begin(), enabled.end(), t) == enabled.end()) disabled.push_back(t);
  }
  json logging = json::array();
  if (!enabled.empty()) logging.push_back({{"types", ToJson(enabled)}, {"enabled", true}});
  if (!disabled.empty()) logging.push_back({{"types", ToJson(disabled)}, {"enabled", false}});
  return json{{"clusterLogging", logging}};
}

class AwsEksCluster final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    ResourceSchema s = ManagedSchema(
        "aws_eks_cluster",
        {{"name", Required("string", true)},
         {"role_arn", Required("string", true)},
         {"version", OptionalComputed("string")},
         {"vpc_config",
          Required("list(object({subnet_ids=set(string), security_group_ids=optional(set(string)), "
                   "endpoint_private_access=optional(bool), endpoint_public_access=optional(bool), "
                   "public_access_cidrs=optional(set(string)), cluster_security_group_id=optional(string), "
                   "vpc_id=optional(string)}))")},
         {"kubernetes_network_config",
          OptionalComputed("list(object({service_ipv4_cidr=optional(string), "
                           "service_ipv6_cidr=optional(string), ip_family=optional(string)}))",
                           true)},
         {"enabled_cluster_log_types", Optional("set(string)")},
         {"encryption_config",
          Optional("list(object({provider=list(object({key_arn=string})), resources=set(string)}))")},
         {"access_config",
          OptionalComputed("list(object({authentication_mode=optional(string), "
                           "bootstrap_cluster_creator_admin_permissions=optional(bool)}))")},
         {"bootstrap_self_managed_addons", OptionalComputed("bool", true)},
         {"tags", Optional("map(string)")},
         {"tags_all", Computed("map(string)")},
         {"arn", Computed("string")},
         {"endpoint", Computed("string")},
         {"certificate_authority", Computed("list(object({data=string}))")},
         {"identity", Computed("list(object({oidc=list(object({issuer=string}))}))")},
         {"platform_version", Computed("string")},
         {"status", Computed("string")},
         {"created_at", Computed("string")},
         {"cluster_id", Computed("string")}});
    return s;
  }

  PlanResult Plan(const OperationContext& ctx, const Value& prior, const Value& proposed,
                  const Value& config) const override {
    Value p = proposed;
    if (!p.IsNull() && !prior.IsNull()) {
      p = CarryNested(p, prior, "vpc_config", kVpcCarried);
      p = CarryNested(p, prior, "kubernetes_network_config", kNetworkCarried);
      p = CarryNested(p, prior, "access_config", kAccessCarried);
    }
    PlanResult result = AwsResourceType::Plan(ctx, prior, p, config);
    if (result.planned.IsNull() || result.diags.HasErrors()) return result;
    bool fresh = prior.IsNull() || !result.requires_replace.empty();
    if (!fresh && BootstrapChanged(prior, result.planned)) {
      // bootstrap_cluster_creator_admin_permissions only exists at creation.
      PlanResult replace = AwsResourceType::Plan(ctx, Value(), p, config);
      replace.requires_replace = {AttrPath::Of("access_config")};
      result = replace;
      fresh = true;
    }
    if (!fresh && EncryptionChangedOnceSet(prior, result.planned)) {
      // Secrets encryption is associated once (in place, on a cluster without it); another
      // key, or none, needs a new cluster, as EKS has no call to change or remove it.
      PlanResult replace = AwsResourceType::Plan(ctx, Value(), p, config);
      replace.requires_replace = {AttrPath::Of("encryption_config")};
      result = replace;
      fresh = true;
    }
    if (fresh) {
      Value v = result.planned;
      for (const std::string& attr : kVpcComputedOnly) v = ResetNested(v, "vpc_config", attr);
      v = CarryNested(v, Value(), "vpc_config", kVpcCarried);
      v = CarryNested(v, Value(), "kubernetes_network_config", kNetworkCarried);
      v = CarryNested(v, Value(), "access_config", kAccessCarried);
      result.planned = v;
    }
    return result;
  }

  //! Create sends the idempotency token as clientRequestToken (see the top): a recovery
  //! sends it again, and there is nothing to look for first.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  //! A destroy's look needs the name.
  std::vector<std::string> RecoveryKey() const override { return {"name"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    json body = CreateBody(ctx, planned);
    const std::string& token = ctx.idempotency_token;
    Diagnostics diags;
    bool adopted = false, outcome_unknown = false;
    EksWaitOptions role_wait{"IAM role of EKS cluster \"" + name + "\"", std::chrono::minutes(2)};
    diags = WaitUntil(*session_, ctx, role_wait, [&]() {
      RestJsonRequest call;
      call.method = "POST";
      call.path = "/clusters";
      call.body = body;
      Result<json> created = CallEks(*session_, ctx, "CreateCluster", call);
      if (created.ok()) return EksPoll::Done();
      outcome_unknown = outcome_unknown || created.error().outcome_unknown;
      if (IsRoleNotReady(created.error())) return EksPoll::Pending("waiting for the role to be assumable");
      if (created.error().code == kEksInUse && !token.empty()) {
        Result<json> existing = Describe(ctx, name);
        if (existing.ok() && JsonString((*existing)["cluster"], "clientRequestToken") == token) {
          adopted = true;
          return EksPoll::Done();
        }
      }
      return EksPoll::Failed(AwsErrorDiag("CreateCluster", created.error()));
    });
    if (diags.HasErrors()) {
      ApplyResult failed{Value(), diags};
      failed.outcome_unknown = outcome_unknown;  // the next run resends the same token
      return failed;
    }
    if (adopted) ctx.Log(LogLevel::Info, "EKS cluster \"" + name + "\" exists with our client request token: adopting it");
    diags = WaitActive(ctx, name, "creation", std::chrono::minutes(30));
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  //! A destroy cannot resend the token (that would create): EKS tells a cluster's
  //! clientRequestToken back, so the cluster under the planned name is this create's only
  //! when it carries its token; any other is someone else's and is left alone.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    Result<json> got = Describe(ctx, name);
    if (!got.ok()) {
      if (got.error().code == kEksNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeCluster", got.error())};
    }
    const std::string& token = ctx.idempotency_token;
    if (token.empty() || JsonString((*got)["cluster"], "clientRequestToken") != token) return {Value(), true, {}};
    return Read(ctx, With(planned, "id", Value::String(name)));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string name = GetString(prior, "id", GetString(prior, "name"));
    Result<json> got = Describe(ctx, name);
    if (!got.ok()) {
      if (got.error().code == kEksNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeCluster", got.error())};
    }
    const json& cluster = (*got)["cluster"];
    ValueMap m = EksClusterAttributes(cluster);
    m["id"] = Value::String(name);
    TagMap remote = EksTags(cluster);
    m["tags"] = TagsForState(remote, session_->default_tags, Get(prior, "tags"));
    m["tags_all"] = TagsValue(remote);
    m["enabled_cluster_log_types"] = NullIfEmptyAndUnset(m["enabled_cluster_log_types"], Get(prior, "enabled_cluster_log_types"));
    if (m["encryption_config"].IsNull() && !Get(prior, "encryption_config").IsNull() &&
        Get(prior, "encryption_config").AsList().empty()) {
      m["encryption_config"] = Value::List({});
    }
    m["access_config"] = MergeAccess(m["access_config"], Get(prior, "access_config"));
    // DescribeCluster does not echo bootstrapSelfManagedAddons: keep what was asked (AWS's
    // default is true).
    Value bootstrap = Get(prior, "bootstrap_self_managed_addons");
    m["bootstrap_self_managed_addons"] = bootstrap.IsBool() ? bootstrap : Value::Bool(true);
    return {Value::Object(std::move(m)), false, {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id", GetString(prior, "name"));
    Diagnostics diags;
    auto step = [&](const std::string& operation, RestJsonRequest call) {
      if (diags.HasErrors()) return;
      Result<json> answer = CallEks(*session_, ctx, operation, call);
      if (!answer.ok()) {
        diags = AwsErrorDiag(operation, answer.error());
        return;
      }
      EksWaitOptions wait{"EKS cluster \"" + name + "\"", std::chrono::minutes(60)};
      diags = WaitForEksUpdate(*session_, ctx, name, *answer, "", "", wait);
      if (!diags.HasErrors()) diags = WaitActive(ctx, name, "update", std::chrono::minutes(60));
    };
    auto update_config = [&](json body) {
      RestJsonRequest call;
      call.method = "POST";
      call.path = EksPath({"clusters", name, "update-config"});
      call.body = std::move(body);
      step("UpdateClusterConfig", call);
    };

    std::string version = GetString(planned, "version");
    if (!version.empty() && version != GetString(prior, "version")) {
      RestJsonRequest call;
      call.method = "POST";
      call.path = EksPath({"clusters", name, "updates"});
      call.body = json{{"version", version}};
      step("UpdateClusterVersion", call);
    }
    Value vpc = FirstBlock(planned, "vpc_config"), old_vpc = FirstBlock(prior, "vpc_config");
    if (Differs(vpc, old_vpc, {"endpoint_private_access", "endpoint_public_access", "public_access_cidrs"})) {
      json access = json::object();
      PutBool(access, "endpointPrivateAccess", vpc, "endpoint_private_access");
      PutBool(access, "endpointPublicAccess", vpc, "endpoint_public_access");
      PutStrings(access, "publicAccessCidrs", vpc, "public_access_cidrs");
      update_config(json{{"resourcesVpcConfig", access}});
    }
    if (Differs(vpc, old_vpc, {"subnet_ids", "security_group_ids"})) {
      json network = json::object();
      PutStrings(network, "subnetIds", vpc, "subnet_ids");
      PutStrings(network, "securityGroupIds", vpc, "security_group_ids");
      update_config(json{{"resourcesVpcConfig", network}});
    }
    if (!SameValue(Get(planned, "enabled_cluster_log_types"), Get(prior, "enabled_cluster_log_types"))) {
      update_config(json{{"logging", LoggingJson(planned, prior)}});
    }
    std::string mode = GetString(FirstBlock(planned, "access_config"), "authentication_mode");
    if (!mode.empty() && mode != GetString(FirstBlock(prior, "access_config"), "authentication_mode")) {
      update_config(json{{"accessConfig", {{"authenticationMode", mode}}}});
    }
    if (EncryptionJson(prior).empty() && !EncryptionJson(planned).empty()) {
      RestJsonRequest call;
      call.method = "POST";
      call.path = EksPath({"clusters", name, "encryption-config", "associate"});
      call.body = json{{"encryptionConfig", EncryptionJson(planned)}};
      step("AssociateEncryptionConfig", call);
    }
    if (!diags.HasErrors()) {
      diags = UpdateEksTags(*session_, ctx, GetString(prior, "arn"), GetStringMap(prior, "tags_all"),
                            WantedTags(planned));
    }
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string name = GetString(prior, "id", GetString(prior, "name"));
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EksPath({"clusters", name});
    Result<json> deleted = CallEks(*session_, ctx, "DeleteCluster", call);
    if (!deleted.ok()) {
      if (deleted.error().code == kEksNotFound) return {};
      return {AwsErrorDiag("DeleteCluster", deleted.error())};
    }
    EksWaitOptions wait{"EKS cluster \"" + name + "\" deletion", std::chrono::minutes(15)};
    return {WaitUntil(*session_, ctx, wait, [&]() {
      Result<json> got = Describe(ctx, name);
      if (!got.ok()) {
        if (got.error().code == kEksNotFound) return EksPoll::Done();
        return EksPoll::Failed(AwsErrorDiag("DescribeCluster", got.error()));
      }
      std::string status = JsonString((*got)["cluster"], "status");
      if (status == "FAILED") {
        return EksPoll::Failed(Error("EKS cluster deletion failed",
                                     "EKS cluster \"" + name + "\" went to FAILED while deleting."));
      }
      return EksPoll::Pending(status);
    })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    Value vpc = Get(out, "vpc_config");
    if (vpc.IsSequence() && !vpc.AsList().empty()) {
      ValueList items = vpc.AsList();
      for (Value& item : items) {
        if (Get(item, "endpoint_private_access").IsNull()) item = With(item, "endpoint_private_access", Value::Bool(false));
        if (Get(item, "endpoint_public_access").IsNull()) item = With(item, "endpoint_public_access", Value::Bool(true));
      }
      out = With(out, "vpc_config", Value::List(std::move(items)));
    }
    if (Get(out, "bootstrap_self_managed_addons").IsNull()) {
      out = With(out, "bootstrap_self_managed_addons", Value::Bool(true));
    }
    return out;
  }

  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    if (GetString(prior, "version") != GetString(planned, "version")) {
      return With(planned, "platform_version", Value::Unknown());
    }
    return planned;
  }

 private:
  static bool SameValue(const Value& a, const Value& b) {
    if (a.IsNull() || b.IsNull()) {
      bool a_empty = a.IsNull() || (a.IsSequence() && a.AsList().empty());
      bool b_empty = b.IsNull() || (b.IsSequence() && b.AsList().empty());
      return a_empty && b_empty;
    }
    return a.Equals(b);
  }
  static bool Differs(const Value& a, const Value& b, const std::vector<std::string>& attrs) {
    for (const std::string& attr : attrs) {
      Value x = Get(a, attr);
      if (x.IsNull()) continue;  // not asked for: keep what is there
      if (!SameValue(x, Get(b, attr))) return true;
    }
    return false;
  }
  static Value ResetNested(const Value& v, const std::string& block, const std::string& attr) {
    Value list = Get(v, block);
    if (!list.IsSequence()) return v;
    ValueList items;
    for (const Value& item : list.AsList()) items.push_back(With(item, attr, Value()));
    return With(v, block, Value::List(std::move(items)));
  }
  static bool BootstrapChanged(const Value& prior, const Value& planned) {
    Value a = Get(FirstBlock(prior, "access_config"), "bootstrap_cluster_creator_admin_permissions");
    Value b = Get(FirstBlock(planned, "access_config"), "bootstrap_cluster_creator_admin_permissions");
    return a.IsBool() && b.IsBool() && a.AsBool() != b.AsBool();
  }
  //! What DescribeCluster leaves out of accessConfig (the bootstrap flag, or the whole
  //! block on older endpoints) keeps its prior value.
  static Value MergeAccess(const Value& remote, const Value& prior) {
    if (remote.IsNull()) return prior;
    Value item = remote.AsList().front();
    Value old = prior.IsSequence() && !prior.AsList().empty() ? prior.AsList().front() : Value();
    for (const std::string& attr : kAccessCarried) {
      if (Get(item, attr).IsNull()) item = With(item, attr, Get(old, attr));
    }
    return Value::List({item});
  }

  Result<json> Describe(const OperationContext& ctx, const std::string& name) const {
    RestJsonRequest call;
    call.path = EksPath({"clusters", name});
    return CallEks(*session_, ctx, "DescribeCluster", call);
  }

  json CreateBody(const OperationContext& ctx, const Value& planned) const {
    json body = {{"name", GetString(planned, "name")}, {"roleArn", GetString(planned, "role_arn")}};
    PutString(body, "version", planned, "version");
    Value vpc = FirstBlock(planned, "vpc_config");
    json resources = json::object();
    PutStrings(resources, "subnetIds", vpc, "subnet_ids");
    PutStrings(resources, "securityGroupIds", vpc, "security_group_ids");
    PutBool(resources, "endpointPrivateAccess", vpc, "endpoint_private_access");
    PutBool(resources, "endpointPublicAccess", vpc, "endpoint_public_access");
    PutStrings(resources, "publicAccessCidrs", vpc, "public_access_cidrs");
    body["resourcesVpcConfig"] = resources;
    Value net = FirstBlock(planned, "kubernetes_network_config");
    json network = json::object();
    PutString(network, "serviceIpv4Cidr", net, "service_ipv4_cidr");
    PutString(network, "ipFamily", net, "ip_family");
    if (!network.empty()) body["kubernetesNetworkConfig"] = network;
    if (!GetStringList(planned, "enabled_cluster_log_types").empty()) {
      body["logging"] = LoggingJson(planned, Value());
    }
    Value access = FirstBlock(planned, "access_config");
    json access_json = json::object();
    PutString(access_json, "authenticationMode", access, "authentication_mode");
    PutBool(access_json, "bootstrapClusterCreatorAdminPermissions", access,
            "bootstrap_cluster_creator_admin_permissions");
    if (!access_json.empty()) body["accessConfig"] = access_json;
    PutBool(body, "bootstrapSelfManagedAddons", planned, "bootstrap_self_managed_addons");
    if (json encryption = EncryptionJson(planned); !encryption.empty()) body["encryptionConfig"] = encryption;
    TagMap tags = WantedTags(planned);
    if (!tags.empty()) body["tags"] = ToJson(tags);
    if (!ctx.idempotency_token.empty()) body["clientRequestToken"] = ctx.idempotency_token;
    return body;
  }

  //! encryption_config as EKS takes it: [{resources, provider: {keyArn}}]; [] when unset.
  static json EncryptionJson(const Value& v) {
    json out = json::array();
    for (const Value& entry : Blocks(v, "encryption_config")) {
      json item = {{"resources", ToJson(GetStringList(entry, "resources"))}};
      std::string key = GetString(FirstBlock(entry, "provider"), "key_arn");
      if (!key.empty()) item["provider"] = {{"keyArn", key}};
      out.push_back(item);
    }
    return out;
  }

  //! Whether a cluster that has secrets encryption is asked for another configuration.
  static bool EncryptionChangedOnceSet(const Value& prior, const Value& planned) {
    json before = EncryptionJson(prior);
    return !before.empty() && before != EncryptionJson(planned);
  }

  //! Waits until the cluster is ACTIVE; FAILED (or vanishing) is an error.
  Diagnostics WaitActive(const OperationContext& ctx, const std::string& name, const std::string& during,
                         std::chrono::minutes limit) {
    EksWaitOptions wait{"EKS cluster \"" + name + "\"", limit};
    return WaitUntil(*session_, ctx, wait, [&]() {
      Result<json> got = Describe(ctx, name);
      if (!got.ok()) return EksPoll::Failed(AwsErrorDiag("DescribeCluster", got.error()));
      std::string status = JsonString((*got)["cluster"], "status");
      if (status == "ACTIVE") return EksPoll::Done();
      if (status == "FAILED") {
        return EksPoll::Failed(Error("EKS cluster " + during + " failed",
                                     "EKS cluster \"" + name + "\" is FAILED after its " + during + "."));
      }
      return EksPoll::Pending(status);
    });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEksCluster(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksCluster>(std::move(session));
}

}  // namespace strata::aws
