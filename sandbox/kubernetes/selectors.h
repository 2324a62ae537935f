#pragma once
// Label and field selectors, as LIST's `labelSelector` and `fieldSelector` take them
// (k8s.io/apimachinery/pkg/labels and /fields):
//   labels: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x,y)`, `a` (exists), `!a`;
//   fields: `metadata.name=x`, `==`, `!=`;
// comma-separated requirements that must all hold. `!=`, `notin` and `!a` hold when the
// label is absent.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strata::sandbox::k8s {

struct LabelRequirement {
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
  std::string key;
  Op op = Op::Exists;
  std::vector<std::string> values;
};

class LabelSelector {
 public:
  //! Parses `text` (empty: everything). On a syntax error returns nullopt and sets `error`
  //! to a message in kube's words ("unable to parse requirement: ...").
  static std::optional<LabelSelector> Parse(const std::string& text, std::string& error);

  //! True when `labels` (an object of strings, or null) meets every requirement.
  bool Matches(const nlohmann::json& labels) const;
  const std::vector<LabelRequirement>& requirements() const { return requirements_; }

 private:
  std::vector<LabelRequirement> requirements_;
};

struct FieldRequirement {
  std::string field;  //!< "metadata.name"
  bool equals = true;  //!< false for !=
  std::string value;
};

class FieldSelector {
 public:
  //! Parses `text` (empty: everything); nullopt with `error` on a syntax error.
  static std::optional<FieldSelector> Parse(const std::string& text, std::string& error);
  //! True when `object`'s value at each field (a dotted path; a missing field reads as "")
  //! meets its requirement.
  bool Matches(const nlohmann::json& object) const;
  const std::vector<FieldRequirement>& requirements() const { return requirements_; }

 private:
  std::vector<FieldRequirement> requirements_;
};

}  // namespace strata::sandbox::k8s
