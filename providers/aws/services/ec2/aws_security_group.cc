// aws_security_group: a security group over EC2's CreateSecurityGroup /
// DescribeSecurityGroups / Authorize- and RevokeSecurityGroup{Ingress,Egress} /
// DeleteSecurityGroup, with Terraform's attribute names.
//
// Like Terraform, a create in a VPC revokes the allow-all egress rule AWS adds to every new
// group, so that only the rules written exist; `ingress` and `egress` are optional and
// computed: left out of the config they are read but not managed (an unmanaged egress of a
// new group is therefore empty), written (even as []) they are made to match. Rules are
// compared in canonical form (ec2_permissions.h). Without `name` the group is named
// `name_prefix` (default "strata-") plus a unique suffix. Delete waits out
// DependencyViolation while network interfaces still hold the group.

#include <algorithm>

#include "providers/aws/services/ec2/ec2_permissions.h"
#include "providers/aws/services/ec2/ec2_resource_type.h"
#include "providers/aws/services/ec2/ec2_tags.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kDefaultDescription = "Managed by Strata";
constexpr const char* kDefaultPrefix = "strata-";
// A new group may not be visible to the next call at once.

struct Direction {
  const char* attr;      // "ingress"
  const char* xml;       // "ipPermissions"
  const char* suffix;    // "Ingress" as in AuthorizeSecurityGroupIngress
};
constexpr Direction kDirections[] = {{"ingress", "ipPermissions", "Ingress"},
                                     {"egress", "ipPermissionsEgress", "Egress"}};

//! The rule AWS gives every new VPC group, which Create revokes.
const PermissionAtom kAwsDefaultEgress{"-1", 0, 0, PermissionAtom::Kind::Cidr, "0.0.0.0/0", ""};

std::vector<PermissionAtom> WithoutDescriptions(std::vector<PermissionAtom> atoms) {
  for (PermissionAtom& a : atoms) a.description.clear();
  return atoms;
}

