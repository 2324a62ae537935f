#include "engine/expr/eval.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/expr/nodes.h"
#include "engine/value/format.h"
#include "engine/value/type.h"

namespace strata {
namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

Value Sensitive(Value v, bool sensitive) { return sensitive ? v.MarkSensitive() : v; }

// Converts an operand for an operator; errors name the operand and the operator.
Number NumberOperand(const Value& v, const Expr& e, const char* side) {
  if (v.IsNull()) {
    throw MakeEvalError(e.range(), "Invalid operand",
                        fmt::format("Unsuitable value for {} operand: a number is required, but the value is null.", side));
  }
  auto r = ConvertValue(v.DeepUnmark(), Type::Primitive(Type::Kind::Number));
  if (!r.ok()) throw MakeEvalError(e.range(), "Invalid operand", fmt::format("Unsuitable value for {} operand: {}.", side, r.error));
  return r.value.AsExactNumber();
}

bool BoolOperand(const Value& v, const Expr& e, const char* what) {
  if (v.IsNull()) {
    throw MakeEvalError(e.range(), "Invalid operand", fmt::format("Unsuitable value for {}: a bool is required, but the value is null.", what));
  }
  auto r = ConvertValue(v.DeepUnmark(), Type::Primitive(Type::Kind::Bool));
  if (!r.ok()) throw MakeEvalError(e.range(), "Invalid operand", fmt::format("Unsuitable value for {}: {}.", what, r.error));
  return r.value.AsBool();
}

// The string form of a template part; throws for values a template cannot hold.
std::string TemplatePartString(const Value& v, const Expr& e) {
  if (v.IsNull()) {
    throw MakeEvalError(e.range(), "Invalid template interpolation value",
                        "The expression result is null. Cannot include a null value in a string template.");
  }
  if (v.IsString()) return v.AsString();
  if (v.IsNumber()) return FormatNumber(v.AsExactNumber());
  if (v.IsBool()) return v.AsBool() ? "true" : "false";
  throw MakeEvalError(e.range(), "Invalid template interpolation value",
                      fmt::format("Cannot include the given value in a string template: string required, got {}. "
                                  "Use jsonencode() or join() to turn a collection into a string.",
                                  v.TypeName()));
}

// Iterates a collection the way for-expressions do: (key, value) pairs.
template <typename F>
void ForEachElement(const Value& coll, F&& fn) {
  if (coll.IsMapping()) {
    for (const auto& [k, v] : coll.AsMap()) fn(Value::String(k), v);
  } else if (coll.kind() == ValueKind::Set) {
    for (const auto& v : coll.AsList()) fn(v, v);
  } else {
    const auto& items = coll.AsList();
    for (size_t i = 0; i < items.size(); ++i) fn(Value::Number(static_cast<double>(i)), items[i]);
  }
}

void Collect(const ExprPtr& e, std::vector<Reference>& out) {
  if (e) e->CollectReferences(out);
}

// Binds for-expression variables for the duration of one iteration.
class LocalBinding {
 public:
  LocalBinding(EvalContext& ctx, const std::string& key_var, const std::string& value_var, const Value& k, const Value& v)
      : ctx_(ctx), count_(0) {
    if (!key_var.empty()) {
      ctx.PushLocal(key_var, k);
      ++count_;
    }
    ctx.PushLocal(value_var, v);
    ++count_;
  }
  ~LocalBinding() {
    for (int i = 0; i < count_; ++i) ctx_.PopLocal();
  }

 private:
  EvalContext& ctx_;
  int count_;
};

}  // namespace

// ---- helpers ------------------------------------------------------------------------

EvalError MakeEvalError(const SourceRange& range, std::string summary, std::string detail) {
  Diagnostic d;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.subject = range;
  return EvalError{std::move(d)};
}

std::string Suggest(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 3;
  for (const auto& c : candidates) {
    size_t d = EditDistance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string s = Suggest(name, candidates);
  return s.empty() ? "" : fmt::format(" Did you mean \"{}\"?", s);
}

const Value* EvalContext::FindLocal(const std::string& name) const {
  for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
    if (it->first == name) return &it->second;
  }
  return nullptr;
}

