// Collection functions: length, keys, lookup, merge, concat, flatten, the set operations, ...
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/expr/function.h"
#include "engine/expr/functions/graphemes.h"
#include "engine/expr/functions/util.h"

namespace strata {
namespace {

using functions::Args;
using functions::Define;
using functions::Fail;

// A sequence of the same kind as `like` (list stays list, tuple stays tuple, sets become lists).
Value SameSequenceKind(const Value& like, ValueList items) {
  return like.kind() == ValueKind::Tuple ? Value::Tuple(std::move(items))
                                         : Value::List(std::move(items));
}

Value Length(const Args& args, const FunctionContext&) {
  const Value& v = args[0];
  if (v.IsUnknown()) return Value::Unknown();
  if (v.IsNull()) Fail(0, "argument must not be null");
  if (!v.IsString() && !v.IsCollection()) {
    Fail(0,
         fmt::format("argument must be a string, a collection type, or a structural type, got {}",
                     v.TypeName()));
  }
  // A string's length counts characters (grapheme clusters), as Terraform's does.
  if (v.IsString()) return Value::Number(static_cast<double>(functions::GraphemeCount(v.AsString())));
  return Value::Number(static_cast<double>(v.Length()));
}

Value Keys(const Args& args, const FunctionContext&) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : functions::MappingArg(args, 0)) keys.push_back(k);
  return functions::StringList(keys);
}

Value Values(const Args& args, const FunctionContext&) {
  ValueList values;
  for (const auto& [k, v] : functions::MappingArg(args, 0)) values.push_back(v);
  return Value::List(std::move(values));
}

Value Lookup(const Args& args, const FunctionContext&) {
  const ValueMap& map = functions::MappingArg(args, 0);
  std::string key = functions::StringArg(args, 1);
  auto it = map.find(key);
  if (it != map.end()) return it->second;
  if (args.size() == 3) return args[2];
  Fail(1, fmt::format("lookup failed to find key \"{}\"", key));
}

Value Merge(const Args& args, const FunctionContext&) {
  ValueMap merged;
  bool all_maps = true;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].IsNull()) continue;
    if (!args[i].IsMapping()) {
      Fail(static_cast<int>(i),
           fmt::format("arguments must be maps or objects, got {}", args[i].TypeName()));
    }
    all_maps = all_maps && args[i].kind() == ValueKind::Map;
    for (const auto& [k, v] : args[i].AsMap()) merged[k] = v;
  }
  return all_maps ? Value::Map(std::move(merged)) : Value::Object(std::move(merged));
}

Value Concat(const Args& args, const FunctionContext&) {
  ValueList out;
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueList& items = functions::SequenceArg(args, static_cast<int>(i));
    out.insert(out.end(), items.begin(), items.end());
  }
  return Value::List(std::move(out));
}

void FlattenInto(const Value& v, ValueList& out, bool& saw_tuple) {
  saw_tuple = saw_tuple || v.kind() == ValueKind::Tuple;
  for (const auto& item : v.AsList()) {
    if (item.IsSequence()) {
      FlattenInto(item, out, saw_tuple);
    } else {
      out.push_back(item);
    }
  }
}

Value Flatten(const Args& args, const FunctionContext&) {
  functions::SequenceArg(args, 0);
  ValueList out;
  bool saw_tuple = false;
  FlattenInto(args[0], out, saw_tuple);
  return saw_tuple ? Value::Tuple(std::move(out)) : Value::List(std::move(out));
}

Value Distinct(const Args& args, const FunctionContext&) {
  ValueList out;
  for (const auto& item : functions::SequenceArg(args, 0)) {
    if (std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.Equals(item); })) {
      out.push_back(item);
    }
  }
  return Value::List(std::move(out));
}

Value Contains(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  return Value::Bool(
      std::any_of(items.begin(), items.end(), [&](const Value& v) { return v.Equals(args[1]); }));
}

