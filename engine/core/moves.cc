#include "engine/core/moves.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "engine/core/provider_set.h"

namespace strata {
namespace {

// One side of a statement: a module (instance) path, or a resource / instance address.
struct MoveEndpoint {
  std::optional<ModulePath> module;
  std::optional<ResourceInstanceAddr> resource;
  bool has_key = false;  // the address named an instance key

  std::string Kind() const { return module ? "a module" : has_key ? "a resource instance" : "a resource"; }
};

std::optional<MoveEndpoint> ParseMoveEndpoint(const std::string& text) {
  AddrParseResult r = ParseResourceInstanceAddr(text);
  if (r.addr) return MoveEndpoint{std::nullopt, r.addr, r.has_key};
  if (std::optional<ModulePath> m = ParseModulePath(text)) return MoveEndpoint{m, std::nullopt, false};
  return std::nullopt;
}

struct MoveStatement {
  MoveEndpoint from, to;
  const MovedConfig* config = nullptr;
};

bool StartsWith(const ModulePath& path, const ModulePath& prefix) {
  return prefix.steps.size() <= path.steps.size() && std::equal(prefix.steps.begin(), prefix.steps.end(), path.steps.begin());
}

// Where statement `s` sends an instance at `addr`, if it applies to it.
std::optional<ResourceInstanceAddr> Destination(const MoveStatement& s, const ResourceInstanceAddr& addr) {
  if (s.from.module) {
    if (!StartsWith(addr.module, *s.from.module)) return std::nullopt;
    ResourceInstanceAddr out = addr;
    out.module = *s.to.module;
    out.module.steps.insert(out.module.steps.end(), addr.module.steps.begin() + static_cast<long>(s.from.module->steps.size()),
                            addr.module.steps.end());
    return out;
  }
  const ResourceInstanceAddr& from = *s.from.resource;
  const ResourceInstanceAddr& to = *s.to.resource;
  if (!(addr.module == from.module) || !(addr.resource == from.resource)) return std::nullopt;
  if (s.from.has_key || s.to.has_key) {  // one instance: aws_x.y → aws_x.y[0] when count is added
    if (!(addr.key == from.key)) return std::nullopt;
    return to;
  }
  return ResourceInstanceAddr{to.module, to.resource, addr.key};
}

const ModuleInstance* DeclaredModule(const StageGraph& graph, const ModulePath& path) {
  ModulePath declared = path.WithoutKeys();
  for (const ModuleInstance& m : graph.modules) {
    if (m.path == declared) return &m;
  }
  return nullptr;
}

// The declaration of resource `addr` (module keys ignored), if config has one.
const SourceRange* DeclaredResource(const StageGraph& graph, const ResourceInstanceAddr& addr) {
  const ModuleInstance* m = DeclaredModule(graph, addr.module);
  if (!m) return nullptr;
  const auto& table = addr.resource.mode == ResourceMode::Data ? m->data : m->resources;
  auto it = table.find(addr.resource.name);
  if (it == table.end() || graph.nodes[it->second].resource->type != addr.resource.type) return nullptr;
  return &graph.nodes[it->second].range;
}

class MoveApplier {
 public:
  MoveApplier(const ModuleConfig& root, const StageGraph& graph, state::StageState& prior, Diagnostics& diags)
      : root_(root), graph_(graph), prior_(prior), diags_(diags) {}

  StateMoves Run() {
    RefuseStatementsInChildModules();
    // Statements in error are left out; the others still report what they would hit.
    Move(ParseMoves());
    ListForgotten();
    return std::move(out_);
  }

 private:
  // A module is shared by every call of it and cannot know its callers' addresses.
  void RefuseStatementsInChildModules() {
    std::set<const ModuleConfig*> seen;
    for (size_t i = 1; i < graph_.modules.size(); ++i) {
      const ModuleConfig* config = graph_.modules[i].config;
      if (!seen.insert(config).second) continue;
      auto refuse = [&](const char* what, const SourceRange& at) {
        diags_.Error(fmt::format("{} entries in a called module", what),
                     fmt::format("Strata reads {} entries in the stage's root module only. Move this entry there and write "
                                 "the addresses from the root, as in {}.{}",
                                 what, graph_.modules[i].path.ToString(), "aws_vpc.main"),
                     at);
      };
      for (const MovedConfig& m : config->moved) refuse("moved", m.range);
      for (const RemovedConfig& r : config->removed) refuse("removed", r.range);
      for (const ImportConfig& im : config->imports) refuse("import", im.range);
    }
  }

