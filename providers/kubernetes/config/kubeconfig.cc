#include "providers/kubernetes/config/kubeconfig.h"

#include <cctype>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "engine/base/base64.h"
#include "engine/base/file.h"
#include "engine/value/yaml_bounds.h"

namespace strata::kubernetes {
namespace {

namespace fs = std::filesystem;

std::string Where(const std::string& file, const YAML::Mark& mark) {
  if (mark.line < 0) return file;
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

// The members of one entry's body, read with their positions for messages.
class BodyReader {
 public:
  BodyReader(const YAML::Node& body, const std::string& file, Diagnostics& diags)
      : body_(body), file_(file), diags_(diags) {}

  //! A string member; "" when absent or null.
  std::string String(const char* key) const {
    YAML::Node n = body_[key];
    if (!n || n.IsNull()) return "";
    if (!n.IsScalar()) {
      Error(n, fmt::format("\"{}\" must be a string.", key));
      return "";
    }
    return n.Scalar();
  }

  bool Bool(const char* key) const {
    YAML::Node n = body_[key];
    if (!n || n.IsNull()) return false;
    if (n.IsScalar() && (n.Scalar() == "true" || n.Scalar() == "false")) return n.Scalar() == "true";
    Error(n, fmt::format("\"{}\" must be true or false.", key));
    return false;
  }

  //! A base64 member (`<key>-data`) decoded; "" when absent, nullopt when malformed.
  std::optional<std::string> Data(const char* key) const {
    std::string text = String(key);
    std::erase_if(text, [](char c) { return c == '\n' || c == '\r' || c == ' ' || c == '\t'; });
    if (text.empty()) return std::string();
    std::optional<std::string> bytes = base::Base64Decode(text, base::Base64Input::kStrict);
    if (!bytes) Error(body_[key], fmt::format("\"{}\" is not valid base64: write the PEM file's bytes base64-encoded.", key));
    return bytes;
  }

  //! A path member resolved against the file's directory; "" when absent.
  std::string Path(const char* key) const {
    std::string path = String(key);
    if (path.empty() || fs::path(path).is_absolute()) return path;
    return (fs::path(file_).parent_path() / path).lexically_normal().string();
  }

  //! The contents of the file a path member names; "" when absent, nullopt when unreadable.
  std::optional<std::string> FileContents(const char* key) const {
    std::string path = Path(key);
    if (path.empty()) return std::string();
    std::optional<std::string> text = base::ReadFile(path);
    if (!text) Error(body_[key], fmt::format("\"{}\" names {}, which cannot be read: check the path (a relative path is relative to the kubeconfig file).", key, path));
    return text;
  }

  //! `<key>-data` when set, else the file named by `<key>`.
  std::optional<std::string> DataOrFile(const std::string& key) const {
    std::string data_key = key + "-data";
    if (!String(data_key.c_str()).empty()) return Data(data_key.c_str());
    return FileContents(key.c_str());
  }

  void Error(const YAML::Node& at, const std::string& detail) const {
    diags_.Error("Invalid kubeconfig", fmt::format("{}: {}", Where(file_, at ? at.Mark() : body_.Mark()), detail));
  }

  const YAML::Node& body() const { return body_; }
  const std::string& file() const { return file_; }

 private:
  YAML::Node body_;
  const std::string& file_;
  Diagnostics& diags_;
};

std::optional<ExecConfig> ReadExec(const BodyReader& user, Diagnostics& diags) {
  YAML::Node node = user.body()["exec"];
  if (!node || node.IsNull()) return std::nullopt;
  if (!node.IsMap()) {
    user.Error(node, "\"exec\" must be a mapping with apiVersion, command, args and env.");
    return std::nullopt;
  }
  BodyReader exec(node, user.file(), diags);
  ExecConfig config;
  config.where = Where(user.file(), node.Mark());
  config.api_version = exec.String("apiVersion");
  config.command = exec.String("command");
  if (config.command.find('/') != std::string::npos) config.command = exec.Path("command");
  config.interactive_mode = exec.String("interactiveMode");
  config.provide_cluster_info = exec.Bool("provideClusterInfo");
  config.install_hint = exec.String("installHint");
  if (config.command.empty()) exec.Error(node, "the exec plugin has no \"command\".");
  if (YAML::Node args = node["args"]; args && !args.IsNull()) {
    if (!args.IsSequence()) {
      exec.Error(args, "\"args\" must be a list of strings.");
    } else {
      for (const YAML::Node& a : args) config.args.push_back(a.IsScalar() ? a.Scalar() : "");
    }
  }
  if (YAML::Node env = node["env"]; env && !env.IsNull()) {
    if (!env.IsSequence()) {
      exec.Error(env, "\"env\" must be a list of {name, value}.");
    } else {
      for (const YAML::Node& e : env) {
        BodyReader item(e, user.file(), diags);
        if (!e.IsMap() || item.String("name").empty()) {
          exec.Error(e, "each \"env\" entry needs a name and a value.");
          continue;
        }
        config.env.emplace_back(item.String("name"), item.String("value"));
      }
    }
  }
  return config;
}

}  // namespace

std::vector<std::string> KubeconfigPaths(const std::optional<std::string>& kubeconfig_env, const std::string& home) {
  std::vector<std::string> paths;
  if (kubeconfig_env && !kubeconfig_env->empty()) {
    std::istringstream list(*kubeconfig_env);
    for (std::string part; std::getline(list, part, ':');) {
      if (!part.empty()) paths.push_back(part);
    }
    return paths;
  }
  paths.push_back((fs::path(home) / ".kube" / "config").string());
  return paths;
}

std::optional<Kubeconfig> Kubeconfig::Load(const std::vector<std::string>& paths, bool missing_is_error,
                                           Diagnostics& diags) {
  Kubeconfig config;
  size_t errors = diags.ErrorCount();
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
      if (missing_is_error) {
        diags.Error("Kubeconfig not found",
                    fmt::format("{} does not exist: check config_path, or leave it out to use KUBECONFIG or "
                                "~/.kube/config.",
                                path));
      }
      continue;
    }
    std::optional<std::string> text = base::ReadFile(path);
    if (!text) {
      diags.Error("Kubeconfig unreadable", fmt::format("{} cannot be read: check its permissions.", path));
      continue;
    }
    config.AddFile(path, *text, diags);
  }
  if (diags.ErrorCount() > errors) return std::nullopt;
  return config;
}

