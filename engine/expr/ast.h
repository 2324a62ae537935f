#pragma once
// The expression syntax tree. Every `${...}` in a module file is parsed once at load time
// into these nodes; evaluation happens later against a Scope (see eval.h). Each node keeps
// its source range so that errors point at the exact sub-expression.

#include <memory>
#include <string>
#include <vector>

#include "engine/diag/source.h"
#include "engine/value/value.h"

namespace strata {

class EvalContext;

//! One static step of a reference: `.name` or `[literal]`.
struct TraversalStep {
  enum class Kind { Attr, Index };
  Kind kind = Kind::Attr;
  std::string name;  // for Attr
  Value key;         // for Index (number or string)
  SourceRange range;
};

//! A reference to something outside the expression: var.x, local.y, vpc.id, data.azs.names,
//! module.eks.name, stage.eks.cluster_name, each.key, count.index, path.module.
struct Reference {
  std::string root;
  std::vector<TraversalStep> steps;
  SourceRange range;
  //! "var.region", "vpc.id" ... (roots and attribute steps; index steps as [k]).
  std::string ToString() const;
};

class Expr {
 public:
  explicit Expr(SourceRange range) : range_(std::move(range)) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  virtual Value Eval(EvalContext& ctx) const = 0;
  //! Appends the references this expression makes (for dependency edges).
  virtual void CollectReferences(std::vector<Reference>& out) const = 0;
  const SourceRange& range() const { return range_; }
  //! The literal value if this expression is a constant, else nullptr.
  virtual const Value* AsLiteral() const { return nullptr; }

 private:
  SourceRange range_;
};

using ExprPtr = std::unique_ptr<Expr>;
//! Shared, immutable, parsed expressions (config objects hold these).
using ExprRef = std::shared_ptr<const Expr>;

//! All references an expression makes, in source order.
std::vector<Reference> ReferencesOf(const Expr& expr);

}  // namespace strata
