#pragma once
// Kubeconfig files, read as kubectl and client-go read them: the files of KUBECONFIG (or
// ~/.kube/config) merged, one context chosen, and the connection it names resolved —
// server, CA, client certificate and key, token, or an exec credential plugin. Reading only:
// nothing here contacts a cluster or runs a plugin.
//
// Merging (client-go's rules): for each cluster, user and context name the first file that
// defines it wins, and current-context comes from the first file that sets one. Relative
// paths in a file (certificate-authority, client-certificate, client-key, tokenFile, and an
// exec command holding a '/') are resolved against that file's directory. The *-data members
// are base64. Every problem is a diagnostic that names the file:line:col and says what to do.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "engine/diag/diagnostic.h"

namespace strata::kubernetes {

//! users[].user.exec: a client.authentication.k8s.io credential plugin, as written.
struct ExecConfig {
  std::string api_version;  // e.g. "client.authentication.k8s.io/v1"
  std::string command;
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;
  std::string interactive_mode;  // "Never", "IfAvailable", "Always"; "" when unset
  bool provide_cluster_info = false;
  std::string install_hint;  // shown when the command cannot be found
  std::string where;  // "file:line:col" of the exec block, for messages
};

//! One context, resolved to what a client needs to reach its cluster.
struct KubeConnection {
  std::string context;
  std::string server;
  std::string ca_pem;  // empty: the system's roots
  bool insecure = false;
  std::string tls_server_name;
  std::string namespace_name = "default";
  std::string token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  std::optional<ExecConfig> exec;
};

//! The files to read: KUBECONFIG split on ':' (empty entries skipped) when it is set and not
//! empty, else `home`/.kube/config.
std::vector<std::string> KubeconfigPaths(const std::optional<std::string>& kubeconfig_env, const std::string& home);

class Kubeconfig {
 public:
  //! Reads and merges `paths` in order. A file that does not exist is skipped (as kubectl
  //! skips the missing entries of KUBECONFIG) unless `missing_is_error` (a config_path
  //! written in the provider block); when none exists, the result is empty. A file that
  //! does not parse is an error with its position. nullopt only on errors.
  static std::optional<Kubeconfig> Load(const std::vector<std::string>& paths, bool missing_is_error,
                                        Diagnostics& diags);

  //! The context `name`, or the current context when `name` is empty, with the cluster and
  //! user it names: referenced files read, data decoded. Errors say which context, cluster
  //! or user is missing (and which exist), or which member is malformed, with file:line:col.
  std::optional<KubeConnection> Resolve(const std::string& name, Diagnostics& diags) const;

  const std::string& current_context() const { return current_context_; }
  std::vector<std::string> ContextNames() const;
  bool empty() const { return contexts_.empty() && clusters_.empty() && users_.empty(); }

 private:
  //! A named entry's body (the `cluster:`, `user:` or `context:` mapping) and the file it
  //! came from.
  struct Entry {
    YAML::Node body;
    std::string file;
  };

  bool AddFile(const std::string& path, const std::string& text, Diagnostics& diags);
  const Entry* Lookup(const std::map<std::string, Entry>& table, const std::string& kind, const std::string& name,
                      const std::string& context, Diagnostics& diags) const;

  std::map<std::string, Entry> clusters_;
  std::map<std::string, Entry> users_;
  std::map<std::string, Entry> contexts_;
  std::string current_context_;
};

}  // namespace strata::kubernetes
