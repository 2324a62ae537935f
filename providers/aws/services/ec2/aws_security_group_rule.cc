// aws_security_group_rule: one ingress or egress rule of a security group, over EC2's
// Authorize- / RevokeSecurityGroup{Ingress,Egress}, UpdateSecurityGroupRuleDescriptions*
// and DescribeSecurityGroups, with Terraform's attribute names. AWS gives such a rule no id
// (before security group rule ids, which Terraform does not use here either), so the id is
// Terraform's "sgrule-<hash>" of the group, type, protocol, ports and sources. Everything
// but the description forces a new rule. The rule is gone when any of its sources is no
// longer in the group. Import takes Terraform's
// "<sg id>_<type>_<protocol>_<from>_<to>_<source>[_<source>...]", a source being a CIDR, an
// IPv6 CIDR, a prefix list id, a security group id or "self". The whole rule is its own
// natural key: an interrupted create is found again by reading it, and adopted when all
// its sources are there with its description (one Authorize call writes them together).

#include <algorithm>
#include <sstream>

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/ec2/ec2_api.h"
#include "providers/aws/services/ec2/ec2_hash.h"
#include "providers/aws/services/ec2/ec2_permissions.h"
#include "providers/aws/services/ec2/ec2_types.h"
#include "providers/aws/services/ec2/ec2_wait.h"

