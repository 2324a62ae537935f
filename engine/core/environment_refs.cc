#include "engine/core/environment_refs.h"

#include <filesystem>

#include "engine/expr/eval.h"

namespace strata {

std::optional<std::pair<std::string, std::string>> InvalidEnvReference(const Reference& ref) {
  if (ref.steps.empty() || ref.steps[0].kind != TraversalStep::Kind::Attr) {
    return std::make_pair(std::string("Invalid reference"),
                          std::string("\"env\" must be followed by an attribute: env.name is the selected environment."));
  }
  if (ref.steps[0].name != "name") {
    return std::make_pair(std::string("Invalid \"env\" attribute"),
                          "env." + ref.steps[0].name + " does not exist: use env.name, the selected environment's name.");
  }
  return std::nullopt;
}

Value EnvReferenceValue(const Reference& ref, const std::string& environment) {
  if (auto invalid = InvalidEnvReference(ref)) throw MakeEvalError(ref.range, invalid->first, invalid->second);
  return Value::String(environment.empty() ? "default" : environment);
}

std::string EnvironmentVariablesFile(const std::string& project_dir, const std::string& environment) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path file = fs::path(project_dir) / "envs" / (environment + ".yaml");
  if (!fs::is_regular_file(file, ec)) return "";
  return file.lexically_normal().string();
}

}  // namespace strata
