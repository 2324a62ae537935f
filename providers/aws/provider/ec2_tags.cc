#include "providers/aws/provider/ec2_tags.h"

#include <string_view>

#include "providers/aws/provider/ec2_api.h"

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

void AddTagSpecification(QueryRequest& call, const std::string& resource_type, const TagMap& tags) {
  if (tags.empty()) return;
  call.Add("TagSpecification.1.ResourceType", resource_type);
  int n = 0;
  for (const auto& [k, v] : tags) {
    std::string prefix = "TagSpecification.1.Tag." + std::to_string(++n);
    call.Add(prefix + ".Key", k).Add(prefix + ".Value", v);
  }
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

TagMap ReadTagSet(pugi::xml_node item) { return ReadTagList(item.child("tagSet"), "item", "key", "value"); }

QueryRequest CreateTagsCall(const std::string& id, const TagMap& from, const TagMap& to) {
  QueryRequest call = Ec2Call("CreateTags");
  call.Add("ResourceId.1", id);
  int n = 0;
  for (const auto& [k, v] : to) {
    auto old = from.find(k);
    if (old != from.end() && old->second == v) continue;
    std::string prefix = "Tag." + std::to_string(++n);
    call.Add(prefix + ".Key", k).Add(prefix + ".Value", v);
  }
  if (n == 0) call.action.clear();
  return call;
}

QueryRequest DeleteTagsCall(const std::string& id, const TagMap& from, const TagMap& to) {
  QueryRequest call = Ec2Call("DeleteTags");
  call.Add("ResourceId.1", id);
  int n = 0;
  for (const auto& [k, v] : from) {
    if (to.count(k)) continue;
    call.Add("Tag." + std::to_string(++n) + ".Key", k);
  }
  if (n == 0) call.action.clear();
  return call;
}

}  // namespace strata::aws
