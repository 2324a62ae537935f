#include "providers/kubernetes/manifest/owned_fields.h"

#include <charconv>

namespace strata::kubernetes {
namespace {

using Json = nlohmann::json;

// True when list item `item` has every key/value of `keys` (a "k:" element).
bool MatchesKeys(const Json& item, const Json& keys) {
  if (!item.is_object()) return false;
  for (const auto& [k, v] : keys.items()) {
    auto it = item.find(k);
    if (it == item.end() || *it != v) return false;
  }
  return true;
}

// The item of `list` a list element ("k:", "v:", "i:") names, or nullptr.
const Json* ItemOf(const Json& list, const std::string& element) {
  if (!list.is_array() || element.size() < 2) return nullptr;
  std::string body = element.substr(2);
  if (element[0] == 'i') {
    size_t index = 0;
    auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), index);
    if (ec != std::errc() || end != body.data() + body.size()) return nullptr;
    return index < list.size() ? &list[index] : nullptr;
  }
  Json key = Json::parse(body, nullptr, false);
  if (key.is_discarded()) return nullptr;
  for (const Json& item : list) {
    if (element[0] == 'k' ? MatchesKeys(item, key) : item == key) return &item;
  }
  return nullptr;
}

Json Project(const Json& value, const Json& fields);

// The list items `fields` names, projected, in the list's own order.
Json ProjectList(const Json& list, const Json& fields) {
  Json out = Json::array();
  for (const Json& item : list) {
    for (const auto& [element, child] : fields.items()) {
      if (element.size() < 2 || element[1] != ':' || ItemOf(list, element) != &item) continue;
      // A map-list item keeps its keys even when only "." or deeper fields are owned.
      Json projected = Project(item, child);
      if (element[0] == 'k' && item.is_object()) {
        Json keys = Json::parse(element.substr(2));
        for (const auto& [k, v] : keys.items()) projected[k] = v;
      }
      out.push_back(projected.is_null() ? item : projected);
      break;
    }
  }
  return out;
}

Json Project(const Json& value, const Json& fields) {
  if (!fields.is_object() || fields.empty()) return value;  // a leaf: the whole value
  bool only_self = fields.size() == 1 && fields.contains(".");
  if (only_self) return value;
  if (value.is_array()) return ProjectList(value, fields);
  if (!value.is_object()) return value;
  Json out = Json::object();
  for (const auto& [element, child] : fields.items()) {
    if (element.rfind("f:", 0) != 0) continue;
    auto it = value.find(element.substr(2));
    if (it == value.end()) continue;
    out[it.key()] = Project(*it, child);
  }
  return out;
}

std::string KeyText(const std::string& element) {
  std::string body = element.substr(2);
  if (element[0] == 'i') return "[" + body + "]";
  if (element[0] == 'v') return "[=" + body + "]";
  Json keys = Json::parse(body, nullptr, false);
  if (!keys.is_object()) return "[" + body + "]";
  std::string out = "[";
  bool first = true;
  for (const auto& [k, v] : keys.items()) {
    if (!first) out += ",";
    out += k + "=" + v.dump();
    first = false;
  }
  return out + "]";
}

void Collect(const Json& fields, const std::string& prefix, std::set<std::string>& out) {
  if (!fields.is_object()) return;
  for (const auto& [element, child] : fields.items()) {
    if (element == ".") continue;
    std::string path;
    if (element.rfind("f:", 0) == 0) {
      path = prefix + "." + element.substr(2);
    } else if (element.size() > 1 && element[1] == ':') {
      path = prefix + KeyText(element);
    } else {
      continue;
    }
    out.insert(path);
    Collect(child, path, out);
  }
}

}  // namespace

Json OwnedObject(const Json& object, const Json& fields) {
  if (!fields.is_object() || fields.empty()) return Json::object();
  return Project(object, fields);
}

std::set<std::string> FieldPaths(const Json& fields) {
  std::set<std::string> out;
  Collect(fields, "", out);
  return out;
}

Json UnionFields(const Json& a, const Json& b) {
  if (!a.is_object() || a.empty()) return b.is_object() ? b : Json::object();
  if (!b.is_object() || b.empty()) return a;
  Json out = a;
  for (const auto& [k, v] : b.items()) {
    out[k] = out.contains(k) ? UnionFields(out[k], v) : v;
  }
  return out;
}

}  // namespace strata::kubernetes
