#pragma once
// Renders diagnostics for people (file:line:col, the source line, a caret underline) and for
// machines (JSON in the shape of `terraform validate -json`).

#include <string>

#include <nlohmann/json.hpp>

#include "engine/diag/diagnostic.h"

namespace strata {

struct RenderOptions {
  bool color = false;
  //! File names under this directory are shown relative to it.
  std::string display_root;
};

//! `file` as shown to people (relative to options.display_root when under it).
std::string DisplayName(const std::string& file, const RenderOptions& options);
//! Human form of one diagnostic, ending with a newline.
std::string RenderDiagnostic(const Diagnostic& d, const SourceRegistry* sources,
                             const RenderOptions& options);
//! All diagnostics, separated by blank lines.
std::string RenderDiagnostics(const Diagnostics& diags, const SourceRegistry* sources,
                              const RenderOptions& options);
nlohmann::json DiagnosticsToJson(const Diagnostics& diags, const SourceRegistry* sources);
//! One diagnostic as an element of DiagnosticsToJson's list (and of Terraform's
//! machine-readable UI's "diagnostic" message): severity, summary, detail, range, snippet,
//! address.
nlohmann::json DiagnosticToJson(const Diagnostic& d, const SourceRegistry* sources);

}  // namespace strata