bool Kubeconfig::AddFile(const std::string& path, const std::string& text, Diagnostics& diags) {
  BoundedYaml parsed = ParseBoundedYaml(text);
  if (parsed.problem) {
    diags.Error("Invalid kubeconfig", fmt::format("{}: {}.", Where(path, parsed.problem->mark), parsed.problem->message));
    return false;
  }
  if (parsed.documents.empty() || parsed.documents[0].IsNull()) return true;  // an empty file adds nothing
  const YAML::Node& root = parsed.documents[0];
  BodyReader file(root, path, diags);
  if (parsed.documents.size() > 1) {
    file.Error(parsed.documents[1], "a kubeconfig is one YAML document: merge the documents, or list the files in "
                                    "KUBECONFIG.");
    return false;
  }
  if (!root.IsMap()) {
    file.Error(root, "a kubeconfig is a mapping with clusters, users, contexts and current-context.");
    return false;
  }
  struct Section {
    const char* list;
    const char* body;
    std::map<std::string, Entry>* table;
  };
  for (const Section& s : {Section{"clusters", "cluster", &clusters_}, Section{"users", "user", &users_},
                           Section{"contexts", "context", &contexts_}}) {
    YAML::Node list = root[s.list];
    if (!list || list.IsNull()) continue;
    if (!list.IsSequence()) {
      file.Error(list, fmt::format("\"{}\" must be a list of {{name, {}}}.", s.list, s.body));
      continue;
    }
    for (const YAML::Node& item : list) {
      BodyReader entry(item, path, diags);
      std::string name = item.IsMap() ? entry.String("name") : "";
      if (name.empty()) {
        file.Error(item, fmt::format("each entry of \"{}\" needs a name and a \"{}\" mapping.", s.list, s.body));
        continue;
      }
      YAML::Node body = item[s.body];
      if (!body || !body.IsMap()) {
        entry.Error(body ? body : item, fmt::format("the \"{}\" of {} \"{}\" must be a mapping.", s.body, s.body, name));
        continue;
      }
      s.table->emplace(name, Entry{body, path});  // the first file to define a name wins
    }
  }
  if (current_context_.empty()) current_context_ = file.String("current-context");
  return true;
}

