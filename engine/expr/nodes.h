#pragma once
// Concrete expression nodes (internal to engine/expr; other components see Expr only).

#include <optional>

#include "engine/expr/ast.h"

namespace strata {

class LiteralExpr : public Expr {
 public:
  LiteralExpr(Value v, SourceRange r) : Expr(std::move(r)), value_(std::move(v)) {}
  Value Eval(EvalContext&) const override { return value_; }
  void CollectReferences(std::vector<Reference>&) const override {}
  const Value* AsLiteral() const override { return &value_; }

 private:
  Value value_;
};

//! Text with interpolations: "a-${x}-b". A lone "${x}" is parsed to x itself, not to this.
class TemplateExpr : public Expr {
 public:
  TemplateExpr(std::vector<ExprPtr> parts, SourceRange r) : Expr(std::move(r)), parts_(std::move(parts)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  std::vector<ExprPtr> parts_;
};

//! %{ if c }a%{ else }b%{ endif } inside a template.
class TemplateIfExpr : public Expr {
 public:
  TemplateIfExpr(ExprPtr cond, ExprPtr then_part, ExprPtr else_part, SourceRange r)
      : Expr(std::move(r)), cond_(std::move(cond)), then_(std::move(then_part)), else_(std::move(else_part)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  ExprPtr cond_, then_, else_;
};

//! %{ for k, v in coll }body%{ endfor } inside a template.
class TemplateForExpr : public Expr {
 public:
  TemplateForExpr(std::string key_var, std::string value_var, ExprPtr coll, ExprPtr body, SourceRange r)
      : Expr(std::move(r)), key_var_(std::move(key_var)), value_var_(std::move(value_var)),
        coll_(std::move(coll)), body_(std::move(body)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  std::string key_var_, value_var_;
  ExprPtr coll_, body_;
};

//! A name followed by static steps: var.region, vpc.id, each.value["x"], or a for-variable.
class ScopeTraversalExpr : public Expr {
 public:
  ScopeTraversalExpr(Reference ref, SourceRange r) : Expr(std::move(r)), ref_(std::move(ref)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;
  const Reference& reference() const { return ref_; }

 private:
  Reference ref_;
};

class GetAttrExpr : public Expr {
 public:
  GetAttrExpr(ExprPtr obj, std::string name, SourceRange r)
      : Expr(std::move(r)), obj_(std::move(obj)), name_(std::move(name)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  ExprPtr obj_;
  std::string name_;
};

class IndexExpr : public Expr {
 public:
  IndexExpr(ExprPtr coll, ExprPtr key, SourceRange r)
      : Expr(std::move(r)), coll_(std::move(coll)), key_(std::move(key)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  ExprPtr coll_, key_;
};

//! source[*].rest — `rest` is evaluated with the splat item bound as the current value.
class SplatExpr : public Expr {
 public:
  SplatExpr(ExprPtr source, ExprPtr each, SourceRange r)
      : Expr(std::move(r)), source_(std::move(source)), each_(std::move(each)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  ExprPtr source_, each_;
};

//! The current splat item inside SplatExpr's `each` expression.
class SplatItemExpr : public Expr {
 public:
  explicit SplatItemExpr(SourceRange r) : Expr(std::move(r)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>&) const override {}
};

class FunctionCallExpr : public Expr {
 public:
  FunctionCallExpr(std::string name, std::vector<ExprPtr> args, bool expand_final, SourceRange name_range,
                   SourceRange r)
      : Expr(std::move(r)), name_(std::move(name)), args_(std::move(args)), expand_final_(expand_final),
        name_range_(std::move(name_range)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  Value EvalTryOrCan(EvalContext& ctx) const;
  //! Throws unless templatestring's first argument is a reference (Terraform's rule).
  void CheckTemplateStringSource() const;
  std::string name_;
  std::vector<ExprPtr> args_;
  bool expand_final_;
  SourceRange name_range_;
};

class ConditionalExpr : public Expr {
 public:
  ConditionalExpr(ExprPtr cond, ExprPtr t, ExprPtr f, SourceRange r)
      : Expr(std::move(r)), cond_(std::move(cond)), true_(std::move(t)), false_(std::move(f)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  ExprPtr cond_, true_, false_;
};

enum class BinaryOp { Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or };

class BinaryExpr : public Expr {
 public:
  BinaryExpr(BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceRange r)
      : Expr(std::move(r)), op_(op), lhs_(std::move(lhs)), rhs_(std::move(rhs)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  Value EvalLogical(EvalContext& ctx) const;
  BinaryOp op_;
  ExprPtr lhs_, rhs_;
};

enum class UnaryOp { Not, Negate };

class UnaryExpr : public Expr {
 public:
  UnaryExpr(UnaryOp op, ExprPtr operand, SourceRange r)
      : Expr(std::move(r)), op_(op), operand_(std::move(operand)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  UnaryOp op_;
  ExprPtr operand_;
};

class TupleExpr : public Expr {
 public:
  TupleExpr(std::vector<ExprPtr> items, SourceRange r) : Expr(std::move(r)), items_(std::move(items)) {}
  Value Eval(EvalContext& ctx) const override;
  const std::vector<ExprPtr>& items() const { return items_; }
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  std::vector<ExprPtr> items_;
};

class ObjectExpr : public Expr {
 public:
  struct Item {
    ExprPtr key;
    ExprPtr value;
  };
  ObjectExpr(std::vector<Item> items, SourceRange r) : Expr(std::move(r)), items_(std::move(items)) {}
  Value Eval(EvalContext& ctx) const override;
  const std::vector<Item>& items() const { return items_; }
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  std::vector<Item> items_;
};

//! [for k, v in coll : value if cond] and {for k, v in coll : key => value... if cond}.
class ForExpr : public Expr {
 public:
  struct Parts {
    std::string key_var;    // empty when only one variable is named
    std::string value_var;
    ExprPtr collection;
    ExprPtr key;            // object form only
    ExprPtr value;
    ExprPtr condition;      // optional
    bool grouping = false;  // `...` after the value: group values by key
    bool object = false;
  };
  ForExpr(Parts parts, SourceRange r) : Expr(std::move(r)), p_(std::move(parts)) {}
  Value Eval(EvalContext& ctx) const override;
  void CollectReferences(std::vector<Reference>& out) const override;

 private:
  Parts p_;
};

}  // namespace strata