Value Element(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  int64_t index = functions::IntegerArg(args, 1);
  if (index < 0) Fail(1, "cannot use element function with a negative index");
  if (items.empty()) Fail(0, "cannot use element function with an empty list");
  return items[static_cast<size_t>(index) % items.size()];
}

Value Index(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].Equals(args[1])) return Value::Number(static_cast<double>(i));
  }
  Fail(1, "item not found");
}

Value Slice(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  if (args[0].kind() == ValueKind::Set) {
    Fail(0,
         "cannot slice a set, because its elements do not have indices; explicitly convert to a "
         "list if the ordering of the result is not important");
  }
  int64_t from = functions::IntegerArg(args, 1);
  int64_t to = functions::IntegerArg(args, 2);
  if (from < 0) Fail(1, "from index must be greater than or equal to 0");
  if (to > static_cast<int64_t>(items.size())) {
    Fail(2, "to index must be less than or equal to the length of the input collection");
  }
  if (from > to) Fail(1, "from index must be less than or equal to index");
  return SameSequenceKind(args[0], ValueList(items.begin() + from, items.begin() + to));
}

Value Range(const Args& args, const FunctionContext&) {
  Number start, limit, step = Number::FromInt(1);
  if (args.size() == 1) {
    limit = functions::ExactNumberArg(args, 0);
  } else {
    start = functions::ExactNumberArg(args, 0);
    limit = functions::ExactNumberArg(args, 1);
  }
  int order = Number::Compare(start, limit);
  if (args.size() == 3) {
    step = functions::ExactNumberArg(args, 2);
  } else if (order > 0) {
    step = Number::FromInt(-1);
  }
  int step_index = static_cast<int>(args.size()) - 1;
  if (step.Sign() == 0) Fail(step_index, "step must not be zero");
  if (order < 0 && step.Sign() < 0)
    Fail(step_index, "step must be positive when start is less than limit");
  if (order > 0 && step.Sign() > 0)
    Fail(step_index, "step must be negative when start is greater than limit");
  constexpr size_t kMaxValues = 1024;
  ValueList out;
  // cty adds the step again and again at Terraform's precision (range(0, 1, 0.1) has 0.3).
  auto before_limit = [&](const Number& v) {
    int c = Number::Compare(v, limit);
    return step.Sign() > 0 ? c < 0 : c > 0;
  };
  for (Number v = start; before_limit(v); v = v + step) {
    if (out.size() == kMaxValues) {
      Fail(-1,
           "more than 1024 values were generated; either decrease the difference between start "
           "and end or use a smaller step");
    }
    out.push_back(Value::Number(v));
  }
  return Value::List(std::move(out));
}

Value Zipmap(const Args& args, const FunctionContext&) {
  const ValueList& keys = functions::SequenceArg(args, 0);
  const ValueList& values = functions::SequenceArg(args, 1);
  if (keys.size() != values.size()) {
    Fail(1, fmt::format("number of keys ({}) does not match number of values ({})", keys.size(),
                        values.size()));
  }
  ValueMap out;
  for (size_t i = 0; i < keys.size(); ++i) {
    out[functions::ToStringElement(keys[i], 0, fmt::format("element {}", i))] = values[i];
  }
  return args[1].kind() == ValueKind::Tuple ? Value::Object(std::move(out))
                                            : Value::Map(std::move(out));
}

bool SetHas(const ValueList& items, const Value& v) {
  return std::any_of(items.begin(), items.end(), [&](const Value& o) { return o.Equals(v); });
}

Value SetUnion(const Args& args, const FunctionContext&) {
  ValueList out;
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueList& items = functions::SequenceArg(args, static_cast<int>(i));
    out.insert(out.end(), items.begin(), items.end());
  }
  return Value::Set(functions::UnifyElements(out, -1));
}

