#pragma once
// The table of Terraform-compatible standard functions, one family per file under functions/.
// The evaluator calls functions through CallFunction, which owns the rules every function
// shares: arity, unknown arguments (result unknown unless the function accepts them), and
// the sensitive mark (removed before the call, put back on the result).

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/clock.h"
#include "engine/value/value.h"

namespace strata {

//! Thrown by a function implementation for a bad argument; the evaluator turns it into a
//! diagnostic pointing at argument `arg_index` (or the whole call when -1).
struct FunctionError {
  std::string message;
  int arg_index = -1;
};

//! What a function may need from its surroundings.
struct FunctionContext {
  //! Directory that relative paths in file(), templatefile() etc. resolve against
  //! (the module's directory, path.module).
  std::string base_dir;
  //! Renders a template text with the given variables (an object); used by templatefile.
  //! Throws FunctionError on a template error.
  std::function<Value(const std::string& text, const std::string& filename, const Value& vars)>
      render_template;
  //! What timestamp() reads; null: the system clock. Tests set a base::FakeClock.
  const base::Clock* clock = nullptr;
  //! plantimestamp()'s value: the time the plan began, one value for the whole run (and the
  //! plan's own time again when a saved plan is applied). Unset: plantimestamp() is unknown
  //! (validate, console), as Terraform's is outside a plan.
  std::optional<base::Clock::TimePoint> plan_time;
  //! True while planning: timestamp() and uuid() are then unknown, as in Terraform, where they
  //! take their value at apply (a new one on every apply).
  bool planning = false;
};

using FunctionImpl = std::function<Value(const std::vector<Value>& args, const FunctionContext& ctx)>;

struct FunctionSpec {
  std::string name;
  int min_args = 0;
  int max_args = 0;  // -1: variadic
  //! When false, a call with any argument not wholly known returns unknown without calling.
  bool accepts_unknown = false;
  //! When true, the implementation sees the sensitive marks and sets the result's itself
  //! (sensitive, nonsensitive, issensitive). Otherwise marks are stripped before the call and
  //! the result is marked sensitive if any argument contained a sensitive value.
  bool handles_marks = false;
  FunctionImpl impl;
};

class FunctionTable {
 public:
  //! The standard library (built once, immutable afterwards, safe to share across threads).
  static const FunctionTable& Standard();

  void Register(FunctionSpec spec);
  const FunctionSpec* Find(const std::string& name) const;
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, FunctionSpec> functions_;
};

//! Calls `name` with the shared rules above. Throws FunctionError for unknown functions,
//! wrong arity and whatever the implementation rejects.
Value CallFunction(const FunctionTable& table, const std::string& name, const std::vector<Value>& args,
                   const FunctionContext& ctx);

// One registration function per family (functions/<family>.cc).
void RegisterCollectionFunctions(FunctionTable& table);
void RegisterStringFunctions(FunctionTable& table);
void RegisterEncodingFunctions(FunctionTable& table);
void RegisterHashFunctions(FunctionTable& table);
void RegisterNetworkFunctions(FunctionTable& table);
void RegisterFileFunctions(FunctionTable& table);
void RegisterNumericFunctions(FunctionTable& table);
void RegisterTypeFunctions(FunctionTable& table);
void RegisterTimeFunctions(FunctionTable& table);
void RegisterCryptoFunctions(FunctionTable& table);
//! Strata extensions, not in Terraform: kubernetes_documents, kubernetes_documents_text.
void RegisterKubernetesFunctions(FunctionTable& table);

}  // namespace strata