namespace strata::aws {
namespace {

using namespace attrs;

constexpr const char* kGroupNotFound = "InvalidGroup.NotFound";

std::string Direction(const Value& rule) { return GetString(rule, "type") == "egress" ? "Egress" : "Ingress"; }

//! The rule as permission atoms of its group (source_security_group_id naming the group
//! itself counts as `self`).
std::vector<PermissionAtom> AtomsOf(const Value& rule) {
  std::string group = GetString(rule, "security_group_id");
  std::string source = GetString(rule, "source_security_group_id");
  bool self = GetBool(rule, "self", false) || (!source.empty() && source == group);
  ValueList groups;
  if (!source.empty() && source != group) groups.push_back(Value::String(source));
  Value inline_rule = Value::Object({{"protocol", Get(rule, "protocol")},
                                     {"from_port", Get(rule, "from_port")},
                                     {"to_port", Get(rule, "to_port")},
                                     {"cidr_blocks", Get(rule, "cidr_blocks")},
                                     {"ipv6_cidr_blocks", Get(rule, "ipv6_cidr_blocks")},
                                     {"prefix_list_ids", Get(rule, "prefix_list_ids")},
                                     {"security_groups", Value::Set(groups)},
                                     {"self", Value::Bool(self)},
                                     {"description", Get(rule, "description")}});
  return AtomsFromRules(Value::Set({inline_rule}));
}

//! The id Import takes for `rule`: "<sg id>_<type>_<protocol>_<from>_<to>_<source>...".
std::string ImportId(const Value& rule) {
  std::ostringstream id;
  id << GetString(rule, "security_group_id") << "_" << GetString(rule, "type") << "_"
     << NormalizeProtocol(GetString(rule, "protocol")) << "_"
     << static_cast<int>(GetNumber(rule, "from_port").value_or(0)) << "_"
     << static_cast<int>(GetNumber(rule, "to_port").value_or(0));
  for (const PermissionAtom& a : AtomsOf(rule)) id << "_" << a.source;  // kSelfSource is "self"
  return id.str();
}

//! Terraform's ipPermissionIDHash: "<sg>-[<from>-][<to>-]<protocol>-<type>-" then the
//! sorted CIDRs, IPv6 CIDRs, prefix lists and group pairs (id, then "-" for the absent
//! group name), each followed by "-"; the id is "sgrule-" + its StringHashcode.
std::string RuleId(const Value& rule) {
  std::string group = GetString(rule, "security_group_id");
  std::vector<PermissionAtom> atoms = AtomsOf(rule);
  int from = static_cast<int>(GetNumber(rule, "from_port").value_or(0));
  int to = static_cast<int>(GetNumber(rule, "to_port").value_or(0));
  std::ostringstream key;
  key << group << "-";
  if (from > 0) key << from << "-";
  if (to > 0) key << to << "-";
  key << NormalizeProtocol(GetString(rule, "protocol")) << "-" << GetString(rule, "type") << "-";
  for (auto kind : {PermissionAtom::Kind::Cidr, PermissionAtom::Kind::Ipv6Cidr, PermissionAtom::Kind::PrefixList,
                    PermissionAtom::Kind::Group}) {
    std::vector<std::string> sources;
    for (const PermissionAtom& a : atoms) {
      if (a.kind == kind) sources.push_back(a.source == kSelfSource ? group : a.source);
    }
    std::sort(sources.begin(), sources.end());
    for (const std::string& s : sources) key << s << (kind == PermissionAtom::Kind::Group ? "--" : "-");
  }
  return "sgrule-" + std::to_string(StringHashcode(key.str()));
}

class AwsSecurityGroupRule final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_security_group_rule",
                         {{"type", Required("string", true)},
                          {"security_group_id", Required("string", true)},
                          {"protocol", Required("string", true)},
                          {"from_port", Required("number", true)},
                          {"to_port", Required("number", true)},
                          {"cidr_blocks", Optional("list(string)", true)},
                          {"ipv6_cidr_blocks", Optional("list(string)", true)},
                          {"prefix_list_ids", Optional("list(string)", true)},
                          {"source_security_group_id", Optional("string", true)},
                          {"self", OptionalComputed("bool", true)},
                          {"description", Optional("string")}});
  }

  Diagnostics Validate(const Value& config) const override {
    Value type = Get(config, "type");
    if (type.IsString() && type.AsString() != "ingress" && type.AsString() != "egress") {
      return Error("Invalid security group rule type", "type must be \"ingress\" or \"egress\", not \"" +
                                                           type.AsString() + "\".");
    }
    // A value known only after apply (a group made by an earlier stage not applied yet, or a
    // condition on one) neither conflicts nor is missing yet: only known values are checked,
    // as Terraform's ConflictsWith does.
    auto set = [&](const char* name) {
      Value v = Get(config, name);
      return v.IsKnown() && !v.IsNull();
    };
    bool cidrs = set("cidr_blocks") || set("ipv6_cidr_blocks");
    bool group = set("source_security_group_id");
    Value self = Get(config, "self");
    bool is_self = set("self") && !(self.IsBool() && !self.AsBool());
    if (int(group) + int(is_self) + int(cidrs) > 1) {
      return Error("Conflicting security group rule sources",
                   "source_security_group_id, self and cidr_blocks/ipv6_cidr_blocks exclude each other.");
    }
    bool unknown_source = !Get(config, "source_security_group_id").IsKnown() || !self.IsKnown() ||
                          !Get(config, "cidr_blocks").IsKnown() || !Get(config, "ipv6_cidr_blocks").IsKnown();
    if (!cidrs && !group && !is_self && !unknown_source && Get(config, "prefix_list_ids").IsNull()) {
      return Error("Missing security group rule source",
                   "One of cidr_blocks, ipv6_cidr_blocks, prefix_list_ids, source_security_group_id "
                   "or self must be set.");
    }
    return {};
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    std::string group = GetString(planned, "security_group_id");
    QueryRequest call = Ec2Call("AuthorizeSecurityGroup" + Direction(planned));
    call.Add("GroupId", group);
    AddPermissions(call, AtomsOf(planned), group);
    Result<XmlResponse> done = CallEc2(*session_, ctx, call, CreateCallOptionsFor(ctx));
    if (!done.ok()) {
      ApplyResult failed = CreateFailed(call.action, done.error());
      if (done.error().code == "InvalidPermission.Duplicate") {
        failed.diags.Error("Duplicate security group rule",
                    "A rule with this protocol, port range and source already exists in " + group +
                        " (perhaps from the group's inline rules, or another aws_security_group_rule). "
                        "Import it or remove the duplicate.");
      }
      return failed;
    }
    Value with_id = With(planned, "id", Value::String(RuleId(planned)));
    return ReadAfterWrite(ctx, with_id, RuleId(planned), WaitUntilListed(ctx, with_id));
  }

  //! Only the description changes in place.
  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string group = GetString(planned, "security_group_id");
    QueryRequest call = Ec2Call("UpdateSecurityGroupRuleDescriptions" + Direction(planned));
    call.Add("GroupId", group);
    AddPermissions(call, AtomsOf(planned), group);
    return ReadAfterWrite(ctx, planned, GetString(prior, "id"), RunEc2(*session_, ctx, call));
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string group = GetString(prior, "security_group_id");
    QueryRequest call = Ec2Call("DescribeSecurityGroups");
    call.Add("GroupId.1", group);
    Result<XmlResponse> described = CallEc2(*session_, ctx, call);
    if (!described.ok()) {
      if (described.error().code == kGroupNotFound) return {Value(), true, {}};
      return {Value(), false, AwsErrorDiag("DescribeSecurityGroups", described.error())};
    }
    return FromGroup(described->result.child("securityGroupInfo").child("item"), prior);
  }

  bool ReadsInBatches() const override { return true; }
  //! The rules' groups in DescribeSecurityGroups filtered on up to 200 group ids; a rule
  //! whose group is not listed is gone, as Read says.
  std::vector<ReadResult> ReadMany(const OperationContext& ctx, const std::vector<Value>& priors) override {
    return ReadByDescribe(
        *session_, ctx, priors, "security_group_id",
        {"DescribeSecurityGroups", "securityGroupInfo", "group-id", "groupId", 1000},
        [&](pugi::xml_node group, const Value& prior) { return FromGroup(group, prior); },
        [&](const Value& prior) { return Read(ctx, prior); });
  }

  //! The rule `prior` describes, as its group `item` holds it; gone when it does not.
  ReadResult FromGroup(pugi::xml_node item, const Value& prior) const {
    std::string group = GetString(prior, "security_group_id");
    if (!item) return {Value(), true, {}};
    const char* list = Direction(prior) == "Egress" ? "ipPermissionsEgress" : "ipPermissions";
    std::vector<PermissionAtom> remote = ReadPermissionAtoms(item.child(list), group);
    std::vector<PermissionAtom> wanted = AtomsOf(prior);
    if (wanted.empty()) return {Value(), true, {}};
    std::string description;
    for (const PermissionAtom& w : wanted) {
      auto found = std::find_if(remote.begin(), remote.end(), [&](const PermissionAtom& r) { return r.SameSource(w); });
      if (found == remote.end()) return {Value(), true, {}};
      if (description.empty()) description = found->description;
    }
    Value state = With(prior, "id", Value::String(RuleId(prior)));
    Value had = Get(prior, "description");
    state = With(state, "description", description.empty() && had.IsNull() ? Value() : Value::String(description));
    if (Get(state, "self").IsNull()) state = With(state, "self", Value::Bool(false));
    return {state, false, {}};
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string group = GetString(prior, "security_group_id");
    std::vector<PermissionAtom> atoms = AtomsOf(prior);
    for (PermissionAtom& a : atoms) a.description.clear();
    QueryRequest call = Ec2Call("RevokeSecurityGroup" + Direction(prior));
    call.Add("GroupId", group);
    AddPermissions(call, atoms, group);
    Result<XmlResponse> done = CallEc2(*session_, ctx, call);
    if (done.ok()) return {};
    const std::string& code = done.error().code;
    if (code == "InvalidPermission.NotFound" || code == kGroupNotFound) return {};
    return {AwsErrorDiag(call.action, done.error())};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    std::vector<std::string> parts;
    std::stringstream in(id);
    for (std::string part; std::getline(in, part, '_');) parts.push_back(part);
    auto bad = [&](const std::string& why) {
      return ApplyResult{Value(), Error("Invalid import id",
                                        "An aws_security_group_rule is imported as \"<sg id>_<ingress|egress>_"
                                        "<protocol>_<from port>_<to port>_<source>[_<source>...]\", e.g. "
                                        "sg-0123_ingress_tcp_443_443_10.0.0.0/16; " + why + " in \"" + id + "\".")};
    };
    if (parts.size() < 6) return bad("too few parts");
    auto from = GetNumber(Value::Object({{"p", Value::String(parts[3])}}), "p");
    auto to = GetNumber(Value::Object({{"p", Value::String(parts[4])}}), "p");
    if (!from || !to) return bad("the ports are not numbers");
    std::vector<std::string> cidrs, ipv6, prefixes;
    Value source, self = Value::Bool(false);
    for (size_t i = 5; i < parts.size(); ++i) {
      const std::string& s = parts[i];
      if (s == "self") {
        self = Value::Bool(true);
      } else if (s.rfind("sg-", 0) == 0) {
        if (!source.IsNull()) return bad("more than one source security group");
        source = Value::String(s);
      } else if (s.rfind("pl-", 0) == 0) {
        prefixes.push_back(s);
      } else if (s.find(':') != std::string::npos) {
        ipv6.push_back(s);
      } else {
        cidrs.push_back(s);
      }
    }
    auto list = [](const std::vector<std::string>& v) { return v.empty() ? Value() : StringListValue(v); };
    Value prior = Value::Object({{"security_group_id", Value::String(parts[0])},
                                 {"type", Value::String(parts[1])},
                                 {"protocol", Value::String(NormalizeProtocol(parts[2]))},
                                 {"from_port", Value::Number(*from)},
                                 {"to_port", Value::Number(*to)},
                                 {"cidr_blocks", list(cidrs)},
                                 {"ipv6_cidr_blocks", list(ipv6)},
                                 {"prefix_list_ids", list(prefixes)},
                                 {"source_security_group_id", source},
                                 {"self", self}});
    ReadResult read = Read(ctx, prior);
    ApplyResult result{read.state, read.diags};
    if (read.gone) {
      result.diags.Error("Cannot import non-existent remote object",
                         "Security group " + parts[0] + " has no such " + parts[1] + " rule.");
    }
    return result;
  }

 protected:
  //! The planned rule in its group (Read finds it only when every source is there): with
  //! another description it is another writer's.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    ReadResult found = Read(ctx, planned);
    if (found.gone || found.diags.HasErrors()) return found;
    std::string want = GetString(planned, "description"), have = GetString(found.state, "description");
    if (want == have) return found;
    return NotCreatedByThisApply(ctx, "The " + GetString(planned, "type") + " rule " + ImportId(planned),
                                  "its description is \"" + have + "\", not \"" + want + "\"", ImportId(planned));
  }

  //! What FindCreated found is already what was planned.
  ApplyResult Adopt(const OperationContext& ctx, const Value& found, const Value& planned) override {
    (void)ctx, (void)planned;
    return {found, {}};
  }

  Value ApplyDefaults(const Value& v) const override {
    Value out = v;
    Value protocol = Get(out, "protocol");
    if (protocol.IsString()) out = With(out, "protocol", Value::String(NormalizeProtocol(protocol.AsString())));
    if (Get(out, "self").IsNull()) out = With(out, "self", Value::Bool(false));
    return out;
  }

 private:
  Diagnostics WaitUntilListed(const OperationContext& ctx, const Value& rule) {
    return aws::WaitUntilListed(*session_, ctx,
                                "the new rule of " + GetString(rule, "security_group_id") + " to be listed",
                                [&] { return Read(ctx, rule); });
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsSecurityGroupRule(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsSecurityGroupRule>(std::move(session));
}

}  // namespace strata::aws
