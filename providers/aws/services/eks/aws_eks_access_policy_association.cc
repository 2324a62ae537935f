// aws_eks_access_policy_association: an EKS access policy associated with an access entry,
// over AssociateAccessPolicy / ListAssociatedAccessPolicies / DisassociateAccessPolicy, with
// Terraform's attribute names. The id is "cluster#principal_arn#policy_arn" (Terraform's;
// ARNs hold ':' but never '#'). Every attribute forces a new association, as in Terraform
// (the scope is sent again by AssociateAccessPolicy, which replaces it in place on EKS, but
// Terraform's schema treats it as new). The triple is the natural key: associating again
// is what AWS does for a re-sent create, so nothing can be doubled.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/eks/eks_api.h"
#include "providers/aws/services/eks/eks_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

struct AssociationKey {
  std::string cluster, principal, policy;
  std::string Id() const { return cluster + "#" + principal + "#" + policy; }
};

class AwsEksAccessPolicyAssociation final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_eks_access_policy_association",
                         {{"cluster_name", Required("string", true)},
                          {"principal_arn", Required("string", true)},
                          {"policy_arn", Required("string", true)},
                          {"access_scope", Required("list(object({type=string, namespaces=optional(set(string))}))", true)},
                          {"associated_at", Computed("string")},
                          {"modified_at", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    AssociationKey key = KeyOf(planned);
    Value scope = FirstBlock(planned, "access_scope");
    json body = {{"policyArn", key.policy},
                 {"accessScope", {{"type", GetString(scope, "type")}, {"namespaces", ToJson(GetStringList(scope, "namespaces"))}}}};
    RestJsonRequest call;
    call.method = "POST";
    call.path = EksPath({"clusters", key.cluster, "access-entries", key.principal, "access-policies"});
    call.body = body;
    Result<json> associated = CallEks(*session_, ctx, "AssociateAccessPolicy", call);
    if (!associated.ok()) return CreateFailed("AssociateAccessPolicy", associated.error());
    return ReadAfterWrite(ctx, planned, key.Id(), {});
  }

  //! The association of the planned triple, whoever made it: it is the whole object.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override { return Read(ctx, planned); }

  //! Brought to the planned scope: AssociateAccessPolicy replaces the scope in place.
  ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) override {
    if (Get(found, "access_scope").Equals(Get(planned, "access_scope"))) return {found, {}};
    return Create(ctx, planned);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    AssociationKey key = KeyOf(prior);
    std::string next;
    do {
      RestJsonRequest call;
      call.path = EksPath({"clusters", key.cluster, "access-entries", key.principal, "access-policies"});
      if (!next.empty()) call.query.push_back({"nextToken", next});
      Result<json> page = CallEks(*session_, ctx, "ListAssociatedAccessPolicies", call);
      if (!page.ok()) {
        if (page.error().code == kEksNotFound) return {Value(), true, {}};  // the entry (or cluster) is gone
        return {Value(), false, AwsErrorDiag("ListAssociatedAccessPolicies", page.error())};
      }
      for (const json& association : page->value("associatedAccessPolicies", json::array())) {
        if (JsonString(association, "policyArn") != key.policy) continue;
        return {StateOf(key, association, prior), false, {}};
      }
      next = JsonString(*page, "nextToken");
    } while (!next.empty());
    return {Value(), true, {}};
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    AssociationKey key = KeyOf(prior);
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EksPath({"clusters", key.cluster, "access-entries", key.principal, "access-policies", key.policy});
    Result<json> gone = CallEks(*session_, ctx, "DisassociateAccessPolicy", call);
    if (!gone.ok() && gone.error().code != kEksNotFound) return {AwsErrorDiag("DisassociateAccessPolicy", gone.error())};
    return {};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    size_t first = id.find('#'), last = id.rfind('#');
    if (first == std::string::npos || first == last || first == 0 || last + 1 == id.size()) {
      return {Value(), Error("Invalid import id", "An aws_eks_access_policy_association is imported by "
                                                  "\"cluster_name#principal_arn#policy_arn\", not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 private:
  //! From the id when there is one ("cluster#principal#policy"), else the attributes.
  static AssociationKey KeyOf(const Value& v) {
    std::string id = GetString(v, "id");
    size_t first = id.find('#'), last = id.rfind('#');
    if (first != std::string::npos && last != first) {
      return {id.substr(0, first), id.substr(first + 1, last - first - 1), id.substr(last + 1)};
    }
    return {GetString(v, "cluster_name"), GetString(v, "principal_arn"), GetString(v, "policy_arn")};
  }

  //! A cluster-wide scope has no namespaces: EKS answers [], which is the unset attribute.
  static Value StateOf(const AssociationKey& key, const json& association, const Value& prior) {
    const json& scope = association.value("accessScope", json::object());
    Value namespaces = NullIfEmptyAndUnset(JsonStringList(scope, "namespaces", /*as_set=*/true),
                                           Get(FirstBlock(prior, "access_scope"), "namespaces"));
    Value block = Value::Object({{"type", Value::String(JsonString(scope, "type"))}, {"namespaces", namespaces}});
    return Value::Object({{"id", Value::String(key.Id())},
                          {"cluster_name", Value::String(key.cluster)},
                          {"principal_arn", Value::String(key.principal)},
                          {"policy_arn", Value::String(key.policy)},
                          {"access_scope", Value::List({block})},
                          {"associated_at", EksTimestamp(association, "associatedAt")},
                          {"modified_at", EksTimestamp(association, "modifiedAt")}});
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEksAccessPolicyAssociation(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEksAccessPolicyAssociation>(std::move(session));
}

}  // namespace strata::aws
