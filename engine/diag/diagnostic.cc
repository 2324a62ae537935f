#include "engine/diag/diagnostic.h"

#include <algorithm>

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

Diagnostics Diagnostics::SortedByPosition() const {
  Diagnostics sorted = *this;
  std::stable_sort(sorted.items_.begin(), sorted.items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
    bool ka = a.subject.IsKnown(), kb = b.subject.IsKnown();
    if (ka != kb) return ka;
    if (!ka) return false;
    if (a.subject.file != b.subject.file) return a.subject.file < b.subject.file;
    if (a.subject.start.line != b.subject.start.line) return a.subject.start.line < b.subject.start.line;
    return a.subject.start.column < b.subject.start.column;
  });
  return sorted;
}

}  // namespace strata
