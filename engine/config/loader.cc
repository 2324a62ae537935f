#include "engine/config/loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "engine/base/duration.h"
#include "engine/config/names.h"
#include "engine/config/yaml_doc.h"
#include "engine/config/yaml_expr.h"
#include "engine/expr/eval.h"
#include "engine/expr/nodes.h"
#include "engine/expr/parser.h"

namespace fs = std::filesystem;

namespace strata {
namespace {

const std::vector<std::string> kTopLevelKeys = {"variables", "locals", "providers", "data",  "resources",
                                                "modules",   "outputs", "moved",     "removed", "import"};

// A Kubernetes manifest (a document with apiVersion and kind at the top) left beside the
// module files: one error that says what it is and where it belongs, instead of an
// "is not expected" for each of its keys.
std::optional<ForeignFile> KubernetesManifest(const std::vector<YamlNode>& documents) {
  for (const auto& doc : documents) {
    if (doc.IsMap() && doc["apiVersion"] && doc["kind"]) {
      return ForeignFile{"Kubernetes manifest among module files",
                         "This looks like a Kubernetes manifest (apiVersion/kind), not a Strata module file; put "
                         "manifests in a subdirectory such as manifests/ and read them with kubernetes_documents(...)."};
    }
  }
  return std::nullopt;
}

class ModuleLoader {
 public:
  ModuleLoader(SourceRegistry& sources, Diagnostics& diags) : sources_(sources), diags_(diags) {}

  std::shared_ptr<const ModuleConfig> Load(const fs::path& dir, const SourceRange& called_from) {
    std::error_code ec;
    std::string key = fs::weakly_canonical(dir, ec).lexically_normal().string();
    if (ec) key = fs::absolute(dir).lexically_normal().string();
    if (auto it = cache_.find(key); it != cache_.end()) return it->second;
    if (std::find(stack_.begin(), stack_.end(), key) != stack_.end()) {
      diags_.Error("Module calls itself", fmt::format("The module in {} calls itself, directly or through other modules.", key),
                   called_from);
      return nullptr;
    }
    stack_.push_back(key);
    auto module = std::make_shared<ModuleConfig>();
    module->dir = key;
    for (const auto& file : YamlFilesIn(key, called_from)) LoadFile(*module, file);
    stack_.pop_back();
    cache_[key] = module;
    return module;
  }

