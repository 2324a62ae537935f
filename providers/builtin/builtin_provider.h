#pragma once
// The builtin provider: offline resource types with Terraform's semantics for the same names
// (null_resource, terraform_data, random_id, random_string, random_password, local_file,
// local_sensitive_file, time_sleep) plus exec, and the local_file data source. It takes no
// configuration. Its world (randomness, clock, files, processes) comes from a BuiltinEnv,
// so tests substitute fakes.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "providers/builtin/resource_type.h"
#include "providers/provider.h"

namespace strata {

class BuiltinProvider : public Provider {
 public:
  explicit BuiltinProvider(BuiltinEnv env = BuiltinEnv::Real());

  std::string Name() const override { return "builtin"; }
  ProviderSchema Schema() const override;
  Diagnostics Configure(const OperationContext& ctx, const Value& config) override;
  Diagnostics ValidateResourceConfig(const OperationContext& ctx, ResourceMode mode,
                                     const std::string& type, const Value& config) override;
  ReadResult ReadResource(const OperationContext& ctx, const std::string& type,
                          const Value& prior) override;
  PlanResult PlanResourceChange(const OperationContext& ctx, const std::string& type,
                                const Value& prior, const Value& proposed,
                                const Value& config) override;
  ApplyResult CreateResource(const OperationContext& ctx, const std::string& type,
                             const Value& planned) override;
  ApplyResult UpdateResource(const OperationContext& ctx, const std::string& type,
                             const Value& prior, const Value& planned) override;
  DeleteResult DeleteResource(const OperationContext& ctx, const std::string& type,
                              const Value& prior) override;
  ReadResult FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                   const Value& planned) override;
  ApplyResult ImportResource(const OperationContext& ctx, const std::string& type,
                             const std::string& id) override;
  ReadResult ReadDataSource(const OperationContext& ctx, const std::string& type,
                            const Value& config) override;

 private:
  ResourceType* Find(const std::string& type, Diagnostics& diags) const;
  //! `read(type)` with its state normalized to the type's schema; an error when unknown.
  ReadResult ReadWith(const std::string& type, const std::function<ReadResult(ResourceType&)>& read) const;

  std::map<std::string, std::unique_ptr<ResourceType>> resources_;
  std::map<std::string, std::unique_ptr<DataSourceType>> data_sources_;
};

}  // namespace strata