Value SetIntersection(const Args& args, const FunctionContext&) {
  ValueList out = functions::SequenceArg(args, 0);
  for (size_t i = 1; i < args.size(); ++i) {
    const ValueList& other = functions::SequenceArg(args, static_cast<int>(i));
    std::erase_if(out, [&](const Value& v) { return !SetHas(other, v); });
  }
  return Value::Set(std::move(out));
}

Value SetSubtract(const Args& args, const FunctionContext&) {
  ValueList out = functions::SequenceArg(args, 0);
  const ValueList& other = functions::SequenceArg(args, 1);
  std::erase_if(out, [&](const Value& v) { return SetHas(other, v); });
  return Value::Set(std::move(out));
}

Value SetProduct(const Args& args, const FunctionContext&) {
  bool all_sets = true;
  std::vector<ValueList> product = {{}};
  for (size_t i = 0; i < args.size(); ++i) {
    const ValueList& items = functions::SequenceArg(args, static_cast<int>(i));
    all_sets = all_sets && args[i].kind() == ValueKind::Set;
    std::vector<ValueList> next;
    for (const auto& prefix : product) {
      for (const auto& item : items) {
        next.push_back(prefix);
        next.back().push_back(item);
      }
    }
    product = std::move(next);
  }
  ValueList out;
  for (auto& combination : product) out.push_back(Value::Tuple(std::move(combination)));
  return all_sets ? Value::Set(std::move(out)) : Value::List(std::move(out));
}

Value Coalesce(const Args& args, const FunctionContext&) {
  ValueList unified = functions::UnifyElements(args, -1);
  for (const auto& v : unified) {
    if (v.IsNull() || (v.IsString() && v.AsString().empty())) continue;
    return v;
  }
  Fail(-1, "no non-null, non-empty-string arguments");
}

Value CoalesceList(const Args& args, const FunctionContext&) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].IsNull()) continue;
    if (!functions::SequenceArg(args, static_cast<int>(i)).empty()) return args[i];
  }
  Fail(-1, "no non-null arguments");
}

Value Compact(const Args& args, const FunctionContext&) {
  std::vector<std::string> out;
  const ValueList& items = functions::SequenceArg(args, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].IsNull()) continue;
    std::string s = functions::ToStringElement(items[i], 0, fmt::format("element {}", i));
    if (!s.empty()) out.push_back(std::move(s));
  }
  return functions::StringList(out);
}

Value ChunkList(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  int64_t size = functions::IntegerArg(args, 1);
  if (size < 0) Fail(1, "the size argument must be positive");
  if (size == 0) return Value::List({Value::List(items)});
  ValueList chunks;
  for (size_t i = 0; i < items.size(); i += size) {
    size_t end = std::min(items.size(), i + static_cast<size_t>(size));
    chunks.push_back(Value::List(ValueList(items.begin() + i, items.begin() + end)));
  }
  return Value::List(std::move(chunks));
}

Value Reverse(const Args& args, const FunctionContext&) {
  ValueList items = functions::SequenceArg(args, 0);
  std::reverse(items.begin(), items.end());
  return SameSequenceKind(args[0], std::move(items));
}

Value Sort(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  std::vector<std::string> strings;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].IsNull()) {
      Fail(0, fmt::format("given list element {} is null; a null string cannot be sorted", i));
    }
    strings.push_back(functions::ToStringElement(items[i], 0, fmt::format("element {}", i)));
  }
  std::sort(strings.begin(), strings.end());
  return functions::StringList(strings);
}

Value Transpose(const Args& args, const FunctionContext&) {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto& [key, list] : functions::MappingArg(args, 0)) {
    if (!list.IsSequence())
      Fail(0, fmt::format("element \"{}\": a list of strings is required", key));
    for (size_t i = 0; i < list.AsList().size(); ++i) {
      std::string where = fmt::format("element \"{}\" item {}", key, i);
      out[functions::ToStringElement(list.AsList()[i], 0, where)].push_back(key);
    }
  }
  ValueMap result;
  for (const auto& [k, v] : out) result.emplace(k, functions::StringList(v));
  return Value::Map(std::move(result));
}

