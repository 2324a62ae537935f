#include "providers/provider.h"

namespace strata {

const ResourceSchema* ProviderSchema::Find(ResourceMode mode, const std::string& type) const {
  const auto& list = mode == ResourceMode::Data ? data_sources : resources;
  for (const ResourceSchema& s : list) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

}  // namespace strata
