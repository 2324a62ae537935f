#include "providers/kubernetes/fieldpath/extract.h"

namespace strata::kubernetes::fieldpath {
namespace {

Json ExtractFrom(const Json& value, const Set& set);

// The part of `value` (the value at some path) that `element` at this level selects: all
// of it when the element is a member without children, the extraction of its children
// otherwise.
Json Selected(const Json& value, const Set& set, const PathElement& element) {
  const Set* beneath = set.ChildAt(element);
  if (beneath == nullptr) return value;
  return ExtractFrom(value, *beneath);
}

bool Selects(const Set& set, const PathElement& element) {
  return set.HasMember(element) || set.ChildAt(element) != nullptr;
}

Json ExtractFrom(const Json& value, const Set& set) {
  if (value.is_object()) {
    Json out = Json::object();
    for (const auto& [key, member] : value.items()) {
      const PathElement element = PathElement::Field(key);
      if (Selects(set, element)) out[key] = Selected(member, set, element);
    }
    return out;
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (size_t i = 0; i < value.size(); ++i) {
      const Json& item = value[i];
      auto matches = [&](const PathElement& element) {
        if (element.kind() == PathElement::Kind::kIndex) return element.index() == static_cast<int>(i);
        return ListItemMatches(item, element);
      };
      bool found = false;
      for (const PathElement& member : set.members()) {
        if (matches(member)) {
          out.push_back(Selected(item, set, member));
          found = true;
          break;
        }
      }
      for (size_t c = 0; !found && c < set.children().size(); ++c) {
        if (matches(set.children()[c].element)) {
          out.push_back(ExtractFrom(item, set.children()[c].set));
          found = true;
        }
      }
    }
    return out;
  }
  return value;  // a scalar under children: the set says more than the value has
}

}  // namespace

bool ListItemMatches(const Json& item, const PathElement& element) {
  switch (element.kind()) {
    case PathElement::Kind::kValue: return CompareValues(item, element.json()) == 0;
    case PathElement::Kind::kKey: {
      if (!item.is_object()) return false;
      for (const auto& [name, wanted] : element.json().items()) {
        auto it = item.find(name);
        if (it == item.end() || CompareValues(*it, wanted) != 0) return false;
      }
      return true;
    }
    default: return false;
  }
}

Json ExtractFields(const Json& object, const Set& set) {
  if (set.Empty()) return Json::object();
  return ExtractFrom(object, set);
}

}  // namespace strata::kubernetes::fieldpath
