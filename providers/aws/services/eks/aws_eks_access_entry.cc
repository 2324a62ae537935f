// aws_eks_access_entry: an IAM principal's access to an EKS cluster's Kubernetes API, over
// CreateAccessEntry / DescribeAccessEntry / UpdateAccessEntry / TagResource / UntagResource /
// DeleteAccessEntry, with Terraform's attribute names. The id is "cluster:principal_arn"
// (Terraform's import form; the cluster name holds no ':').
//
// Create sends the engine's idempotency token as clientRequestToken (a re-sent create is
// answered with the same entry) and tags the entry with it (left out of tags/tags_all), so
// a destroy that meets an interrupted create claims only the entry this create made. The
// cluster's authentication mode must be API or API_AND_CONFIG_MAP: EKS refuses otherwise,
// and the error says so.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsEksAccessEntry final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_eks_access_entry", {{"cluster_name", Required("string", true)},
                                                  {"principal_arn", Required("string", true)},
                                                  {"kubernetes_groups", OptionalComputed("set(string)")},
                                                  {"type", OptionalComputed("string", true)},
                                                  {"user_name", OptionalComputed("string")},
                                                  {"tags", Optional("map(string)")},
                                                  {"tags_all", Computed("map(string)")},
                                                  {"access_entry_arn", Computed("string")},
                                                  {"created_at", Computed("string")},
                                                  {"modified_at", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::ClientToken; }
  std::vector<std::string> RecoveryKey() const override { return {"cluster_name", "principal_arn"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string cluster = GetString(planned, "cluster_name"), principal = GetString(planned, "principal_arn");
    json body = {{"principalArn", principal}};
    if (Get(planned, "kubernetes_groups").IsSequence()) body["kubernetesGroups"] = ToJson(GetStringList(planned, "kubernetes_groups"));
    if (Get(planned, "type").IsString()) body["type"] = GetString(planned, "type");
    if (Get(planned, "user_name").IsString()) body["username"] = GetString(planned, "user_name");
    TagMap tags = TagsOnCreate(ctx, planned);
    if (!tags.empty()) body["tags"] = ToJson(tags);
    if (!ctx.idempotency_token.empty()) body["clientRequestToken"] = ctx.idempotency_token;
    RestJsonRequest call;
    call.method = "POST";
    call.path = EksPath({"clusters", cluster, "access-entries"});
    call.body = body;
    Result<json> created = CallEks(*session_, ctx, "CreateAccessEntry", call);
    if (!created.ok()) return CreateFailed("CreateAccessEntry", created.error());
    return ReadAfterWrite(ctx, planned, cluster + ":" + principal, {});
  }

  //! Only the entry tagged with this create's token is ours (see the top).
  ReadResult FindInterrupted(const OperationContext& ctx, const Value& planned) override {
    std::string cluster = GetString(planned, "cluster_name"), principal = GetString(planned, "principal_arn");
    return ClaimIfTaggedByThisCreate(ctx, Describe(ctx, cluster, principal), "DescribeAccessEntry", "accessEntry",
                                     [&] { return Read(ctx, With(planned, "id", Value::String(cluster + ":" + principal))); });
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    auto [cluster, principal] = SplitClusterScopedId(prior, "principal_arn");
    Result<json> got = Describe(ctx, cluster, principal);
    if (!got.ok()) {
      if (got.error().code == kEksNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeAccessEntry", got.error())};
    }
    const json& entry = (*got)["accessEntry"];
    TagMap remote = EksTags(entry);
    return {Value::Object({
                {"id", Value::String(cluster + ":" + principal)},
                {"cluster_name", Value::String(cluster)},
                {"principal_arn", Value::String(JsonString(entry, "principalArn"))},
                {"kubernetes_groups", JsonStringList(entry, "kubernetesGroups", /*as_set=*/true)},
                {"type", Value::String(JsonString(entry, "type"))},
                {"user_name", Value::String(JsonString(entry, "username"))},
                {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                {"tags_all", TagsValue(remote)},
                {"access_entry_arn", Value::String(JsonString(entry, "accessEntryArn"))},
                {"created_at", EksTimestamp(entry, "createdAt")},
                {"modified_at", EksTimestamp(entry, "modifiedAt")},
            }),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    auto [cluster, principal] = SplitClusterScopedId(prior, "principal_arn");
    std::string id = cluster + ":" + principal;
    Diagnostics diags;
    json body = json::object();
    if (!Get(planned, "kubernetes_groups").Equals(Get(prior, "kubernetes_groups")) &&
        Get(planned, "kubernetes_groups").IsSequence()) {
      body["kubernetesGroups"] = ToJson(GetStringList(planned, "kubernetes_groups"));
    }
    if (!Get(planned, "user_name").Equals(Get(prior, "user_name")) && Get(planned, "user_name").IsString()) {
      body["username"] = GetString(planned, "user_name");
    }
    if (!body.empty()) {
      RestJsonRequest call;
      call.method = "POST";
      call.path = EksPath({"clusters", cluster, "access-entries", principal});
      call.body = body;
      Result<json> answer = CallEks(*session_, ctx, "UpdateAccessEntry", call);
      if (!answer.ok()) diags = AwsErrorDiag("UpdateAccessEntry", answer.error());
    }
    if (!diags.HasErrors()) {
      diags = UpdateEksTags(*session_, ctx, GetString(prior, "access_entry_arn"), GetStringMap(prior, "tags_all"),
                            WantedTags(planned));
    }
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    auto [cluster, principal] = SplitClusterScopedId(prior, "principal_arn");
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EksPath({"clusters", cluster, "access-entries", principal});
    Result<json> deleted = CallEks(*session_, ctx, "DeleteAccessEntry", call);
    if (!deleted.ok() && deleted.error().code != kEksNotFound) return {AwsErrorDiag("DeleteAccessEntry", deleted.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    size_t colon = id.find(':');
    if (colon == std::string::npos || colon == 0 || id.compare(colon + 1, 4, "arn:") != 0) {
      return {Value(), Error("Invalid import id", "An aws_eks_access_entry is imported by \"cluster_name:principal_arn\", not \"" +
                                                      id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  Value PlanUpdate(const Value& prior, const Value& planned) const override {
    if (planned.Equals(prior)) return planned;
    return With(planned, "modified_at", Value::Unknown());
  }

 private:
  Result<json> Describe(const OperationContext& ctx, const std::string& cluster, const std::string& principal) const {
    RestJsonRequest call;
    call.path = EksPath({"clusters", cluster, "access-entries", principal});
    return CallEks(*session_, ctx, "DescribeAccessEntry", call);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEksAccessEntry(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksAccessEntry>(std::move(session));
}

}  // namespace strata::aws
