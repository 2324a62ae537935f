#include "providers/aws/services/ec2/ec2_tags.h"

#include <string_view>

#include "providers/aws/services/ec2/ec2_api.h"

namespace strata::aws {

void AddTagSpecification(QueryRequest& call, const std::string& resource_type, const TagMap& tags) {
  if (tags.empty()) return;
  call.Add("TagSpecification.1.ResourceType", resource_type);
  int n = 0;
  for (const auto& [k, v] : tags) {
    std::string prefix = "TagSpecification.1.Tag." + std::to_string(++n);
    call.Add(prefix + ".Key", k).Add(prefix + ".Value", v);
  }
}

TagMap ReadTagSet(pugi::xml_node item) { return ReadTagList(item.child("tagSet"), "item", "key", "value"); }

QueryRequest CreateTagsCall(const std::string& id, const TagMap& from, const TagMap& to) {
  QueryRequest call = Ec2Call("CreateTags");
  call.Add("ResourceId.1", id);
  int n = 0;
  for (const auto& [k, v] : ChangedTags(from, to)) {
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
  for (const std::string& k : RemovedTagKeys(from, to)) call.Add("Tag." + std::to_string(++n) + ".Key", k);
  if (n == 0) call.action.clear();
  return call;
}

}  // namespace strata::aws
