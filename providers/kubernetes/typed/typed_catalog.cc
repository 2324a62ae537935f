#include "providers/kubernetes/typed/typed_catalog.h"

#include <sstream>
#include <stdexcept>

namespace strata::kubernetes {
namespace {

const char kTypedCatalogText[] =
#include "providers/kubernetes/typed/typed_catalog.inc"
    ;

FieldShape ShapeOfCode(const std::string& code, size_t line) {
  static const std::map<std::string, FieldShape> shapes = {
      {"s", FieldShape::String},       {"i", FieldShape::Integer},       {"n", FieldShape::Number},
      {"b", FieldShape::Bool},         {"q", FieldShape::IntOrString},   {"a", FieldShape::Any},
      {"Q", FieldShape::Quantity},     {"mq", FieldShape::QuantityMap},
      {"o", FieldShape::Object},       {"ls", FieldShape::StringList},   {"li", FieldShape::IntegerList},
      {"ln", FieldShape::IntegerList}, {"lb", FieldShape::BoolList},     {"lo", FieldShape::ObjectList},
      {"ms", FieldShape::StringMap},   {"ma", FieldShape::AnyMap}};
  auto it = shapes.find(code);
  if (it == shapes.end()) {
    throw std::runtime_error("typed catalog line " + std::to_string(line) + ": unknown shape \"" + code + "\"");
  }
  return it->second;
}

}  // namespace

const CatalogKind* TypedCatalog::Kind(std::string_view kind) const {
  for (const CatalogKind& k : kinds) {
    if (k.kind == kind) return &k;
  }
  return nullptr;
}

const std::vector<CatalogField>& TypedCatalog::Fields(const std::string& definition) const {
  static const std::vector<CatalogField> none;
  auto it = definitions.find(definition);
  return it == definitions.end() ? none : it->second;
}

TypedCatalog ParseTypedCatalog(std::string_view text) {
  TypedCatalog catalog;
  std::istringstream in{std::string(text)};
  std::string line, current;
  for (size_t number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    std::string tag;
    if (!(words >> tag)) continue;
    if (tag == "K") {
      CatalogKind k;
      int namespaced = 1;
      words >> k.kind >> k.api_version >> namespaced >> k.definition;
      k.namespaced = namespaced != 0;
      catalog.kinds.push_back(std::move(k));
    } else if (tag == "D") {
      words >> current;
      catalog.definitions[current];
    } else if (tag == "F" && !current.empty()) {
      CatalogField f;
      std::string code;
      words >> f.name >> code >> f.definition;
      f.shape = ShapeOfCode(code, number);
      catalog.definitions[current].push_back(std::move(f));
    } else {
      throw std::runtime_error("typed catalog line " + std::to_string(number) + ": \"" + line + "\" is not K, D or F");
    }
  }
  return catalog;
}

const TypedCatalog& BuiltinTypedCatalog() {
  static const TypedCatalog catalog = ParseTypedCatalog(kTypedCatalogText);
  return catalog;
}

}  // namespace strata::kubernetes
