// One object managed twice: Kubernetes objects (kubernetes_manifest, the documents of
// kubernetes_documents and the typed kubernetes_* resources, by kind/namespace/name), Route 53
// records (zone, name, type, set identifier) and security group rules.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

// "a stage-local address" for messages: "aws_x.y (stage eks)".
std::string DuplicateWhere(const Instance& inst) { return fmt::format("{} (stage {})", inst.address, inst.stage->name); }

void DuplicateObjects(LintContext& ctx) {
  std::map<std::string, const KubeObject*> first;
  for (const auto& o : ctx.model().objects) {
    auto [it, inserted] = first.emplace(o.Identity(), &o);
    if (inserted) continue;
    Path name = o.typed ? Path{"metadata", size_t{0}, "name"} : Path{"metadata", "name"};
    ctx.Report("k8s-duplicate-object", o, name,
               fmt::format("{} is also managed by {}", o.Identity(), DuplicateWhere(*it->second->instance)));
  }
}

void DuplicateRecords(LintContext& ctx) {
  std::map<std::string, std::vector<const Instance*>> by_name;
  for (const Instance* inst : ctx.model().OfType("aws_route53_record")) {
    auto name = StringAt(*inst->value, {"name"});
    auto type = StringAt(*inst->value, {"type"});
    if (!name || !type) continue;
    std::string fqdn = LowerCase(*name);
    if (!fqdn.empty() && fqdn.back() == '.') fqdn.pop_back();
    std::string key = fmt::format("{} {} {}", fqdn, *type, StringAt(*inst->value, {"set_identifier"}).value_or(""));
    by_name[key].push_back(inst);
  }
  for (const auto& [key, records] : by_name) {
    for (size_t i = 1; i < records.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        // Two zones both known and different hold different records of one name.
        auto zone_a = StringAt(*records[i]->value, {"zone_id"});
        auto zone_b = StringAt(*records[j]->value, {"zone_id"});
        if (zone_a && zone_b && *zone_a != *zone_b) continue;
        ctx.Report("route53-duplicate-record", *records[i], {"name"},
                   fmt::format("the {} record {} is also managed by {}", *StringAt(*records[i]->value, {"type"}),
                               *StringAt(*records[i]->value, {"name"}), DuplicateWhere(*records[j])));
        break;
      }
    }
  }
}

// The security group a rule is on: its id when known, else what the written expression
// refers to in the instance's module (the same group for two rules that name it alike).
std::optional<std::string> GroupKey(const Instance& inst, const char* attribute) {
  if (auto id = StringAt(*inst.value, {attribute})) return *id;
  const Expr* written = WrittenAt(*inst.node->resource, {attribute});
  if (!written) return std::nullopt;
  std::vector<std::string> refs;
  for (const auto& ref : ReferencesOf(*written)) {
    if (ref.root == "each" || ref.root == "count") return std::nullopt;
    refs.push_back(ref.ToString());
  }
  if (refs.empty()) return std::nullopt;
  std::string module = inst.address.substr(0, inst.address.rfind(inst.node->resource->type));
  return fmt::format("{}|{}|{}", inst.stage->name, module, fmt::join(refs, ","));
}

// A known attribute's text ("" when null, or unknown because not written: a computed
// default), or nullopt when a written value is not known.
std::optional<std::string> RuleText(const Instance& inst, const char* attribute) {
  const Value* at = ValueAt(*inst.value, {attribute});
  if (!at || at->IsNull()) return std::string();
  if (!at->IsKnown() && !WrittenAt(*inst.node->resource, {attribute})) return std::string();
  if (!at->IsWhollyKnown()) return std::nullopt;
  if (at->IsString()) return at->AsString();
  if (at->IsNumber()) return FormatNumber(at->AsNumber());
  if (at->IsBool()) return std::string(at->AsBool() ? "true" : "false");
  if (at->IsSequence()) {
    std::vector<std::string> items;
    for (const auto& e : at->AsList()) items.push_back(e.IsString() ? e.AsString() : e.IsNumber() ? FormatNumber(e.AsNumber()) : "?");
    std::sort(items.begin(), items.end());
    return fmt::format("[{}]", fmt::join(items, ","));
  }
  return std::nullopt;
}

std::string RuleProtocol(std::string p) {
  p = LowerCase(p);
  if (p == "6") return "tcp";
  if (p == "17") return "udp";
  if (p == "all") return "-1";
  return p;
}

void DuplicateRules(LintContext& ctx) {
  std::map<std::string, const Instance*> seen;
  auto add = [&](const Instance* inst, const std::string& key) {
    auto [it, inserted] = seen.emplace(key, inst);
    if (!inserted) {
      ctx.Report("sg-duplicate-rule", *inst, {"from_port"},
                 fmt::format("this security group rule is also declared by {}", DuplicateWhere(*it->second)));
    }
  };
  for (const Instance* inst : ctx.model().OfType("aws_security_group_rule")) {
    auto group = GroupKey(*inst, "security_group_id");
    std::vector<std::optional<std::string>> parts = {RuleText(*inst, "type"), RuleText(*inst, "protocol"),
                                                     RuleText(*inst, "from_port"), RuleText(*inst, "to_port"),
                                                     RuleText(*inst, "cidr_blocks"), RuleText(*inst, "ipv6_cidr_blocks"),
                                                     RuleText(*inst, "prefix_list_ids"), RuleText(*inst, "self")};
    auto source = GroupKey(*inst, "source_security_group_id");
    if (!group || std::any_of(parts.begin(), parts.end(), [](const auto& p) { return !p; })) continue;
    // A source group written but neither known nor nameable: the rule cannot be compared.
    if (WrittenAt(*inst->node->resource, {"source_security_group_id"}) && !source) continue;
    add(inst, fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}|{}", *group, *parts[0], RuleProtocol(*parts[1]), *parts[2], *parts[3],
                          *parts[4], *parts[5], *parts[6], *parts[7], source.value_or("")));
  }
  for (const char* type : {"aws_vpc_security_group_ingress_rule", "aws_vpc_security_group_egress_rule"}) {
    for (const Instance* inst : ctx.model().OfType(type)) {
      auto group = GroupKey(*inst, "security_group_id");
      std::vector<std::optional<std::string>> parts = {RuleText(*inst, "ip_protocol"), RuleText(*inst, "from_port"),
                                                       RuleText(*inst, "to_port"), RuleText(*inst, "cidr_ipv4"),
                                                       RuleText(*inst, "cidr_ipv6"), RuleText(*inst, "prefix_list_id")};
      if (!group || std::any_of(parts.begin(), parts.end(), [](const auto& p) { return !p; })) continue;
      auto source = GroupKey(*inst, "referenced_security_group_id");
      add(inst, fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", type, *group, RuleProtocol(*parts[0]), *parts[1], *parts[2], *parts[3],
                            *parts[4], *parts[5], source.value_or("")));
    }
  }
}

}  // namespace

void CheckDuplicates(LintContext& ctx) {
  DuplicateObjects(ctx);
  DuplicateRecords(ctx);
  DuplicateRules(ctx);
}

}  // namespace strata::lint
