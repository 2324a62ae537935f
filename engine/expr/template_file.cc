#include "engine/expr/template_file.h"

#include <fmt/format.h>

#include "engine/expr/eval.h"
#include "engine/expr/function.h"
#include "engine/expr/parser.h"
#include "engine/value/type.h"

namespace strata {

Value RenderTemplateFile(const std::string& text, const std::string& filename, const Value& vars) {
  Diagnostics diags;
  ExprPtr tmpl = ParseTemplate(text, SourceMapping{filename, 1, 1, 1}, diags);
  if (!tmpl) throw FunctionError{fmt::format("{}: {}: {}", diags.items()[0].subject.ToString(), diags.items()[0].summary, diags.items()[0].detail)};
  MapScope scope;
  if (vars.IsMapping()) {
    for (const auto& [k, v] : vars.AsMap()) scope.values[k] = v;
  }
  EvalContext ctx(scope, FunctionTable::Standard(), {});
  Value v = Evaluate(*tmpl, ctx, diags);
  if (diags.HasErrors()) {
    const Diagnostic& d = diags.items()[0];
    throw FunctionError{fmt::format("{}: {}: {}", d.subject.ToString(), d.summary, d.detail)};
  }
  if (v.IsKnown() && !v.IsString()) {
    auto c = ConvertValue(v, Type::Primitive(Type::Kind::String));
    if (!c.ok()) throw FunctionError{"the template must produce a string, got " + std::string(v.TypeName())};
    return c.value;
  }
  return v;
}

}  // namespace strata
