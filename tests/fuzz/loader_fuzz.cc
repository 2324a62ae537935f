// Fuzzes what a user controls in a module file: the YAML document, the ${...} expressions
// and templates inside it, and their evaluation with the standard functions. Any crash,
// sanitizer report, hang or runaway allocation is a bug; diagnostics are the expected
// outcome for bad input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/config/yaml_expr.h"
#include "engine/config/yaml_node.h"
#include "engine/expr/eval.h"
#include "engine/expr/parser.h"

namespace {

void EvaluateExpression(const strata::Expr& expr) {
  strata::MapScope scope;
  scope.values["var"] = strata::Value::Object({{"name", strata::Value::String("x")},
                                               {"list", strata::Value::Tuple({strata::Value::Number(1), strata::Value::Unknown()})},
                                               {"secret", strata::Value::String("s").MarkSensitive()}});
  strata::FunctionContext fctx;
  fctx.base_dir = "/nonexistent-fuzz-dir";
  strata::EvalContext ctx(scope, strata::FunctionTable::Standard(), fctx);
  strata::Diagnostics diags;
  strata::Evaluate(expr, ctx, diags);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  strata::SourceMapping mapping{"fuzz.yaml", 1, 1, 1};
  strata::Diagnostics diags;
  if (auto expr = strata::ParseExpression(text, mapping, diags)) EvaluateExpression(*expr);
  if (auto tmpl = strata::ParseTemplate(text, mapping, diags)) EvaluateExpression(*tmpl);
  // As the loader reads a module file: parsed and held to the nesting and alias bounds
  // before anything walks it.
  strata::YamlTree parsed = strata::ParseYaml(text);
  strata::YamlFile file{"fuzz.yaml", text};
  for (const auto& node : parsed.documents()) {
    if (auto expr = strata::NodeToExpr(file, node, diags)) EvaluateExpression(*expr);
  }
  return 0;
}