  std::vector<MoveStatement> ParseMoves() {
    std::vector<MoveStatement> statements;
    for (const MovedConfig& m : root_.moved) {
      std::optional<MoveEndpoint> from = Endpoint(m.from, m.from_range, "moved");
      std::optional<MoveEndpoint> to = Endpoint(m.to, m.to_range, "moved");
      if (!from || !to) continue;
      if (from->module.has_value() != to->module.has_value()) {
        diags_.Error("Invalid move",
                     fmt::format("This entry moves {} ({}) to {} ({}): both sides must be modules, or both resources.",
                                 from->Kind(), m.from, to->Kind(), m.to),
                     m.range);
        continue;
      }
      // Across types the target type's provider converts the state (the planner asks it).
      if (from->resource && (from->resource->resource.mode != ResourceMode::Managed ||
                             to->resource->resource.mode != ResourceMode::Managed)) {
        diags_.Error("Invalid move",
                     fmt::format("{} cannot move to {}: a move keeps the object, so both must be managed resources.",
                                 m.from, m.to),
                     m.range);
        continue;
      }
      if (StillDeclared(*from, *to)) {
        diags_.Error("Moved object still exists",
                     fmt::format("This entry moves {}, but the configuration still declares it{}. Remove or rename that "
                                 "declaration, or remove this entry.",
                                 m.from, declared_at_.empty() ? "" : " at " + declared_at_),
                     m.from_range);
        continue;
      }
      statements.push_back({*from, *to, &m});
    }
    return statements;
  }

  std::optional<MoveEndpoint> Endpoint(const std::string& text, const SourceRange& at, const char* what) {
    if (text.empty()) return std::nullopt;  // the loader reported it
    std::optional<MoveEndpoint> e = ParseMoveEndpoint(text);
    if (!e) {
      diags_.Error("Invalid address",
                   fmt::format("\"{}\" is not an address a {} entry can name: write a resource (aws_vpc.main), an instance "
                               "(aws_subnet.private[0], aws_subnet.private[\"a\"]) or a module (module.eks, "
                               "module.ng[\"gpu\"]).",
                               text, what),
                   at);
    }
    return e;
  }

  // Whether config still declares what `from` names (a key added to a module or resource,
  // module.a → module.a["x"], leaves the declaration in place, as it should).
  bool StillDeclared(const MoveEndpoint& from, const MoveEndpoint& to) {
    declared_at_.clear();
    if (from.module) {
      if (from.module->WithoutKeys() == to.module->WithoutKeys()) return false;
      const ModuleInstance* m = DeclaredModule(graph_, *from.module);
      if (m && m->call) declared_at_ = m->call->range.ToString();
      return m != nullptr;
    }
    if (from.has_key || to.has_key) return false;
    const SourceRange* at = DeclaredResource(graph_, *from.resource);
    if (at) declared_at_ = at->ToString();
    return at != nullptr;
  }

  void Move(const std::vector<MoveStatement>& statements) {
    if (statements.empty()) return;
    std::vector<std::pair<size_t, ResourceInstanceAddr>> renames;  // index in prior → new address
    std::vector<const MoveStatement*> by;                           // the last statement of each
    for (size_t i = 0; i < prior_.resources.size(); ++i) {
      const ResourceInstanceAddr original = prior_.resources[i].addr;
      ResourceInstanceAddr addr = original;
      std::set<ResourceInstanceAddr> visited = {addr};
      const MoveStatement* last = nullptr;
      for (bool moved = true; moved;) {
        moved = false;
        for (const MoveStatement& s : statements) {
          std::optional<ResourceInstanceAddr> next = Destination(s, addr);
          if (!next || *next == addr) continue;
          if (!visited.insert(*next).second) {
            diags_.Error("Cyclic move statements",
                         fmt::format("The moved entries send {} round in a circle back to {}. Remove one of them.",
                                     original.ToString(), next->ToString()),
                         s.config->range);
            return;
          }
          addr = *next;
          last = &s;
          moved = true;
          break;
        }
      }
      if (last) {
        renames.emplace_back(i, addr);
        by.push_back(last);
      }
    }
    std::map<ResourceInstanceAddr, size_t> held;  // addresses that stay where they are
    std::set<size_t> moving;
    for (const auto& [index, addr] : renames) moving.insert(index);
    for (size_t i = 0; i < prior_.resources.size(); ++i) {
      if (!moving.count(i)) held[prior_.resources[i].addr] = i;
    }
    std::set<ResourceInstanceAddr> taken;
    for (size_t k = 0; k < renames.size(); ++k) {
      const auto& [index, addr] = renames[k];
      if (held.count(addr) || !taken.insert(addr).second) {
        diags_.Error("Move onto an existing object",
                     fmt::format("This entry moves {} to {}, but state already holds an object there. Remove that object "
                                 "first (strata state rm {}) or move it elsewhere, or remove this entry.",
                                 prior_.resources[index].addr.ToString(), addr.ToString(), addr.ToString()),
                     by[k]->config->to_range);
      }
    }
    if (diags_.HasErrors()) return;  // nothing is renamed when any entry is in error
    for (size_t k = 0; k < renames.size(); ++k) {
      const auto& [index, addr] = renames[k];
      out_.previous[addr] = prior_.resources[index].addr;
      out_.entry[addr] = by[k]->config->range;
      prior_.resources[index].addr = addr;
    }
    std::sort(prior_.resources.begin(), prior_.resources.end(),
              [](const auto& a, const auto& b) { return a.addr.ToString() < b.addr.ToString(); });
  }

