// aws_iam_role_policy_attachment: a managed policy attached to a role, over
// AttachRolePolicy / ListAttachedRolePolicies (paginated) / DetachRolePolicy, with
// Terraform's attribute names. The id is "<role>/<policy_arn>" — Terraform's import form —
// which is unambiguous since role names cannot contain '/'. Both attributes force a new
// attachment, so there is no in-place update. The pair is the natural key and the whole
// attachment: an interrupted create found attached is adopted as it is (IAM also accepts
// attaching a pair again, so none can be doubled).

#include <map>
#include <set>

#include "providers/aws/client/paginator.h"
#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/iam/iam_api.h"
#include "providers/aws/services/iam/iam_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsIamRolePolicyAttachment final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_iam_role_policy_attachment",
                         {{"role", Required("string", true)}, {"policy_arn", Required("string", true)}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string role = GetString(planned, "role"), arn = GetString(planned, "policy_arn");
    QueryRequest call = IamCall("AttachRolePolicy");
    call.Add("RoleName", role).Add("PolicyArn", arn);
    Result<XmlResponse> attached = CallIam(*session_, ctx, call);
    if (!attached.ok()) return CreateFailed(call.action, attached.error());
    return ReadAfterWrite(ctx, planned, role + "/" + arn, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string role, arn;
    Split(prior, role, arn);
    return AnswerFor(role, arn, AttachedTo(ctx, role));
  }

  bool ReadsInBatches() const override { return true; }
  //! One ListAttachedRolePolicies (all its pages) per role, for all the role's attachments
  //! being read: an attachment the list does not hold is gone, as Read says. A role's
  //! error is the answer of that role's attachments only.
  std::vector<ReadResult> ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) override {
    std::map<std::string, std::vector<size_t>> by_role;
    std::vector<std::string> arns(priors.size());
    for (size_t i = 0; i < priors.size(); ++i) {
      std::string role;
      Split(priors[i], role, arns[i]);
      by_role[role].push_back(i);
    }
    std::vector<ReadResult> results(priors.size());
    for (const auto& [role, members] : by_role) {
      Result<std::set<std::string>> attached = AttachedTo(ctx, role);
      for (size_t i : members) results[i] = AnswerFor(role, arns[i], attached);
    }
    return results;
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string role, arn;
    Split(prior, role, arn);
    QueryRequest call = IamCall("DetachRolePolicy");
    call.Add("RoleName", role).Add("PolicyArn", arn);
    return {RunIamDelete(*session_, ctx, call)};
  }

  //! Import by "<role>/<policy_arn>".
  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.find('/') == std::string::npos || id.front() == '/' || id.back() == '/') {
      return {Value(), Error("Invalid import id",
                             "Expected \"<role-name>/<policy-arn>\", got \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override { return Read(ctx, planned); }

  //! What FindCreated found is already what was planned.
  ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) override {
    (void)ctx, (void)planned;
    return {found, {}};
  }

 private:
  //! The ARNs of the policies attached to `role` (every page of ListAttachedRolePolicies).
  Result<std::set<std::string>> AttachedTo(const OperationContext& ctx, const std::string& role) const {
    auto fetch = [&](const std::string& marker) -> Result<XmlResponse> {
      QueryRequest call = IamCall("ListAttachedRolePolicies");
      call.Add("RoleName", role);
      if (!marker.empty()) call.Add("Marker", marker);
      return CallIam(*session_, ctx, call);
    };
    Result<std::vector<XmlResponse>> pages = CollectPages<XmlResponse>(fetch, XmlNextToken("Marker"));
    if (!pages.ok()) return pages.error();
    std::set<std::string> arns;
    for (const XmlResponse& page : *pages) {
      for (pugi::xml_node m : page.result.child("AttachedPolicies").children("member")) arns.insert(m.child_value("PolicyArn"));
    }
    return arns;
  }

  //! The attachment of `arn` to `role`, as the role's list says: gone when the list (or the
  //! role) does not hold it.
  static ReadResult AnswerFor(const std::string& role, const std::string& arn,
                              const Result<std::set<std::string>>& attached) {
    if (!attached.ok()) {
      if (attached.error().code == kIamNoSuchEntity) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("ListAttachedRolePolicies", attached.error())};
    }
    if (!attached->count(arn)) return {Value(), true, {}};
    return {Value::Object({{"id", Value::String(role + "/" + arn)},
                           {"role", Value::String(role)},
                           {"policy_arn", Value::String(arn)}}),
            false,
            {}};
  }

  //! The role and policy ARN of a prior: its attributes, else its id.
  static void Split(const Value& prior, std::string& role, std::string& arn) {
    role = GetString(prior, "role");
    arn = GetString(prior, "policy_arn");
    std::string id = GetString(prior, "id");
    size_t slash = id.find('/');
    if (slash == std::string::npos) return;
    if (role.empty()) role = id.substr(0, slash);
    if (arn.empty()) arn = id.substr(slash + 1);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsIamRolePolicyAttachment(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsIamRolePolicyAttachment>(std::move(session));
}

}  // namespace strata::aws
