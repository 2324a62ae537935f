#include "providers/kubernetes/fieldpath/path_element.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "providers/kubernetes/fieldpath/go_json.h"

namespace strata::kubernetes::fieldpath {
namespace {

int Sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// The rank of a value's kind in structured-merge-diff's order: numbers, strings, booleans,
// lists, maps, null.
int KindRank(const Json& v) {
  if (v.is_number()) return 0;
  if (v.is_string()) return 1;
  if (v.is_boolean()) return 2;
  if (v.is_array()) return 3;
  if (v.is_object()) return 4;
  return 5;
}

int CompareNumbers(const Json& a, const Json& b) {
  if (a.is_number_float() || b.is_number_float()) return Cmp(a.get<double>(), b.get<double>());
  if (a.is_number_unsigned() && b.is_number_unsigned()) return Cmp(a.get<uint64_t>(), b.get<uint64_t>());
  return Cmp(a.get<int64_t>(), b.get<int64_t>());
}

// Go's %v of a float64 (strconv 'g' with the shortest precision, exponent from 21 digits).
std::string GoFloat(double d) {
  if (d == std::floor(d) && std::fabs(d) < 1e21) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.0f", d);
    return buffer;
  }
  return Json(d).dump();
}

// structured-merge-diff's value.ToString, used in the human form of keys and values.
std::string ValueToString(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_number_float()) return GoFloat(v.get<double>());
  if (v.is_number()) return v.dump();
  if (v.is_string()) return GoQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + ValueToString(v[i]);
    return out + "]";
  }
  std::string out;
  for (const auto& [key, member] : v.items()) out += key + "=" + ValueToString(member);
  return out;
}

}  // namespace

int CompareValues(const Json& a, const Json& b) {
  const int ra = KindRank(a), rb = KindRank(b);
  if (ra != rb) return Cmp(ra, rb);
  switch (ra) {
    case 0: return CompareNumbers(a, b);
    case 1: return Sign(a.get_ref<const std::string&>().compare(b.get_ref<const std::string&>()));
    case 2: return Cmp(a.get<bool>(), b.get<bool>());
    case 3: {
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (int c = CompareValues(a[i], b[i]); c != 0) return c;
      }
      return Cmp(a.size(), b.size());
    }
    case 4: {
      // Maps: key by key in sorted order, then by size (value.MapCompare).
      auto ia = a.items().begin(), ib = b.items().begin();
      for (; ia != a.items().end() && ib != b.items().end(); ++ia, ++ib) {
        if (int c = Sign(ia.key().compare(ib.key())); c != 0) return c;
        if (int c = CompareValues(ia.value(), ib.value()); c != 0) return c;
      }
      return Cmp(a.size(), b.size());
    }
    default: return 0;
  }
}

PathElement PathElement::Field(std::string name) { return PathElement(Kind::kField, std::move(name), nullptr, 0); }
PathElement PathElement::Key(Json fields) { return PathElement(Kind::kKey, "", std::move(fields), 0); }
PathElement PathElement::Value(Json value) { return PathElement(Kind::kValue, "", std::move(value), 0); }
PathElement PathElement::Index(int index) { return PathElement(Kind::kIndex, "", nullptr, index); }

int PathElement::Compare(const PathElement& other) const {
  if (kind_ != other.kind_) return Cmp(static_cast<int>(kind_), static_cast<int>(other.kind_));
  switch (kind_) {
    case Kind::kField: return Sign(field_.compare(other.field_));
    case Kind::kKey: {
      // value.FieldList.Compare: field by field (sorted by name), name then value, then length.
      auto ia = json_.items().begin(), ib = other.json_.items().begin();
      for (; ia != json_.items().end() && ib != other.json_.items().end(); ++ia, ++ib) {
        if (int c = Sign(ia.key().compare(ib.key())); c != 0) return c;
        if (int c = CompareValues(ia.value(), ib.value()); c != 0) return c;
      }
      return Cmp(json_.size(), other.json_.size());
    }
    case Kind::kValue: return CompareValues(json_, other.json_);
    case Kind::kIndex: return Cmp(index_, other.index_);
  }
  return 0;
}

std::string PathElement::Serialize() const {
  switch (kind_) {
    case Kind::kField: return "f:" + field_;
    case Kind::kKey: return "k:" + GoJson(json_);
    case Kind::kValue: return "v:" + GoJson(json_);
    case Kind::kIndex: return "i:" + std::to_string(index_);
  }
  return "";
}

base::Result<PathElement, std::string> PathElement::Parse(std::string_view text) {
  if (text.size() < 2 || text[1] != ':') {
    return std::string("field path element \"") + std::string(text) + "\" is not of the form f:, k:, v: or i:";
  }
  const std::string_view body = text.substr(2);
  switch (text[0]) {
    case 'f': return Field(std::string(body));
    case 'k': case 'v': {
      Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_discarded()) return "field path element \"" + std::string(text) + "\" holds invalid JSON";
      if (text[0] == 'v') return Value(std::move(parsed));
      if (!parsed.is_object() || parsed.empty()) {
        return "field path element \"" + std::string(text) + "\" must hold a non-empty JSON object";
      }
      return Key(std::move(parsed));
    }
    case 'i': {
      int index = 0;
      size_t used = 0;
      try {
        index = std::stoi(std::string(body), &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (body.empty() || used != body.size()) return "field path element \"" + std::string(text) + "\" has no valid index";
      return Index(index);
    }
    default:
      return "field path element \"" + std::string(text) + "\" is of an unknown kind";
  }
}

std::string PathElement::ToString() const {
  switch (kind_) {
    case Kind::kField: return "." + field_;
    case Kind::kKey: {
      std::string out = "[";
      bool first = true;
      for (const auto& [name, value] : json_.items()) {
        out += (first ? "" : ",") + name + "=" + ValueToString(value);
        first = false;
      }
      return out + "]";
    }
    case Kind::kValue: return "[=" + ValueToString(json_) + "]";
    case Kind::kIndex: return "[" + std::to_string(index_) + "]";
  }
  return "";
}

std::string PathString(const Path& path) {
  std::string out;
  for (const PathElement& element : path) out += element.ToString();
  return out;
}

Path MakeFieldPath(std::initializer_list<std::string_view> fields) {
  Path path;
  for (std::string_view field : fields) path.push_back(PathElement::Field(std::string(field)));
  return path;
}

}  // namespace strata::kubernetes::fieldpath
