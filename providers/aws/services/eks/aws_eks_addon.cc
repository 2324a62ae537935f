// aws_eks_addon: an EKS add-on over CreateAddon / DescribeAddon / UpdateAddon /
// TagResource / UntagResource / DeleteAddon, with Terraform's attribute names. The id is
// "cluster:addon".
//
// As Terraform does, a create waits for ACTIVE and keeps waiting through DEGRADED (an
// add-on whose pods cannot yet be scheduled, e.g. before any node group exists, is
// DEGRADED until nodes arrive): the wait then ends in a timeout error, and the add-on is
// kept in state as tainted. CREATE_FAILED is an error at once. Create sends the engine's
// idempotency token as clientRequestToken, so a re-sent create is answered with the same
// add-on, and tags the add-on with the token (left out of tags/tags_all), so a destroy
// that meets an interrupted create can look for it without creating.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsEksAddon final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_eks_addon", {{"cluster_name", Required("string", true)},
                                           {"addon_name", Required("string", true)},
                                           {"addon_version", OptionalComputed("string")},
                                           {"service_account_role_arn", Optional("string")},
                                           {"resolve_conflicts_on_create", Optional("string")},
                                           {"resolve_conflicts_on_update", Optional("string")},
                                           {"configuration_values", OptionalComputed("string")},
                                           {"preserve", Optional("bool")},
                                           {"tags", Optional("map(string)")},
                                           {"tags_all", Computed("map(string)")},
                                           {"arn", Computed("string")},
                                           {"created_at", Computed("string")},
                                           {"modified_at", Computed("string")}});
  }

  //! Create sends the idempotency token as clientRequestToken (see the top): a recovery
  //! sends it again, and there is nothing to look for first.
  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  //! A destroy's look needs the add-on's name and cluster.
  std::vector<std::string> RecoveryKey() const override { return {"cluster_name", "addon_name"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string cluster = GetString(planned, "cluster_name"), name = GetString(planned, "addon_name");
    json body = {{"addonName", name}};
    auto put = [&](const char* key, const char* attr) {
      if (Get(planned, attr).IsString()) body[key] = GetString(planned, attr);
    };
    put("addonVersion", "addon_version");
    put("serviceAccountRoleArn", "service_account_role_arn");
    put("resolveConflicts", "resolve_conflicts_on_create");
    put("configurationValues", "configuration_values");
    TagMap tags = TagsOnCreate(ctx, planned);
    if (!tags.empty()) body["tags"] = ToJson(tags);
    if (!ctx.idempotency_token.empty()) body["clientRequestToken"] = ctx.idempotency_token;
    RestJsonRequest call;
    call.method = "POST";
    call.path = EksPath({"clusters", cluster, "addons"});
    call.body = body;
    Result<json> created = CallEks(*session_, ctx, "CreateAddon", call);
    if (!created.ok()) return CreateFailed("CreateAddon", created.error());
    Diagnostics diags = WaitActive(ctx, cluster, name, std::chrono::minutes(20));
    return ReadAfterWrite(ctx, planned, cluster + ":" + name, diags);
  }

  //! A destroy cannot resend the token (that would create): the create also tags the
  //! add-on with it, so the add-on of the planned name is this create's only when it
  //! carries that tag; any other is someone else's and is left alone.
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    std::string cluster = GetString(planned, "cluster_name"), name = GetString(planned, "addon_name");
    return ClaimIfTaggedByThisCreate(ctx, Describe(ctx, cluster, name), "DescribeAddon", "addon", [&] {
      return Read(ctx, With(planned, "id", Value::String(cluster + ":" + name)));
    });
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    auto [cluster, name] = SplitClusterScopedId(prior, "addon_name");
    Result<json> got = Describe(ctx, cluster, name);
    if (!got.ok()) {
      if (got.error().code == kEksNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeAddon", got.error())};
    }
    const json& addon = (*got)["addon"];
    TagMap remote = EksTags(addon);
    std::string role = JsonString(addon, "serviceAccountRoleArn");
    std::string values = JsonString(addon, "configurationValues");
    Value state = Value::Object({
        {"id", Value::String(cluster + ":" + name)},
        {"cluster_name", Value::String(cluster)},
        {"addon_name", Value::String(JsonString(addon, "addonName"))},
        {"addon_version", Value::String(JsonString(addon, "addonVersion"))},
        {"service_account_role_arn", role.empty() ? Value() : Value::String(role)},
        // Not part of the add-on: only what was asked.
        {"resolve_conflicts_on_create", Get(prior, "resolve_conflicts_on_create")},
        {"resolve_conflicts_on_update", Get(prior, "resolve_conflicts_on_update")},
        {"preserve", Get(prior, "preserve")},
        {"configuration_values", ConfigurationForState(values, Get(prior, "configuration_values"))},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(JsonString(addon, "addonArn"))},
        {"created_at", EksTimestamp(addon, "createdAt")},
        {"modified_at", EksTimestamp(addon, "modifiedAt")},
    });
    return {state, false, {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    auto [cluster, name] = SplitClusterScopedId(prior, "addon_name");
    std::string id = cluster + ":" + name;
    Diagnostics diags;
    bool changed = false;
    json body = json::object();
    for (auto [key, attr] : {std::pair{"addonVersion", "addon_version"},
                             std::pair{"serviceAccountRoleArn", "service_account_role_arn"},
                             std::pair{"configurationValues", "configuration_values"}}) {
      Value now = Get(planned, attr);
      if (!now.Equals(Get(prior, attr)) && !(now.IsNull() && Get(prior, attr).IsNull())) changed = true;
      if (now.IsString()) body[key] = now.AsString();
    }
    if (Get(planned, "service_account_role_arn").IsNull() && !Get(prior, "service_account_role_arn").IsNull()) {
      body["serviceAccountRoleArn"] = "";  // EKS: an empty string removes the role
    }
    if (changed) {
      if (Get(planned, "resolve_conflicts_on_update").IsString()) {
        body["resolveConflicts"] = GetString(planned, "resolve_conflicts_on_update");
      }
      RestJsonRequest call;
      call.method = "POST";
      call.path = EksPath({"clusters", cluster, "addons", name, "update"});
      call.body = body;
      Result<json> answer = CallEks(*session_, ctx, "UpdateAddon", call);
      if (!answer.ok()) {
        diags = AwsErrorDiag("UpdateAddon", answer.error());
      } else {
        EksWaitOptions wait{"EKS add-on \"" + id + "\"", std::chrono::minutes(20)};
        diags = WaitForEksUpdate(*session_, ctx, cluster, *answer, "", name, wait);
        if (!diags.HasErrors()) diags = WaitActive(ctx, cluster, name, std::chrono::minutes(20));
      }
    }
    if (!diags.HasErrors()) {
      diags = UpdateEksTags(*session_, ctx, GetString(prior, "arn"), GetStringMap(prior, "tags_all"),
                            WantedTags(planned));
    }
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    auto [cluster, name] = SplitClusterScopedId(prior, "addon_name");
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EksPath({"clusters", cluster, "addons", name});
    if (GetBool(prior, "preserve", false)) call.query.push_back({"preserve", "true"});
    Result<json> deleted = CallEks(*session_, ctx, "DeleteAddon", call);
    if (!deleted.ok()) {
      if (deleted.error().code == kEksNotFound) return {};
      return {AwsErrorDiag("DeleteAddon", deleted.error())};
    }
    EksWaitOptions wait{"EKS add-on \"" + cluster + ":" + name + "\" deletion", std::chrono::minutes(40)};
    return {WaitUntil(*session_, ctx, wait, [&]() {
      Result<json> got = Describe(ctx, cluster, name);
      if (!got.ok()) {
        if (got.error().code == kEksNotFound) return EksPoll::Done();
        return EksPoll::Failed(AwsErrorDiag("DescribeAddon", got.error()));
      }
      std::string status = JsonString((*got)["addon"], "status");
      if (status == "DELETE_FAILED") return EksPoll::Failed(Health("deletion", (*got)["addon"]));
      return EksPoll::Pending(status);
    })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.find(':') == std::string::npos) {
      return {Value(), Error("Invalid import id",
                             "An aws_eks_addon is imported by \"cluster_name:addon_name\", not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    if (planned.Equals(prior)) return planned;
    return With(planned, "modified_at", Value::Unknown());
  }

 private:
  //! The user's text when it is the same JSON as EKS's (which may reformat it).
  static Value ConfigurationForState(const std::string& remote, const Value& prior) {
    if (prior.IsString()) {
      json a = json::parse(remote, nullptr, false), b = json::parse(prior.AsString(), nullptr, false);
      if (prior.AsString() == remote || (!a.is_discarded() && !b.is_discarded() && a == b)) return prior;
    }
    return remote.empty() && prior.IsNull() ? Value() : Value::String(remote);
  }

  static Diagnostics Health(const std::string& during, const json& addon) {
    std::string detail = "EKS add-on \"" + JsonString(addon, "addonName") + "\" is " + JsonString(addon, "status") +
                         " after its " + during;
    if (addon.contains("health") && addon["health"].contains("issues")) {
      for (const auto& issue : addon["health"]["issues"]) {
        detail += "; " + JsonString(issue, "code") + ": " + JsonString(issue, "message");
      }
    }
    return Error("EKS add-on " + during + " failed", detail + ".");
  }

  Result<json> Describe(const OperationContext& ctx, const std::string& cluster, const std::string& name) const {
    RestJsonRequest call;
    call.path = EksPath({"clusters", cluster, "addons", name});
    return CallEks(*session_, ctx, "DescribeAddon", call);
  }

  //! ACTIVE ends the wait; CREATING, UPDATING and DEGRADED keep it going (see the top).
  Diagnostics WaitActive(const OperationContext& ctx, const std::string& cluster, const std::string& name,
                         std::chrono::minutes limit) {
    EksWaitOptions wait{"EKS add-on \"" + cluster + ":" + name + "\"", limit};
    return WaitUntil(*session_, ctx, wait, [&]() {
      Result<json> got = Describe(ctx, cluster, name);
      if (!got.ok()) return EksPoll::Failed(AwsErrorDiag("DescribeAddon", got.error()));
      const json& addon = (*got)["addon"];
      std::string status = JsonString(addon, "status");
      if (status == "ACTIVE") return EksPoll::Done();
      if (status == "CREATE_FAILED" || status == "UPDATE_FAILED" || status == "DELETE_FAILED") {
        return EksPoll::Failed(Health(status == "CREATE_FAILED" ? "creation" : "update", addon));
      }
      return EksPoll::Pending(status);
    });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEksAddon(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksAddon>(std::move(session));
}

}  // namespace strata::aws
