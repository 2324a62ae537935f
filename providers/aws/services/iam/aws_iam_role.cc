// aws_iam_role: an IAM role over CreateRole / GetRole / UpdateRole / UpdateAssumeRolePolicy /
// TagRole / UntagRole / DeleteRole, with Terraform's attribute names. The id is the name.
// assume_role_policy keeps the user's text while IAM's (URL-encoded, possibly
// reformatted) document means the same, so there is no perpetual diff. The name is the
// natural key: an interrupted create is found again by it, and adopted only when the role
// carries the create's token in its create-token tag (CreateRole sends it).

#include <cmath>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/iam/iam_api.h"
#include "providers/aws/services/iam/iam_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr double kDefaultMaxSessionDuration = 3600;

std::string NumberText(double n) { return std::to_string(static_cast<long long>(std::llround(n))); }

class AwsIamRole final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_iam_role", {{"name", Required("string", true)},
                                          {"assume_role_policy", Required("string")},
                                          {"description", Optional("string")},
                                          {"path", OptionalComputed("string", true)},
                                          {"max_session_duration", OptionalComputed("number")},
                                          {"tags", Optional("map(string)")},
                                          {"tags_all", Computed("map(string)")},
                                          {"arn", Computed("string")},
                                          {"unique_id", Computed("string")},
                                          {"create_date", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  //! A destroy's look needs the name (the trust policy may come from a data source).
  std::vector<std::string> RecoveryKey() const override { return {"name"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    QueryRequest call = IamCall("CreateRole");
    call.Add("RoleName", name)
        .Add("AssumeRolePolicyDocument", GetString(planned, "assume_role_policy"))
        .Add("Path", GetString(planned, "path", "/"))
        .Add("MaxSessionDuration", NumberText(MaxSession(planned)));
    std::string description = GetString(planned, "description");
    if (!description.empty()) call.Add("Description", description);
    AddIamTags(call, TagsOnCreate(ctx, planned));
    Result<XmlResponse> created = CallIam(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed(call.action, created.error());
    return ReadAfterWrite(ctx, planned, name, {});
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadRole(ctx, GetString(prior, "id", GetString(prior, "name")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id", GetString(prior, "name"));
    Diagnostics diags;
    std::string description = GetString(planned, "description");
    if (description != GetString(prior, "description") || MaxSession(planned) != MaxSession(prior)) {
      QueryRequest call = IamCall("UpdateRole");
      call.Add("RoleName", name)
          .Add("Description", description)
          .Add("MaxSessionDuration", NumberText(MaxSession(planned)));
      diags = RunIam(*session_, ctx, call);
    }
    std::string policy = GetString(planned, "assume_role_policy");
    if (!diags.HasErrors() && !PolicyEquivalent(policy, GetString(prior, "assume_role_policy"))) {
      QueryRequest call = IamCall("UpdateAssumeRolePolicy");
      call.Add("RoleName", name).Add("PolicyDocument", policy);
      diags = RunIam(*session_, ctx, call);
    }
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    if (!diags.HasErrors()) diags = RunIam(*session_, ctx, IamUntagCall("UntagRole", "RoleName", name, from, to));
    if (!diags.HasErrors()) diags = RunIam(*session_, ctx, IamTagCall("TagRole", "RoleName", name, from, to));
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    QueryRequest call = IamCall("DeleteRole");
    call.Add("RoleName", GetString(prior, "id", GetString(prior, "name")));
    return {RunIamDelete(*session_, ctx, call)};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name"), token;
    ReadResult found = ReadRole(ctx, name, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "IAM role \"" + name + "\"", name);
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = WithDefaultIamPath(AwsResourceType::ApplyDefaults(v));
    if (Get(out, "max_session_duration").IsNull()) {
      out = With(out, "max_session_duration", Value::Number(kDefaultMaxSessionDuration));
    }
    return out;
  }

 private:
  //! GetRole of `name` as state (`prior` tells what was written); `token`, when given,
  //! receives the role's create-token tag.
  ReadResult ReadRole(const OperationContext& ctx, const std::string& name, const Value& prior,
                      std::string* token = nullptr) {
    QueryRequest call = IamCall("GetRole");
    call.Add("RoleName", name);
    return ReadIamObject(*session_, ctx, call, "Role", [&](pugi::xml_node role) {
      std::string description = role.child_value("Description");
      std::string max_session = role.child_value("MaxSessionDuration");
      TagMap remote = ReadIamTags(role, token);
      Value state = Value::Object({
          {"id", Value::String(role.child_value("RoleName"))},
          {"name", Value::String(role.child_value("RoleName"))},
          {"assume_role_policy",
           PolicyForState(role.child_value("AssumeRolePolicyDocument"), Get(prior, "assume_role_policy"))},
          {"description", description.empty() && Get(prior, "description").IsNull()
                              ? Value()
                              : Value::String(description)},
          {"path", Value::String(role.child_value("Path"))},
          {"max_session_duration",
           Value::Number(max_session.empty() ? kDefaultMaxSessionDuration : std::stod(max_session))},
          {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
          {"tags_all", TagsValue(remote)},
          {"arn", Value::String(role.child_value("Arn"))},
          {"unique_id", Value::String(role.child_value("RoleId"))},
          {"create_date", Value::String(role.child_value("CreateDate"))}});
      return ReadResult{state, false, {}};
    });
  }

  static double MaxSession(const Value& v) {
    return GetNumber(v, "max_session_duration").value_or(kDefaultMaxSessionDuration);
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsIamRole(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsIamRole>(std::move(session));
}

}  // namespace strata::aws
