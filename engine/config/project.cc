#include "engine/config/project.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "engine/base/duration.h"
#include "engine/config/names.h"
#include "engine/config/yaml_doc.h"

namespace fs = std::filesystem;

namespace strata {

const StageConfig* ProjectConfig::FindStage(const std::string& stage_name) const {
  for (const auto& s : stages) {
    if (s.name == stage_name) return &s;
  }
  return nullptr;
}

std::optional<std::string> ProjectConfig::Escape(const std::string& from, const std::string& path) const {
  if (allow_paths_outside_project) return std::nullopt;
  std::error_code ec;
  fs::path target = fs::path(from) / path;  // `path` when it is absolute
  fs::path resolved = fs::weakly_canonical(target, ec);
  if (ec) resolved = target.lexically_normal();
  fs::path root = fs::weakly_canonical(root_dir, ec);
  if (ec) root = fs::path(root_dir);
  fs::path inside = resolved.lexically_relative(root);
  if (!inside.empty() && *inside.begin() != "..") return std::nullopt;
  return resolved.string();
}

std::string ProjectConfig::EscapeDetail(const std::string& what, const std::string& written,
                                        const std::string& resolved) {
  return fmt::format("{} {}{}, outside the project. Stage directories and modules must be inside the project (the "
                     "directory of strata.yaml): move it in, or set allow_paths_outside_project: true in strata.yaml "
                     "to allow paths outside.",
                     what, written, written == resolved ? "" : ", which is " + resolved);
}

std::string ProjectConfig::StatePath() const {
  fs::path p(state.path);
  return (p.is_absolute() ? p : fs::path(root_dir) / p).lexically_normal().string();
}

std::string ProjectConfig::SandboxPath() const {
  fs::path p(sandbox.path);
  return (p.is_absolute() ? p : fs::path(root_dir) / p).lexically_normal().string();
}

namespace {

// strata.yaml's numbers and booleans read as yaml-cpp's Node::as<T>() read them before (the
// README's examples rely on it): a number as a C++ stream reads it, with 0x and 0 prefixes
// for hexadecimal and octal; a boolean in YAML 1.1's words (y, yes, true, on and their
// negatives) in lower case, upper case or capitalised. Quoting does not matter.
template <typename T>
std::optional<T> ProjectScalarAs(const YamlNode& node) {
  if (!node.IsScalar()) return std::nullopt;
  std::stringstream stream(node.Scalar());
  stream.unsetf(std::ios::dec);
  T v{};
  if ((stream >> std::noskipws >> v) && (stream >> std::ws).eof()) return v;
  return std::nullopt;
}

std::optional<bool> ProjectScalarBool(const YamlNode& node) {
  if (!node.IsScalar()) return std::nullopt;
  const std::string& s = node.Scalar();
  auto all = [](std::string_view text, int (*is)(int)) {
    return std::all_of(text.begin(), text.end(), [is](char c) { return is(static_cast<unsigned char>(c)) != 0; });
  };
  bool flexible_case = all(s, std::islower) || (std::isupper(static_cast<unsigned char>(s[0])) &&
                                                (all(std::string_view(s).substr(1), std::islower) ||
                                                 all(std::string_view(s).substr(1), std::isupper)));
  if (!flexible_case) return std::nullopt;
  std::string lower = s;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto [yes, no] : {std::pair{"y", "n"}, {"yes", "no"}, {"true", "false"}, {"on", "off"}}) {
    if (lower == yes) return true;
    if (lower == no) return false;
  }
  return std::nullopt;
}

template <typename T>
void ReadNumber(const YamlFile& f, const YamlNode& node, const char* key, T& out, T min, T max,
                Diagnostics& diags) {
  if (!node[key]) return;
  std::optional<T> v = ProjectScalarAs<T>(node[key]);
  if (v && *v >= min && *v <= max) {
    out = *v;
  } else {
    diags.Error("Invalid value", fmt::format("{} must be a number from {} to {}.", key, min, max),
                NodeRange(f, node[key]));
  }
}

void ReadBool(const YamlFile& f, const YamlNode& node, const char* key, bool& out, Diagnostics& diags) {
  if (!node[key]) return;
  if (std::optional<bool> v = ProjectScalarBool(node[key])) {
    out = *v;
  } else {
    diags.Error("Invalid value", fmt::format("{} must be true or false.", key), NodeRange(f, node[key]));
  }
}

void LoadSandboxSettings(const YamlFile& f, const YamlNode& node, SandboxConfig& sandbox, Diagnostics& diags) {
  sandbox.range = NodeRange(f, node);
  if (!node.IsMap()) {
    diags.Error("Invalid sandbox settings", "sandbox must be a mapping such as { enabled: true, latency_ms: 50 }.",
                sandbox.range);
    return;
  }
  CheckKeys(f, node,
            {"enabled", "path", "latency_ms", "throttle_rate", "fault_rate", "seed", "cluster_delay_ms",
             "nodegroup_delay_ms", "workload_delay_ms", "load_balancer_delay_ms", "seed_certificates",
             "route53_change_delay_ms", "seed_hosted_zones", "efs_delay_ms", "fsx_delay_ms",
             "cognito_domain_delay_ms"},
            "the sandbox settings", diags);
  ReadBool(f, node, "enabled", sandbox.enabled, diags);
  if (node["path"]) sandbox.path = ScalarString(f, node["path"], "path", diags).value_or(sandbox.path);
  ReadNumber(f, node, "latency_ms", sandbox.latency_ms, 0, 600000, diags);
  ReadNumber(f, node, "throttle_rate", sandbox.throttle_rate, 0.0, 1.0, diags);
  ReadNumber(f, node, "fault_rate", sandbox.fault_rate, 0.0, 1.0, diags);
  ReadNumber(f, node, "seed", sandbox.seed, 0, 1 << 30, diags);
  ReadNumber(f, node, "cluster_delay_ms", sandbox.cluster_delay_ms, 0, 3600000, diags);
  ReadNumber(f, node, "nodegroup_delay_ms", sandbox.nodegroup_delay_ms, 0, 3600000, diags);
  ReadNumber(f, node, "workload_delay_ms", sandbox.workload_delay_ms, 0, 3600000, diags);
  ReadNumber(f, node, "load_balancer_delay_ms", sandbox.load_balancer_delay_ms, 0, 3600000, diags);
  if (const YamlNode domains = node["seed_certificates"]) {
    if (!domains.IsSequence()) {
      diags.Error("Invalid sandbox settings", "seed_certificates must be a list of domain names such as [\"*.example.com\"].",
                  NodeRange(f, domains));
    } else {
      for (const YamlNode& domain : domains) {
        if (auto name = ScalarString(f, domain, "seed_certificates", diags)) sandbox.seed_certificates.push_back(*name);
      }
    }
  }
  ReadNumber(f, node, "route53_change_delay_ms", sandbox.route53_change_delay_ms, 0, 3600000, diags);
  if (const YamlNode zones = node["seed_hosted_zones"]) {
    if (!zones.IsSequence()) {
      diags.Error("Invalid sandbox settings", "seed_hosted_zones must be a list of domain names such as [example.com].",
                  NodeRange(f, zones));
    } else {
      for (const YamlNode& zone : zones)
        if (auto name = ScalarString(f, zone, "seed_hosted_zones", diags)) sandbox.seed_hosted_zones.push_back(*name);
    }
  }
  ReadNumber(f, node, "efs_delay_ms", sandbox.efs_delay_ms, 0, 3600000, diags);
  ReadNumber(f, node, "fsx_delay_ms", sandbox.fsx_delay_ms, 0, 3600000, diags);
  ReadNumber(f, node, "cognito_domain_delay_ms", sandbox.cognito_domain_delay_ms, 0, 3600000, diags);
}

void LoadLimitsSettings(const YamlFile& f, const YamlNode& node, LimitsSettings& limits, Diagnostics& diags) {
  if (!node.IsMap()) {
    diags.Error("Invalid limits", "limits must be a mapping such as { max_instances: 50000 }.", NodeRange(f, node));
    return;
  }
  CheckKeys(f, node, {"max_instances"}, "the limits settings", diags);
  ReadNumber(f, node, "max_instances", limits.max_instances, 1, 1000000, diags);
  if (node["max_instances"]) limits.max_instances_range = NodeRange(f, node["max_instances"]);
}

void LoadLintSettings(const YamlFile& f, const YamlNode& node, LintSettings& lint, Diagnostics& diags) {
  if (!node.IsMap()) {
    diags.Error("Invalid lint settings", "lint must be a mapping such as { disable: [k8s-deprecated-api] }.", NodeRange(f, node));
    return;
  }
  CheckKeys(f, node, {"disable"}, "the lint settings", diags);
  const YamlNode disable = node["disable"];
  if (!disable) return;
  if (!disable.IsSequence()) {
    diags.Error("Invalid lint settings", "lint.disable must be a list of rule ids such as [k8s-deprecated-api].",
                NodeRange(f, disable));
    return;
  }
  for (const YamlNode& id : disable) {
    if (auto rule = ScalarString(f, id, "lint.disable", diags)) {
      lint.disable.push_back(*rule);
      lint.disable_ranges.push_back(NodeRange(f, id));
    }
  }
}

// PostgreSQL schema names the state store accepts (state/postgres/conninfo.h says the same).
bool ValidPostgresSchemaName(const std::string& name) {
  if (name.empty() || name.size() > 63 || (name[0] >= '0' && name[0] <= '9') || name.rfind("pg_", 0) == 0) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

void LoadStateSettings(const YamlFile& f, const YamlNode& node, StateSettings& state, Diagnostics& diags) {
  state.range = NodeRange(f, node);
  if (!node.IsMap()) {
    diags.Error("Invalid state settings", "state must be a mapping such as { backend: sqlite, path: .strata/state.db }.", state.range);
    return;
  }
  CheckKeys(f, node, {"backend", "path", "url", "schema", "key_file", "history_retention", "retry_timeout"},
            "the state settings", diags);
  if (node["backend"]) {
    state.backend = ScalarString(f, node["backend"], "backend", diags).value_or("sqlite");
    state.backend_given = true;
    if (state.backend != "sqlite" && state.backend != "postgres") {
      diags.Error("Unsupported state backend",
                  fmt::format("The backend \"{}\" is not supported; use sqlite or postgres.", state.backend),
                  NodeRange(f, node["backend"]));
    }
  }
  if (node["path"]) state.path = ScalarString(f, node["path"], "path", diags).value_or(state.path);
  if (node["url"]) state.url = ScalarString(f, node["url"], "url", diags).value_or("");
  if (node["schema"]) {
    state.schema = ScalarString(f, node["schema"], "schema", diags).value_or(state.schema);
    if (!ValidPostgresSchemaName(state.schema)) {
      diags.Error("Invalid PostgreSQL schema",
                  fmt::format("The schema \"{}\" is not a plain name: use lower-case letters, digits and '_', not "
                              "starting with a digit or pg_, at most 63 characters (e.g. strata or team_a_state).",
                              state.schema),
                  NodeRange(f, node["schema"]));
    }
  }
  for (const char* key : {"url", "schema"}) {
    if (node[key] && state.backend_given && state.backend == "sqlite") {
      diags.Error("Setting of another backend",
                  fmt::format("state.{} is a setting of the postgres backend, but the backend is sqlite: remove it, "
                              "or set backend: postgres.", key),
                  NodeRange(f, node[key]));
    }
  }
  if (node["path"] && state.backend == "postgres") {
    diags.Error("Setting of another backend",
                "state.path is the SQLite file, but the backend is postgres: remove it, or set backend: sqlite.",
                NodeRange(f, node["path"]));
  }
  if (node["key_file"]) state.key_file = ScalarString(f, node["key_file"], "key_file", diags).value_or("");
  if (node["history_retention"]) {
    if (std::optional<int> v = ProjectScalarAs<int>(node["history_retention"])) {
      state.history_retention = *v;
    } else {
      diags.Error("Invalid value", "history_retention must be a whole number (0 keeps every snapshot).",
                  NodeRange(f, node["history_retention"]));
    }
  }
  if (node["retry_timeout"]) {
    std::string text = ScalarString(f, node["retry_timeout"], "retry_timeout", diags).value_or("");
    auto d = base::ParseDuration(text);
    if (d && d->count() >= 0) {
      state.retry_timeout = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    } else {
      diags.Error("Invalid value",
                  fmt::format("retry_timeout \"{}\" is not a duration: write one such as 60s, 2m or 0s (no retry).", text),
                  NodeRange(f, node["retry_timeout"]));
    }
  }
}

void LoadStages(const YamlFile& f, const YamlNode& node, ProjectConfig& project, Diagnostics& diags) {
  if (!node.IsSequence()) {
    diags.Error("Invalid stages", "stages must be a list of { name, path }.", NodeRange(f, node));
    return;
  }
  std::map<std::string, SourceRange> seen;
  for (const auto& item : node) {
    SourceRange r = NodeRange(f, item);
    if (!item.IsMap()) {
      diags.Error("Invalid stage", "Each stage is a mapping such as { name: eks, path: 01-eks }.", r);
      continue;
    }
    CheckKeys(f, item, {"name", "path"}, "a stage", diags);
    StageConfig stage;
    stage.range = r;
    if (!item["name"]) {
      diags.Error("Missing stage name", "Each stage needs a name.", r);
      continue;
    }
    std::optional<std::string> name = ScalarString(f, item["name"], "name", diags);
    if (!name) continue;
    stage.name = *name;
    if (!IsValidName(stage.name)) {
      diags.Error(kInvalidNameSummary, InvalidNameDetail(stage.name), NodeRange(f, item["name"]));
      continue;
    }
    stage.path = item["path"] ? ScalarString(f, item["path"], "path", diags).value_or(stage.name) : stage.name;
    SourceRange path_range = item["path"] ? NodeRange(f, item["path"]) : r;
    auto [it, inserted] = seen.emplace(stage.name, r);
    if (!inserted) {
      diags.Error("Duplicate stage", fmt::format("A stage named \"{}\" is already declared at {}.", stage.name, it->second.ToString()), r);
      continue;
    }
    if (std::optional<std::string> outside = project.Escape(project.root_dir, stage.path)) {
      diags.Error("Stage directory outside the project",
                  ProjectConfig::EscapeDetail(fmt::format("The stage \"{}\" points at", stage.name), stage.path,
                                              *outside),
                  path_range);
      continue;
    }
    std::error_code ec;
    if (!fs::is_directory(fs::path(project.root_dir) / stage.path, ec)) {
      diags.Error("Stage directory not found",
                  fmt::format("The stage \"{}\" points at {}, which is not a directory under {}.", stage.name, stage.path, project.root_dir),
                  path_range);
    }
    project.stages.push_back(std::move(stage));
  }
}

}  // namespace

std::optional<ProjectConfig> LoadProject(const std::string& dir, SourceRegistry& sources, Diagnostics& diags) {
  fs::path root = fs::absolute(dir).lexically_normal();
  fs::path file = root / "strata.yaml";
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    diags.Error("No project file",
                fmt::format("There is no strata.yaml in {}. Run strata in a project directory, or pass -chdir=DIR.", root.string()));
    return std::nullopt;
  }
  std::optional<YamlDocument> doc = ReadYamlDocument(file.string(), sources, diags);
  if (!doc) return std::nullopt;
  ProjectConfig project;
  project.root_dir = root.string();
  if (project.root_dir.size() > 1 && project.root_dir.back() == '/') project.root_dir.pop_back();
  project.file = file.string();
  const YamlFile& f = doc->file;
  if (!doc->root.IsMap()) {
    diags.Error("Invalid project file", "strata.yaml must be a mapping with project, state and stages.", NodeRange(f, doc->root));
    return std::nullopt;
  }
  CheckKeys(f, doc->root, {"project", "state", "sandbox", "limits", "lint", "allow_paths_outside_project", "stages"}, "strata.yaml", diags);
  ReadBool(f, doc->root, "allow_paths_outside_project", project.allow_paths_outside_project, diags);
  if (doc->root["project"]) project.name = ScalarString(f, doc->root["project"], "project", diags).value_or("");
  if (doc->root["state"]) LoadStateSettings(f, doc->root["state"], project.state, diags);
  if (doc->root["sandbox"]) LoadSandboxSettings(f, doc->root["sandbox"], project.sandbox, diags);
  if (doc->root["limits"]) LoadLimitsSettings(f, doc->root["limits"], project.limits, diags);
  if (doc->root["lint"]) LoadLintSettings(f, doc->root["lint"], project.lint, diags);
  if (!doc->root["stages"]) {
    diags.Error("No stages", "strata.yaml needs a stages list, e.g. stages: [{ name: eks, path: 01-eks }].",
                NodeRange(f, doc->root));
  } else {
    LoadStages(f, doc->root["stages"], project, diags);
  }
  return project;
}

}  // namespace strata
