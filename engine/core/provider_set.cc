#include "engine/core/provider_set.h"

#include <fmt/format.h>

#include "engine/core/provider_blocks.h"

namespace strata {

std::string ProviderSet::NameFor(ResourceMode mode, const std::string& type) const {
  return registry_.ProviderFor(mode, type).value_or("");
}

std::string ProviderSet::RecordedName(const InstanceHookInput& in, const StageGraph& graph) const {
  // After module calls' `providers:` mappings: the block's own name.
  std::string block = in.provider_node != kNoNode ? graph.nodes[in.provider_node].name : ProviderKeyOf(*in.graph_node->resource);
  return SourceAddress(NameFor(in.addr.resource.mode, in.addr.resource.type) + ProviderAliasSuffix(block));
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