Value ApplyAttr(const Value& v, const std::string& name, const SourceRange& range) {
  if (v.IsUnknown()) return v;
  if (v.IsNull()) {
    throw MakeEvalError(range, "Attempt to get attribute from null value",
                        fmt::format("This value is null, so it does not have an attribute named \"{}\".", name));
  }
  if (v.IsMapping()) {
    const auto& m = v.AsMap();
    auto it = m.find(name);
    if (it == m.end()) {
      std::vector<std::string> keys;
      for (const auto& [k, e] : m) keys.push_back(k);
      throw MakeEvalError(range, "Unsupported attribute",
                          fmt::format("This {} does not have an attribute named \"{}\".{}", v.TypeName(), name, DidYouMean(name, keys)));
    }
    return Sensitive(it->second, v.IsSensitive());
  }
  std::string hint = v.IsSequence() ? " To read an attribute of every element, use a splat ([*]) or a for expression." : "";
  throw MakeEvalError(range, "Unsupported attribute",
                      fmt::format("Can't access attributes on a {} value.{}", v.TypeName(), hint));
}

Value ApplyIndex(const Value& v, const Value& key, const SourceRange& range) {
  if (v.IsUnknown() || key.IsUnknown()) return Sensitive(Value::Unknown(), v.IsSensitive() || key.IsSensitive());
  if (v.IsNull()) throw MakeEvalError(range, "Attempt to index null value", "This value is null, so it does not have any indices.");
  if (key.IsNull()) throw MakeEvalError(range, "Invalid index", "Can't use a null value as an indexing key.");
  bool sensitive = v.IsSensitive() || key.IsSensitive();
  if (v.kind() == ValueKind::Set) {
    throw MakeEvalError(range, "Invalid index",
                        "Elements of a set are identified only by their value and don't have any separate index or key "
                        "to select with, so it's only possible to perform operations across all elements of the set.");
  }
  if (v.IsSequence()) {
    auto r = ConvertValue(key.DeepUnmark(), Type::Primitive(Type::Kind::Number));
    if (!r.ok()) throw MakeEvalError(range, "Invalid index", "A list is indexed by a whole number.");
    const Number& n = r.value.AsExactNumber();
    const auto& items = v.AsList();
    std::optional<int64_t> i = n.ToInt64();
    if (!i || *i < 0 || static_cast<uint64_t>(*i) >= items.size()) {
      throw MakeEvalError(range, "Invalid index",
                          fmt::format("The given key does not identify an element in this collection value: index {} "
                                      "is out of range for a {} of {} element{}.",
                                      FormatNumber(n), v.TypeName(), items.size(), items.size() == 1 ? "" : "s"));
    }
    return Sensitive(items[static_cast<size_t>(*i)], sensitive);
  }
  if (v.IsMapping()) {
    auto r = ConvertValue(key.DeepUnmark(), Type::Primitive(Type::Kind::String));
    if (!r.ok()) throw MakeEvalError(range, "Invalid index", "A map or object is indexed by a string.");
    const auto& m = v.AsMap();
    auto it = m.find(r.value.AsString());
    if (it == m.end()) {
      std::vector<std::string> keys;
      for (const auto& [k, e] : m) keys.push_back(k);
      throw MakeEvalError(range, "Invalid index",
                          fmt::format("The given key does not identify an element in this collection value: no key "
                                      "\"{}\".{}",
                                      r.value.AsString(), DidYouMean(r.value.AsString(), keys)));
    }
    return Sensitive(it->second, sensitive);
  }
  throw MakeEvalError(range, "Invalid index", fmt::format("This value does not have any indices: it is a {}.", v.TypeName()));
}

Value Evaluate(const Expr& expr, EvalContext& ctx, Diagnostics& diags) {
  try {
    return expr.Eval(ctx);
  } catch (EvalError& e) {
    if (e.diag.expression.empty()) e.diag.expression = ctx.expression_text;
    diags.Add(std::move(e.diag));
    return Value::Unknown();
  }
}

