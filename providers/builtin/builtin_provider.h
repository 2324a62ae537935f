#pragma once
// The builtin provider: offline resource types with Terraform's semantics for the same names
// (null_resource, terraform_data, random_id, random_string, random_password, local_file,
// local_sensitive_file, time_sleep) plus exec, and the local_file data source. It takes no
// configuration. Its world (randomness, clock, files, processes) comes from a BuiltinEnv,
// so tests substitute fakes.

#include <memory>
#include <string>

#include "providers/builtin/resource_type.h"
#include "providers/typed_provider.h"

namespace strata {

class BuiltinProvider : public TypedProvider {
 public:
  explicit BuiltinProvider(BuiltinEnv env = BuiltinEnv::Real());

  std::string Name() const override { return "builtin"; }
  Diagnostics Configure(const OperationContext& ctx, const Value& config) override;
  //! Computed attributes still unknown become null before the type's create; any other
  //! unknown is reported as Strata's bug.
  ApplyResult CreateResource(const OperationContext& ctx, const std::string& type,
                             const Value& planned) override;

 private:
  ResourceSchema SettingsSchema() const override;
};

}  // namespace strata
