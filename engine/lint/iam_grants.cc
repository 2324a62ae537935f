#include "engine/lint/iam_grants.h"

#include <set>

#include "engine/expr/ast.h"
#include "engine/lint/locate.h"

namespace strata::lint {
namespace {

// Whether the unknown `field` of `inst` is written as the JSON of policy documents of its own
// module that are among `instances` (policy: ${data.permissions.json}): what it grants is
// then read from their statements, and its being unknown hides nothing.
bool ReadThroughDocuments(const Instance& inst, const char* field, const std::vector<const Instance*>& instances) {
  const Expr* written = inst.node && inst.node->resource ? WrittenAt(*inst.node->resource, {field}) : nullptr;
  if (!written) return false;
  std::vector<Reference> refs = ReferencesOf(*written);
  if (refs.empty()) return false;
  for (const auto& ref : refs) {
    if (ref.root != "data" || ref.steps.size() < 2 ||
        (ref.steps[1].name != "json" && ref.steps[1].name != "minified_json")) {
      return false;
    }
    bool found = false;
    for (const Instance* doc : instances) {
      found = found || (doc->type == "aws_iam_policy_document" && doc->stage == inst.stage &&
                        doc->node->module == inst.node->module && doc->node->resource->name == ref.steps[0].name);
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

bool GrantsAny(const Value& v, const std::vector<std::string>& grants, bool& unknown) {
  if (!v.IsKnown()) {
    unknown = true;
    return false;
  }
  if (v.IsString()) {
    for (const auto& g : grants) {
      if (v.AsString().find(g) != std::string::npos) return true;
    }
    return false;
  }
  if (v.IsSequence()) {
    for (const auto& e : v.AsList()) {
      if (GrantsAny(e, grants, unknown)) return true;
    }
  } else if (v.IsMapping()) {
    static const std::set<std::string> not_actions = {"resources", "not_resources", "condition", "principals",
                                                      "not_principals", "sid", "effect"};
    for (const auto& [k, e] : v.AsMap()) {
      if (not_actions.count(k)) continue;
      if (GrantsAny(e, grants, unknown)) return true;
    }
  }
  return false;
}

bool InstancesGrant(const std::vector<const Instance*>& instances, const std::vector<std::string>& grants, bool& unknown) {
  bool granted = false;
  for (const Instance* inst : instances) {
    for (const char* field : {"policy", "inline_policy", "statement", "policy_arn", "managed_policy_arns"}) {
      const Value* at = ValueAt(*inst->value, {field});
      if (!at) continue;
      bool arn = std::string(field).find("arn") != std::string::npos;
      bool field_unknown = false;
      granted = granted || GrantsAny(*at, grants, field_unknown);
      unknown = unknown || (field_unknown && !arn && !ReadThroughDocuments(*inst, field, instances));
    }
  }
  return granted;
}

std::vector<const Instance*> IamInstances(const ProjectModel& model, int component) {
  std::vector<const Instance*> out;
  for (const auto* list : {&model.instances, &model.data}) {
    for (const Instance& inst : *list) {
      if (inst.component == component && inst.type.rfind("aws_iam_", 0) == 0) out.push_back(&inst);
    }
  }
  return out;
}

}  // namespace strata::lint