std::vector<Reference> ReferencesOf(const Expr& expr) {
  std::vector<Reference> out;
  expr.CollectReferences(out);
  return out;
}

std::string Reference::ToString() const {
  std::string s = root;
  for (const auto& step : steps) {
    if (step.kind == TraversalStep::Kind::Attr) {
      s += "." + step.name;
    } else {
      s.append(1, '[').append(step.key.IsString() ? QuoteString(step.key.AsString()) : FormatValue(step.key)).append(1, ']');
    }
  }
  return s;
}

Value MapScope::Resolve(const Reference& ref, size_t& consumed) {
  consumed = 0;
  auto it = values.find(ref.root);
  if (it != values.end()) return it->second;
  std::vector<std::string> names;
  for (const auto& [k, v] : values) names.push_back(k);
  throw MakeEvalError(ref.range, "Reference to undeclared name",
                      fmt::format("There is nothing named \"{}\" here.{}", ref.root, DidYouMean(ref.root, names)));
}

// ---- nodes --------------------------------------------------------------------------

Value TemplateExpr::Eval(EvalContext& ctx) const {
  std::string out;
  bool known = true;
  bool sensitive = false;
  for (const auto& part : parts_) {
    Value v = part->Eval(ctx);
    sensitive = sensitive || v.ContainsSensitive();
    if (!v.IsWhollyKnown()) {
      known = false;
      continue;
    }
    out += TemplatePartString(v, *part);
  }
  return Sensitive(known ? Value::String(std::move(out)) : Value::Unknown(), sensitive);
}

void TemplateExpr::CollectReferences(std::vector<Reference>& out) const {
  for (const auto& p : parts_) p->CollectReferences(out);
}

Value TemplateIfExpr::Eval(EvalContext& ctx) const {
  Value c = cond_->Eval(ctx);
  if (c.IsUnknown()) return Sensitive(Value::Unknown(), c.IsSensitive());
  bool which = BoolOperand(c, *cond_, "the %{ if } condition");
  Value v = (which ? then_ : else_)->Eval(ctx);
  return Sensitive(v, c.IsSensitive());
}

void TemplateIfExpr::CollectReferences(std::vector<Reference>& out) const {
  Collect(cond_, out);
  Collect(then_, out);
  Collect(else_, out);
}

Value TemplateForExpr::Eval(EvalContext& ctx) const {
  Value coll = coll_->Eval(ctx);
  if (coll.IsUnknown()) return Sensitive(Value::Unknown(), coll.IsSensitive());
  if (!coll.IsCollection()) {
    throw MakeEvalError(coll_->range(), "Iteration over non-iterable value",
                        fmt::format("A %{{ for }} directive needs a list, set, map or object, got {}.", coll.TypeName()));
  }
  std::string out;
  bool known = true;
  bool sensitive = coll.IsSensitive();
  ForEachElement(coll, [&](const Value& k, const Value& v) {
    LocalBinding bind(ctx, key_var_, value_var_, k, v);
    Value part = body_->Eval(ctx);
    sensitive = sensitive || part.ContainsSensitive();
    if (!part.IsWhollyKnown()) {
      known = false;
      return;
    }
    out += TemplatePartString(part, *body_);
  });
  return Sensitive(known ? Value::String(out) : Value::Unknown(), sensitive);
}

void TemplateForExpr::CollectReferences(std::vector<Reference>& out) const {
  std::vector<Reference> inner;
  Collect(coll_, out);
  Collect(body_, inner);
  for (auto& r : inner) {
    if (r.root != key_var_ && r.root != value_var_) out.push_back(std::move(r));
  }
}

Value ScopeTraversalExpr::Eval(EvalContext& ctx) const {
  size_t consumed = 0;
  Value v;
  if (const Value* local = ctx.FindLocal(ref_.root)) {
    v = *local;
  } else {
    v = ctx.scope().Resolve(ref_, consumed);
  }
  for (size_t i = consumed; i < ref_.steps.size(); ++i) {
    const auto& step = ref_.steps[i];
    v = step.kind == TraversalStep::Kind::Attr ? ApplyAttr(v, step.name, step.range) : ApplyIndex(v, step.key, step.range);
  }
  return v;
}

