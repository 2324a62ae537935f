#pragma once
// The module file `plan -generate-config-out=FILE` writes for import entries whose address
// config does not declare (Terraform's generated configuration): one resource per import,
// with every argument the type takes (required or optional) set to the value the provider
// read, so that the next plan of the imported object changes nothing.

#include <string>
#include <vector>

#include "engine/core/evaluator.h"
#include "engine/value/schema.h"

namespace strata {

class GeneratedConfig {
 public:
  //! Adds the resource for `target` (a root resource without instance key), from the object
  //! read (`state`). Sensitive arguments are left null, with a comment to set them.
  void Add(const ImportTarget& target, const ResourceSchema& schema, const Value& state);
  //! The module file (YAML), or "" when nothing was added.
  std::string Text() const;

 private:
  std::vector<std::string> resources_;  // each entry's lines under `resources:`
};

}  // namespace strata