  void ListForgotten() {
    for (const RemovedConfig& r : root_.removed) {
      std::optional<MoveEndpoint> from = Endpoint(r.from, r.from_range, "removed");
      if (!from) continue;
      if (from->has_key) {
        diags_.Error("Invalid address",
                     fmt::format("A removed entry names a whole resource or module, not one instance: write {}.",
                                 from->resource->WithoutKey().ToString()),
                     r.from_range);
        continue;
      }
      const ModuleInstance* module = from->module ? DeclaredModule(graph_, *from->module) : nullptr;
      const SourceRange* resource = from->resource ? DeclaredResource(graph_, *from->resource) : nullptr;
      if (module || resource) {
        diags_.Error("Removed object still exists",
                     fmt::format("This entry removes {}, but the configuration still declares it at {}. Remove that "
                                 "declaration, or this entry.",
                                 r.from, module ? module->call->range.ToString() : resource->ToString()),
                     r.from_range);
        continue;
      }
      if (r.destroy) continue;  // an ordinary delete of what config no longer declares
      for (const state::ResourceInstanceState& s : prior_.resources) {
        bool hit = from->module ? StartsWith(s.addr.module, *from->module)
                                : s.addr.module == from->resource->module && s.addr.resource == from->resource->resource;
        if (hit) out_.forget.insert(s.addr);
      }
    }
  }

  const ModuleConfig& root_;
  const StageGraph& graph_;
  state::StageState& prior_;
  Diagnostics& diags_;
  StateMoves out_;
  std::string declared_at_;
};

}  // namespace

std::optional<state::ResourceInstanceState> ConvertMovedInstance(const ProviderRegistry& providers,
                                                                 const state::ResourceInstanceState& instance,
                                                                 const ResourceInstanceAddr& to, Diagnostics& diags) {
  state::ResourceInstanceState out = instance;
  out.addr = to;
  const std::string& from_type = instance.addr.resource.type;
  const std::string& to_type = to.resource.type;
  if (from_type == to_type) return out;
  MoveStateRequest request{instance.addr.ToString(), to.ToString(), instance.provider, from_type,
                           instance.schema_version, instance.attributes, to_type};
  std::optional<std::string> name = providers.ProviderFor(ResourceMode::Managed, to_type);
  std::unique_ptr<Provider> provider = name ? providers.Create(*name) : nullptr;
  if (!provider) {
    diags.Error("Cannot move across resource types",
                fmt::format("{} cannot move to {}: no provider serves the resource type {}.", request.from_address,
                            request.to_address, to_type));
    return std::nullopt;
  }
  if (!instance.deposed.empty() || !instance.attributes.IsMapping()) {
    diags.Error("Cannot move across resource types",
                fmt::format("{} cannot move to {}: it has {} object. Run strata apply first, then move it.",
                            request.from_address, request.to_address,
                            instance.deposed.empty() ? "an interrupted create and no" : "a deposed"));
    return std::nullopt;
  }
  MoveResult moved = provider->MoveResourceState(request);
  diags.AppendFor(moved.diags, request.to_address);
  if (moved.diags.HasErrors()) return std::nullopt;
  out.attributes = moved.state;
  const ResourceSchema* schema = providers.SchemaOf(*name) ? providers.SchemaOf(*name)->Find(ResourceMode::Managed, to_type) : nullptr;
  out.schema_version = schema ? schema->version : 0;
  if (providers.ProviderFor(ResourceMode::Managed, from_type) != name) out.provider = ProviderSet::SourceAddress(*name);
  return out;
}

StateMoves ApplyMoveStatements(const ModuleConfig& root, const StageGraph& graph, state::StageState& prior,
                               Diagnostics& diags) {
  return MoveApplier(root, graph, prior, diags).Run();
}

}  // namespace strata