void ScopeTraversalExpr::CollectReferences(std::vector<Reference>& out) const { out.push_back(ref_); }

Value GetAttrExpr::Eval(EvalContext& ctx) const { return ApplyAttr(obj_->Eval(ctx), name_, range()); }

void GetAttrExpr::CollectReferences(std::vector<Reference>& out) const { Collect(obj_, out); }

Value IndexExpr::Eval(EvalContext& ctx) const {
  Value coll = coll_->Eval(ctx);
  Value key = key_->Eval(ctx);
  return ApplyIndex(coll, key, range());
}

void IndexExpr::CollectReferences(std::vector<Reference>& out) const {
  Collect(coll_, out);
  Collect(key_, out);
}

Value SplatExpr::Eval(EvalContext& ctx) const {
  Value source = source_->Eval(ctx);
  if (source.IsUnknown()) return source;
  if (source.IsNull()) return Value::Tuple({});
  auto apply = [&](const Value& item) {
    ctx.splat_stack().push_back(item);
    struct Pop {
      EvalContext& c;
      ~Pop() { c.splat_stack().pop_back(); }
    } pop{ctx};
    return each_->Eval(ctx);
  };
  if (!source.IsSequence()) return Value::Tuple({apply(source)});
  ValueList out;
  out.reserve(source.AsList().size());
  for (const auto& item : source.AsList()) out.push_back(apply(item));
  Value result = source.kind() == ValueKind::Set ? Value::Set(std::move(out)) : source.kind() == ValueKind::List ? Value::List(std::move(out)) : Value::Tuple(std::move(out));
  return Sensitive(result, source.IsSensitive());
}

void SplatExpr::CollectReferences(std::vector<Reference>& out) const {
  Collect(source_, out);
  Collect(each_, out);
}

Value SplatItemExpr::Eval(EvalContext& ctx) const { return ctx.splat_stack().back(); }

Value FunctionCallExpr::EvalTryOrCan(EvalContext& ctx) const {
  if (name_ == "can") {
    if (args_.size() != 1) throw MakeEvalError(range(), "Invalid function call", "can() takes exactly one argument.");
    try {
      Value v = args_[0]->Eval(ctx);
      if (!v.IsWhollyKnown()) return Value::Unknown();
      return Value::Bool(true);
    } catch (const EvalError&) {
      return Value::Bool(false);
    }
  }
  if (args_.empty()) throw MakeEvalError(range(), "Invalid function call", "try() needs at least one argument.");
  std::string first_error;
  for (const auto& arg : args_) {
    try {
      Value v = arg->Eval(ctx);
      if (!v.IsWhollyKnown()) return Value::Unknown();
      return v;
    } catch (const EvalError& e) {
      if (first_error.empty()) first_error = e.diag.summary + ": " + e.diag.detail;
    }
  }
  throw MakeEvalError(range(), "Error in function call",
                      "Call to function \"try\" failed: no expression succeeded. The first one failed with: " + first_error);
}

void FunctionCallExpr::CheckTemplateStringSource() const {
  if (name_ != "templatestring" || args_.empty()) return;
  const Expr& source = *args_[0];
  if (dynamic_cast<const ScopeTraversalExpr*>(&source)) return;
  // Terraform's rule: the template must come from elsewhere (a variable, a local, a data
  // source's attribute), so that template syntax written inline is not evaluated twice.
  const Value* literal = source.AsLiteral();
  std::string why =
      literal && literal->kind() == ValueKind::String
          ? "templatestring is only for rendering templates retrieved dynamically from elsewhere, and so does "
            "not support providing a literal template; consider using a template string expression instead"
      : dynamic_cast<const TemplateExpr*>(&source)
          ? "templatestring is only for rendering templates retrieved dynamically from elsewhere; to render an "
            "inline template, consider using a plain template string expression"
          : "must be a direct reference to a single string from elsewhere (var.x, local.x, a resource's "
            "attribute), containing valid template syntax";
  throw MakeEvalError(source.range(), "Error in function call",
                      "Invalid value for argument 1 of templatestring(): invalid template expression: " + why + ".");
}

