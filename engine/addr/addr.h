#pragma once
// Addresses are values: small immutable types with printing, parsing, equality and ordering.
// Plans, state, -target and diagnostics all speak in them.
//
//   module.eks.aws_eks_node_group.gpu["spot"]
//   └ModulePath┘└──── Resource ────┘└ key ┘   = AbsResourceInstance

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace strata {

//! An instance key: none (single instance), an index (count) or a string (for_each).
class InstanceKey {
 public:
  InstanceKey() = default;
  static InstanceKey Int(int64_t i) { return InstanceKey(Data(i)); }
  static InstanceKey String(std::string s) { return InstanceKey(Data(std::move(s))); }

  bool IsNone() const { return std::holds_alternative<std::monostate>(data_); }
  bool IsInt() const { return std::holds_alternative<int64_t>(data_); }
  bool IsString() const { return std::holds_alternative<std::string>(data_); }
  int64_t AsInt() const { return std::get<int64_t>(data_); }
  const std::string& AsString() const { return std::get<std::string>(data_); }
  //! "", "[3]" or "[\"spot\"]".
  std::string ToString() const;

  auto operator<=>(const InstanceKey&) const = default;
  bool operator==(const InstanceKey&) const = default;

 private:
  using Data = std::variant<std::monostate, int64_t, std::string>;
  explicit InstanceKey(Data d) : data_(std::move(d)) {}
  Data data_;
};

struct ModuleStep {
  std::string name;
  InstanceKey key;
  auto operator<=>(const ModuleStep&) const = default;
  bool operator==(const ModuleStep&) const = default;
};

//! The path of module calls from the stage root: empty for the root module.
struct ModulePath {
  std::vector<ModuleStep> steps;

  bool IsRoot() const { return steps.empty(); }
  ModulePath Child(std::string name, InstanceKey key = {}) const;
  //! The module calls without their instance keys: the path of the configuration that
  //! made the instance (module.ng["gpu"] → module.ng).
  ModulePath WithoutKeys() const;
  //! "module.a.module.b", or "" for the root.
  std::string ToString() const;
  auto operator<=>(const ModulePath&) const = default;
  bool operator==(const ModulePath&) const = default;
};

enum class ResourceMode { Managed, Data };

//! A resource block as declared: mode, type and name.
struct ResourceAddr {
  ResourceMode mode = ResourceMode::Managed;
  std::string type;
  std::string name;

  //! "aws_vpc.main" or "data.aws_region.current".
  std::string ToString() const;
  auto operator<=>(const ResourceAddr&) const = default;
  bool operator==(const ResourceAddr&) const = default;
};

//! One instance of a resource in one module instance.
struct ResourceInstanceAddr {
  ModulePath module;
  ResourceAddr resource;
  InstanceKey key;

  std::string ToString() const;
  //! The same address without the instance key.
  ResourceInstanceAddr WithoutKey() const { return {module, resource, {}}; }
  //! The declaration that made the instance: no instance key and no module instance keys
  //! (module.ng["gpu"].aws_x.y[0] → module.ng.aws_x.y), as the stage graph labels its
  //! resource nodes and as state records dependencies.
  ResourceInstanceAddr ConfigAddr() const { return {module.WithoutKeys(), resource, {}}; }
  auto operator<=>(const ResourceInstanceAddr&) const = default;
  bool operator==(const ResourceInstanceAddr&) const = default;
};

//! Terraform's order of instances in plans: by module instance (the root's first), then
//! data sources before managed resources, then type, name and key (indexes by value).
bool PlanOrderLess(const ResourceInstanceAddr& a, const ResourceInstanceAddr& b);

struct AddrParseResult {
  std::optional<ResourceInstanceAddr> addr;
  bool has_key = false;  // the text named an instance key explicitly
  std::string error;
};

//! Parses the printed form back; the error says what was expected.
AddrParseResult ParseResourceInstanceAddr(const std::string& text);

//! Parses "module.a.module.b[\"x\"]" (a whole module path, for -target).
std::optional<ModulePath> ParseModulePath(const std::string& text);

}  // namespace strata
