#pragma once
// The providers of one plan or apply: one instance per provider block (or per provider name
// when no block configures it), created from the registry and configured on first use with
// the block's evaluated settings. Safe to use from the walker's threads.

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "engine/core/evaluator.h"
#include "engine/graph/dag.h"
#include "providers/registry.h"

namespace strata {

class ProviderSet {
 public:
  explicit ProviderSet(const ProviderRegistry& registry) : registry_(registry) {}

  //! The provider serving `type`, configured with `settings` (the block at `block`, or
  //! kNoNode and null). Returns nullptr with an error in `diags` when no provider serves the
  //! type or Configure failed (the failure is reported once; later calls fail quietly).
  Provider* For(ResourceMode mode, const std::string& type, NodeId block, const Value& settings,
                const OperationContext& ctx, Diagnostics& diags);

  //! The provider name serving `type` ("builtin", "aws"), "" if none.
  std::string NameFor(ResourceMode mode, const std::string& type) const;
  //! The provider's source address, as plans and state record it ("strata/aws"; Terraform
  //! writes "registry.terraform.io/hashicorp/aws").
  static std::string SourceAddress(const std::string& name) { return "strata/" + name; }
  //! What plans and state record as an instance's provider: the source address of the
  //! provider serving it with the alias of the block that configures it ("strata/aws.west"),
  //! so that it is found again once its configuration, or its module, is gone.
  std::string RecordedName(const InstanceHookInput& in, const StageGraph& graph) const;

 private:
  struct Slot {
    std::once_flag once;
    std::unique_ptr<Provider> provider;
    bool ok = false;
  };

  const ProviderRegistry& registry_;
  std::mutex mu_;
  std::map<std::pair<std::string, NodeId>, std::unique_ptr<Slot>> slots_;
};

}  // namespace strata