Value FunctionCallExpr::Eval(EvalContext& ctx) const {
  if (name_ == "try" || name_ == "can") return EvalTryOrCan(ctx);
  CheckTemplateStringSource();
  const FunctionSpec* spec = ctx.functions().Find(name_);
  if (!spec) {
    auto names = ctx.functions().Names();
    names.push_back("try");
    names.push_back("can");
    throw MakeEvalError(name_range_, "Call to unknown function",
                        fmt::format("There is no function named \"{}\".{}", name_, DidYouMean(name_, names)));
  }
  std::vector<Value> args;
  args.reserve(args_.size());
  std::vector<const Expr*> arg_exprs;
  for (size_t i = 0; i < args_.size(); ++i) {
    Value v = args_[i]->Eval(ctx);
    if (expand_final_ && i + 1 == args_.size()) {
      if (v.IsUnknown()) return Value::Unknown();
      if (!v.IsSequence()) {
        throw MakeEvalError(args_[i]->range(), "Invalid expanding argument value",
                            "The expanding argument (indicated by ...) must be a list, tuple or set.");
      }
      for (const auto& e : v.AsList()) {
        args.push_back(Sensitive(e, v.IsSensitive()));
        arg_exprs.push_back(args_[i].get());
      }
    } else {
      args.push_back(std::move(v));
      arg_exprs.push_back(args_[i].get());
    }
  }
  try {
    return CallFunction(ctx.functions(), name_, args, ctx.function_context());
  } catch (const FunctionError& e) {
    bool has_arg = e.arg_index >= 0 && static_cast<size_t>(e.arg_index) < arg_exprs.size();
    const SourceRange& where = has_arg ? arg_exprs[e.arg_index]->range() : range();
    std::string detail = has_arg ? fmt::format("Invalid value for argument {} of {}(): {}", e.arg_index + 1, name_, e.message)
                                 : fmt::format("Call to function \"{}\" failed: {}", name_, e.message);
    if (!detail.empty() && detail.back() != '.') detail += ".";
    throw MakeEvalError(where, "Error in function call", detail);
  }
}

void FunctionCallExpr::CollectReferences(std::vector<Reference>& out) const {
  for (const auto& a : args_) a->CollectReferences(out);
}

Value ConditionalExpr::Eval(EvalContext& ctx) const {
  Value c = cond_->Eval(ctx);
  if (c.IsUnknown()) return Sensitive(Value::Unknown(), c.IsSensitive());
  bool which = BoolOperand(c, *cond_, "the condition");
  Value v = (which ? true_ : false_)->Eval(ctx);
  return Sensitive(v, c.IsSensitive() || v.IsSensitive());
}

void ConditionalExpr::CollectReferences(std::vector<Reference>& out) const {
  Collect(cond_, out);
  Collect(true_, out);
  Collect(false_, out);
}

Value BinaryExpr::EvalLogical(EvalContext& ctx) const {
  bool is_and = op_ == BinaryOp::And;
  const char* name = is_and ? "the && operator" : "the || operator";
  Value l = lhs_->Eval(ctx);
  // Short-circuit on a known deciding left side, so `x != null && x.y` works.
  if (l.IsKnown()) {
    bool lb = BoolOperand(l, *lhs_, name);
    if (lb != is_and) return Sensitive(Value::Bool(lb), l.IsSensitive());
  }
  Value r = rhs_->Eval(ctx);
  bool sensitive = l.IsSensitive() || r.IsSensitive();
  if (r.IsKnown()) {
    bool rb = BoolOperand(r, *rhs_, name);
    if (l.IsUnknown()) {
      if (rb != is_and) return Sensitive(Value::Bool(rb), sensitive);
      return Sensitive(Value::Unknown(), sensitive);
    }
    return Sensitive(Value::Bool(rb), sensitive);
  }
  return Sensitive(Value::Unknown(), sensitive);
}

