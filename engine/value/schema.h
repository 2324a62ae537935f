#pragma once
// Schemas of resource and data source types: which attributes exist, their types, and
// whether they are required, optional or computed, force replacement, or are sensitive.
// Providers publish them; the engine validates config and types resource values with them.

#include <map>
#include <optional>
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

//! How a managed type finds the object an interrupted create made (the process died after
//! the create was sent, before its answer was recorded), so that the create is never sent
//! twice blindly. Every managed type declares one; the plan names it for an interrupted
//! create, and the README lists it per type.
enum class CreateRecovery {
  Unspecified,  //!< not declared: a defect (a test checks every registered type)
  ClientToken,  //!< the API takes a client token: the create is sent again with the same one
  CreateTag,    //!< the create call tags the object with its token; recovery looks it up by that tag
  NaturalKey,   //!< the object has a unique key (a name, a route's destination); recovery reads it
  StateOnly,    //!< nothing exists outside Strata's state: creating again loses and doubles nothing
  Rerun,        //!< a user command, run again with the same token in its environment
};
//! "client_token", "create_tag", "natural_key", "state_only", "rerun" ("" for Unspecified).
const char* CreateRecoveryName(CreateRecovery recovery);
std::optional<CreateRecovery> ParseCreateRecovery(const std::string& name);

struct ResourceSchema {
  std::string type;
  ResourceMode mode = ResourceMode::Managed;
  std::map<std::string, AttributeSchema> attributes;
  //! The type accepts any attributes (a schema learned at run time, e.g. a Kubernetes
  //! manifest); listed attributes are still checked.
  bool dynamic = false;
  int version = 0;
  //! Managed types: how an interrupted create is recovered.
  CreateRecovery create_recovery = CreateRecovery::Unspecified;
};

//! Where the engine finds schemas; implemented by the provider registry.
class SchemaSource {
 public:
  virtual ~SchemaSource() = default;
  virtual const ResourceSchema* Find(ResourceMode mode, const std::string& type) const = 0;
  virtual std::vector<std::string> TypeNames(ResourceMode mode) const = 0;
  //! The settings a provider block of provider `name` takes ("region", "host"...); nullptr
  //! when unknown (then the block's arguments are not checked).
  virtual const ResourceSchema* ProviderSettings(const std::string& name) const {
    (void)name;
    return nullptr;
  }
  //! The providers a `providers:` block may configure; empty when unknown (then any name).
  virtual std::vector<std::string> ProviderNames() const { return {}; }
};

}  // namespace strata