Value One(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  if (items.empty()) return Value::Null();
  if (items.size() == 1) return items[0];
  Fail(0, "must be a list, set, or tuple value with either zero or one elements");
}

// alltrue/anytrue: null elements make alltrue false and are ignored by anytrue.
Value AllOrAnyTrue(const Args& args, bool all) {
  const ValueList& items = functions::SequenceArg(args, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].IsNull()) {
      if (all) return Value::Bool(false);
      continue;
    }
    bool b = functions::ToBoolElement(items[i], 0, fmt::format("element {}", i));
    if (b != all) return Value::Bool(!all);
  }
  return Value::Bool(all);
}

Value Sum(const Args& args, const FunctionContext&) {
  const ValueList& items = functions::SequenceArg(args, 0);
  if (items.empty()) Fail(0, "cannot sum an empty list");
  // cty adds from the first element on, at the operands' precision (1e+500 stays finite).
  Number total = functions::ToExactNumberElement(items[0], 0, "element 0");
  for (size_t i = 1; i < items.size(); ++i) {
    total = total + functions::ToExactNumberElement(items[i], 0, fmt::format("element {}", i));
  }
  if (total.IsNaN()) Fail(0, "the sum is not a number (it adds infinities of both signs)");
  return Value::Number(total);
}

Value MatchKeys(const Args& args, const FunctionContext&) {
  const ValueList& values = functions::SequenceArg(args, 0);
  const ValueList& keys = functions::SequenceArg(args, 1);
  const ValueList& search = functions::SequenceArg(args, 2);
  if (values.size() != keys.size()) Fail(-1, "length of keys and values should be equal");
  ValueList out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (SetHas(search, keys[i])) out.push_back(values[i]);
  }
  return Value::List(std::move(out));
}

}  // namespace

void RegisterCollectionFunctions(FunctionTable& table) {
  Define(table, "length", 1, 1, Length, /*accepts_unknown=*/true);
  functions::DefineStructural(table, "keys", 1, 1, Keys);
  functions::DefineStructural(table, "values", 1, 1, Values);
  functions::DefineStructural(table, "lookup", 2, 3, Lookup);
  functions::DefineStructural(table, "merge", 0, -1, Merge);
  functions::DefineStructural(table, "concat", 1, -1, Concat);
  Define(table, "flatten", 1, 1, Flatten);
  Define(table, "distinct", 1, 1, Distinct);
  Define(table, "contains", 2, 2, Contains);
  functions::DefineStructural(table, "element", 2, 2, Element);
  Define(table, "index", 2, 2, Index);
  functions::DefineStructural(table, "slice", 3, 3, Slice);
  Define(table, "range", 1, 3, Range);
  Define(table, "zipmap", 2, 2, Zipmap);
  Define(table, "setunion", 1, -1, SetUnion);
  Define(table, "setintersection", 1, -1, SetIntersection);
  Define(table, "setsubtract", 2, 2, SetSubtract);
  Define(table, "setproduct", 2, -1, SetProduct);
  Define(table, "coalesce", 1, -1, Coalesce);
  Define(table, "coalescelist", 1, -1, CoalesceList);
  Define(table, "compact", 1, 1, Compact);
  Define(table, "chunklist", 2, 2, ChunkList);
  Define(table, "reverse", 1, 1, Reverse);
  Define(table, "sort", 1, 1, Sort);
  Define(table, "transpose", 1, 1, Transpose);
  Define(table, "one", 1, 1, One);
  Define(table, "alltrue", 1, 1,
         [](const Args& a, const FunctionContext&) { return AllOrAnyTrue(a, true); });
  Define(table, "anytrue", 1, 1,
         [](const Args& a, const FunctionContext&) { return AllOrAnyTrue(a, false); });
  Define(table, "sum", 1, 1, Sum);
  Define(table, "matchkeys", 3, 3, MatchKeys);
}

}  // namespace strata