Value BinaryExpr::Eval(EvalContext& ctx) const {
  if (op_ == BinaryOp::And || op_ == BinaryOp::Or) return EvalLogical(ctx);
  Value l = lhs_->Eval(ctx);
  Value r = rhs_->Eval(ctx);
  bool sensitive = l.ContainsSensitive() || r.ContainsSensitive();
  if (op_ == BinaryOp::Eq || op_ == BinaryOp::Ne) {
    if (!l.IsWhollyKnown() || !r.IsWhollyKnown()) return Sensitive(Value::Unknown(), sensitive);
    bool eq = l.Equals(r);
    return Sensitive(Value::Bool(op_ == BinaryOp::Eq ? eq : !eq), sensitive);
  }
  if (l.IsUnknown() || r.IsUnknown()) {
    // Still validate the known side so errors show at plan time.
    if (l.IsKnown()) NumberOperand(l, *lhs_, "left");
    if (r.IsKnown()) NumberOperand(r, *rhs_, "right");
    return Sensitive(Value::Unknown(), sensitive);
  }
  Number a = NumberOperand(l, *lhs_, "left");
  Number b = NumberOperand(r, *rhs_, "right");
  Value out;
  switch (op_) {
    case BinaryOp::Add: out = Value::Number(a + b); break;
    case BinaryOp::Sub: out = Value::Number(a - b); break;
    case BinaryOp::Mul: out = Value::Number(a * b); break;
    case BinaryOp::Div:
      if (b.Sign() == 0) throw MakeEvalError(rhs_->range(), "Division by zero", "The right operand of / is zero.");
      out = Value::Number(a / b);
      break;
    case BinaryOp::Mod:
      if (b.Sign() == 0) throw MakeEvalError(rhs_->range(), "Division by zero", "The right operand of % is zero.");
      out = Value::Number(a.Mod(b));
      break;
    case BinaryOp::Lt: out = Value::Bool(Number::Compare(a, b) < 0); break;
    case BinaryOp::Le: out = Value::Bool(Number::Compare(a, b) <= 0); break;
    case BinaryOp::Gt: out = Value::Bool(Number::Compare(a, b) > 0); break;
    case BinaryOp::Ge: out = Value::Bool(Number::Compare(a, b) >= 0); break;
    default: break;
  }
  if (out.IsNumber() && out.AsExactNumber().IsNaN()) {
    throw MakeEvalError(range(), "Operation failed",
                        fmt::format("Error during operation: the result of {} and {} is not a number.",
                                    FormatNumber(a), FormatNumber(b)));
  }
  return Sensitive(out, sensitive);
}

void BinaryExpr::CollectReferences(std::vector<Reference>& out) const {
  Collect(lhs_, out);
  Collect(rhs_, out);
}

Value UnaryExpr::Eval(EvalContext& ctx) const {
  Value v = operand_->Eval(ctx);
  if (v.IsUnknown()) return v;
  if (op_ == UnaryOp::Not) return Sensitive(Value::Bool(!BoolOperand(v, *operand_, "the ! operator")), v.IsSensitive());
  return Sensitive(Value::Number(-NumberOperand(v, *operand_, "the - operator's")), v.IsSensitive());
}

void UnaryExpr::CollectReferences(std::vector<Reference>& out) const { Collect(operand_, out); }

Value TupleExpr::Eval(EvalContext& ctx) const {
  ValueList items;
  items.reserve(items_.size());
  for (const auto& e : items_) items.push_back(e->Eval(ctx));
  return Value::Tuple(std::move(items));
}

void TupleExpr::CollectReferences(std::vector<Reference>& out) const {
  for (const auto& e : items_) e->CollectReferences(out);
}

