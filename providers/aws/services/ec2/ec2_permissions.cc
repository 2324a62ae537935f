#include "providers/aws/services/ec2/ec2_permissions.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "providers/resource_type.h"

namespace strata::aws {
namespace {

using Kind = PermissionAtom::Kind;

struct KindNames {
  Kind kind;
  const char* rule_attr;   // Terraform's list in a rule object
  const char* xml_list;    // <ipRanges>
  const char* xml_source;  // <cidrIp>
  const char* param_list;  // IpRanges
  const char* param_source;  // CidrIp
};

constexpr KindNames kKinds[] = {
    {Kind::Cidr, "cidr_blocks", "ipRanges", "cidrIp", "IpRanges", "CidrIp"},
    {Kind::Ipv6Cidr, "ipv6_cidr_blocks", "ipv6Ranges", "cidrIpv6", "Ipv6Ranges", "CidrIpv6"},
    {Kind::PrefixList, "prefix_list_ids", "prefixListIds", "prefixListId", "PrefixListIds", "PrefixListId"},
    {Kind::Group, "security_groups", "groups", "groupId", "Groups", "GroupId"},
};

int ToInt(const std::string& s, int fallback) {
  try {
    return s.empty() ? fallback : std::stoi(s);
  } catch (...) {
    return fallback;
  }
}

//! The canonical ports: "-1" covers every port, written 0/0 as Terraform does.
void FixPorts(PermissionAtom& atom) {
  if (atom.protocol == "-1") atom.from_port = atom.to_port = 0;
}

using PermissionKey = std::tuple<std::string, int, int>;
PermissionKey KeyOf(const PermissionAtom& a) { return {a.protocol, a.from_port, a.to_port}; }

Value SortedStringList(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  ValueList values;
  for (auto& s : items) values.push_back(Value::String(std::move(s)));
  return Value::List(std::move(values));
}

}  // namespace

bool PermissionAtom::SameSource(const PermissionAtom& o) const {
  return protocol == o.protocol && from_port == o.from_port && to_port == o.to_port && kind == o.kind &&
         source == o.source;
}

std::string NormalizeProtocol(const std::string& protocol) {
  std::string p = protocol;
  std::transform(p.begin(), p.end(), p.begin(), [](unsigned char c) { return std::tolower(c); });
  if (p == "all" || p == "-1") return "-1";
  static const std::map<std::string, std::string> names = {
      {"6", "tcp"}, {"17", "udp"}, {"1", "icmp"}, {"58", "icmpv6"}};
  auto it = names.find(p);
  return it == names.end() ? p : it->second;
}

std::vector<PermissionAtom> ReadPermissionAtoms(pugi::xml_node permissions, const std::string& self_id) {
  std::vector<PermissionAtom> atoms;
  for (pugi::xml_node p : permissions.children("item")) {
    PermissionAtom base;
    base.protocol = NormalizeProtocol(p.child_value("ipProtocol"));
    base.from_port = ToInt(p.child_value("fromPort"), 0);
    base.to_port = ToInt(p.child_value("toPort"), 0);
    FixPorts(base);
    for (const KindNames& k : kKinds) {
      for (pugi::xml_node s : p.child(k.xml_list).children("item")) {
        PermissionAtom atom = base;
        atom.kind = k.kind;
        atom.source = s.child_value(k.xml_source);
        if (k.kind == Kind::Group && atom.source == self_id) atom.source = kSelfSource;
        atom.description = s.child_value("description");
        atoms.push_back(std::move(atom));
      }
    }
  }
  return atoms;
}

void AddPermissions(QueryRequest& call, const std::vector<PermissionAtom>& atoms,
                    const std::string& self_id) {
  std::map<PermissionKey, std::vector<const PermissionAtom*>> grouped;
  for (const PermissionAtom& a : atoms) grouped[KeyOf(a)].push_back(&a);
  int n = 0;
  for (const auto& [key, members] : grouped) {
    const auto& [protocol, from, to] = key;
    std::string prefix = "IpPermissions." + std::to_string(++n);
    call.Add(prefix + ".IpProtocol", protocol);
    if (protocol != "-1") {
      call.Add(prefix + ".FromPort", std::to_string(from)).Add(prefix + ".ToPort", std::to_string(to));
    }
    for (const KindNames& k : kKinds) {
      int m = 0;
      for (const PermissionAtom* a : members) {
        if (a->kind != k.kind) continue;
        std::string item = prefix + "." + k.param_list + "." + std::to_string(++m);
        call.Add(item + "." + k.param_source, a->source == kSelfSource ? self_id : a->source);
        if (!a->description.empty()) call.Add(item + ".Description", a->description);
      }
    }
  }
}

std::vector<PermissionAtom> AtomsFromRules(const Value& rules) {
  using attrs::Get;
  std::vector<PermissionAtom> atoms;
  if (!rules.IsSequence()) return atoms;
  for (const Value& rule : rules.AsList()) {
    PermissionAtom base;
    base.protocol = NormalizeProtocol(attrs::GetString(rule, "protocol"));
    base.from_port = static_cast<int>(attrs::GetNumber(rule, "from_port").value_or(0));
    base.to_port = static_cast<int>(attrs::GetNumber(rule, "to_port").value_or(0));
    base.description = attrs::GetString(rule, "description");
    FixPorts(base);
    for (const KindNames& k : kKinds) {
      for (const std::string& source : attrs::GetStringList(rule, k.rule_attr)) {
        PermissionAtom atom = base;
        atom.kind = k.kind;
        atom.source = source;
        atoms.push_back(std::move(atom));
      }
    }
    if (attrs::GetBool(rule, "self", false)) {
      PermissionAtom atom = base;
      atom.kind = Kind::Group;
      atom.source = kSelfSource;
      atoms.push_back(std::move(atom));
    }
  }
  return atoms;
}

Value RulesFromAtoms(const std::vector<PermissionAtom>& atoms) {
  using RuleKey = std::tuple<std::string, int, int, std::string>;
  std::map<RuleKey, std::vector<const PermissionAtom*>> grouped;
  for (const PermissionAtom& a : atoms) grouped[{a.protocol, a.from_port, a.to_port, a.description}].push_back(&a);
  ValueList rules;
  for (const auto& [key, members] : grouped) {
    const auto& [protocol, from, to, description] = key;
    ValueMap rule{{"protocol", Value::String(protocol)},
                  {"from_port", Value::Number(from)},
                  {"to_port", Value::Number(to)},
                  {"description", Value::String(description)},
                  {"self", Value::Bool(false)}};
    for (const KindNames& k : kKinds) {
      std::vector<std::string> sources;
      for (const PermissionAtom* a : members) {
        if (a->kind != k.kind) continue;
        if (a->source == kSelfSource) {
          rule["self"] = Value::Bool(true);
        } else {
          sources.push_back(a->source);
        }
      }
      Value list = SortedStringList(std::move(sources));
      rule[k.rule_attr] = k.kind == Kind::Group ? Value::Set(list.AsList()) : list;
    }
    rules.push_back(Value::Object(std::move(rule)));
  }
  return Value::Set(std::move(rules));
}

Value CanonicalRules(const Value& rules) {
  if (rules.IsNull() || !rules.IsWhollyKnown() || !rules.IsSequence()) return rules;
  return RulesFromAtoms(AtomsFromRules(rules));
}

std::vector<PermissionAtom> AtomsMissingFrom(const std::vector<PermissionAtom>& a,
                                             const std::vector<PermissionAtom>& b) {
  std::vector<PermissionAtom> out;
  for (const PermissionAtom& atom : a) {
    if (std::find(b.begin(), b.end(), atom) == b.end()) out.push_back(atom);
  }
  return out;
}

}  // namespace strata::aws
