#pragma once
// Config is source, not values: each module's declarations with their unevaluated
// expressions and the source range of every declaration. Evaluation happens in engine/core.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/addr/addr.h"
#include "engine/diag/source.h"
#include "engine/expr/ast.h"
#include "engine/value/type.h"

namespace strata {

struct ValidationRule {
  ExprRef condition;
  ExprRef message;  // a string or template
  SourceRange range;
};

struct VariableConfig {
  std::string name;
  std::optional<Type> type;  // nullopt: any
  ExprRef default_value;     // null when the variable is required
  std::string description;
  bool sensitive = false;
  bool nullable = true;
  std::vector<ValidationRule> validations;
  SourceRange range;
};

struct LocalConfig {
  std::string name;
  ExprRef value;
  SourceRange range;
};

struct ProviderConfig {
  std::string name;  // aws, kubernetes ..., or NAME.ALIAS for a further block of one provider
  ExprRef settings;  // an object expression
  SourceRange range;
};

//! One `depends_on` entry, parsed as a reference (vpc, data.azs, module.eks).
struct DependsOnConfig {
  Reference ref;
};

struct LifecycleConfig {
  bool prevent_destroy = false;
  bool create_before_destroy = false;
  std::vector<std::string> ignore_changes;  // attribute paths, "all" for everything
  SourceRange range;
};

//! `timeouts:` — Terraform's timeouts block: how long each provider call on an instance may
//! take, by operation ("create", "update", "delete", "read"), as Go durations written in the
//! file ("30m", "1h30m"). The loader has checked every value; an operation not listed keeps
//! its type's own limit.
struct TimeoutsConfig {
  std::map<std::string, std::string> durations;
  SourceRange range;
};

struct ResourceConfig {
  ResourceMode mode = ResourceMode::Managed;
  std::string name;
  std::string type;
  ExprRef properties;  // object expression; null when absent
  ExprRef count;
  ExprRef for_each;
  std::vector<DependsOnConfig> depends_on;
  LifecycleConfig lifecycle;
  TimeoutsConfig timeouts;  // managed resources only
  //! `provider:` — the provider block that configures it: "aws" or an alias block such as
  //! "aws.us_east_1"; empty: the default block of the type's provider.
  std::string provider;
  SourceRange range;           // the declaration's name key
  SourceRange type_range;      // the `type:` value
  SourceRange provider_range;  // the `provider:` value

  ResourceAddr Addr() const { return {mode, type, name}; }
};

struct ModuleConfig;

struct ModuleCallConfig {
  std::string name;
  std::string source;  // as written
  SourceRange source_range;
  std::map<std::string, ExprRef> inputs;
  std::map<std::string, SourceRange> input_ranges;
  //! `count:` / `for_each:` — several instances of the module (module.ng["gpu"]); each
  //! instance's inputs see count.index or each.key / each.value. Null when absent.
  ExprRef count;
  ExprRef for_each;
  std::vector<DependsOnConfig> depends_on;
  //! `providers:` — which of the caller's blocks serves a block name inside the module
  //! ({ aws: aws.us_east_1 }: the module's default aws is the caller's alias), as
  //! Terraform's module `providers` argument. Names not listed are found as the caller finds them.
  std::map<std::string, std::string> providers;
  std::map<std::string, SourceRange> provider_ranges;  // of each mapping's value
  SourceRange range;
  std::shared_ptr<const ModuleConfig> module;  // the loaded child; null if it failed to load
};

struct OutputConfig {
  std::string name;
  ExprRef value;
  bool sensitive = false;
  std::string description;
  std::vector<DependsOnConfig> depends_on;
  SourceRange range;
};

//! `moved:` — one entry of the list: an object in state takes a new address instead of being
//! destroyed and created again (Terraform's moved block). Addresses are relative to the
//! module the entry is in: resources (aws_vpc.old), instances (aws_subnet.a[0],
//! aws_subnet.a["x"]) or module calls and instances (module.old, module.ng["gpu"]).
struct MovedConfig {
  std::string from, to;  // as written
  SourceRange range, from_range, to_range;
};

//! `removed:` — one entry: a resource or module no longer in config whose objects leave
//! state; with `lifecycle: { destroy: false }` they are forgotten, not destroyed.
struct RemovedConfig {
  std::string from;
  bool destroy = true;
  SourceRange range, from_range;
};

//! `import:` — one entry: an existing object taken into state at `to` from its `id`, during
//! the plan that finds the instance in config and not in state. `to` is a template that
//! yields an address (aws_subnet.private["${each.key}"]); `for_each` makes one import per
//! element.
struct ImportConfig {
  ExprRef to;
  std::string to_text;  // as written, for the declaration it names (its ${...} keys aside)
  ExprRef id;
  ExprRef for_each;
  std::string provider;  // the provider block that reads it; empty: the target's
  SourceRange range, provider_range;
};

//! One directory of *.yaml files, merged.
struct ModuleConfig {
  std::string dir;  // absolute
  std::vector<std::string> files;
  std::map<std::string, VariableConfig> variables;
  std::map<std::string, LocalConfig> locals;
  std::map<std::string, ProviderConfig> providers;
  std::map<std::string, ResourceConfig> resources;  // managed, by name
  std::map<std::string, ResourceConfig> data;       // data sources, by name
  std::map<std::string, ModuleCallConfig> modules;
  std::map<std::string, OutputConfig> outputs;
  std::vector<MovedConfig> moved;
  std::vector<RemovedConfig> removed;
  std::vector<ImportConfig> imports;
  //! A file of this module failed to load: what it declares may be missing, so checks
  //! that depend on completeness (undeclared inputs, outputs) stay quiet.
  bool has_errors = false;
};

}  // namespace strata