class AwsSecurityGroup final : public Ec2ResourceType {
 public:
  explicit AwsSecurityGroup(std::shared_ptr<AwsSession> session)
      : Ec2ResourceType(std::move(session), {"DescribeSecurityGroups", "GroupId", "securityGroupInfo",
                                             "InvalidGroup.NotFound", "DeleteSecurityGroup"}) {
    ReadInBatchesBy("group-id", 1000);
  }

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_security_group", {{"name", OptionalComputed("string", true)},
                                                {"name_prefix", Optional("string", true)},
                                                {"description", OptionalComputed("string", true)},
                                                {"vpc_id", OptionalComputed("string", true)},
                                                {"ingress", OptionalComputed(kRuleSetType)},
                                                {"egress", OptionalComputed(kRuleSetType)},
                                                {"revoke_rules_on_delete", OptionalComputed("bool")},
                                                {"tags", Optional("map(string)")},
                                                {"tags_all", Computed("map(string)")},
                                                {"arn", Computed("string")},
                                                {"owner_id", Computed("string")}});
  }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string name = GetString(planned, "name");
    if (name.empty()) name = UniqueName(GetString(planned, "name_prefix", kDefaultPrefix), ctx);
    std::string vpc = GetString(planned, "vpc_id");
    QueryRequest call = Ec2Call("CreateSecurityGroup");
    call.Add("GroupName", name).Add("GroupDescription", GetString(planned, "description", kDefaultDescription));
    if (!vpc.empty()) call.Add("VpcId", vpc);
    AddTagSpecification(call, "security-group", TagsOnCreate(ctx, planned));
    Result<XmlResponse> created = CallEc2(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!created.ok()) return CreateFailed("CreateSecurityGroup", created.error());
    std::string id = XmlText(created->result, "groupId");

    Value with_name = With(planned, "name", Value::String(name));
    Diagnostics diags;
    if (!vpc.empty()) diags = ChangePermissions(ctx, "Revoke", kDirections[1], id, {kAwsDefaultEgress}, true);
    if (!diags.HasErrors()) diags = ModifyAttributes(ctx, id, Value(), with_name);
    return ReadAfterWrite(ctx, with_name, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    if (GetBool(prior, "revoke_rules_on_delete", false)) {
      Diagnostics diags = RevokeAll(ctx, id);
      if (diags.HasErrors()) return {diags};
    }
    QueryRequest call = Ec2Call("DeleteSecurityGroup");
    call.Add("GroupId", id);
    Result<XmlResponse> deleted = CallEc2Retrying(*session_, ctx, call, {"DependencyViolation"});
    if (deleted.ok() || deleted.error().code == api_.not_found) return {};
    return {AwsErrorDiag("DeleteSecurityGroup", deleted.error())};
  }

 protected:
  //! Finishes what Create does after CreateSecurityGroup. The interrupted create may not
  //! have revoked AWS's allow-all egress yet: with egress left out of the config (planned
  //! unknown, which the update would take as "keep what is there") it is revoked here, as
  //! Create would have; a written egress is brought about by the update either way.
  ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) override {
    Value group = found;
    std::vector<PermissionAtom> egress = AtomsFromRules(Get(found, "egress"));
    bool has_default = std::find(egress.begin(), egress.end(), kAwsDefaultEgress) != egress.end();
    if (has_default && !GetString(planned, "vpc_id").empty() && !Get(planned, "egress").IsWhollyKnown()) {
      Diagnostics diags =
          ChangePermissions(ctx, "Revoke", kDirections[1], GetString(found, "id"), {kAwsDefaultEgress}, false);
      if (diags.HasErrors()) return {found, diags};
      group = With(found, "egress", RulesFromAtoms(AtomsMissingFrom(egress, {kAwsDefaultEgress})));
    }
    return Ec2ResourceType::Adopt(ctx, group, planned);
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = AwsResourceType::ApplyDefaults(v);
    if (Get(out, "description").IsNull()) out = With(out, "description", Value::String(kDefaultDescription));
    if (Get(out, "revoke_rules_on_delete").IsNull()) out = With(out, "revoke_rules_on_delete", Value::Bool(false));
    for (const Direction& d : kDirections) out = With(out, d.attr, CanonicalRules(Get(out, d.attr)));
    return out;
  }

 private:
  //! Authorize- or RevokeSecurityGroup<direction> of `atoms` (nothing when empty). Revoking
  //! what is already gone succeeds. `just_created`: the group may not be visible yet, so
  //! InvalidGroup.NotFound is waited out.
  Diagnostics ChangePermissions(const OperationContext& ctx, const std::string& verb, const Direction& d,
                                const std::string& id, const std::vector<PermissionAtom>& atoms,
                                bool just_created) {
    if (atoms.empty()) return {};
    QueryRequest call = Ec2Call(verb + "SecurityGroup" + d.suffix);
    call.Add("GroupId", id);
    AddPermissions(call, verb == "Revoke" ? WithoutDescriptions(atoms) : atoms, id);
    std::vector<std::string> wait_out;
    if (just_created) wait_out.push_back(api_.not_found);
    Result<XmlResponse> done = CallEc2Retrying(*session_, ctx, call, wait_out, kPropagationWait);
    if (done.ok() || (verb == "Revoke" && done.error().code == "InvalidPermission.NotFound")) return {};
    if (DoneByAnEarlierAttempt(done.error(), {"InvalidPermission.Duplicate"})) return {};
    return AwsErrorDiag(call.action, done.error());
  }

  //! For each written rule set: revokes the permissions `planned` no longer has, then
  //! authorizes the ones it adds.
  Diagnostics ModifyAttributes(const OperationContext& ctx, const std::string& id,
                               const Value& prior, const Value& planned) override {
    for (const Direction& d : kDirections) {
      Value want = Get(planned, d.attr);
      if (!want.IsSequence() || !want.IsWhollyKnown()) continue;
      std::vector<PermissionAtom> to = AtomsFromRules(want), from = AtomsFromRules(Get(prior, d.attr));
      bool just_created = prior.IsNull();
      Diagnostics diags = ChangePermissions(ctx, "Revoke", d, id, AtomsMissingFrom(from, to), just_created);
      if (!diags.HasErrors()) {
        diags = ChangePermissions(ctx, "Authorize", d, id, AtomsMissingFrom(to, from), just_created);
      }
      if (diags.HasErrors()) return diags;
    }
    return {};
  }

  //! Revokes every rule of the group (revoke_rules_on_delete: rules referencing other
  //! groups would otherwise keep them, and this one, from being deleted).
  Diagnostics RevokeAll(const OperationContext& ctx, const std::string& id) {
    QueryRequest call = Ec2Call("DescribeSecurityGroups");
    call.Add("GroupId.1", id);
    Result<XmlResponse> described = CallEc2(*session_, ctx, call);
    if (!described.ok()) {
      if (described.error().code == api_.not_found) return {};
      return AwsErrorDiag("DescribeSecurityGroups", described.error());
    }
    pugi::xml_node item = described->result.child("securityGroupInfo").child("item");
    for (const Direction& d : kDirections) {
      Diagnostics diags = ChangePermissions(ctx, "Revoke", d, id, ReadPermissionAtoms(item.child(d.xml), id), false);
      if (diags.HasErrors()) return diags;
    }
    return {};
  }

  ReadResult StateFrom(const OperationContext& ctx, pugi::xml_node item,
                       const Value& prior) override {
    (void)ctx;
    std::string id = item.child_value("groupId"), owner = item.child_value("ownerId");
    std::string vpc = item.child_value("vpcId");
    Value revoke = Get(prior, "revoke_rules_on_delete");
    TagMap remote = ReadTagSet(item);
    Value state = Value::Object({
        {"id", Value::String(id)},
        {"name", Value::String(item.child_value("groupName"))},
        {"name_prefix", Get(prior, "name_prefix")},
        {"description", Value::String(item.child_value("groupDescription"))},
        {"vpc_id", vpc.empty() ? Value() : Value::String(vpc)},
        {"ingress", RulesFromAtoms(ReadPermissionAtoms(item.child("ipPermissions"), id))},
        {"egress", RulesFromAtoms(ReadPermissionAtoms(item.child("ipPermissionsEgress"), id))},
        {"revoke_rules_on_delete", revoke.IsBool() ? revoke : Value::Bool(false)},
        {"tags", TagsForState(remote, session_->default_tags, Get(prior, "tags"))},
        {"tags_all", TagsValue(remote)},
        {"arn", Value::String(MakeArn("ec2", session_->Region(), owner, "security-group/" + id))},
        {"owner_id", Value::String(owner)}});
    return {state, false, {}};
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSecurityGroup(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSecurityGroup>(std::move(session));
}

}  // namespace strata::aws
