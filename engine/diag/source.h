#pragma once
// Source positions and the registry of loaded source text, so that any diagnostic can show
// the offending line with a caret under it.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

//! A position in a source file. Lines and columns start at 1; 0 means "unknown".
struct SourcePos {
  int line = 0;
  int column = 0;
  int byte = 0;  // offset in the file, for slicing; -1 when unknown
  bool operator==(const SourcePos&) const = default;
};

//! A half-open range [start, end) in one file. An empty file name means "no position".
struct SourceRange {
  std::string file;
  SourcePos start;
  SourcePos end;

  bool IsKnown() const { return !file.empty() && start.line > 0; }
  //! "file:line:col", or "" when unknown.
  std::string ToString() const;
  bool operator==(const SourceRange&) const = default;
};

//! Holds the text of every file the loader read. Thread-safe; text is never freed while the
//! registry lives, so the returned views stay valid.
class SourceRegistry {
 public:
  void Add(const std::string& file, std::string text);
  //! The 1-based line of `file`, without its newline; empty when unknown.
  std::string_view Line(const std::string& file, int line) const;
  bool Has(const std::string& file) const;
  //! The names of every file registered so far.
  std::vector<std::string> Files() const;

 private:
  struct FileText {
    std::string text;
    std::vector<size_t> line_starts;
  };
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<FileText>> files_;
};

}  // namespace strata
