#include "providers/aws/common/tags.h"

#include <string_view>

namespace strata::aws {

TagMap MergeTags(const TagMap& defaults, const TagMap& tags) {
  TagMap out = defaults;
  for (const auto& [k, v] : tags) out[k] = v;
  return out;
}

Value TagsValue(const TagMap& tags) {
  ValueMap m;
  for (const auto& [k, v] : tags) m[k] = Value::String(v);
  return Value::Map(std::move(m));
}

Value TagsForState(const TagMap& remote, const TagMap& defaults, const Value& prior_tags) {
  TagMap own;
  for (const auto& [k, v] : remote) {
    bool written = prior_tags.IsMapping() && prior_tags.AsMap().count(k);
    auto d = defaults.find(k);
    if (!written && d != defaults.end() && d->second == v) continue;
    own[k] = v;
  }
  if (own.empty() && prior_tags.IsNull()) return Value();
  return TagsValue(own);
}

TagMap WithCreateToken(TagMap tags, const std::string& token) {
  if (!token.empty()) tags[kCreateTokenTag] = token;
  return tags;
}

TagMap ChangedTags(const TagMap& from, const TagMap& to) {
  TagMap changed;
  for (const auto& [k, v] : to) {
    auto old = from.find(k);
    if (old == from.end() || old->second != v) changed[k] = v;
  }
  return changed;
}

std::vector<std::string> RemovedTagKeys(const TagMap& from, const TagMap& to) {
  std::vector<std::string> removed;
  for (const auto& [k, v] : from) {
    if (!to.count(k)) removed.push_back(k);
  }
  return removed;
}

TagMap ReadTagList(pugi::xml_node list, const char* entry, const char* key, const char* value,
                   std::string* token) {
  TagMap tags;
  if (token) token->clear();
  for (pugi::xml_node t : list.children(entry)) {
    if (kCreateTokenTag == std::string_view(t.child_value(key))) {
      if (token) *token = t.child_value(value);
    } else {
      tags[t.child_value(key)] = t.child_value(value);
    }
  }
  return tags;
}

}  // namespace strata::aws
