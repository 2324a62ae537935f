#pragma once
// Value: what expressions evaluate to, what resources hold, what state stores. Modelled on
// Terraform's cty: null, bool, number, string, the collections list/set/map, the structural
// tuple/object, and "unknown" (known only after apply). Any value may carry the sensitive
// mark, which every operator and function propagates.
//
// Values are immutable and cheap to copy: collections share their elements.

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "engine/value/number.h"

namespace strata {

enum class ValueKind {
  Null,
  Bool,
  Number,
  String,
  List,    // tolist([...]): elements of one type
  Tuple,   // [a, b]: an expression's literal list
  Set,     // toset([...]): unique elements, kept in a canonical order
  Map,     // tomap({...}): string keys, elements of one type
  Object,  // {a = 1}: an expression's literal object
  Unknown  // known after apply
};

class Value;
using ValueList = std::vector<Value>;
using ValueMap = std::map<std::string, Value>;

class Value {
 public:
  Value() = default;  // null

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  //! A double: whole ones below 2^53 as exact integers (cty's NumberIntVal), others with
  //! a double's 53 bits (cty's NumberFloatVal).
  static Value Number(double n);
  //! A number with Terraform's precision (literals, decoded text, arithmetic).
  static Value Number(strata::Number n);
  static Value String(std::string s);
  static Value List(ValueList items);
  static Value Tuple(ValueList items);
  //! Sorts and removes duplicates (by Equals), Terraform's canonical set order.
  static Value Set(ValueList items);
  static Value Map(ValueMap items);
  static Value Object(ValueMap items);
  static Value Unknown();

  ValueKind kind() const { return kind_; }
  bool IsNull() const { return kind_ == ValueKind::Null; }
  bool IsUnknown() const { return kind_ == ValueKind::Unknown; }
  bool IsKnown() const { return kind_ != ValueKind::Unknown; }
  bool IsBool() const { return kind_ == ValueKind::Bool; }
  bool IsNumber() const { return kind_ == ValueKind::Number; }
  bool IsString() const { return kind_ == ValueKind::String; }
  //! List, tuple or set.
  bool IsSequence() const;
  //! Map or object.
  bool IsMapping() const;
  bool IsCollection() const { return IsSequence() || IsMapping(); }

  //! Accessors; calling one of the wrong kind is a programmer error (asserts, returns empty).
  bool AsBool() const;
  //! The nearest double (what providers and whole-number arguments use).
  double AsNumber() const;
  //! The number itself, exact.
  const strata::Number& AsExactNumber() const;
  const std::string& AsString() const;
  const ValueList& AsList() const;  // list, tuple or set elements
  const ValueMap& AsMap() const;    // map or object attributes
  //! Number of elements/attributes/characters (strings count Unicode code points).
  size_t Length() const;

  //! False if this value or anything inside it is unknown.
  bool IsWhollyKnown() const;

  bool IsSensitive() const { return sensitive_; }
  //! True if this value or anything inside it carries the sensitive mark.
  bool ContainsSensitive() const;
  Value MarkSensitive(bool sensitive = true) const;
  //! Removes the mark from this value and everything inside it.
  Value DeepUnmark() const;

  //! Structural equality, ignoring marks. Unknown equals nothing (not even unknown).
  bool Equals(const Value& other) const;
  bool operator==(const Value& other) const { return Equals(other); }
  //! A total order used for sets: kind first, then content.
  static int Compare(const Value& a, const Value& b);

  //! "string", "number", "bool", "list", "tuple", "set", "map", "object", "null", "unknown".
  const char* TypeName() const;

 private:
  using ListPtr = std::shared_ptr<const ValueList>;
  using MapPtr = std::shared_ptr<const ValueMap>;

  ValueKind kind_ = ValueKind::Null;
  bool sensitive_ = false;
  std::variant<std::monostate, bool, strata::Number, std::string, ListPtr, MapPtr> data_;
};

//! Terraform's number formatting (Number::ToString): integers without a decimal point,
//! others the shortest decimal that reads back to them, never with an exponent.
std::string FormatNumber(const strata::Number& n);
std::string FormatNumber(double n);

//! Returns `result` marked sensitive if any of `inputs` contains a sensitive value.
Value PropagateSensitive(Value result, const std::vector<Value>& inputs);

}  // namespace strata