 private:
  std::vector<fs::path> YamlFilesIn(const fs::path& dir, const SourceRange& called_from) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      diags_.Error("Module directory not found", fmt::format("There is no directory {}.", dir.string()), called_from);
      return files;
    }
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      auto ext = entry.path().extension();
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
      diags_.Error("Empty module", fmt::format("The directory {} holds no *.yaml files.", dir.string()), called_from);
    }
    return files;
  }

  void LoadFile(ModuleConfig& module, const fs::path& path) {
    std::optional<YamlDocument> doc = ReadYamlDocument(path.string(), sources_, diags_, KubernetesManifest);
    if (!doc) {
      module.has_errors = true;
      return;
    }
    module.files.push_back(doc->file.path);
    const YamlFile& file = doc->file;
    const YamlNode& root = doc->root;
    if (root.IsNull()) return;
    if (!root.IsMap()) {
      diags_.Error("Invalid module file", "A module file must be a mapping with keys such as variables, resources, outputs.",
                   NodeRange(file, root));
      return;
    }
    CheckKeys(file, root, kTopLevelKeys, "a module file", diags_);
    for (const auto& kv : root) {
      std::string section = kv.first.Scalar();
      const YamlNode& body = kv.second;
      if (body.IsNull()) continue;
      if (section == "moved" || section == "removed" || section == "import") {
        LoadStatements(module, file, section, body);
        continue;
      }
      if (!body.IsMap()) {
        diags_.Error("Invalid section", fmt::format("\"{}\" must be a mapping of names to declarations.", section),
                     NodeRange(file, body));
        continue;
      }
      for (const auto& entry : body) {
        bool valid = entry.first.IsScalar() &&
                     (section == "providers" ? IsProviderKey(entry.first.Scalar()) : IsValidName(entry.first.Scalar()));
        if (!valid) {
          diags_.Error("Invalid name",
                       fmt::format("\"{}\" is not a valid name: use letters, digits, underscores and dashes, starting "
                                   "with a letter or underscore.",
                                   entry.first.IsScalar() ? entry.first.Scalar() : "?"),
                       NodeRange(file, entry.first));
          continue;
        }
        LoadEntry(module, file, section, entry.first, entry.second);
      }
    }
  }

  void LoadEntry(ModuleConfig& m, const YamlFile& f, const std::string& section, const YamlNode& key, const YamlNode& v) {
    std::string name = key.Scalar();
    SourceRange range = NodeRange(f, key);
    if (section == "variables") {
      if (CheckUnique(m.variables, name, range, "variable")) m.variables[name] = LoadVariable(f, name, range, v);
    } else if (section == "locals") {
      if (CheckUnique(m.locals, name, range, "local value")) m.locals[name] = {name, NodeToExpr(f, v, diags_), range};
    } else if (section == "providers") {
      if (CheckUnique(m.providers, name, range, "provider configuration")) m.providers[name] = {name, NodeToExpr(f, v, diags_), range};
    } else if (section == "resources" || section == "data") {
      bool data = section == "data";
      auto& table = data ? m.data : m.resources;
      if (CheckUnique(table, name, range, data ? "data source" : "resource")) {
        table[name] = LoadResource(f, name, range, v, data ? ResourceMode::Data : ResourceMode::Managed);
      }
    } else if (section == "modules") {
      if (CheckUnique(m.modules, name, range, "module call")) m.modules[name] = LoadModuleCall(m, f, name, range, v);
    } else if (section == "outputs") {
      if (CheckUnique(m.outputs, name, range, "output")) m.outputs[name] = LoadOutput(f, name, range, v);
    }
  }

  // moved:, removed: and import: are lists of statements, not named declarations.
  void LoadStatements(ModuleConfig& m, const YamlFile& f, const std::string& section, const YamlNode& body) {
    if (!body.IsSequence()) {
      diags_.Error("Invalid section",
                   fmt::format("\"{}\" must be a list of entries, as in {}:\n  - {}", section, section,
                               section == "moved"     ? "{ from: aws_vpc.old, to: aws_vpc.main }"
                               : section == "removed" ? "{ from: aws_vpc.old, lifecycle: { destroy: false } }"
                                                      : "{ to: aws_vpc.main, id: vpc-0123 }"),
                   NodeRange(f, body));
      return;
    }
    for (const auto& item : body) {
      if (!RequireMap(f, item, fmt::format("An entry of {}", section))) continue;
      if (section == "moved") {
        m.moved.push_back(LoadMoved(f, item));
      } else if (section == "removed") {
        m.removed.push_back(LoadRemoved(f, item));
      } else {
        m.imports.push_back(LoadImport(f, item));
      }
    }
  }

  // A required plain string of a statement (an address): its value and range.
  std::string StatementAddress(const YamlFile& f, const YamlNode& v, const char* key, const char* section,
                               SourceRange& range) {
    range = NodeRange(f, v);
    if (!v[key]) {
      diags_.Error(fmt::format("Missing {}", key), fmt::format("A {} entry needs {}: an address.", section, key), range);
      return "";
    }
    range = NodeRange(f, v[key]);
    return ScalarString(f, v[key], key, diags_).value_or("");
  }

  MovedConfig LoadMoved(const YamlFile& f, const YamlNode& v) {
    MovedConfig moved;
    moved.range = NodeRange(f, v);
    CheckKeys(f, v, {"from", "to"}, "a moved entry", diags_);
    moved.from = StatementAddress(f, v, "from", "moved", moved.from_range);
    moved.to = StatementAddress(f, v, "to", "moved", moved.to_range);
    return moved;
  }

  RemovedConfig LoadRemoved(const YamlFile& f, const YamlNode& v) {
    RemovedConfig removed;
    removed.range = NodeRange(f, v);
    CheckKeys(f, v, {"from", "lifecycle"}, "a removed entry", diags_);
    removed.from = StatementAddress(f, v, "from", "removed", removed.from_range);
    if (const YamlNode lifecycle = v["lifecycle"]) {
      if (RequireMap(f, lifecycle, "lifecycle")) {
        CheckKeys(f, lifecycle, {"destroy"}, "the lifecycle of a removed entry", diags_);
        if (lifecycle["destroy"]) removed.destroy = ScalarBool(f, lifecycle["destroy"], "destroy", diags_).value_or(true);
      }
    }
    return removed;
  }

  ImportConfig LoadImport(const YamlFile& f, const YamlNode& v) {
    ImportConfig import;
    import.range = NodeRange(f, v);
    CheckKeys(f, v, {"to", "id", "for_each", "provider"}, "an import entry", diags_);
    for (const char* key : {"to", "id"}) {
      if (!v[key]) {
        diags_.Error(fmt::format("Missing {}", key),
                     fmt::format("An import entry needs {}, as in {{ to: aws_vpc.main, id: vpc-0123 }}.", key), import.range);
      }
    }
    if (v["to"]) {
      import.to = NodeToExpr(f, v["to"], diags_);
      if (v["to"].IsScalar()) import.to_text = v["to"].Scalar();
    }
    if (v["id"]) import.id = NodeToExpr(f, v["id"], diags_);
    if (v["for_each"]) import.for_each = NodeToExpr(f, v["for_each"], diags_);
    if (v["provider"]) {
      import.provider_range = NodeRange(f, v["provider"]);
      import.provider = ScalarString(f, v["provider"], "provider", diags_).value_or("");
      if (!import.provider.empty() && !IsProviderKey(import.provider)) {
        diags_.Error("Invalid provider reference",
                     fmt::format("\"{}\" is not a provider block name: write the provider's name (aws) or an alias "
                                 "block's (aws.us_east_1), as declared under providers:.",
                                 import.provider),
                     import.provider_range);
      }
    }
    return import;
  }

  template <typename Map>
  bool CheckUnique(const Map& table, const std::string& name, const SourceRange& range, const char* what) {
    auto it = table.find(name);
    if (it == table.end()) return true;
    diags_.Error(fmt::format("Duplicate {}", what),
                 fmt::format("A {} named \"{}\" is already declared at {}. Names must be unique within a module, "
                             "across all of its files.",
                             what, name, it->second.range.ToString()),
                 range);
    return false;
  }

  bool RequireMap(const YamlFile& f, const YamlNode& v, const std::string& what) {
    if (v.IsMap()) return true;
    diags_.Error("Invalid declaration", fmt::format("{} must be a mapping.", what), NodeRange(f, v));
    return false;
  }

  VariableConfig LoadVariable(const YamlFile& f, const std::string& name, const SourceRange& range, const YamlNode& v) {
    VariableConfig var;
    var.name = name;
    var.range = range;
    if (v.IsNull()) return var;
    if (!RequireMap(f, v, fmt::format("Variable \"{}\"", name))) return var;
    CheckKeys(f, v, {"type", "default", "description", "sensitive", "nullable", "validation"}, "a variable", diags_);
    if (v["type"]) {
      if (auto text = ScalarString(f, v["type"], "type", diags_)) {
        TypeParseResult t = ParseType(*text);
        if (t.type) {
          var.type = *t.type;
        } else {
          SourceRange r = NodeRange(f, v["type"]);
          diags_.Error("Invalid type constraint", fmt::format("{} (in \"{}\").", t.error, *text), r);
        }
      }
    }
    if (v["default"]) var.default_value = NodeToExpr(f, v["default"], diags_);
    if (v["description"]) var.description = ScalarString(f, v["description"], "description", diags_).value_or("");
    if (v["sensitive"]) var.sensitive = ScalarBool(f, v["sensitive"], "sensitive", diags_).value_or(false);
    if (v["nullable"]) var.nullable = ScalarBool(f, v["nullable"], "nullable", diags_).value_or(true);
    if (v["validation"]) var.validations = LoadValidations(f, v["validation"]);
    return var;
  }

  std::vector<ValidationRule> LoadValidations(const YamlFile& f, const YamlNode& node) {
    std::vector<ValidationRule> rules;
    std::vector<YamlNode> items;
    if (node.IsMap()) {
      items.push_back(node);
    } else if (node.IsSequence()) {
      for (const auto& item : node) items.push_back(item);
    } else {
      diags_.Error("Invalid validation", "validation must be a list of {condition, message}.", NodeRange(f, node));
    }
    for (const auto& item : items) {
      if (!RequireMap(f, item, "A validation rule")) continue;
      CheckKeys(f, item, {"condition", "message", "error_message"}, "a validation rule", diags_);
      ValidationRule rule;
      rule.range = NodeRange(f, item);
      if (!item["condition"]) {
        diags_.Error("Missing validation condition", "A validation rule needs a condition.", rule.range);
        continue;
      }
      rule.condition = NodeToExpr(f, item["condition"], diags_);
      YamlNode message = item["message"] ? item["message"] : item["error_message"];
      if (!message) {
        diags_.Error("Missing validation message", "A validation rule needs a message saying what is wrong.", rule.range);
        continue;
      }
      rule.message = NodeToExpr(f, message, diags_);
      rules.push_back(std::move(rule));
    }
    return rules;
  }

  std::vector<DependsOnConfig> LoadDependsOn(const YamlFile& f, const YamlNode& node) {
    std::vector<DependsOnConfig> out;
    if (!node.IsSequence()) {
      diags_.Error("Invalid depends_on", "depends_on must be a list of references such as [vpc, module.eks].", NodeRange(f, node));
      return out;
    }
    for (const auto& item : node) {
      auto text = ScalarString(f, item, "A depends_on entry", diags_);
      if (!text) continue;
      std::string s = *text;
      if (s.size() > 3 && s.rfind("${", 0) == 0 && s.back() == '}') s = s.substr(2, s.size() - 3);
      SourceRange r = NodeRange(f, item);
      Diagnostics local;
      ExprPtr e = ParseExpression(s, SourceMapping{f.path, r.start.line, r.start.column, r.start.column}, local);
      auto* traversal = dynamic_cast<ScopeTraversalExpr*>(e.get());
      if (!traversal) {
        diags_.Error("Invalid depends_on", fmt::format("\"{}\" is not a reference; write a name such as vpc, data.azs or module.eks.", *text), r);
        continue;
      }
      out.push_back({traversal->reference()});
    }
    return out;
  }

  ResourceConfig LoadResource(const YamlFile& f, const std::string& name, const SourceRange& range, const YamlNode& v,
                              ResourceMode mode) {
    ResourceConfig r;
    r.mode = mode;
    r.name = name;
    r.range = range;
    const char* what = mode == ResourceMode::Data ? "data source" : "resource";
    if (!RequireMap(f, v, fmt::format("The {} \"{}\"", what, name))) return r;
    std::vector<std::string> keys = {"type", "properties", "count", "for_each", "depends_on", "provider"};
    if (mode == ResourceMode::Managed) keys.insert(keys.end(), {"lifecycle", "timeouts"});
    // A data source's timeouts get the error below that says they take none, not this one.
    if (mode == ResourceMode::Data && v["timeouts"]) keys.push_back("timeouts");
    if (mode == ResourceMode::Data && v["timeouts"]) {
      diags_.Error("Timeouts on a data source",
                   fmt::format("Data sources take no timeouts in Strata: each is read within its provider's own "
                               "limits. Remove timeouts from data source \"{}\"; resources accept them.",
                               name),
                   TimeoutsKeyRange(f, v));
    }
    CheckKeys(f, v, keys, fmt::format("a {}", what), diags_);
    if (!v["type"]) {
      std::string hint = v["value"] ? " It has a value and no type: if it is an output, move it under outputs:." : "";
      diags_.Error("Missing resource type",
                   fmt::format("The {} \"{}\" needs a type, such as aws_vpc or null_resource.{}", what, name, hint), range);
    } else if (auto t = ScalarString(f, v["type"], "type", diags_)) {
      r.type = *t;
      r.type_range = NodeRange(f, v["type"]);
      if (!IsValidName(r.type)) diags_.Error("Invalid resource type", fmt::format("\"{}\" is not a valid type name.", r.type), r.type_range);
    }
    if (v["properties"]) {
      if (!v["properties"].IsMap() && !v["properties"].IsNull()) {
        diags_.Error("Invalid properties", "properties must be a mapping of attribute names to values.", NodeRange(f, v["properties"]));
      } else {
        r.properties = NodeToExpr(f, v["properties"], diags_);
      }
    }
    if (v["count"]) r.count = NodeToExpr(f, v["count"], diags_);
    if (v["for_each"]) r.for_each = NodeToExpr(f, v["for_each"], diags_);
    if (r.count && r.for_each) {
      diags_.Error("Invalid combination of count and for_each",
                   "count and for_each cannot both be set: use one way of making several instances.", NodeRange(f, v["for_each"]));
    }
    if (v["depends_on"]) r.depends_on = LoadDependsOn(f, v["depends_on"]);
    if (mode == ResourceMode::Managed && v["lifecycle"]) r.lifecycle = LoadLifecycle(f, v["lifecycle"]);
    if (mode == ResourceMode::Managed && v["timeouts"]) r.timeouts = LoadTimeouts(f, v["timeouts"]);
    if (v["provider"]) {
      r.provider_range = NodeRange(f, v["provider"]);
      if (auto p = ScalarString(f, v["provider"], "provider", diags_)) {
        r.provider = *p;
        if (!IsProviderKey(r.provider)) {
          diags_.Error("Invalid provider reference",
                       fmt::format("\"{}\" is not a provider block name: write the provider's name (aws) or an alias "
                                   "block's (aws.us_east_1), as declared under providers:.",
                                   r.provider),
                       r.provider_range);
        }
      }
    }
    return r;
  }

  LifecycleConfig LoadLifecycle(const YamlFile& f, const YamlNode& v) {
    LifecycleConfig l;
    l.range = NodeRange(f, v);
    if (!RequireMap(f, v, "lifecycle")) return l;
    CheckKeys(f, v, {"prevent_destroy", "create_before_destroy", "ignore_changes"}, "lifecycle", diags_);
    if (v["prevent_destroy"]) l.prevent_destroy = ScalarBool(f, v["prevent_destroy"], "prevent_destroy", diags_).value_or(false);
    if (v["create_before_destroy"]) {
      l.create_before_destroy = ScalarBool(f, v["create_before_destroy"], "create_before_destroy", diags_).value_or(false);
    }
    if (const YamlNode ic = v["ignore_changes"]) {
      if (ic.IsScalar() && ic.Scalar() == "all") {
        l.ignore_changes.push_back("all");
      } else if (ic.IsSequence()) {
        for (const auto& item : ic) {
          if (auto s = ScalarString(f, item, "An ignore_changes entry", diags_)) l.ignore_changes.push_back(*s);
        }
      } else {
        diags_.Error("Invalid ignore_changes", "ignore_changes must be a list of attribute names, or all.", NodeRange(f, ic));
      }
    }
    return l;
  }

  // The range of the `timeouts` key of resource mapping `v`.
  static SourceRange TimeoutsKeyRange(const YamlFile& f, const YamlNode& v) {
    for (const auto& kv : v) {
      if (kv.first.IsScalar() && kv.first.Scalar() == "timeouts") return NodeRange(f, kv.first);
    }
    return NodeRange(f, v);
  }

  // Terraform's timeouts block: literal Go durations (time.ParseDuration), each longer than
  // zero, for the operations every managed type has. A null value is the same as none.
  TimeoutsConfig LoadTimeouts(const YamlFile& f, const YamlNode& v) {
    TimeoutsConfig t;
    t.range = NodeRange(f, v);
    if (!v.IsMap()) {
      diags_.Error("Invalid timeouts",
                   "timeouts must be a mapping of operations to durations, such as { create: \"30m\", delete: \"1h\" }.",
                   t.range);
      return t;
    }
    CheckKeys(f, v, {"create", "read", "update", "delete"}, "timeouts", diags_);
    for (const auto& kv : v) {
      if (!kv.first.IsScalar() || kv.second.IsNull()) continue;
      std::string op = kv.first.Scalar();
      if (op != "create" && op != "read" && op != "update" && op != "delete") continue;
      if (auto text = TimeoutDuration(f, op, kv.second)) t.durations[op] = *text;
    }
    return t;
  }

  // One timeouts value, checked; nullopt (reported) when it is not a duration we accept.
  std::optional<std::string> TimeoutDuration(const YamlFile& f, const std::string& op, const YamlNode& value) {
    SourceRange at = NodeRange(f, value);
    const char* examples = "such as \"90s\", \"30m\", \"1h30m\" or \"2.5h\"";
    if (!value.IsScalar()) {
      diags_.Error("Invalid timeout", fmt::format("timeouts.{} must be a duration string, {}.", op, examples), at);
      return std::nullopt;
    }
    const std::string& text = value.Scalar();
    if (text.find("${") != std::string::npos) {
      diags_.Error("Invalid timeout",
                   fmt::format("timeouts.{} is \"{}\": timeouts take a literal duration, not an expression, {}.", op,
                               text, examples),
                   at);
      return std::nullopt;
    }
    std::string error;
    std::optional<std::chrono::nanoseconds> d = base::ParseGoDuration(text, &error);
    if (!d) {
      diags_.Error("Invalid timeout",
                   fmt::format("timeouts.{} is \"{}\", which is not a duration ({}). Write a number with a unit "
                               "(ns, us, ms, s, m, h), {}.",
                               op, text, error, examples),
                   at);
      return std::nullopt;
    }
    if (d->count() <= 0) {
      diags_.Error("Invalid timeout", fmt::format("timeouts.{} is \"{}\": a timeout must be longer than zero.", op, text),
                   at);
      return std::nullopt;
    }
    return text;
  }

  ModuleCallConfig LoadModuleCall(const ModuleConfig& parent, const YamlFile& f, const std::string& name,
                                  const SourceRange& range, const YamlNode& v) {
    ModuleCallConfig call;
    call.name = name;
    call.range = range;
    if (!RequireMap(f, v, fmt::format("The module call \"{}\"", name))) return call;
    CheckKeys(f, v, {"source", "inputs", "count", "for_each", "depends_on", "providers"}, "a module call", diags_);
    if (!v["source"]) {
      diags_.Error("Missing module source", fmt::format("The module call \"{}\" needs a source: a relative path such as ../../modules/eks.", name), range);
      return call;
    }
    auto source = ScalarString(f, v["source"], "source", diags_);
    if (!source) return call;
    call.source = *source;
    call.source_range = NodeRange(f, v["source"]);
    if (const YamlNode inputs = v["inputs"]) {
      if (inputs.IsMap()) {
        for (const auto& kv : inputs) {
          std::optional<std::string> input = MappingKey(f, kv.first, call.input_ranges, diags_);
          if (input) call.inputs[*input] = NodeToExpr(f, kv.second, diags_);
        }
      } else if (!inputs.IsNull()) {
        diags_.Error("Invalid inputs", "inputs must be a mapping of the module's variable names to values.", NodeRange(f, inputs));
      }
    }
    if (v["count"]) call.count = NodeToExpr(f, v["count"], diags_);
    if (v["for_each"]) call.for_each = NodeToExpr(f, v["for_each"], diags_);
    if (call.count && call.for_each) {
      diags_.Error("Invalid combination of count and for_each",
                   "count and for_each cannot both be set: use one way of making several instances.", NodeRange(f, v["for_each"]));
    }
    if (v["depends_on"]) call.depends_on = LoadDependsOn(f, v["depends_on"]);
    if (const YamlNode providers = v["providers"]) LoadProviderMapping(f, providers, call);
    if (!(call.source.rfind("./", 0) == 0 || call.source.rfind("../", 0) == 0 || fs::path(call.source).is_absolute())) {
      diags_.Error("Invalid module source",
                   fmt::format("\"{}\" is not a local path. Module sources are directories given relative to the calling "
                               "module, starting with ./ or ../.",
                               call.source),
                   call.source_range);
      return call;
    }
    call.module = Load(fs::path(parent.dir) / call.source, call.source_range);
    return call;
  }

  // A module call's providers: { aws: aws.us_east_1 }: block names inside the module to the
  // caller's block names.
  void LoadProviderMapping(const YamlFile& f, const YamlNode& v, ModuleCallConfig& call) {
    if (!v.IsMap()) {
      diags_.Error("Invalid providers", "providers must map the module's provider names to this module's blocks, "
                                        "as in providers: { aws: aws.us_east_1 }.",
                   NodeRange(f, v));
      return;
    }
    for (const auto& kv : v) {
      std::optional<std::string> inner = ScalarString(f, kv.first, "A provider name", diags_);
      std::optional<std::string> outer = ScalarString(f, kv.second, "A provider block name", diags_);
      if (!inner || !outer) continue;
      for (const auto& [key, node] : {std::pair{*inner, kv.first}, std::pair{*outer, kv.second}}) {
        if (!IsProviderKey(key)) {
          diags_.Error("Invalid provider reference",
                       fmt::format("\"{}\" is not a provider block name: write aws or aws.ALIAS.", key), NodeRange(f, node));
        }
      }
      call.providers[*inner] = *outer;
      call.provider_ranges[*inner] = NodeRange(f, kv.second);
    }
  }

  OutputConfig LoadOutput(const YamlFile& f, const std::string& name, const SourceRange& range, const YamlNode& v) {
    OutputConfig out;
    out.name = name;
    out.range = range;
    if (!RequireMap(f, v, fmt::format("The output \"{}\"", name))) return out;
    if (v["type"] && !v["value"]) {
      // A resource written under outputs: one error that says where it belongs.
      diags_.Error("Misplaced resource",
                   fmt::format("\"{}\" is written under outputs:, but it has a type and no value: it looks like a "
                               "resource. Move it under resources: (or data: for a data source).",
                               name),
                   range);
      return out;
    }
    CheckKeys(f, v, {"value", "sensitive", "description", "depends_on"}, "an output", diags_);
    if (!v["value"]) {
      diags_.Error("Missing output value", fmt::format("The output \"{}\" needs a value.", name), range);
    } else {
      out.value = NodeToExpr(f, v["value"], diags_);
    }
    if (v["sensitive"]) out.sensitive = ScalarBool(f, v["sensitive"], "sensitive", diags_).value_or(false);
    if (v["description"]) out.description = ScalarString(f, v["description"], "description", diags_).value_or("");
    if (v["depends_on"]) out.depends_on = LoadDependsOn(f, v["depends_on"]);
    return out;
  }

  SourceRegistry& sources_;
  Diagnostics& diags_;
  std::map<std::string, std::shared_ptr<const ModuleConfig>> cache_;
  std::vector<std::string> stack_;
};

}  // namespace

std::shared_ptr<const ModuleConfig> LoadModule(const std::string& dir, SourceRegistry& sources, Diagnostics& diags) {
  return ModuleLoader(sources, diags).Load(dir, SourceRange{});
}

}  // namespace strata
