#pragma once
// Parsing YAML that may be hostile: every document is held to the bounds of
// engine/value/limits.h before anything walks it. yaml-cpp keeps an alias (*name) as a second
// reference to its anchor's node, so a walk visits the anchor's values again at each use (a
// few hundred bytes can stand for billions of values), and an anchor used inside itself
// (&a [*a]) makes a walk that never ends. Module files, strata.yaml, -var-files and yamldecode
// all parse through here.

#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace strata {

struct YamlProblem {
  enum class Kind { Syntax, TooDeep, TooManyValues };
  Kind kind = Kind::Syntax;
  //! What is wrong, without the position; starts in lower case, no final period
  //! (yaml-cpp's own message for a syntax error).
  std::string message;
  //! Where: yaml-cpp's mark (line and column from 0, -1 when unknown).
  YAML::Mark mark;
};

struct BoundedYaml {
  std::vector<YAML::Node> documents;  // empty when there is a problem
  std::optional<YamlProblem> problem;
};

//! Parses every document of `text`, then walks each as its consumers will (aliases expanded),
//! stopping at the first syntax error or crossed bound.
BoundedYaml ParseBoundedYaml(const std::string& text);

}  // namespace strata
