#pragma once
// The dispatch every provider made of ResourceTypes shares: a provider registers its
// resource and data source types by name, and each Provider call goes to the named type,
// with the answer normalized to the type's schema. A provider on top of it adds only its
// settings (the provider block's schema and Configure) and, when it cannot serve calls
// before Configure, says so in NotReady(). BuiltinProvider and AwsProvider are the models.

#include <map>
#include <memory>
#include <string>

#include "providers/provider.h"
#include "providers/resource_type.h"

namespace strata {

class TypedProvider : public Provider {
 public:
  //! The provider block's schema and every registered type's published schema.
  ProviderSchema Schema() const override;
  //! A resource's type->Validate(config) (nothing for a data source).
  Diagnostics ValidateResourceConfig(const OperationContext& ctx, ResourceMode mode, const std::string& type,
                                     const Value& config) override;
  ReadResult ReadResource(const OperationContext& ctx, const std::string& type, const Value& prior) override;
  //! The resource type's ReadsInBatches(); false for an unknown type.
  bool ReadsInBatches(const std::string& type) const override;
  //! The type's ReadMany, each state normalized; FindResource's error in every result.
  std::vector<ReadResult> ReadResources(const OperationContext& ctx, const std::string& type,
                                        const std::vector<Value>& priors) override;
  PlanResult PlanResourceChange(const OperationContext& ctx, const std::string& type, const Value& prior,
                                const Value& proposed, const Value& config) override;
  //! The type's CreateOrAdopt: an interrupted create is looked for before anything is made.
  ApplyResult CreateResource(const OperationContext& ctx, const std::string& type, const Value& planned) override;
  ApplyResult UpdateResource(const OperationContext& ctx, const std::string& type, const Value& prior,
                             const Value& planned) override;
  DeleteResult DeleteResource(const OperationContext& ctx, const std::string& type, const Value& prior) override;
  ReadResult FindInterruptedCreate(const OperationContext& ctx, const std::string& type,
                                   const Value& planned) override;
  ApplyResult ImportResource(const OperationContext& ctx, const std::string& type, const std::string& id) override;
  ReadResult ReadDataSource(const OperationContext& ctx, const std::string& type, const Value& config) override;
  //! The target type's MoveFrom, given the source type when this provider registered it.
  //! Needs no configuration.
  MoveResult MoveResourceState(const MoveStateRequest& request) const override;
  //! The resource type's OrderingClass(value); 0 for an unknown type.
  int OrderingClass(const std::string& type, const Value& value) const override;

 protected:
  //! Registers a type under its schema's name (one registration line per type).
  void Add(std::unique_ptr<ResourceType> type);
  void Add(std::unique_ptr<DataSourceType> type);

  //! The schema of the provider block (its settings); the type is the provider's name.
  virtual ResourceSchema SettingsSchema() const = 0;
  //! Why the provider cannot serve calls yet (e.g. not configured); empty when it can.
  virtual Diagnostics NotReady() const { return {}; }

  //! The resource type `type`, or null with an error (unknown type, or NotReady()).
  ResourceType* FindResource(const std::string& type, Diagnostics& diags) const;

 private:
  //! `call(type)` for the resource type, or a result carrying FindResource's error.
  template <typename R, typename F>
  R Dispatch(const std::string& type, F&& call) const;
  //! The same, with the state that comes back normalized to the type's schema.
  template <typename R, typename F>
  R DispatchNormalized(const std::string& type, F&& call) const;

  std::map<std::string, std::unique_ptr<ResourceType>> resources_;
  std::map<std::string, std::unique_ptr<DataSourceType>> data_sources_;
};

}  // namespace strata
