// CreateTags, DeleteTags and DescribeTags across every kind, and the tag helpers.

#include "sandbox/services/ec2/ec2_tags.h"

#include "sandbox/protocol/ec2_response.h"
#include "sandbox/protocol/xml_writer.h"
#include "sandbox/services/ec2/ec2_actions.h"
#include "sandbox/services/ec2/ec2_filters.h"

namespace strata::sandbox {
namespace {

void CheckKey(const std::string& key) {
  if (key.empty()) throw MissingParameter("Tag.N.Key");
  if (key.size() > 128) throw InvalidParameterValue("Tag key exceeds the maximum length of 128 characters");
  if (key.rfind("aws:", 0) == 0) {
    throw InvalidParameterValue("Tag keys starting with 'aws:' are reserved for internal use");
  }
}

//! "Tag.N.Key"/"Tag.N.Value" under `prefix`, in order; a missing value is "".
std::vector<std::pair<std::string, std::optional<std::string>>> ReadTags(const Ec2Call& call,
                                                                         const std::string& prefix) {
  std::vector<std::pair<std::string, std::optional<std::string>>> out;
  for (const std::string& member : call.NumberedMembers(prefix)) {
    std::string key = call.Get(member + ".Key");
    std::optional<std::string> value;
    if (call.Has(member + ".Value")) value = call.Get(member + ".Value");
    out.emplace_back(key, value);
  }
  return out;
}

//! The objects the call's ResourceId.N name, all checked before anything changes.
std::vector<std::pair<const Ec2Kind*, Json>> TaggedObjects(const Ec2Call& call) {
  std::vector<std::string> ids = call.NumberedList("ResourceId");
  if (ids.empty()) throw MissingParameter("ResourceId");
  std::vector<std::pair<const Ec2Kind*, Json>> out;
  for (const std::string& id : ids) {
    const Ec2Kind* kind = KindOfId(id);
    if (!kind) throw ApiError(400, "InvalidID", "The ID '" + id + "' is not valid");
    out.emplace_back(kind, Require(call, *kind, id));
  }
  return out;
}

void CreateTags(Ec2Call& call, pugi::xml_node response) {
  auto objects = TaggedObjects(call);
  auto tags = ReadTags(call, "Tag");
  if (tags.empty()) throw MissingParameter("Tag");
  for (const auto& [key, value] : tags) CheckKey(key);
  for (auto& [kind, object] : objects) {
    for (const auto& [key, value] : tags) object["tags"][key] = value.value_or("");
    Save(call, *kind, object);
  }
  AddReturnTrue(response);
}

// Tag.N.Key alone removes the key; with a Value only when the value matches; no Tag at all
// removes every tag.
void DeleteTags(Ec2Call& call, pugi::xml_node response) {
  auto objects = TaggedObjects(call);
  auto tags = ReadTags(call, "Tag");
  for (auto& [kind, object] : objects) {
    Json& have = object["tags"];
    if (tags.empty()) have = Json::object();
    for (const auto& [key, value] : tags) {
      auto it = have.find(key);
      if (it != have.end() && (!value || *value == it->get<std::string>())) have.erase(it);
    }
    Save(call, *kind, object);
  }
  AddReturnTrue(response);
}

void DescribeTags(Ec2Call& call, pugi::xml_node response) {
  // One row per tag, filtered on resource-id, resource-type, key and value.
  std::vector<Json> rows;
  for (const Ec2Kind* kind : AllEc2Kinds()) {
    for (const Json& object : ListIn(call, *kind)) {
      for (auto it = object["tags"].begin(); it != object["tags"].end(); ++it) {
        rows.push_back({{"id", object["id"]}, {"resourceType", kind->resource_type},
                        {"key", it.key()}, {"value", it.value()}});
      }
    }
  }
  auto fields = [](const Json& row, const std::string& name) -> std::optional<std::vector<std::string>> {
    if (name == "resource-id") return std::vector<std::string>{row["id"]};
    if (name == "resource-type") return std::vector<std::string>{row["resourceType"]};
    if (name == "key") return std::vector<std::string>{row["key"]};
    if (name == "value") return std::vector<std::string>{row["value"]};
    return std::nullopt;
  };
  pugi::xml_node set = AddChild(response, "tagSet");
  // DescribeTags selects by filters only: no id parameter (the kind is then never used).
  for (const Json& row : SelectObjects(call, kVpcKind, rows, "", fields)) {
    pugi::xml_node item = AddItem(set);
    AddText(item, "resourceId", row["id"]);
    AddText(item, "resourceType", row["resourceType"]);
    AddText(item, "key", row["key"]);
    AddText(item, "value", row["value"]);
  }
}

}  // namespace

Json TagsFromSpecifications(const Ec2Call& call, const std::string& resource_type) {
  Json tags = Json::object();
  for (const std::string& spec : call.NumberedMembers("TagSpecification")) {
    std::string type = call.Get(spec + ".ResourceType");
    if (type != resource_type) {
      throw InvalidParameterValue("'" + type + "' is not a valid taggable resource type for this operation.");
    }
    tags.update(TagsUnder(call, spec + ".Tag"));
  }
  return tags;
}

Json TagsUnder(const Ec2Call& call, const std::string& prefix) {
  Json tags = Json::object();
  for (const auto& [key, value] : ReadTags(call, prefix)) {
    CheckKey(key);
    tags[key] = value.value_or("");
  }
  return tags;
}

void WriteTagSet(pugi::xml_node parent, const Json& object) {
  pugi::xml_node set = AddChild(parent, "tagSet");
  const Json& tags = object.value("tags", Json::object());
  for (auto it = tags.begin(); it != tags.end(); ++it) {
    pugi::xml_node item = AddItem(set);
    AddText(item, "key", it.key());
    AddText(item, "value", it->get<std::string>());
  }
}

void AddTagActions(Ec2Actions& actions) {
  actions["CreateTags"] = CreateTags;
  actions["DeleteTags"] = DeleteTags;
  actions["DescribeTags"] = DescribeTags;
}

}  // namespace strata::sandbox
