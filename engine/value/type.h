#pragma once
// Type constraints for variables and module inputs, in Terraform's syntax:
//   string, number, bool, any, list(T), set(T), map(T), tuple([T, ...]),
//   object({ name = string, size = optional(number, 10) })
// and the conversion of a Value to a type (Terraform's implicit conversions).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/value/value.h"

namespace strata {

class Type {
 public:
  enum class Kind { Any, String, Number, Bool, List, Set, Map, Object, Tuple };
  struct Attribute;

  Type() = default;  // any
  static Type Any() { return Type(); }
  static Type Primitive(Kind kind);
  static Type Collection(Kind kind, Type element);
  static Type ObjectOf(std::map<std::string, Attribute> attributes);
  static Type TupleOf(std::vector<Type> elements);

  Kind kind() const { return kind_; }
  const Type& element() const { return elements_.at(0); }
  const std::vector<Type>& elements() const { return elements_; }
  const std::map<std::string, Attribute>& attributes() const;

  //! Terraform's spelling: "list(string)", "object({name=string})".
  std::string ToString() const;

 private:
  Kind kind_ = Kind::Any;
  std::vector<Type> elements_;
  std::shared_ptr<const std::map<std::string, Attribute>> attributes_;
};

struct Type::Attribute {
  Type type;
  bool optional = false;
  std::optional<Value> default_value;
};

struct TypeParseResult {
  std::optional<Type> type;
  std::string error;  // when !type
  int error_offset = 0;
};

//! Parses a type constraint; on error says what was expected at which offset.
TypeParseResult ParseType(const std::string& text);

struct ConversionResult {
  Value value;
  std::string error;  // empty on success: "attribute \"size\": a number is required"
  bool ok() const { return error.empty(); }
};

//! Converts `v` to `type`, keeping marks; null and unknown convert to any type.
ConversionResult ConvertValue(const Value& v, const Type& type);

}  // namespace strata
