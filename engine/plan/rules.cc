#include "engine/plan/rules.h"

#include <fmt/format.h>

namespace strata {
namespace {

const Value& NullValue() {
  static const Value null;
  return null;
}

const Value& AttrOf(const Value& obj, const std::string& name) {
  if (obj.IsNull() || !obj.IsMapping()) return NullValue();
  const auto& m = obj.AsMap();
  auto it = m.find(name);
  return it == m.end() ? NullValue() : it->second;
}

void Diff(const Value& before, const Value& after, const AttrPath& path, std::vector<AttrPath>& out) {
  if (before.IsUnknown() || after.IsUnknown()) {
    if (!(before.IsUnknown() && after.IsUnknown())) out.push_back(path);
    return;
  }
  // Maps and objects compare alike, as do lists and tuples (Value::Equals).
  if (before.IsMapping() && after.IsMapping()) {
    bool is_map = after.kind() == ValueKind::Map;
    const auto& b = before.AsMap();
    const auto& a = after.AsMap();
    auto step = [&](const std::string& k) { return is_map ? PathStep::Key(k) : PathStep::Attr(k); };
    auto bi = b.begin();
    auto ai = a.begin();
    while (bi != b.end() || ai != a.end()) {
      if (ai == a.end() || (bi != b.end() && bi->first < ai->first)) {
        if (!bi->second.IsNull()) out.push_back(path.Child(step(bi->first)));
        ++bi;
      } else if (bi == b.end() || ai->first < bi->first) {
        if (!ai->second.IsNull()) out.push_back(path.Child(step(ai->first)));
        ++ai;
      } else {
        Diff(bi->second, ai->second, path.Child(step(bi->first)), out);
        ++bi;
        ++ai;
      }
    }
    return;
  }
  if (before.IsSequence() && after.IsSequence() && before.kind() != ValueKind::Set &&
      after.kind() != ValueKind::Set && before.Length() == after.Length()) {
    const auto& b = before.AsList();
    const auto& a = after.AsList();
    for (size_t i = 0; i < b.size(); ++i) Diff(b[i], a[i], path.Child(PathStep::Index(static_cast<int64_t>(i))), out);
    return;
  }
  if (!before.Equals(after)) out.push_back(path);
}

Value WithAttr(const Value& obj, const std::string& name, const Value& v) {
  ValueMap m = obj.AsMap();
  m[name] = v;
  Value r = obj.kind() == ValueKind::Map ? Value::Map(std::move(m)) : Value::Object(std::move(m));
  return r.MarkSensitive(obj.IsSensitive());
}

//! `target` with the value at path[i..] replaced by `replacement` (when the path exists in
//! target, or can be created as a key of a mapping).
Value SetAtPath(const Value& target, const AttrPath& path, size_t i, const Value& replacement) {
  if (i == path.steps.size()) return replacement;
  const PathStep& s = path.steps[i];
  if (s.kind == PathStep::Kind::Index) {
    if (!target.IsSequence() || target.kind() == ValueKind::Set) return target;
    ValueList items = target.AsList();
    if (s.index < 0 || static_cast<size_t>(s.index) >= items.size()) return target;
    items[s.index] = SetAtPath(items[s.index], path, i + 1, replacement);
    Value r = target.kind() == ValueKind::List ? Value::List(std::move(items)) : Value::Tuple(std::move(items));
    return r.MarkSensitive(target.IsSensitive());
  }
  if (!target.IsMapping()) return target;
  const auto& m = target.AsMap();
  auto it = m.find(s.name);
  if (it == m.end()) {
    if (i + 1 != path.steps.size() || replacement.IsNull()) return target;
    return WithAttr(target, s.name, replacement);
  }
  if (i + 1 == path.steps.size() && replacement.IsNull() && target.kind() == ValueKind::Map) {
    // The key was absent before: remove it again.
    ValueMap copy = m;
    copy.erase(s.name);
    return Value::Map(std::move(copy)).MarkSensitive(target.IsSensitive());
  }
  return WithAttr(target, s.name, SetAtPath(it->second, path, i + 1, replacement));
}

}  // namespace

Value ProposedNewValue(const ResourceSchema& schema, const Value& prior, const Value& config) {
  if (config.IsNull()) return Value::Null();
  if (config.IsUnknown() || !config.IsMapping()) return config;
  bool have_prior = !prior.IsNull() && prior.IsMapping();
  ValueMap out;
  for (const auto& [name, attr] : schema.attributes) {
    const Value& c = AttrOf(config, name);
    Value v;
    if (!c.IsNull()) {
      v = c;
    } else if (attr.computed) {
      v = have_prior ? AttrOf(prior, name) : Value::Unknown();
    }
    if (attr.sensitive && !v.IsNull()) v = v.MarkSensitive();
    out[name] = v;
  }
  for (const auto& [name, c] : config.AsMap()) {
    if (!schema.attributes.count(name)) out[name] = c;
  }
  return Value::Object(std::move(out));
}

std::vector<AttrPath> DiffAttributes(const Value& before, const Value& after) {
  std::vector<AttrPath> out;
  Diff(before, after, AttrPath{}, out);
  return out;
}

std::vector<AttrPath> RequiresReplace(const ResourceSchema& schema, const Value& before,
                                      const Value& after) {
  std::vector<AttrPath> out;
  if (before.IsNull() || after.IsNull()) return out;
  for (const auto& [name, attr] : schema.attributes) {
    if (!attr.force_new) continue;
    const Value& b = AttrOf(before, name);
    const Value& a = AttrOf(after, name);
    if (a.IsUnknown() || !a.IsWhollyKnown()) {
      if (b.IsWhollyKnown()) out.push_back(AttrPath::Of(name));
      continue;
    }
    if (!b.Equals(a)) out.push_back(AttrPath::Of(name));
  }
  return out;
}

Value ApplyIgnoreChanges(const Value& prior, const Value& planned, const IgnoreChanges& ignore) {
  if (ignore.empty() || prior.IsNull() || planned.IsNull()) return planned;
  if (!prior.IsMapping() || !planned.IsMapping()) return planned;
  if (ignore.all) {
    Value out = prior;
    for (const auto& [name, v] : planned.AsMap()) {
      if (!prior.AsMap().count(name)) out = WithAttr(out, name, v);
    }
    return out;
  }
  Value out = planned;
  for (const auto& path : ignore.paths) {
    if (path.empty()) continue;
    out = SetAtPath(out, path, 0, ValueAtPath(prior, path));
  }
  return out;
}

ActionDecision DecideAction(const ActionInputs& in) {
  if (!in.in_config) {
    if (in.prior_exists) return {Action::Delete, in.delete_reason};
    return {Action::NoOp, ActionReason::None};
  }
  if (in.gone) return {Action::Create, ActionReason::RecreateBecauseGone};
  if (!in.prior_exists) return {Action::Create, ActionReason::None};
  Action replace = in.create_before_destroy ? Action::CreateThenDelete : Action::DeleteThenCreate;
  if (in.tainted) return {replace, ActionReason::ReplaceBecauseTainted};
  if (in.replace_requested) return {replace, ActionReason::ReplaceByRequest};
  if (!in.requires_replace.empty()) return {replace, ActionReason::ReplaceBecauseCannotUpdate};
  if (in.prior.Equals(in.planned)) return {Action::NoOp, ActionReason::None};
  return {Action::Update, ActionReason::None};
}

std::optional<std::string> CheckPreventDestroy(const ResourceInstanceAddr& addr, Action action,
                                               bool prevent_destroy) {
  if (!prevent_destroy) return std::nullopt;
  if (action != Action::Delete && !IsReplace(action)) return std::nullopt;
  return fmt::format(
      "Resource {} has lifecycle.prevent_destroy set, but the plan calls for this resource to "
      "be destroyed. To avoid this error and continue with the plan, either disable "
      "lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag.",
      addr.ToString());
}

PlanCounts CountChanges(const std::vector<ResourceInstanceChange>& changes) {
  PlanCounts c;
  for (const auto& ch : changes) {
    if (ch.addr.resource.mode != ResourceMode::Managed) continue;
    if (ch.importing_id) ++c.import;
    switch (ch.action) {
      case Action::Create: ++c.add; break;
      case Action::Update: ++c.change; break;
      case Action::Delete: ++c.destroy; break;
      case Action::DeleteThenCreate:
      case Action::CreateThenDelete:
        ++c.add;
        ++c.destroy;
        break;
      case Action::NoOp:
      case Action::Read:
      case Action::Forget: break;
    }
  }
  return c;
}

std::string FormatPlanSummary(const PlanCounts& c) {
  std::string imports = c.import ? fmt::format("{} to import, ", c.import) : "";
  return fmt::format("Plan: {}{} to add, {} to change, {} to destroy.", imports, c.add, c.change, c.destroy);
}

}  // namespace strata
