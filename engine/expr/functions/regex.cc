#include "engine/expr/functions/regex.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <re2/re2.h>

#include "engine/expr/functions/util.h"

namespace strata::functions {
namespace {

// Go (since 1.22) also writes named groups as (?<name>...), which this RE2 does not know:
// they become (?P<name>...). Escapes and character classes are skipped, so that \(?< and
// [(?<] stay as they are; lookbehinds (?<= (?<! are left for RE2 to refuse.
std::string WithPythonGroupNames(const std::string& pattern) {
  std::string out;
  out.reserve(pattern.size());
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out += c;
      out += pattern[++i];
      continue;
    }
    if (in_class) {
      if (c == '[' && pattern.compare(i, 2, "[:") == 0) {  // [:alpha:] inside a class
        size_t close = pattern.find(":]", i + 2);
        if (close != std::string::npos) {
          out.append(pattern, i, close + 2 - i);
          i = close + 1;
          continue;
        }
      }
      in_class = c != ']';
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out += pattern[++i];  // a leading ] is literal
      continue;
    }
    if (pattern.compare(i, 3, "(?<") == 0 && i + 3 < pattern.size() && pattern[i + 3] != '=' && pattern[i + 3] != '!') {
      out += "(?P<";
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

RegexPattern::RegexPattern(const std::string& pattern, int index) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  re_ = std::make_unique<re2::RE2>(WithPythonGroupNames(pattern), options);
  if (!re_->ok()) Fail(index, fmt::format("invalid regular expression \"{}\": {}", pattern, re_->error()));
  group_names_.resize(static_cast<size_t>(re_->NumberOfCapturingGroups()));
  for (const auto& [group, name] : re_->CapturingGroupNames()) group_names_[static_cast<size_t>(group - 1)] = name;
}

RegexPattern::~RegexPattern() = default;
RegexPattern::RegexPattern(RegexPattern&&) noexcept = default;

bool RegexPattern::has_named_groups() const {
  return std::any_of(group_names_.begin(), group_names_.end(), [](const std::string& n) { return !n.empty(); });
}

bool RegexPattern::has_unnamed_groups() const {
  return std::any_of(group_names_.begin(), group_names_.end(), [](const std::string& n) { return n.empty(); });
}

bool RegexPattern::MatchAt(const std::string& text, size_t from, RegexMatch& match) const {
  match.assign(group_names_.size() + 1, std::string_view());
  // re2::StringPiece converts to and from std::string_view; the text before `from` is context
  // for ^ and \b, as in Go.
  std::vector<re2::StringPiece> groups(match.size());
  if (!re_->Match(text, from, text.size(), re2::RE2::UNANCHORED, groups.data(), static_cast<int>(groups.size()))) return false;
  for (size_t i = 0; i < groups.size(); ++i) match[i] = std::string_view(groups[i].data(), groups[i].size());
  return true;
}

bool RegexPattern::FirstMatch(const std::string& text, RegexMatch& match) const { return MatchAt(text, 0, match); }

// Go's Regexp.allMatches.
void RegexPattern::ForEachMatch(const std::string& text, const std::function<void(const RegexMatch&)>& fn) const {
  RegexMatch match;
  size_t previous_end = std::string::npos;
  for (size_t pos = 0; pos <= text.size();) {
    if (!MatchAt(text, pos, match)) break;
    size_t begin = static_cast<size_t>(match[0].data() - text.data());
    size_t end = begin + match[0].size();
    bool accept = true;
    if (end == pos) {  // an empty match: never right after the previous match; step one character on
      accept = begin != previous_end;
      size_t width = pos < text.size() ? Utf8SequenceLength(text, pos) : 1;
      pos += std::max<size_t>(width, 1);
    } else {
      pos = end;
    }
    previous_end = end;
    if (accept) fn(match);
  }
}

std::string RegexPattern::ReplaceAll(const std::string& text, const std::string& replacement) const {
  std::string out;
  size_t copied = 0;
  ForEachMatch(text, [&](const RegexMatch& match) {
    size_t begin = static_cast<size_t>(match[0].data() - text.data());
    out.append(text, copied, begin - copied);
    out += Expand(replacement, match);
    copied = begin + match[0].size();
  });
  out.append(text, copied);
  return out;
}

// Go's Regexp.Expand: $1, ${1}, $name, ${name}; $$ is a literal $. A name is the longest run
// of letters, digits and underscores; a reference to no group expands to nothing.
std::string RegexPattern::Expand(const std::string& tmpl, const RegexMatch& match) const {
  std::string out;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$' || i + 1 >= tmpl.size()) {
      out += tmpl[i];
      continue;
    }
    if (tmpl[i + 1] == '$') {
      out += '$';
      ++i;
      continue;
    }
    auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    std::string name;
    size_t end = i + 1;
    if (tmpl[end] == '{') {
      size_t close = tmpl.find('}', end);
      if (close != std::string::npos) name = tmpl.substr(end + 1, close - end - 1);
      if (!std::all_of(name.begin(), name.end(), name_char)) name.clear();
      end = close + 1;
    } else {
      while (end < tmpl.size() && name_char(tmpl[end])) ++end;
      name = tmpl.substr(i + 1, end - i - 1);
    }
    if (name.empty()) {  // not a reference: the $ is literal
      out += '$';
      continue;
    }
    size_t group = match.size();
    if (name.find_first_not_of("0123456789") == std::string::npos) {
      if (name.size() < 10) group = std::stoul(name);
    } else if (auto it = std::find(group_names_.begin(), group_names_.end(), name); it != group_names_.end()) {
      group = static_cast<size_t>(it - group_names_.begin()) + 1;
    }
    if (group < match.size()) out += match[group];
    i = end - 1;
  }
  return out;
}

}  // namespace strata::functions
