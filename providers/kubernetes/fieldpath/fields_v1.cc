#include "providers/kubernetes/fieldpath/fields_v1.h"

#include "providers/kubernetes/fieldpath/go_json.h"

namespace strata::kubernetes::fieldpath {
namespace {

void AppendKey(std::string& out, bool& first, const std::string& key) {
  if (!first) out += ',';
  first = false;
  out += GoJson(Json(key));
  out += ':';
}

// structured-merge-diff's emitContentsV1: members and children merged in element order; an
// element that is both gets "." inside its object.
void AppendContents(std::string& out, const Set& set, bool include_self) {
  bool first = true;
  if (include_self && !set.Empty()) {
    AppendKey(out, first, ".");
    out += "{}";
  }
  const auto& members = set.members();
  const auto& children = set.children();
  size_t m = 0, c = 0;
  while (m < members.size() || c < children.size()) {
    const int order = m == members.size()    ? 1
                      : c == children.size() ? -1
                                             : members[m].Compare(children[c].element);
    if (order < 0) {
      AppendKey(out, first, members[m++].Serialize());
      out += "{}";
      continue;
    }
    AppendKey(out, first, children[c].element.Serialize());
    out += '{';
    AppendContents(out, children[c].set, /*include_self=*/order == 0);
    out += '}';
    if (order == 0) ++m;
    ++c;
  }
}

// Returns whether the object at this level marks its own path as a member (".").
bool ReadContents(const Json& fields, Set& out, Path& path, std::string& error) {
  if (!fields.is_object()) {
    error = "fieldsV1 at \"" + PathString(path) + "\" must be a JSON object";
    return false;
  }
  for (const auto& [key, value] : fields.items()) {
    if (key == ".") continue;
    auto element = PathElement::Parse(key);
    if (!element.ok()) {
      if (key.size() >= 2 && key[1] == ':' && key[0] != 'f' && key[0] != 'k' && key[0] != 'v' && key[0] != 'i') {
        continue;  // an element kind from the future: skipped, as structured-merge-diff does
      }
      error = element.error();
      return false;
    }
    path.push_back(*element);
    if (!value.is_object()) {
      error = "fieldsV1 at \"" + PathString(path) + "\" must be a JSON object";
      return false;
    }
    // An empty object or one holding "." makes the path a member; other keys are children.
    if (value.empty() || value.contains(".")) out.Insert(path);
    if (!ReadContents(value, out, path, error)) return false;
    path.pop_back();
  }
  return true;
}

}  // namespace

std::string ToFieldsV1Text(const Set& set) {
  std::string out = "{";
  AppendContents(out, set, /*include_self=*/false);
  return out + "}";
}

Json ToFieldsV1(const Set& set) { return Json::parse(ToFieldsV1Text(set)); }

base::Result<Set, std::string> FromFieldsV1(const Json& fields) {
  Set out;
  Path path;
  std::string error;
  if (!ReadContents(fields, out, path, error)) return error;
  return out;
}

base::Result<Set, std::string> FromFieldsV1Text(std::string_view text) {
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return std::string("fieldsV1 is not valid JSON");
  return FromFieldsV1(parsed);
}

}  // namespace strata::kubernetes::fieldpath
