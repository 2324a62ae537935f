#include "engine/core/provider_set.h"

#include <fmt/format.h>

namespace strata {

std::string ProviderSet::NameFor(ResourceMode mode, const std::string& type) const {
  return registry_.ProviderFor(mode, type).value_or("");
}

Provider* ProviderSet::For(ResourceMode mode, const std::string& type, NodeId block, const Value& settings,
                           const OperationContext& ctx, Diagnostics& diags) {
  std::string name = NameFor(mode, type);
  if (name.empty()) {
    diags.Error("No provider for resource type",
                fmt::format("No provider compiled into this Strata serves the {} type \"{}\".",
                            mode == ResourceMode::Data ? "data source" : "resource", type));
    return nullptr;
  }
  Slot* slot = nullptr;
  {
    std::lock_guard lock(mu_);
    auto& entry = slots_[{name, block}];
    if (!entry) entry = std::make_unique<Slot>();
    slot = entry.get();
  }
  std::call_once(slot->once, [&] {
    slot->provider = registry_.Create(name);
    Diagnostics configured = slot->provider->Configure(ctx, settings);
    slot->ok = !configured.HasErrors();
    diags.AppendFor(configured, "provider." + name);
  });
  return slot->ok ? slot->provider.get() : nullptr;
}

}  // namespace strata
