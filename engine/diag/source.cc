#include "engine/diag/source.h"

#include <fmt/format.h>

namespace strata {

std::string SourceRange::ToString() const {
  if (!IsKnown()) return "";
  return fmt::format("{}:{}:{}", file, start.line, start.column);
}

void SourceRegistry::Add(const std::string& file, std::string text) {
  auto entry = std::make_unique<FileText>();
  entry->text = std::move(text);
  entry->line_starts.push_back(0);
  for (size_t i = 0; i < entry->text.size(); ++i) {
    if (entry->text[i] == '\n') entry->line_starts.push_back(i + 1);
  }
  std::lock_guard lock(mutex_);
  files_[file] = std::move(entry);
}

std::vector<std::string> SourceRegistry::Files() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> names;
  names.reserve(files_.size());
  for (const auto& [name, text] : files_) names.push_back(name);
  return names;
}

bool SourceRegistry::Has(const std::string& file) const {
  std::lock_guard lock(mutex_);
  return files_.count(file) > 0;
}

std::string_view SourceRegistry::Line(const std::string& file, int line) const {
  std::lock_guard lock(mutex_);
  auto it = files_.find(file);
  if (it == files_.end() || line < 1) return {};
  const FileText& f = *it->second;
  if (static_cast<size_t>(line) > f.line_starts.size()) return {};
  size_t begin = f.line_starts[line - 1];
  size_t end = f.text.find('\n', begin);
  if (end == std::string::npos) end = f.text.size();
  std::string_view view(f.text);
  view = view.substr(begin, end - begin);
  if (!view.empty() && view.back() == '\r') view.remove_suffix(1);
  return view;
}

}  // namespace strata
