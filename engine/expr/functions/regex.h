#pragma once
// Regular expressions for regex, regexall and replace, as Terraform has them from Go's
// regexp: RE2 syntax, leftmost-first matching, Go's rules for successive and empty matches
// and for $ references in replacements. Matching runs on RE2, in time linear in the input
// whatever the pattern, and without recursion. Private to engine/expr/functions/.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/value/value.h"

namespace re2 {
class RE2;
}

namespace strata::functions {

//! One match: [0] the whole match, [i] capture group i. A group that took no part in the
//! match has a null data() (an empty group that did has a non-null one).
using RegexMatch = std::vector<std::string_view>;

class RegexPattern {
 public:
  //! Compiles `pattern` (Go's syntax, (?<name>...) included). Throws FunctionError for
  //! argument `index`, naming the pattern and RE2's message, when it is not valid.
  RegexPattern(const std::string& pattern, int index);
  ~RegexPattern();
  RegexPattern(RegexPattern&&) noexcept;

  //! Names of the capture groups: [i] names group i+1, empty when it is unnamed.
  const std::vector<std::string>& group_names() const { return group_names_; }
  bool has_named_groups() const;
  bool has_unnamed_groups() const;

  //! The leftmost match in `text`, or false.
  bool FirstMatch(const std::string& text, RegexMatch& match) const;
  //! Every match of `text` in order, as Go's FindAll* finds them: each search starts where
  //! the previous match ended, and an empty match right after a match is skipped.
  void ForEachMatch(const std::string& text, const std::function<void(const RegexMatch&)>& fn) const;
  //! `text` with every match replaced by `replacement` expanded as Go's Regexp.Expand does
  //! ($1, ${1}, $name, ${name}; $$ is a literal $), like Go's ReplaceAllString.
  std::string ReplaceAll(const std::string& text, const std::string& replacement) const;

 private:
  bool MatchAt(const std::string& text, size_t from, RegexMatch& match) const;
  std::string Expand(const std::string& replacement, const RegexMatch& match) const;

  std::unique_ptr<re2::RE2> re_;
  std::vector<std::string> group_names_;
};

}  // namespace strata::functions
