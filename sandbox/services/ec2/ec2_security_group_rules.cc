// Security group rules: reading IpPermissions.N, Authorize/Revoke (ingress and egress),
// DescribeSecurityGroupRules, UpdateSecurityGroupRuleDescriptions*, and the ipPermissions
// view DescribeSecurityGroups shows.

#include "sandbox/services/ec2/ec2_security_group_rules.h"

#include <algorithm>
#include <cctype>

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_cidr.h"
#include "sandbox/services/ec2/ec2_filters.h"
#include "sandbox/services/ec2/ec2_tags.h"

namespace strata::sandbox {
namespace {

// The peer kinds a rule may have: stored field, IpPermissions list and member, and the
// element of that list's items.
struct PeerKind {
  const char* field;   //!< the rule's field and DescribeSecurityGroupRules element
  const char* list;    //!< "IpRanges": the member's locationName, capitalised (the EC2 query protocol)
  const char* member;  //!< "CidrIp"
  const char* set;     //!< ipPermissions' "ipRanges"
  const char* item;    //!< that set's item element: "cidrIp"
};
constexpr PeerKind kPeers[] = {
    {"cidrIpv4", "IpRanges", "CidrIp", "ipRanges", "cidrIp"},
    {"cidrIpv6", "Ipv6Ranges", "CidrIpv6", "ipv6Ranges", "cidrIpv6"},
    {"prefixListId", "PrefixListIds", "PrefixListId", "prefixListIds", "prefixListId"},
    {"referencedGroupId", "Groups", "GroupId", "groups", "groupId"},
};

// "tcp"/"6" → "tcp" and so on; "-1" for all protocols; other IANA numbers as they are.
std::string NormalizeProtocol(std::string protocol) {
  std::transform(protocol.begin(), protocol.end(), protocol.begin(), [](unsigned char c) { return std::tolower(c); });
  if (protocol == "6") return "tcp";
  if (protocol == "17") return "udp";
  if (protocol == "1") return "icmp";
  if (protocol == "58") return "icmpv6";
  if (protocol == "tcp" || protocol == "udp" || protocol == "icmp" || protocol == "icmpv6" || protocol == "-1") {
    return protocol;
  }
  bool number = !protocol.empty() && protocol.size() <= 3 &&
                std::all_of(protocol.begin(), protocol.end(), [](unsigned char c) { return std::isdigit(c); });
  if (number && std::stoi(protocol) <= 255) return std::to_string(std::stoi(protocol));
  throw InvalidParameterValue("Invalid value '" + protocol + "' for IP protocol. Unknown protocol.");
}

//! The protocol and port range of one IpPermissions member (or the top-level legacy form).
Json ReadPortRange(const Ec2Call& call, const std::string& prefix) {
  std::string protocol = NormalizeProtocol(call.Require(prefix + "IpProtocol"));
  std::optional<int64_t> from = call.GetInt(prefix + "FromPort"), to = call.GetInt(prefix + "ToPort");
  if (protocol == "tcp" || protocol == "udp") {
    if (!from || !to) throw InvalidParameterValue("Invalid value 'Must specify both from and to ports with TCP/UDP.' for portRange");
    if (*from < 0 || *to > 65535 || *from > *to) {
      throw InvalidParameterValue("Invalid value 'Invalid port range: " + std::to_string(*from) + "-" +
                                  std::to_string(*to) + "' for portRange");
    }
  } else if (protocol == "icmp" || protocol == "icmpv6") {
    from = from.value_or(-1), to = to.value_or(-1);
    if (*from < -1 || *from > 255 || *to < -1 || *to > 255) {
      throw InvalidParameterValue("Invalid value for ICMP type or code.");
    }
  } else {
    from = -1, to = -1;
  }
  return {{"ipProtocol", protocol}, {"fromPort", *from}, {"toPort", *to}};
}

Json CheckedPeer(const Ec2Call& call, const PeerKind& peer, const std::string& value) {
  std::string field = peer.field;
  if (field == "cidrIpv4" && !ParseIpv4Cidr(value)) {
    throw InvalidParameterValue("CIDR block " + value + " is malformed");
  }
  if (field == "referencedGroupId") Require(call, kSecurityGroupKind, value);
  return {{"peerKind", field}, {"peer", value}};
}

//! The rules the call's IpPermissions.N (or legacy IpProtocol/CidrIp) describe, unsaved.
std::vector<Json> ReadRules(const Ec2Call& call, const std::string& group_id, bool egress) {
  std::vector<Json> out;
  auto add = [&](const Json& range, const Json& peer, const std::string& description) {
    Json rule = range;
    rule.update(peer);
    rule["groupId"] = group_id;
    rule["isEgress"] = egress;
    if (!description.empty()) rule["description"] = description;
    out.push_back(rule);
  };
  for (const std::string& permission : call.NumberedMembers("IpPermissions")) {
    Json range = ReadPortRange(call, permission + ".");
    for (const PeerKind& peer : kPeers) {
      for (const std::string& member : call.NumberedMembers(permission + "." + peer.list)) {
        std::string value = call.Require(member + "." + peer.member);
        add(range, CheckedPeer(call, peer, value), call.Get(member + ".Description"));
      }
    }
  }
  if (out.empty() && call.Has("IpProtocol") && call.Has("CidrIp")) {
    add(ReadPortRange(call, ""), CheckedPeer(call, kPeers[0], call.Get("CidrIp")), "");
  }
  if (out.empty() && !call.Has("SecurityGroupRuleId.1")) throw MissingParameter("IpPermissions");
  return out;
}

bool SameRule(const Json& a, const Json& b) {
  for (const char* field : {"groupId", "isEgress", "ipProtocol", "fromPort", "toPort", "peerKind", "peer"}) {
    if (a[field] != b[field]) return false;
  }
  return true;
}

std::string Describe(const Json& rule) {
  std::string protocol = rule["ipProtocol"];
  std::transform(protocol.begin(), protocol.end(), protocol.begin(), [](unsigned char c) { return std::toupper(c); });
  std::string text = "peer: " + rule["peer"].get<std::string>() + ", ";
  if (protocol == "-1") return text + "ALL, ALLOW";
  return text + protocol + ", from port: " + std::to_string(rule["fromPort"].get<int64_t>()) +
         ", to port: " + std::to_string(rule["toPort"].get<int64_t>()) + ", ALLOW";
}

void WriteRule(const Ec2Call& call, pugi::xml_node item, const Json& rule) {
  AddText(item, "securityGroupRuleId", rule["id"]);
  AddText(item, "groupId", rule["groupId"]);
  AddText(item, "groupOwnerId", call.account());
  AddBool(item, "isEgress", rule["isEgress"]);
  AddText(item, "ipProtocol", rule["ipProtocol"]);
  AddText(item, "fromPort", std::to_string(rule["fromPort"].get<int64_t>()));
  AddText(item, "toPort", std::to_string(rule["toPort"].get<int64_t>()));
  std::string kind = rule["peerKind"];
  if (kind == "referencedGroupId") {
    pugi::xml_node info = AddChild(item, "referencedGroupInfo");
    AddText(info, "groupId", rule["peer"]);
    AddText(info, "userId", call.account());
  } else {
    AddText(item, kind.c_str(), rule["peer"]);
  }
  if (rule.contains("description")) AddText(item, "description", rule["description"]);
  WriteTagSet(item, rule);
  AddText(item, "securityGroupRuleArn", Ec2Arn(call, kSecurityGroupRuleKind, rule["id"]));
}

void Authorize(Ec2Call& call, pugi::xml_node response, bool egress) {
  Json group = Require(call, kSecurityGroupKind, call.Require("GroupId"));
  std::vector<Json> rules = ReadRules(call, group["id"], egress);
  std::vector<Json> existing = RulesOf(call, group["id"]);
  Json tags = TagsFromSpecifications(call, "security-group-rule");
  for (size_t i = 0; i < rules.size(); ++i) {
    auto same = [&](const Json& other) { return SameRule(rules[i], other); };
    if (std::any_of(existing.begin(), existing.end(), same) || std::any_of(rules.begin(), rules.begin() + i, same)) {
      throw ApiError(400, "InvalidPermission.Duplicate",
                     "the specified rule \"" + Describe(rules[i]) + "\" already exists");
    }
  }
  AddReturnTrue(response);
  pugi::xml_node set = AddChild(response, "securityGroupRuleSet");
  for (Json& rule : rules) {
    Json stored = NewObject(call, kSecurityGroupRuleKind);
    stored.update(rule);
    stored["tags"] = tags;
    Save(call, kSecurityGroupRuleKind, stored);
    WriteRule(call, AddItem(set), stored);
  }
}

//! The group's stored rules the call names, by IpPermissions or SecurityGroupRuleId.N.
std::vector<Json> NamedRules(const Ec2Call& call, const Json& group, bool egress) {
  std::vector<Json> existing = RulesOf(call, group["id"]), out;
  for (const std::string& id : call.NumberedList("SecurityGroupRuleId")) {
    auto it = std::find_if(existing.begin(), existing.end(), [&](const Json& r) { return r["id"] == id; });
    if (it == existing.end() || (*it)["isEgress"] != egress) throw NotFound(kSecurityGroupRuleKind, id);
    out.push_back(*it);
  }
  if (!out.empty()) return out;
  for (const Json& wanted : ReadRules(call, group["id"], egress)) {
    auto it = std::find_if(existing.begin(), existing.end(), [&](const Json& r) { return SameRule(r, wanted); });
    if (it == existing.end()) {
      throw ApiError(400, "InvalidPermission.NotFound", "The specified rule does not exist in this security group.");
    }
    Json found = *it;
    if (wanted.contains("description")) found["description"] = wanted["description"];
    else found.erase("description");
    out.push_back(found);
  }
  return out;
}

void Revoke(Ec2Call& call, pugi::xml_node response, bool egress) {
  Json group = Require(call, kSecurityGroupKind, call.Require("GroupId"));
  for (const Json& rule : NamedRules(call, group, egress)) Remove(call, kSecurityGroupRuleKind, rule["id"]);
  AddReturnTrue(response);
}

void UpdateDescriptions(Ec2Call& call, pugi::xml_node response, bool egress) {
  Json group = Require(call, kSecurityGroupKind, call.Require("GroupId"));
  for (const Json& rule : NamedRules(call, group, egress)) Save(call, kSecurityGroupRuleKind, rule);
  AddReturnTrue(response);
}

void AuthorizeIngress(Ec2Call& call, pugi::xml_node response) { Authorize(call, response, false); }
void AuthorizeEgress(Ec2Call& call, pugi::xml_node response) { Authorize(call, response, true); }
void RevokeIngress(Ec2Call& call, pugi::xml_node response) { Revoke(call, response, false); }
void RevokeEgress(Ec2Call& call, pugi::xml_node response) { Revoke(call, response, true); }
void UpdateIngressDescriptions(Ec2Call& call, pugi::xml_node response) { UpdateDescriptions(call, response, false); }
void UpdateEgressDescriptions(Ec2Call& call, pugi::xml_node response) { UpdateDescriptions(call, response, true); }

void DescribeSecurityGroupRules(Ec2Call& call, pugi::xml_node response) {
  auto fields = [](const Json& rule, const std::string& name) -> std::optional<std::vector<std::string>> {
    if (name == "group-id") return std::vector<std::string>{rule["groupId"]};
    if (name == "security-group-rule-id") return std::vector<std::string>{rule["id"]};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "securityGroupRuleSet");
  std::vector<Json> rules = ListIn(call, kSecurityGroupRuleKind);
  for (const Json& rule : SelectObjects(call, kSecurityGroupRuleKind, rules, "SecurityGroupRuleId", fields)) {
    WriteRule(call, AddItem(set), rule);
  }
}

}  // namespace

Json AllTrafficRule(const Ec2Call& call, const std::string& group_id, bool egress, const std::string& peer_kind,
                    const std::string& peer) {
  Json rule = NewObject(call, kSecurityGroupRuleKind);
  rule.update(Json{{"groupId", group_id}, {"isEgress", egress}, {"ipProtocol", "-1"}, {"fromPort", -1},
                   {"toPort", -1}, {"peerKind", peer_kind}, {"peer", peer}});
  return rule;
}

std::vector<Json> RulesOf(const Ec2Call& call, const std::string& group_id) {
  std::vector<Json> out;
  for (Json& rule : ListIn(call, kSecurityGroupRuleKind)) {
    if (rule["groupId"] == group_id) out.push_back(std::move(rule));
  }
  return out;
}

void WritePermissions(const Ec2Call& call, pugi::xml_node parent, const char* element, const std::vector<Json>& rules) {
  pugi::xml_node set = AddChild(parent, element);
  std::vector<const Json*> heads;  // the first rule of each protocol and port range
  for (const Json& rule : rules) {
    auto same_range = [&](const Json* head) {
      return (*head)["ipProtocol"] == rule["ipProtocol"] && (*head)["fromPort"] == rule["fromPort"] &&
             (*head)["toPort"] == rule["toPort"];
    };
    if (std::none_of(heads.begin(), heads.end(), same_range)) heads.push_back(&rule);
  }
  for (const Json* head : heads) {
    pugi::xml_node item = AddItem(set);
    std::string protocol = (*head)["ipProtocol"];
    AddText(item, "ipProtocol", protocol);
    if (protocol == "tcp" || protocol == "udp" || protocol == "icmp" || protocol == "icmpv6") {
      AddText(item, "fromPort", std::to_string((*head)["fromPort"].get<int64_t>()));
      AddText(item, "toPort", std::to_string((*head)["toPort"].get<int64_t>()));
    }
    for (const PeerKind& peer : kPeers) {
      pugi::xml_node peers = AddChild(item, peer.set);
      for (const Json& rule : rules) {
        if (rule["ipProtocol"] != (*head)["ipProtocol"] || rule["fromPort"] != (*head)["fromPort"] ||
            rule["toPort"] != (*head)["toPort"] || rule["peerKind"] != peer.field) {
          continue;
        }
        pugi::xml_node entry = AddItem(peers);
        if (rule.contains("description")) AddText(entry, "description", rule["description"]);
        AddText(entry, peer.item, rule["peer"]);
        if (std::string(peer.field) == "referencedGroupId") AddText(entry, "userId", call.account());
      }
    }
  }
}

void AddSecurityGroupRuleActions(Ec2Actions& actions) {
  actions["AuthorizeSecurityGroupIngress"] = AuthorizeIngress;
  actions["AuthorizeSecurityGroupEgress"] = AuthorizeEgress;
  actions["RevokeSecurityGroupIngress"] = RevokeIngress;
  actions["RevokeSecurityGroupEgress"] = RevokeEgress;
  actions["UpdateSecurityGroupRuleDescriptionsIngress"] = UpdateIngressDescriptions;
  actions["UpdateSecurityGroupRuleDescriptionsEgress"] = UpdateEgressDescriptions;
  actions["DescribeSecurityGroupRules"] = DescribeSecurityGroupRules;
}

}  // namespace strata::sandbox
