#include "providers/provider.h"

namespace strata {

std::string AttributePath::ToString() const {
  std::string out;
  for (const PathStep& step : steps) {
    switch (step.kind) {
      case PathStep::Kind::Attribute:
        if (!out.empty()) out += '.';
        out += step.name;
        break;
      case PathStep::Kind::Key:
        out += "[\"" + step.name + "\"]";
        break;
      case PathStep::Kind::Index:
        out += "[" + std::to_string(step.index) + "]";
        break;
    }
  }
  return out;
}

Value ValueAtPath(const Value& v, const AttributePath& path) {
  Value current = v;
  for (const PathStep& step : path.steps) {
    if (step.kind == PathStep::Kind::Index) {
      if (!current.IsSequence()) return Value();
      const ValueList& items = current.AsList();
      if (step.index < 0 || static_cast<size_t>(step.index) >= items.size()) return Value();
      current = items[static_cast<size_t>(step.index)];
      continue;
    }
    if (!current.IsMapping()) return Value();
    const ValueMap& attrs = current.AsMap();
    auto it = attrs.find(step.name);
    if (it == attrs.end()) return Value();
    current = it->second;
  }
  return current;
}

const ResourceSchema* ProviderSchema::Find(ResourceMode mode, const std::string& type) const {
  const auto& list = mode == ResourceMode::Data ? data_sources : resources;
  for (const ResourceSchema& s : list) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

}  // namespace strata
