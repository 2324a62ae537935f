#include "providers/provider.h"

#include <fmt/format.h>

namespace strata {

const ResourceSchema* ProviderSchema::Find(ResourceMode mode, const std::string& type) const {
  const auto& list = mode == ResourceMode::Data ? data_sources : resources;
  for (const ResourceSchema& s : list) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

Diagnostics CannotMoveAcrossTypes(const MoveStateRequest& request, const std::string& why) {
  Diagnostics diags;
  diags.Error("Cannot move across resource types",
              fmt::format("{} ({}) cannot move to {} ({}): {}. A move keeps the remote object, so the target type "
                          "must hold the same object. To change the type of something else, take the old address "
                          "out of state (a `removed` entry with destroy: false, or strata state rm {}) and import "
                          "the object under the new address (an `import` entry, or strata import {} ID).",
                          request.from_address, request.from_type, request.to_address, request.to_type, why,
                          request.from_address, request.to_address));
  return diags;
}

MoveResult Provider::MoveResourceState(const MoveStateRequest& request) const {
  MoveResult result;
  result.diags = CannotMoveAcrossTypes(
      request, fmt::format("the {} provider converts no other type's state into {}", Name(), request.to_type));
  return result;
}

}  // namespace strata
