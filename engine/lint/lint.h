#pragma once
// `strata lint`: checks a project's mistakes that need no cloud — the configuration and the
// values known when it is evaluated, as `validate` evaluates it; no provider call, no state.
// Each finding names its rule (a stable id, rules.h's table), a severity, the position of the
// offending value, a one-line message and a one-line fix.

#include <string>
#include <vector>

#include "engine/config/project.h"
#include "engine/core/engine.h"
#include "engine/diag/diagnostic.h"
#include "engine/diag/source.h"

namespace strata::lint {

enum class Severity { Warning, Error };

//! "error" or "warning".
const char* SeverityName(Severity severity);

struct Finding {
  std::string rule;
  Severity severity = Severity::Warning;
  std::string stage;
  std::string address;  // the resource instance, as in plans
  SourceRange range;    // the offending value (or, failing that, the resource's declaration)
  std::string message;  // one line, no trailing period
  std::string hint;     // one line: what to do
};

//! One evaluated stage of the project.
struct LintStage {
  std::string name;
  const LoadedStage* loaded = nullptr;
  const StageEvaluation* evaluation = nullptr;
};

//! Runs every rule over `stages` (all of the project's stages that loaded, in order), drops the
//! rules strata.yaml's `lint.disable` names and the findings a `# lint:ignore RULE` comment on
//! the offending line or the line above silences, and returns the rest in file and line order.
//! A `lint.disable` entry naming no rule is reported to `diags` as an error.
std::vector<Finding> RunLint(const ProjectConfig& project, const std::vector<LintStage>& stages, Diagnostics& diags);

//! The findings as diagnostics (summary "RULE: message", detail the fix), each a warning, or
//! an error when `strict` and the rule's severity is error: what `validate` shows.
void AppendAsDiagnostics(const std::vector<Finding>& findings, bool strict, Diagnostics& diags);

}  // namespace strata::lint
