#pragma once
// YAML nodes to values, for the functions that decode YAML (yamldecode, kubernetes_documents).
// Two readings of a plain (unquoted, untagged) scalar exist in the wild and both are needed:
// yamldecode follows Terraform, which reads YAML 1.2's core schema (0644 is the number 644,
// yes is a string); Kubernetes tools read YAML 1.1 as go-yaml v2 does through
// sigs.k8s.io/yaml (0644 is octal 420 — the defaultMode of every Secret volume — and
// yes/no/on/off/y/n are booleans), so a manifest must be read their way to mean what
// kubectl would send. Private to engine/expr/functions/.
//
// The node must have passed ParseBoundedYaml (engine/value/yaml_bounds.h): the walk recurses.

#include <string>

#include <yaml-cpp/yaml.h>

#include "engine/value/value.h"

namespace strata::functions {

enum class YamlScalarRules {
  //! YAML 1.2 core schema (Terraform's yamldecode).
  Core12,
  //! YAML 1.1 as go-yaml v2 resolves it (kubectl, client-go, sigs.k8s.io/yaml); mapping keys
  //! that resolve to numbers or booleans become their JSON text ("420", "true"), as
  //! sigs.k8s.io/yaml turns them into JSON object keys.
  Kubernetes,
};

//! A node that has no value: what it is (message without position, lower case, no final
//! period) and where (yaml-cpp's mark, lines and columns from 0).
struct YamlValueError {
  std::string message;
  YAML::Mark mark;
};

//! The value of `node`: mappings become objects, sequences tuples, scalars per `rules`.
//! Throws YamlValueError for what has no value (a non-scalar or null mapping key, infinity,
//! NaN).
Value YamlNodeToValue(const YAML::Node& node, YamlScalarRules rules);

}  // namespace strata::functions
