#include "sandbox/services/ec2/ec2_filters.h"

#include <algorithm>

namespace strata::sandbox {
namespace {

struct Filter {
  std::string name;
  std::vector<std::string> values;
};

std::vector<Filter> ParseFilters(const Ec2Call& call) {
  std::vector<Filter> out;
  for (const std::string& member : call.NumberedMembers("Filter")) {
    out.push_back({call.Require(member + ".Name"), call.NumberedList(member + ".Value")});
  }
  return out;
}

// EC2's filter wildcards: '*' any run, '?' one character.
bool Glob(const char* pattern, const char* text) {
  if (*pattern == '\0') return *text == '\0';
  if (*pattern == '*') return Glob(pattern + 1, text) || (*text != '\0' && Glob(pattern, text + 1));
  if (*text == '\0') return false;
  return (*pattern == '?' || *pattern == *text) && Glob(pattern + 1, text + 1);
}

std::optional<std::vector<std::string>> TagFields(const Json& object, const std::string& filter) {
  const Json& tags = object.value("tags", Json::object());
  std::vector<std::string> out;
  if (filter.rfind("tag:", 0) == 0) {
    auto it = tags.find(filter.substr(4));
    if (it != tags.end()) out.push_back(it->get<std::string>());
    return out;
  }
  if (filter != "tag-key" && filter != "tag-value") return std::nullopt;
  for (auto it = tags.begin(); it != tags.end(); ++it) {
    out.push_back(filter == "tag-key" ? it.key() : it->get<std::string>());
  }
  return out;
}

bool Passes(const Json& object, const std::vector<Filter>& filters, const Ec2FilterFields& fields) {
  for (const Filter& filter : filters) {
    std::optional<std::vector<std::string>> have = TagFields(object, filter.name);
    if (!have) have = fields(object, filter.name);
    if (!have) throw InvalidParameterValue("The filter '" + filter.name + "' is invalid");
    bool any = std::any_of(filter.values.begin(), filter.values.end(), [&](const std::string& want) {
      return std::any_of(have->begin(), have->end(),
                         [&](const std::string& value) { return Glob(want.c_str(), value.c_str()); });
    });
    if (!any) return false;
  }
  return true;
}

}  // namespace

std::vector<Json> SelectObjects(const Ec2Call& call, const Ec2Kind& kind, const std::vector<Json>& objects,
                                const std::string& id_param, const Ec2FilterFields& fields) {
  std::vector<std::string> ids = call.NumberedList(id_param);
  for (const std::string& id : ids) {
    bool known = std::any_of(objects.begin(), objects.end(), [&](const Json& o) { return o["id"] == id; });
    if (!known) throw NotFound(kind, id);
  }
  std::vector<Filter> filters = ParseFilters(call);
  std::vector<Json> out;
  for (const Json& object : objects) {
    bool named = ids.empty() || std::find(ids.begin(), ids.end(), object["id"].get<std::string>()) != ids.end();
    if (named && Passes(object, filters, fields)) out.push_back(object);
  }
  return out;
}

}  // namespace strata::sandbox
