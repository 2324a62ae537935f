#include "sandbox/services/iam/iam_tags.h"

#include <algorithm>

#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/iam/iam_errors.h"
#include "sandbox/services/iam/iam_pagination.h"
#include "sandbox/services/iam/iam_validation.h"

namespace strata::sandbox::iam {
namespace {

constexpr size_t kMaxTags = 50;

bool SameKey(const std::string& a, const std::string& b, TagKeys compare) {
  return compare == TagKeys::CaseSensitive ? a == b : NameKey(a) == NameKey(b);
}

Json& TagList(Json& object) {
  if (!object.contains("Tags") || !object["Tags"].is_array()) object["Tags"] = Json::array();
  return object["Tags"];
}

}  // namespace

void SetTags(Json& object, const std::vector<QueryTag>& tags, TagKeys compare) {
  Json& list = TagList(object);
  for (const QueryTag& tag : tags) {
    auto same = std::find_if(list.begin(), list.end(), [&](const Json& t) {
      return SameKey(t["Key"].get<std::string>(), tag.key, compare);
    });
    if (same != list.end()) {
      (*same)["Key"] = tag.key;
      (*same)["Value"] = tag.value;
    } else {
      list.push_back({{"Key", tag.key}, {"Value", tag.value}});
    }
  }
  if (list.size() > kMaxTags) {
    throw LimitExceeded("The number of tags has reached the maximum limit.");
  }
}

void RemoveTags(Json& object, const std::vector<std::string>& keys, TagKeys compare) {
  Json& list = TagList(object);
  Json kept = Json::array();
  for (const Json& t : list) {
    std::string key = t["Key"].get<std::string>();
    bool removed = std::any_of(keys.begin(), keys.end(),
                               [&](const std::string& k) { return SameKey(key, k, compare); });
    if (!removed) kept.push_back(t);
  }
  list = std::move(kept);
}

std::vector<QueryTag> RequiredTags(const AwsQueryParams& params) {
  std::vector<QueryTag> tags = params.Tags();
  if (tags.empty()) params.Required("Tags");
  return tags;
}

std::vector<std::string> TagKeysParam(const AwsQueryParams& params) {
  std::vector<std::string> keys = params.MemberList("TagKeys");
  if (keys.empty()) params.Required("TagKeys");
  if (keys.size() > kMaxTags) {
    throw ValidationError("TagKeys", "[...]", "Member must have length less than or equal to 50");
  }
  return keys;
}

void WriteTags(pugi::xml_node parent, const Json& object) {
  if (!object.contains("Tags") || object["Tags"].empty()) return;
  pugi::xml_node tags = parent.append_child("Tags");
  for (const Json& t : object["Tags"]) {
    pugi::xml_node member = tags.append_child("member");
    AddText(member, "Key", t["Key"].get<std::string>());
    AddText(member, "Value", t["Value"].get<std::string>());
  }
}

void WriteTagPage(IamCall& call, const Json& object) {
  Json all = object.contains("Tags") ? object["Tags"] : Json::array();
  Page page = SelectPage(call.params, all.size());
  pugi::xml_node tags = call.result.append_child("Tags");
  for (size_t i = page.begin; i < page.end; ++i) {
    pugi::xml_node member = tags.append_child("member");
    AddText(member, "Key", all[i]["Key"].get<std::string>());
    AddText(member, "Value", all[i]["Value"].get<std::string>());
  }
  WritePage(call.result, page);
}

}  // namespace strata::sandbox::iam
