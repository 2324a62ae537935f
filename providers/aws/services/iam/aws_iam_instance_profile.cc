// aws_iam_instance_profile: an IAM instance profile over CreateInstanceProfile /
// GetInstanceProfile / AddRoleToInstanceProfile / RemoveRoleFromInstanceProfile /
// TagInstanceProfile / UntagInstanceProfile / DeleteInstanceProfile, with Terraform's
// attribute names. The id is the name. The role changes in place (remove, then add); a
// delete removes the role first, as IAM refuses to delete a profile that holds one. The
// name is the natural key (from name_prefix, it is derived from the create's token, so a
// recovery asks for the same one): an interrupted create is found again by it, adopted
// only when the profile carries the create's token in its create-token tag
// (CreateInstanceProfile sends it), and given its role if the create stopped before.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/iam/iam_api.h"
#include "providers/aws/services/iam/iam_types.h"

namespace strata::aws {
namespace {

using namespace attrs;

class AwsIamInstanceProfile final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_iam_instance_profile", {{"name", OptionalComputed("string", true)},
                                                      {"name_prefix", Optional("string", true)},
                                                      {"path", OptionalComputed("string", true)},
                                                      {"role", Optional("string")},
                                                      {"tags", Optional("map(string)")},
                                                      {"tags_all", Computed("map(string)")},
                                                      {"arn", Computed("string")},
                                                      {"unique_id", Computed("string")},
                                                      {"create_date", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  //! A destroy's look needs the name (or the prefix it is made from).
  std::vector<std::string> RecoveryKey() const override { return {"name", "name_prefix"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = ProfileName(ctx, planned);
    QueryRequest call = IamCall("CreateInstanceProfile");
    call.Add("InstanceProfileName", name).Add("Path", GetString(planned, "path", "/"));
    AddIamTags(call, TagsOnCreate(ctx, planned));
    Result<XmlResponse> created = CallIam(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed(call.action, created.error());
    Diagnostics diags;
    std::string role = GetString(planned, "role");
    if (!role.empty()) diags = RoleCall(ctx, "AddRoleToInstanceProfile", name, role);
    return ReadAfterWrite(ctx, With(planned, "name", Value::String(name)), name, diags);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    return ReadProfile(ctx, GetString(prior, "id", GetString(prior, "name")), prior);
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string name = GetString(prior, "id", GetString(prior, "name"));
    Diagnostics diags;
    std::string old_role = GetString(prior, "role"), new_role = GetString(planned, "role");
    if (old_role != new_role) {
      if (!old_role.empty()) diags = RoleCall(ctx, "RemoveRoleFromInstanceProfile", name, old_role, true);
      if (!diags.HasErrors() && !new_role.empty()) diags = RoleCall(ctx, "AddRoleToInstanceProfile", name, new_role);
    }
    TagMap from = GetStringMap(prior, "tags_all"), to = WantedTags(planned);
    if (!diags.HasErrors()) {
      diags = RunIam(*session_, ctx, IamUntagCall("UntagInstanceProfile", "InstanceProfileName", name, from, to));
    }
    if (!diags.HasErrors()) {
      diags = RunIam(*session_, ctx, IamTagCall("TagInstanceProfile", "InstanceProfileName", name, from, to));
    }
    return ReadAfterWrite(ctx, planned, name, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string name = GetString(prior, "id", GetString(prior, "name"));
    // The roles it holds now (possibly not the one in state).
    QueryRequest get = IamCall("GetInstanceProfile");
    get.Add("InstanceProfileName", name);
    Result<XmlResponse> got = CallIam(*session_, ctx, get);
    if (!got.ok()) {
      if (got.error().code == kIamNoSuchEntity) return {};
      return {AwsErrorDiag(get.action, got.error())};
    }
    for (pugi::xml_node m : got->result.child("InstanceProfile").child("Roles").children("member")) {
      Diagnostics diags = RoleCall(ctx, "RemoveRoleFromInstanceProfile", name, m.child_value("RoleName"), true);
      if (diags.HasErrors()) return {diags};
    }
    QueryRequest call = IamCall("DeleteInstanceProfile");
    call.Add("InstanceProfileName", name);
    return {RunIamDelete(*session_, ctx, call)};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    return ImportById(ctx, id);
  }

 protected:
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    std::string name = ProfileName(ctx, planned), token;
    ReadResult found = ReadProfile(ctx, name, planned, &token);
    return ClaimIfOurs(ctx, std::move(found), token, "IAM instance profile \"" + name + "\"", name);
  }

  Value ApplyDefaults(const Value& v) const override {
    return WithDefaultIamPath(AwsResourceType::ApplyDefaults(v));
  }

 private:
  //! `name`, else one from `name_prefix` (default "strata-") that a recovery asks for too.
  static std::string ProfileName(const OperationContext& ctx, const Value& planned) {
    return NameOrUnique(ctx, planned, "strata-");
  }

  //! GetInstanceProfile of `name` as state (`prior` tells what was written); `token`,
  //! when given, receives the profile's create-token tag.
  ReadResult ReadProfile(const OperationContext& ctx, const std::string& name, const Value& prior,
                         std::string* token = nullptr) {
    QueryRequest call = IamCall("GetInstanceProfile");
    call.Add("InstanceProfileName", name);
    return ReadIamObject(*session_, ctx, call, "InstanceProfile", [&](pugi::xml_node profile) {
      std::string role = profile.child("Roles").child("member").child_value("RoleName");
      TagMap remote = ReadIamTags(profile, token);
      Value state = Value::Object({{"id", Value::String(profile.child_value("InstanceProfileName"))},
                                   {"name", Value::String(profile.child_value("InstanceProfileName"))},
                                   {"name_prefix", Get(prior, "name_prefix")},
                                   {"path", Value::String(profile.child_value("Path"))},
                                   {"role", role.empty() ? Value() : Value::String(role)},
                                   {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
                                   {"tags_all", TagsValue(remote)},
                                   {"arn", Value::String(profile.child_value("Arn"))},
                                   {"unique_id", Value::String(profile.child_value("InstanceProfileId"))},
                                   {"create_date", Value::String(profile.child_value("CreateDate"))}});
      return ReadResult{state, false, {}};
    });
  }

  //! AddRoleToInstanceProfile / RemoveRoleFromInstanceProfile; for a removal, a role
  //! already gone (NoSuchEntity) counts as done.
  Diagnostics RoleCall(const OperationContext& ctx, const std::string& action, const std::string& profile,
                       const std::string& role, bool removal = false) {
    QueryRequest call = IamCall(action);
    call.Add("InstanceProfileName", profile).Add("RoleName", role);
    // A profile holds one role: a retried add whose first attempt took effect is refused.
    return removal ? RunIamDelete(*session_, ctx, call) : RunIam(*session_, ctx, call, {"LimitExceeded"});
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsIamInstanceProfile(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsIamInstanceProfile>(std::move(session));
}

}  // namespace strata::aws
