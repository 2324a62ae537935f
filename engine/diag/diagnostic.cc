#include "engine/diag/diagnostic.h"

namespace strata {

void Diagnostics::Error(std::string summary, std::string detail, SourceRange subject) {
  items_.push_back({Severity::Error, std::move(summary), std::move(detail), std::move(subject), {}, {}});
}

void Diagnostics::Warning(std::string summary, std::string detail, SourceRange subject) {
  items_.push_back({Severity::Warning, std::move(summary), std::move(detail), std::move(subject), {}, {}});
}

void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

void Diagnostics::AppendFor(const Diagnostics& other, const std::string& address) {
  for (Diagnostic d : other) {
    if (d.address.empty()) d.address = address;
    Add(std::move(d));
  }
}

bool Diagnostics::HasErrors() const { return ErrorCount() > 0; }

size_t Diagnostics::ErrorCount() const {
  size_t n = 0;
  for (const auto& d : items_) n += d.severity == Severity::Error;
  return n;
}

}  // namespace strata
