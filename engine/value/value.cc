#include "engine/value/value.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include <fmt/format.h>

namespace strata {
namespace {

const ValueList kEmptyList;
const ValueMap kEmptyMap;
const std::string kEmptyString;

size_t Utf8Length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = ValueKind::Bool;
  v.data_ = b;
  return v;
}

Value Value::Number(double n) {
  bool whole = std::fabs(n) <= 9007199254740992.0 && n == std::floor(n);
  return Number(whole ? strata::Number::FromInt(static_cast<int64_t>(n)) : strata::Number::FromDouble(n));
}

Value Value::Number(strata::Number n) {
  Value v;
  v.kind_ = ValueKind::Number;
  v.data_ = std::move(n);
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.kind_ = ValueKind::String;
  v.data_ = std::move(s);
  return v;
}

Value Value::List(ValueList items) {
  Value v;
  v.kind_ = ValueKind::List;
  v.data_ = std::make_shared<const ValueList>(std::move(items));
  return v;
}

Value Value::Tuple(ValueList items) {
  Value v = List(std::move(items));
  v.kind_ = ValueKind::Tuple;
  return v;
}

Value Value::Set(ValueList items) {
  std::stable_sort(items.begin(), items.end(),
                   [](const Value& a, const Value& b) { return Compare(a, b) < 0; });
  ValueList unique;
  unique.reserve(items.size());
  for (auto& item : items) {
    // Unknown elements never compare equal; keep each of them.
    if (!unique.empty() && item.IsKnown() && Compare(unique.back(), item) == 0) {
      if (item.IsSensitive()) unique.back() = unique.back().MarkSensitive();
      continue;
    }
    unique.push_back(std::move(item));
  }
  Value v = List(std::move(unique));
  v.kind_ = ValueKind::Set;
  return v;
}

Value Value::Map(ValueMap items) {
  Value v;
  v.kind_ = ValueKind::Map;
  v.data_ = std::make_shared<const ValueMap>(std::move(items));
  return v;
}

Value Value::Object(ValueMap items) {
  Value v = Map(std::move(items));
  v.kind_ = ValueKind::Object;
  return v;
}

Value Value::Unknown() {
  Value v;
  v.kind_ = ValueKind::Unknown;
  return v;
}

bool Value::IsSequence() const {
  return kind_ == ValueKind::List || kind_ == ValueKind::Tuple || kind_ == ValueKind::Set;
}

bool Value::IsMapping() const { return kind_ == ValueKind::Map || kind_ == ValueKind::Object; }

bool Value::AsBool() const {
  assert(kind_ == ValueKind::Bool);
  auto* b = std::get_if<bool>(&data_);
  return b ? *b : false;
}

double Value::AsNumber() const { return AsExactNumber().ToDouble(); }

const strata::Number& Value::AsExactNumber() const {
  static const strata::Number kZero;
  assert(kind_ == ValueKind::Number);
  auto* n = std::get_if<strata::Number>(&data_);
  return n ? *n : kZero;
}

const std::string& Value::AsString() const {
  assert(kind_ == ValueKind::String);
  auto* s = std::get_if<std::string>(&data_);
  return s ? *s : kEmptyString;
}

const ValueList& Value::AsList() const {
  assert(IsSequence());
  auto* p = std::get_if<ListPtr>(&data_);
  return p && *p ? **p : kEmptyList;
}

const ValueMap& Value::AsMap() const {
  assert(IsMapping());
  auto* p = std::get_if<MapPtr>(&data_);
  return p && *p ? **p : kEmptyMap;
}

size_t Value::Length() const {
  if (IsString()) return Utf8Length(AsString());
  if (IsSequence()) return AsList().size();
  if (IsMapping()) return AsMap().size();
  return 0;
}

bool Value::IsWhollyKnown() const {
  if (IsUnknown()) return false;
  if (IsSequence()) {
    for (const auto& v : AsList()) {
      if (!v.IsWhollyKnown()) return false;
    }
  } else if (IsMapping()) {
    for (const auto& [k, v] : AsMap()) {
      if (!v.IsWhollyKnown()) return false;
    }
  }
  return true;
}

bool Value::ContainsSensitive() const {
  if (sensitive_) return true;
  if (IsSequence()) {
    for (const auto& v : AsList()) {
      if (v.ContainsSensitive()) return true;
    }
  } else if (IsMapping()) {
    for (const auto& [k, v] : AsMap()) {
      if (v.ContainsSensitive()) return true;
    }
  }
  return false;
}

Value Value::MarkSensitive(bool sensitive) const {
  Value v = *this;
  v.sensitive_ = sensitive;
  return v;
}

Value Value::DeepUnmark() const {
  if (!ContainsSensitive()) return *this;
  Value v = *this;
  v.sensitive_ = false;
  if (IsSequence()) {
    ValueList items;
    for (const auto& e : AsList()) items.push_back(e.DeepUnmark());
    v.data_ = std::make_shared<const ValueList>(std::move(items));
  } else if (IsMapping()) {
    ValueMap items;
    for (const auto& [k, e] : AsMap()) items.emplace(k, e.DeepUnmark());
    v.data_ = std::make_shared<const ValueMap>(std::move(items));
  }
  return v;
}

bool Value::Equals(const Value& other) const {
  if (IsUnknown() || other.IsUnknown()) return false;
  // cty's number equality is by printed text, which Compare's numeric order refines.
  if (IsNumber() && other.IsNumber()) return AsExactNumber().Equals(other.AsExactNumber());
  return Compare(*this, other) == 0;
}

int Value::Compare(const Value& a, const Value& b) {
  // Lists, tuples and sets compare alike, as do maps and objects: conversion is implicit.
  auto rank = [](const Value& v) {
    if (v.IsSequence()) return 4;
    if (v.IsMapping()) return 5;
    switch (v.kind_) {
      case ValueKind::Null: return 0;
      case ValueKind::Bool: return 1;
      case ValueKind::Number: return 2;
      case ValueKind::String: return 3;
      default: return 6;
    }
  };
  int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 1: return static_cast<int>(a.AsBool()) - static_cast<int>(b.AsBool());
    case 2: return strata::Number::Compare(a.AsExactNumber(), b.AsExactNumber());
    case 3: return a.AsString().compare(b.AsString()) < 0 ? -1 : (a.AsString() == b.AsString() ? 0 : 1);
    case 4: {
      const auto& x = a.AsList();
      const auto& y = b.AsList();
      for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = Compare(x[i], y[i])) return c;
      }
      return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
    }
    case 5: {
      const auto& x = a.AsMap();
      const auto& y = b.AsMap();
      auto i = x.begin();
      auto j = y.begin();
      for (; i != x.end() && j != y.end(); ++i, ++j) {
        if (int c = i->first.compare(j->first)) return c < 0 ? -1 : 1;
        if (int c = Compare(i->second, j->second)) return c;
      }
      return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
    }
    default: return 0;
  }
}

const char* Value::TypeName() const {
  switch (kind_) {
    case ValueKind::Null: return "null";
    case ValueKind::Bool: return "bool";
    case ValueKind::Number: return "number";
    case ValueKind::String: return "string";
    case ValueKind::List: return "list";
    case ValueKind::Tuple: return "tuple";
    case ValueKind::Set: return "set";
    case ValueKind::Map: return "map";
    case ValueKind::Object: return "object";
    case ValueKind::Unknown: return "unknown";
  }
  return "unknown";
}

std::string FormatNumber(const strata::Number& n) { return n.ToString(); }

std::string FormatNumber(double n) { return strata::Number::FromDouble(n).ToString(); }

Value PropagateSensitive(Value result, const std::vector<Value>& inputs) {
  for (const auto& in : inputs) {
    if (in.ContainsSensitive()) return result.MarkSensitive();
  }
  return result;
}

}  // namespace strata
