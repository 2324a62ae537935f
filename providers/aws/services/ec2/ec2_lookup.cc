#include "providers/aws/services/ec2/ec2_lookup.h"

namespace strata::aws {

using namespace attrs;

void AddLookupFilters(QueryRequest& call, const Value& config, const std::vector<std::pair<std::string, std::string>>& extra) {
  int n = 0;
  Value blocks = Get(config, "filter");
  if (blocks.IsSequence()) {
    for (const Value& block : blocks.AsList()) {
      std::string prefix = "Filter." + std::to_string(++n);
      call.Add(prefix + ".Name", GetString(block, "name"));
      int m = 0;
      for (const std::string& value : GetStringList(block, "values")) call.Add(prefix + ".Value." + std::to_string(++m), value);
    }
  }
  for (const auto& [key, value] : GetStringMap(config, "tags")) AddFilter(call, ++n, "tag:" + key, value);
  for (const auto& [name, value] : extra) AddFilter(call, ++n, name, value);
}

Result<std::vector<LookupItem>> LookupItems(const AwsSession& session, const OperationContext& ctx, QueryRequest call,
                                            const std::string& item_set, const std::vector<std::string>& elements) {
  std::vector<LookupItem> items;
  std::string next;
  do {
    QueryRequest page = call;
    if (!next.empty()) page.Add("NextToken", next);
    Result<XmlResponse> answer = CallEc2(session, ctx, page);
    if (!answer.ok()) return answer.error();
    for (pugi::xml_node node : answer->result.child(item_set.c_str()).children("item")) {
      LookupItem item;
      for (const std::string& element : elements) item[element] = node.child_value(element.c_str());
      items.push_back(std::move(item));
    }
    next = answer->result.child_value("nextToken");
  } while (!next.empty());
  return items;
}

const LookupItem* ExactlyOne(const std::vector<LookupItem>& items, const std::string& type, const std::string& what,
                             Diagnostics& diags) {
  if (items.size() == 1) return &items.front();
  if (items.empty()) {
    diags.Error("No matching " + what, "data \"" + type + "\": no matching " + what +
                                          " found. Check the arguments and filters (and the region).");
  } else {
    diags.Error("Several matching " + what + "s",
                "data \"" + type + "\": multiple " + what + "s matched (" + std::to_string(items.size()) +
                    "); use additional constraints to reduce matches to a single " + what + ".");
  }
  return nullptr;
}

ResourceSchema LookupSchema(ResourceSchema managed) {
  managed.mode = ResourceMode::Data;
  for (auto& [name, attr] : managed.attributes) {
    attr.required = attr.optional = attr.force_new = false;
    attr.computed = true;
  }
  return managed;
}

ReadResult LookupState(ResourceType& managed, const OperationContext& ctx, const std::string& id, const Value& config,
                       const std::vector<std::string>& args) {
  ReadResult read = managed.Read(ctx, Value::Object({{"id", Value::String(id)}}));
  if (!read.diags.HasErrors() && read.gone) {
    read.diags = Error("Lookup failed", "The object " + id + " went away while it was read.");
  }
  if (read.diags.HasErrors()) return {Value(), false, read.diags};
  Value state = read.state;
  // A lookup's tags are all the object's tags (the managed type's hold only those configured).
  if (!Get(state, "tags_all").IsNull()) state = With(state, "tags", Get(state, "tags_all"));
  for (const std::string& arg : args) state = With(state, arg, Get(config, arg));
  return {state, false, read.diags};
}

}  // namespace strata::aws
