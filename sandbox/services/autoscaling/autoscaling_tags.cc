// Auto Scaling's tag actions: CreateOrUpdateTags, DeleteTags and DescribeTags, over the
// groups of autoscaling_groups.h. Tags.member.N names its group (ResourceId, ResourceType
// "auto-scaling-group"), Key, Value and PropagateAtLaunch. A group holds at most 50 tags; a
// missing group is refused in Auto Scaling's words; deleting a tag a group does not have is
// not an error.

#include <algorithm>
#include <map>
#include <tuple>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/autoscaling/autoscaling_actions.h"
#include "sandbox/services/autoscaling/autoscaling_groups.h"

namespace strata::sandbox::autoscaling {
namespace {

constexpr size_t kMaxGroupTags = 50;

//! One entry of a call's Tags parameter.
struct TagEntry {
  std::string group;
  std::string key;
  std::string value;
  bool propagate = false;
};

std::string Described(const std::map<std::string, std::string>& fields, const char* name) {
  auto it = fields.find(name);
  return it == fields.end() ? "null" : it->second;
}

//! The Tags parameter, each entry checked as Auto Scaling checks it: every entry needs a
//! Key, a ResourceId and the ResourceType "auto-scaling-group".
std::vector<TagEntry> TagEntries(const AwsQueryParams& params) {
  std::vector<TagEntry> entries;
  for (const auto& [n, fields] : params.MemberStructs("Tags")) {
    std::string member = "tags." + std::to_string(n) + ".member";
    bool complete = fields.count("Key") && fields.count("ResourceId") && fields.count("ResourceType");
    if (!complete) {
      throw AutoScalingValidation("Incomplete tags information for these tags. Tag - 'Key:" + Described(fields, "Key") +
                                  ",PropagateAtLaunch:" + Described(fields, "PropagateAtLaunch") +
                                  ",ResourceId:" + Described(fields, "ResourceId") +
                                  ",ResourceType:" + Described(fields, "ResourceType") + "' , ");
    }
    auto value = fields.find("Value");
    TagEntry entry{fields.at("ResourceId"), fields.at("Key"), value == fields.end() ? "" : value->second, false};
    if (fields.at("ResourceType") != "auto-scaling-group") {
      throw AutoScalingValidation("Invalid resource type " + fields.at("ResourceType") +
                                  ": tags apply to resources of type auto-scaling-group.");
    }
    if (entry.key.empty() || entry.key.size() > 128) {
      throw ValidationError(member + ".key", entry.key, "Member must have length between 1 and 128");
    }
    if (entry.key.rfind("aws:", 0) == 0) {
      throw AutoScalingValidation("Tag keys starting with 'aws:' are reserved for internal use: " + entry.key);
    }
    if (entry.value.size() > 256) {
      throw ValidationError(member + ".value", entry.value, "Member must have length less than or equal to 256");
    }
    auto propagate = fields.find("PropagateAtLaunch");
    if (propagate != fields.end()) {
      std::string text = propagate->second;
      std::transform(text.begin(), text.end(), text.begin(), ::tolower);
      if (text != "true" && text != "false") {
        throw ValidationError(member + ".propagateAtLaunch", propagate->second, "Member must be a boolean");
      }
      entry.propagate = text == "true";
    }
    entries.push_back(std::move(entry));
  }
  if (entries.empty()) params.Required("Tags");
  return entries;
}

Json RequireTaggedGroup(ServiceContext& ctx, const std::string& name) {
  std::optional<Json> group = LoadGroup(ctx, name);
  if (!group) throw AutoScalingValidation("AutoScalingGroup not found - AutoScaling Group " + name + " not found");
  return *group;
}

//! Applies `change` to each named group's tags and saves the groups.
template <typename Change>
void EditTags(AutoScalingCall& call, const std::vector<TagEntry>& entries, Change change) {
  std::map<std::string, Json> groups;
  for (const TagEntry& entry : entries) {
    auto [it, fresh] = groups.try_emplace(entry.group);
    if (fresh) it->second = RequireTaggedGroup(call.ctx, entry.group);
    change(it->second["tags"], entry);
  }
  for (const auto& [name, group] : groups) {
    if (group["tags"].size() > kMaxGroupTags) {
      throw ApiError(400, "LimitExceeded", "The number of tags for Auto Scaling group " + name +
                                               " would exceed the limit of 50.");
    }
    SaveGroup(call.ctx, group);
  }
}

void CreateOrUpdateTags(AutoScalingCall& call) {
  EditTags(call, TagEntries(call.params), [](Json& tags, const TagEntry& entry) {
    tags[entry.key] = {{"value", entry.value}, {"propagate", entry.propagate}};
  });
}

void DeleteTags(AutoScalingCall& call) {
  EditTags(call, TagEntries(call.params), [](Json& tags, const TagEntry& entry) { tags.erase(entry.key); });
}

bool TagMatches(const TagEntry& tag, const Filter& filter) {
  if (filter.name == "auto-scaling-group") return FilterMatches(filter, tag.group);
  if (filter.name == "key") return FilterMatches(filter, tag.key);
  if (filter.name == "value") return FilterMatches(filter, tag.value);
  return FilterMatches(filter, tag.propagate ? "true" : "false");
}

void DescribeTags(AutoScalingCall& call) {
  std::vector<Filter> filters = FiltersOf(call.params);
  for (const Filter& filter : filters) {
    if (filter.name != "auto-scaling-group" && filter.name != "key" && filter.name != "value" &&
        filter.name != "propagate-at-launch") {
      throw AutoScalingValidation("Filter type " + filter.name +
                                  " is not correct. Allowed Filter types are: auto-scaling-group key value "
                                  "propagate-at-launch");
    }
  }
  std::vector<TagEntry> tags;
  for (const Json& group : LiveGroups(call.ctx)) {
    for (const auto& [key, tag] : group["tags"].items()) {
      TagEntry entry{group["name"].get<std::string>(), key, tag["value"].get<std::string>(), tag["propagate"].get<bool>()};
      bool matches = true;
      for (const Filter& filter : filters) matches = matches && TagMatches(entry, filter);
      if (matches) tags.push_back(std::move(entry));
    }
  }
  QueryPage page = SelectAutoScalingPage(call.params, tags.size());
  pugi::xml_node list = AddChild(call.result, "Tags");
  for (size_t i = page.begin; i < page.end; ++i) {
    pugi::xml_node member = AddChild(list, "member");
    AddText(member, "ResourceId", tags[i].group);
    AddText(member, "ResourceType", "auto-scaling-group");
    AddText(member, "Key", tags[i].key);
    AddText(member, "Value", tags[i].value);
    AddBool(member, "PropagateAtLaunch", tags[i].propagate);
  }
  WriteNextToken(call.result, page);
}

}  // namespace

void AddTagActions(AutoScalingActionTable& table) {
  table["CreateOrUpdateTags"] = {CreateOrUpdateTags, /*has_result=*/false};
  table["DeleteTags"] = {DeleteTags, /*has_result=*/false};
  table["DescribeTags"] = DescribeTags;
}

}  // namespace strata::sandbox::autoscaling
