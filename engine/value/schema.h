#pragma once
// Schemas of resource and data source types: which attributes exist, their types, and
// whether they are required, optional or computed, force replacement, or are sensitive.
// Providers publish them; the engine validates config and types resource values with them.

#include <map>
#include <string>
#include <vector>

#include "engine/addr/addr.h"
#include "engine/value/type.h"

namespace strata {

struct AttributeSchema {
  Type type;
  bool required = false;
  bool optional = false;
  bool computed = false;   // set by the provider (possibly also optional: set if not given)
  bool force_new = false;  // a change replaces the resource
  bool sensitive = false;
  std::string description;
};

struct ResourceSchema {
  std::string type;
  ResourceMode mode = ResourceMode::Managed;
  std::map<std::string, AttributeSchema> attributes;
  //! The type accepts any attributes (a schema learned at run time, e.g. a Kubernetes
  //! manifest); listed attributes are still checked.
  bool dynamic = false;
  int version = 0;
};

//! Where the engine finds schemas; implemented by the provider registry.
class SchemaSource {
 public:
  virtual ~SchemaSource() = default;
  virtual const ResourceSchema* Find(ResourceMode mode, const std::string& type) const = 0;
  virtual std::vector<std::string> TypeNames(ResourceMode mode) const = 0;
};

}  // namespace strata
