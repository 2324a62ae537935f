#include "sandbox/kubernetes/merge/typed_value.h"

#include <deque>
#include <map>

namespace strata::sandbox::k8s {
namespace {

using fieldpath::Path;
using fieldpath::PathElement;
using fieldpath::Set;

const TypeNode* ScalarNode() {
  static const TypeNode node = [] {
    TypeNode n;
    n.kind = TypeNode::Kind::kScalar;
    return n;
  }();
  return &node;
}

const TypeNode* UntypedObjectNode() {
  static const TypeNode node = [] {
    TypeNode n;
    n.kind = TypeNode::Kind::kObject;  // no named fields; members untyped
    return n;
  }();
  return &node;
}

const TypeNode* UntypedListNode() {
  static const TypeNode node = [] {
    TypeNode n;
    n.kind = TypeNode::Kind::kList;  // atomic, items untyped
    return n;
  }();
  return &node;
}

// The node that describes `value`: untyped nodes take the value's own shape (objects
// granular, lists atomic), and a value whose shape the schema does not expect is a leaf.
const TypeNode* Effective(const TypeNode* type, const Json& value) {
  if (type == nullptr || type->kind == TypeNode::Kind::kUntyped) {
    if (value.is_object()) return UntypedObjectNode();
    if (value.is_array()) return UntypedListNode();
    return ScalarNode();
  }
  if (type->kind == TypeNode::Kind::kObject && !value.is_object()) return ScalarNode();
  if (type->kind == TypeNode::Kind::kList && !value.is_array()) return ScalarNode();
  return type;
}

bool IsLeaf(const TypeNode* t) {
  return t->kind == TypeNode::Kind::kScalar || t->atomic ||
         (t->kind == TypeNode::Kind::kList && t->list_type == ListType::kAtomic);
}

bool IsEmptyContainer(const Json& v) { return (v.is_object() || v.is_array()) && v.empty(); }

void CollectFieldSet(const TypeNode* declared, const Json& value, Path& path, Set& out) {
  const TypeNode* t = Effective(declared, value);
  if (IsLeaf(t)) {
    out.Insert(path);
    return;
  }
  if (t->kind == TypeNode::Kind::kObject) {
    for (const auto& [key, member] : value.items()) {
      path.push_back(PathElement::Field(key));
      CollectFieldSet(t->Member(key), member, path, out);
      if (member.is_null() || (member.is_object() && member.empty()) || !t->IsNamedField(key)) out.Insert(path);
      path.pop_back();
    }
    return;
  }
  std::map<PathElement, int> seen;
  for (size_t i = 0; i < value.size(); ++i) ++seen[ListItemElement(t, value[i], static_cast<int>(i))];
  for (size_t i = 0; i < value.size(); ++i) {
    const PathElement element = ListItemElement(t, value[i], static_cast<int>(i));
    path.push_back(element);
    if (seen[element] == 1) CollectFieldSet(t->items, value[i], path, out);
    out.Insert(path);  // a duplicated item is owned as a whole, never field by field
    path.pop_back();
  }
}

// --- Merge -------------------------------------------------------------------------------

Json MergeValues(const TypeNode* declared, const Json* live, const Json* config);

Json MergeLists(const TypeNode* t, const Json& live, const Json& config) {
  // structured-merge-diff's visitListItems: walk both lists, emitting live's items that
  // config does not mention where they stand and the shared items in config's order.
  std::vector<PathElement> live_elements, config_elements;
  std::map<PathElement, const Json*> observed_live, observed_config;
  for (size_t i = 0; i < live.size(); ++i) {
    PathElement e = ListItemElement(t, live[i], static_cast<int>(i));
    observed_live.emplace(e, &live[i]);
    live_elements.push_back(std::move(e));
  }
  for (size_t i = 0; i < config.size(); ++i) {
    PathElement e = ListItemElement(t, config[i], static_cast<int>(i));
    if (!observed_config.emplace(e, &config[i]).second) continue;  // duplicate in config: first wins
    config_elements.push_back(std::move(e));
  }
  std::deque<const PathElement*> shared_order;
  for (const PathElement& e : config_elements) {
    if (observed_live.count(e)) shared_order.push_back(&e);
  }
  auto pop_shared = [&]() -> const PathElement* {
    if (shared_order.empty()) return nullptr;
    const PathElement* next = shared_order.front();
    shared_order.pop_front();
    return next;
  };
  const PathElement* next_shared = pop_shared();
  std::map<PathElement, bool> merged_config;
  auto find = [](const std::map<PathElement, const Json*>& m, const PathElement& e) -> const Json* {
    auto it = m.find(e);
    return it == m.end() ? nullptr : it->second;
  };

  Json out = Json::array();
  size_t l = 0, r = 0;
  const size_t l_len = live_elements.size(), r_len = config_elements.size();
  while (l < l_len || r < r_len) {
    if (l < l_len && r < r_len) {
      const PathElement& e = live_elements[l];
      if (e == config_elements[r]) {
        merged_config[e] = true;
        out.push_back(MergeValues(t->items, find(observed_live, e), find(observed_config, e)));
        ++l, ++r;
        next_shared = pop_shared();
        continue;
      }
      if (observed_config.count(e) && next_shared != nullptr && !(*next_shared == e)) {
        ++l;
        continue;
      }
    }
    if (l < l_len) {
      const PathElement& e = live_elements[l];
      if (!observed_config.count(e)) {
        out.push_back(live[l]);
        ++l;
        continue;
      }
      if (merged_config.count(e)) ++l;
    }
    if (r < r_len) {
      const PathElement& e = config_elements[r];
      merged_config[e] = true;
      out.push_back(MergeValues(t->items, find(observed_live, e), find(observed_config, e)));
      ++r;
      if (next_shared != nullptr && *next_shared == e) next_shared = pop_shared();
    }
  }
  return out;
}

Json MergeValues(const TypeNode* declared, const Json* live, const Json* config) {
  if (config == nullptr) return *live;
  if (live == nullptr) return *config;
  const TypeNode* t = Effective(declared, *config);
  if (t != Effective(declared, *live) || IsLeaf(t)) return *config;
  if (t->kind == TypeNode::Kind::kObject) {
    Json out = *live;
    for (const auto& [key, member] : config->items()) {
      auto it = live->find(key);
      out[key] = MergeValues(t->Member(key), it == live->end() ? nullptr : &*it, &member);
    }
    return out;
  }
  if (live->empty() && config->empty()) return *config;
  return MergeLists(t, *live, *config);
}

// --- Compare -----------------------------------------------------------------------------

void CompareValues(const TypeNode* declared, const Json* before, const Json* after, Path& path, Comparison& out);

void CompareObjects(const TypeNode* t, const Json* before, const Json* after, Path& path, Comparison& out) {
  auto visit = [&](const std::string& key) {
    const Json* b = nullptr;
    const Json* a = nullptr;
    if (before) {
      if (auto it = before->find(key); it != before->end()) b = &*it;
    }
    if (after) {
      if (auto it = after->find(key); it != after->end()) a = &*it;
    }
    path.push_back(PathElement::Field(key));
    CompareValues(t->Member(key), b, a, path, out);
    path.pop_back();
  };
  if (before) {
    for (const auto& [key, member] : before->items()) visit(key);
  }
  if (after) {
    for (const auto& [key, member] : after->items()) {
      if (!before || !before->contains(key)) visit(key);
    }
  }
}

void CompareLists(const TypeNode* t, const Json* before, const Json* after, Path& path, Comparison& out) {
  std::map<PathElement, std::vector<const Json*>> items_before, items_after;
  std::vector<PathElement> order;
  if (before) {
    for (size_t i = 0; i < before->size(); ++i) {
      PathElement e = ListItemElement(t, (*before)[i], static_cast<int>(i));
      auto& list = items_before[e];
      if (list.empty()) order.push_back(e);
      list.push_back(&(*before)[i]);
    }
  }
  if (after) {
    for (size_t i = 0; i < after->size(); ++i) {
      PathElement e = ListItemElement(t, (*after)[i], static_cast<int>(i));
      auto& list = items_after[e];
      if (list.empty() && !items_before.count(e)) order.push_back(e);
      list.push_back(&(*after)[i]);
    }
  }
  for (const PathElement& e : order) {
    const auto& b = items_before[e];
    const auto& a = items_after[e];
    path.push_back(e);
    if (b.size() <= 1 && a.size() <= 1) {
      CompareValues(t->items, b.empty() ? nullptr : b[0], a.empty() ? nullptr : a[0], path, out);
    } else if (b.size() >= 2 && a.size() >= 2) {
      bool equal = b.size() == a.size();
      for (size_t i = 0; equal && i < b.size(); ++i) equal = *b[i] == *a[i];
      if (!equal) out.modified.Insert(path);
    } else if (b.size() >= 2) {
      out.removed.Insert(path);
    } else {
      out.added.Insert(path);
    }
    path.pop_back();
  }
}

void CompareValues(const TypeNode* declared, const Json* before, const Json* after, Path& path, Comparison& out) {
  if (before == nullptr && after == nullptr) return;
  const TypeNode* t = Effective(declared, after ? *after : *before);
  const bool shapes_differ = before && after && Effective(declared, *before) != t;
  const bool both_empty = (!before || IsEmptyContainer(*before)) && (!after || IsEmptyContainer(*after));
  if (IsLeaf(t) || shapes_differ || (t->kind == TypeNode::Kind::kList && both_empty)) {
    if (before == nullptr) {
      out.added.Insert(path);
    } else if (after == nullptr) {
      out.removed.Insert(path);
    } else if (*before != *after) {
      out.modified.Insert(path);
    }
    return;
  }
  if (t->kind == TypeNode::Kind::kObject) {
    CompareObjects(t, before, after, path, out);
  } else {
    CompareLists(t, before, after, path, out);
  }
  if (before == nullptr) {
    out.added.Insert(path);
  } else if (after == nullptr) {
    out.removed.Insert(path);
  }
}

// --- Removal -----------------------------------------------------------------------------

bool Touches(const Set* set, const PathElement& e) { return set && (set->HasMember(e) || set->ChildAt(e)); }

void Release(const TypeNode* declared, Json& value, const Set& last, const Set* owned) {
  const TypeNode* t = Effective(declared, value);
  if (IsLeaf(t)) return;
  // Decides for one member or item whether it goes; recurses where only part of it goes.
  auto keep = [&](const PathElement& e, bool named, const TypeNode* member_type, Json& member) {
    const Set* last_beneath = last.ChildAt(e);
    const bool in_last = last.HasMember(e) || (named && last_beneath != nullptr);
    if (in_last && !Touches(owned, e)) return false;
    if (last_beneath == nullptr || !(member.is_object() || member.is_array())) return true;
    const bool was_empty = member.empty();
    Release(member_type, member, *last_beneath, owned ? owned->ChildAt(e) : nullptr);
    return was_empty || !member.empty() || (owned && owned->HasMember(e));
  };
  if (t->kind == TypeNode::Kind::kObject) {
    for (auto it = value.begin(); it != value.end();) {
      const std::string key = it.key();
      if (keep(PathElement::Field(key), t->IsNamedField(key), t->Member(key), it.value())) {
        ++it;
      } else {
        it = value.erase(it);
      }
    }
    return;
  }
  Json kept = Json::array();
  for (size_t i = 0; i < value.size(); ++i) {
    if (keep(ListItemElement(t, value[i], static_cast<int>(i)), false, t->items, value[i])) kept.push_back(value[i]);
  }
  value = std::move(kept);
}

}  // namespace

fieldpath::PathElement ListItemElement(const TypeNode* list, const Json& item, int index) {
  if (list == nullptr || list->kind != TypeNode::Kind::kList) return PathElement::Index(index);
  if (list->list_type == ListType::kSet && !item.is_object() && !item.is_array()) return PathElement::Value(item);
  if (list->list_type == ListType::kMap && item.is_object()) {
    Json keys = Json::object();
    const TypeNode* item_type = list->items;
    for (const std::string& name : list->keys) {
      if (auto it = item.find(name); it != item.end()) {
        keys[name] = *it;
      } else if (item_type && item_type->defaults.count(name)) {
        keys[name] = item_type->defaults.at(name);
      } else if (name == "protocol") {
        keys[name] = "TCP";  // kube-apiserver's schema defaults every port protocol to TCP
      }
    }
    if (!keys.empty()) return PathElement::Key(std::move(keys));
  }
  return PathElement::Index(index);
}

fieldpath::Set ToFieldSet(const TypeNode* type, const Json& value) {
  Set out;
  Path path;
  CollectFieldSet(type, value, path, out);
  return out;
}

Json Merge(const TypeNode* type, const Json& live, const Json& config) { return MergeValues(type, &live, &config); }

Comparison Compare(const TypeNode* type, const Json* before, const Json* after) {
  Comparison out;
  Path path;
  CompareValues(type, before, after, path, out);
  return out;
}

void RemoveReleased(const TypeNode* type, Json& value, const fieldpath::Set& last, const fieldpath::Set& owned) {
  Release(type, value, last, &owned);
}

void DropNulls(Json& value) {
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end();) {
      if (it->is_null()) {
        it = value.erase(it);
      } else {
        DropNulls(*it);
        ++it;
      }
    }
  } else if (value.is_array()) {
    for (Json& item : value) DropNulls(item);
  }
}

}  // namespace strata::sandbox::k8s
