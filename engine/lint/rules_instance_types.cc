// Instance types: one that does not exist (the reference's p3.4xlarge in the device plugin's
// affinity), and one a workload is placed on that no node group offers (the type list written
// twice, once for the groups and once for the plugin, drifting apart: p3dn.24xlarge in the
// plugin's list of a project with no such group). Types are read wherever they are written: an
// attribute named instance_type or instance_types (node groups, launch templates, instances,
// Auto Scaling groups' overrides), a node affinity's or Karpenter requirement's instance-type
// values, a nodeSelector. A type of a family lint does not know is not judged (instance_types.h).
#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

#include "engine/lint/instance_types.h"
#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

bool InstanceTypeLabel(const std::string& key) {
  return key == "node.kubernetes.io/instance-type" || key == "beta.kubernetes.io/instance-type";
}

// Where a type (or a list of types) is written: at `path` of `inst`'s value; `label` when it
// is a Kubernetes instance-type label's value (placement), not an attribute (what is launched).
using TypeVisitor = std::function<void(const Instance& inst, const Path& path, const Value& types, bool label)>;

// Walks `v` (at `at` of `inst`'s value) for the places a type is written.
void WalkTypes(const Instance& inst, const Value& v, Path& at, int depth, const TypeVisitor& visit) {
  if (depth > 24 || !v.IsKnown()) return;
  if (v.IsSequence()) {
    for (size_t i = 0; i < v.AsList().size(); ++i) {
      at.push_back(i);
      WalkTypes(inst, v.AsList()[i], at, depth + 1, visit);
      at.pop_back();
    }
    return;
  }
  if (!v.IsMapping()) return;
  const auto& map = v.AsMap();
  // A node selector requirement ({key, operator, values}): affinity terms, Karpenter's.
  if (auto key = map.find("key"); key != map.end() && key->second.IsString() && InstanceTypeLabel(key->second.AsString())) {
    if (auto values = map.find("values"); values != map.end()) visit(inst, Join(at, {"values"}), values->second, true);
    return;
  }
  for (const auto& [key, e] : map) {
    at.push_back(key);
    if (key == "instance_type" || key == "instance_types" || InstanceTypeLabel(key)) {
      visit(inst, at, e, InstanceTypeLabel(key));
    } else {
      WalkTypes(inst, e, at, depth + 1, visit);
    }
    at.pop_back();
  }
}

// Calls `fn(path, type)` for each string of `types` (one string, or a list of them).
template <typename Fn>
void EachType(const Path& path, const Value& types, Fn fn) {
  if (types.IsString()) return fn(path, types);
  if (!types.IsSequence()) return;
  for (size_t i = 0; i < types.AsList().size(); ++i) fn(Join(path, {i}), types.AsList()[i]);
}

void ReportUnknownType(LintContext& ctx, const Instance& inst, const Path& at, const Value& v) {
  if (!v.IsString()) return;
  TypeVerdict verdict = CheckInstanceType(v.AsString());
  if (verdict.kind != TypeVerdict::NoSuchSize) return;
  ctx.Report("aws-unknown-instance-type", inst, at,
             fmt::format("{} is no EC2 instance type: the {} family comes in {}", v.AsString(), verdict.family,
                         fmt::join(verdict.sizes, ", ")),
             verdict.nearest.empty() ? std::string("use one of the sizes the message lists")
                                     : fmt::format("use {}", fmt::join(verdict.nearest, " or ")));
}

// What a component launches: its known instance types, or nullopt when one is not known yet
// (or it launches nothing lint sees: its nodes may come from elsewhere).
struct Launched {
  std::set<std::string> types;
  bool unknown = false;
};

bool KarpenterObject(const Instance& inst) {
  const Value* api = ValueAt(*inst.value, {"manifest", "apiVersion"});
  return api && api->IsString() && api->AsString().find("karpenter") != std::string::npos;
}

// A Karpenter pool (NodePool, Provisioner): what it launches is bounded by its requirements.
bool KarpenterPool(const Instance& inst) {
  auto kind = StringAt(*inst.value, {"manifest", "kind"});
  return KarpenterObject(inst) && (kind == "NodePool" || kind == "Provisioner");
}

}  // namespace

void CheckInstanceTypes(LintContext& ctx) {
  std::map<int, Launched> launched;
  struct Placement {
    const Instance* inst;
    Path path;
    std::string type;
  };
  std::vector<Placement> placements;
  for (const Instance& inst : ctx.model().instances) {
    Path at;
    bool karpenter = KarpenterObject(inst);
    bool bounded = false;  // a Karpenter pool names the types it may launch
    WalkTypes(inst, *inst.value, at, 0, [&](const Instance& in, const Path& path, const Value& types, bool label) {
      bounded = bounded || label;
      if (!label && !types.IsWhollyKnown()) launched[in.component].unknown = true;
      EachType(path, types, [&](const Path& p, const Value& t) {
        ReportUnknownType(ctx, in, p, t);
        if (!t.IsString()) return;
        if (!label) launched[in.component].types.insert(t.AsString());
        // Karpenter launches the types its requirements name: they are offers, not placements.
        if (label && !karpenter) placements.push_back({&in, p, t.AsString()});
        if (label && karpenter) launched[in.component].types.insert(t.AsString());
      });
    });
    // A pool without an instance-type requirement may launch any type.
    if (KarpenterPool(inst) && !bounded) launched[inst.component].unknown = true;
  }
  for (const auto& p : placements) {
    const Launched& offer = launched[p.inst->component];
    if (offer.unknown || offer.types.empty() || offer.types.count(p.type)) continue;
    if (CheckInstanceType(p.type).kind == TypeVerdict::NoSuchSize) continue;  // reported as unknown
    ctx.Report("k8s-instance-type-not-offered", *p.inst, p.path,
               fmt::format("pods are placed on {}, which no node group of the project launches ({})", p.type,
                           fmt::join(offer.types, ", ")));
  }
}

}  // namespace strata::lint