Value ObjectExpr::Eval(EvalContext& ctx) const {
  ValueMap items;
  bool known = true;
  bool sensitive = false;
  for (const auto& item : items_) {
    Value k = item.key->Eval(ctx);
    Value v = item.value->Eval(ctx);
    if (k.IsUnknown()) {
      known = false;
      continue;
    }
    sensitive = sensitive || k.IsSensitive();
    if (k.IsNull()) throw MakeEvalError(item.key->range(), "Invalid object key", "An object key cannot be null.");
    auto ks = ConvertValue(k.DeepUnmark(), Type::Primitive(Type::Kind::String));
    if (!ks.ok()) throw MakeEvalError(item.key->range(), "Invalid object key", "An object key must be a string.");
    if (!items.emplace(ks.value.AsString(), std::move(v)).second) {
      throw MakeEvalError(item.key->range(), "Duplicate object attribute",
                          fmt::format("The attribute \"{}\" is defined more than once.", ks.value.AsString()));
    }
  }
  if (!known) return Value::Unknown();
  return Sensitive(Value::Object(std::move(items)), sensitive);
}

void ObjectExpr::CollectReferences(std::vector<Reference>& out) const {
  for (const auto& item : items_) {
    Collect(item.key, out);
    Collect(item.value, out);
  }
}

Value ForExpr::Eval(EvalContext& ctx) const {
  Value coll = p_.collection->Eval(ctx);
  if (coll.IsUnknown()) return Sensitive(Value::Unknown(), coll.IsSensitive());
  if (coll.IsNull()) throw MakeEvalError(p_.collection->range(), "Iteration over null value", "A null value cannot be used as the collection in a for expression.");
  if (!coll.IsCollection()) {
    throw MakeEvalError(p_.collection->range(), "Iteration over non-iterable value",
                        fmt::format("A value of type {} cannot be used as the collection in a for expression.", coll.TypeName()));
  }
  bool known = true;
  ValueList list_out;
  std::map<std::string, Value> object_out;
  std::map<std::string, ValueList> groups;
  ForEachElement(coll, [&](const Value& k, const Value& v) {
    LocalBinding bind(ctx, p_.key_var, p_.value_var, k, v);
    if (p_.condition) {
      Value c = p_.condition->Eval(ctx);
      if (c.IsUnknown()) {
        known = false;
        return;
      }
      if (!BoolOperand(c, *p_.condition, "the for expression's condition")) return;
    }
    if (!p_.object) {
      list_out.push_back(p_.value->Eval(ctx));
      return;
    }
    Value key = p_.key->Eval(ctx);
    if (key.IsUnknown()) {
      known = false;
      return;
    }
    auto ks = ConvertValue(key.DeepUnmark(), Type::Primitive(Type::Kind::String));
    if (key.IsNull() || !ks.ok()) throw MakeEvalError(p_.key->range(), "Invalid object key", "The key expression must produce a string.");
    Value val = p_.value->Eval(ctx);
    if (p_.grouping) {
      groups[ks.value.AsString()].push_back(std::move(val));
    } else if (!object_out.emplace(ks.value.AsString(), std::move(val)).second) {
      throw MakeEvalError(p_.key->range(), "Duplicate object key",
                          fmt::format("Two elements produce the key \"{}\". Add \"...\" after the value expression to "
                                      "group the values by key instead.",
                                      ks.value.AsString()));
    }
  });
  if (!known) return Sensitive(Value::Unknown(), coll.IsSensitive());
  Value result;
  if (!p_.object) {
    result = Value::Tuple(std::move(list_out));
  } else if (p_.grouping) {
    ValueMap m;
    for (auto& [k, items] : groups) m.emplace(k, Value::Tuple(std::move(items)));
    result = Value::Object(std::move(m));
  } else {
    result = Value::Object(std::move(object_out));
  }
  return Sensitive(result, coll.IsSensitive());
}

void ForExpr::CollectReferences(std::vector<Reference>& out) const {
  Collect(p_.collection, out);
  std::vector<Reference> inner;
  Collect(p_.key, inner);
  Collect(p_.value, inner);
  Collect(p_.condition, inner);
  for (auto& r : inner) {
    if (r.root != p_.key_var && r.root != p_.value_var) out.push_back(std::move(r));
  }
}

}  // namespace strata