std::vector<std::string> Kubeconfig::ContextNames() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : contexts_) names.push_back(name);
  return names;
}

const Kubeconfig::Entry* Kubeconfig::Lookup(const std::map<std::string, Entry>& table, const std::string& kind,
                                            const std::string& name, const std::string& context,
                                            Diagnostics& diags) const {
  if (name.empty()) {
    diags.Error("Kubeconfig " + kind + " not named",
                fmt::format("Context \"{}\" names no {}: add `{}: NAME` to it.", context, kind, kind));
    return nullptr;
  }
  auto it = table.find(name);
  if (it != table.end()) return &it->second;
  std::vector<std::string> names;
  for (const auto& [n, entry] : table) names.push_back(n);
  diags.Error("Kubeconfig " + kind + " not found",
              fmt::format("Context \"{}\" names {} \"{}\", which no kubeconfig file defines (its {}s: {}).", context,
                          kind, name, kind, Joined(names)));
  return nullptr;
}

std::optional<KubeConnection> Kubeconfig::Resolve(const std::string& name, Diagnostics& diags) const {
  std::string context_name = name.empty() ? current_context_ : name;
  if (context_name.empty()) {
    diags.Error("No kubeconfig context",
                fmt::format("The kubeconfig sets no current-context: name one with config_context (its contexts: {}).",
                            Joined(ContextNames())));
    return std::nullopt;
  }
  auto context = contexts_.find(context_name);
  if (context == contexts_.end()) {
    diags.Error("Kubeconfig context not found",
                fmt::format("No kubeconfig file defines context \"{}\" (its contexts: {}): check config_context or the "
                            "current-context.",
                            context_name, Joined(ContextNames())));
    return std::nullopt;
  }
  size_t errors = diags.ErrorCount();
  BodyReader ctx(context->second.body, context->second.file, diags);
  KubeConnection out;
  out.context = context_name;
  if (std::string ns = ctx.String("namespace"); !ns.empty()) out.namespace_name = ns;

  const Entry* cluster_entry = Lookup(clusters_, "cluster", ctx.String("cluster"), context_name, diags);
  if (cluster_entry) {
    BodyReader cluster(cluster_entry->body, cluster_entry->file, diags);
    out.server = cluster.String("server");
    if (out.server.empty()) cluster.Error(cluster.body(), "the cluster has no \"server\": write its https address.");
    out.insecure = cluster.Bool("insecure-skip-tls-verify");
    out.tls_server_name = cluster.String("tls-server-name");
    out.ca_pem = cluster.DataOrFile("certificate-authority").value_or("");
  }
  if (std::string user_name = ctx.String("user"); !user_name.empty()) {
    if (const Entry* user_entry = Lookup(users_, "user", user_name, context_name, diags)) {
      BodyReader user(user_entry->body, user_entry->file, diags);
      out.token = user.String("token");
      if (out.token.empty()) {
        std::string token = user.FileContents("tokenFile").value_or("");
        while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
        out.token = token;
      }
      out.client_certificate_pem = user.DataOrFile("client-certificate").value_or("");
      out.client_key_pem = user.DataOrFile("client-key").value_or("");
      out.exec = ReadExec(user, diags);
      if (YAML::Node provider = user.body()["auth-provider"]; provider && !provider.IsNull()) {
        user.Error(provider, "auth-provider plugins are not supported: use an exec credential plugin (for EKS: "
                             "`aws eks get-token`), a token, or a client certificate.");
      }
      if (!user.String("username").empty()) {
        user.Error(user.body()["username"], "basic authentication (username/password) is not supported by "
                                            "Kubernetes since 1.19: use a token, a client certificate or an exec "
                                            "plugin.");
      }
    }
  }
  if (diags.ErrorCount() > errors) return std::nullopt;
  return out;
}

}  // namespace strata::kubernetes
