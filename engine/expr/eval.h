#pragma once
// Evaluating parsed expressions. The evaluator knows operators and functions; what names
// mean (var.x, vpc.id, module.eks.name, stage.eks.x, each.key ...) is answered by a Scope
// that the caller supplies: the engine's scope reads the graph's results, the console's
// reads the loaded stage, tests use a map.

#include <map>
#include <string>
#include <vector>

#include "engine/diag/diagnostic.h"
#include "engine/expr/ast.h"
#include "engine/expr/function.h"

namespace strata {

//! Raised inside evaluation; caught by Evaluate (and by try/can).
struct EvalError {
  Diagnostic diag;
};

class Scope {
 public:
  virtual ~Scope() = default;
  //! Resolves `ref`, consuming as many of its steps as it understands (at least the root
  //! and, for namespaced roots like var/local/data/module/stage, the name) and storing that
  //! count in `consumed`. The evaluator applies the remaining steps generically.
  //! Throws EvalError for a reference that names nothing (with a "did you mean").
  virtual Value Resolve(const Reference& ref, size_t& consumed) = 0;
};

//! A Scope over plain maps, for the console with no project and for tests:
//! roots are looked up in `values` ("var" -> object of variables, "local" -> ...).
class MapScope : public Scope {
 public:
  std::map<std::string, Value> values;
  Value Resolve(const Reference& ref, size_t& consumed) override;
};

class EvalContext {
 public:
  EvalContext(Scope& scope, const FunctionTable& functions, FunctionContext function_context)
      : scope_(scope), functions_(functions), function_context_(std::move(function_context)) {}

  Scope& scope() { return scope_; }
  const FunctionTable& functions() const { return functions_; }
  const FunctionContext& function_context() const { return function_context_; }

  //! Local names bound by for-expressions and template for-loops (innermost last).
  void PushLocal(const std::string& name, Value v) { locals_.emplace_back(name, std::move(v)); }
  void PopLocal() { locals_.pop_back(); }
  const Value* FindLocal(const std::string& name) const;

  //! The current item inside a splat's per-element traversal.
  std::vector<Value>& splat_stack() { return splat_stack_; }

  //! The source text of the expression being evaluated, for error messages.
  std::string expression_text;

 private:
  Scope& scope_;
  const FunctionTable& functions_;
  FunctionContext function_context_;
  std::vector<std::pair<std::string, Value>> locals_;
  std::vector<Value> splat_stack_;
};

//! Evaluates `expr`; on error adds the diagnostic to `diags` and returns unknown.
Value Evaluate(const Expr& expr, EvalContext& ctx, Diagnostics& diags);

//! Builds the EvalError for a problem at `range`.
EvalError MakeEvalError(const SourceRange& range, std::string summary, std::string detail);

//! Applies one attribute/index step to a value (shared by traversals, GetAttr and Index).
Value ApplyAttr(const Value& v, const std::string& name, const SourceRange& range);
Value ApplyIndex(const Value& v, const Value& key, const SourceRange& range);

//! "Did you mean ...?" helper: the closest candidate within a small edit distance, or "".
std::string Suggest(const std::string& name, const std::vector<std::string>& candidates);
//! " Did you mean \"x\"?" or "".
std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace strata
