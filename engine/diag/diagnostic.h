#pragma once
// The one type for every user-facing problem: config errors, expression errors, provider and
// state errors. Each carries a severity, a one-line summary, a detail, and where it can, the
// source range and/or the resource address it is about.

#include <string>
#include <vector>

#include "engine/diag/source.h"

namespace strata {

enum class Severity { Error, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string summary;  // short, no trailing period: "Unsupported argument"
  std::string detail;   // full sentences: what is wrong and what to do
  SourceRange subject;  // where, if known
  std::string address;  // the resource or object address it concerns, if any
  std::string expression;  // the expression source text, when the error is inside one
};

//! An ordered collection of diagnostics; errors of a run are gathered, not thrown one by one.
class Diagnostics {
 public:
  void Add(Diagnostic d) { items_.push_back(std::move(d)); }
  void Error(std::string summary, std::string detail, SourceRange subject = {});
  void Warning(std::string summary, std::string detail, SourceRange subject = {});
  void Append(const Diagnostics& other);
  //! Appends `other`, each diagnostic without an address getting `address` (what a
  //! provider reports about the object it was asked about).
  void AppendFor(const Diagnostics& other, const std::string& address);

  bool HasErrors() const;
  size_t ErrorCount() const;
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  //! The same diagnostics in file and line order (those without a position after the others,
  //! in the order they came): how they are shown, whatever order the parallel walks found them.
  Diagnostics SortedByPosition() const;
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<Diagnostic> items_;
};

//! Thrown only where an operation cannot go on at all (CLI boundary catches it).
struct DiagnosticsError {
  Diagnostics diags;
};

}  // namespace strata
