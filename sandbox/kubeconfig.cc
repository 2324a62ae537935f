#include "sandbox/kubeconfig.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/base/base64.h"

namespace strata::sandbox {
namespace {

// Cluster names are [A-Za-z0-9_-] (EKS refuses others), so they need no YAML quoting;
// everything else written is base64 or a URL without spaces.
std::string UserName(const ClientCertificate&, const std::string& cluster) {
  return std::string(kKubeconfigUser) + "@" + cluster;
}

bool WriteAll(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string RenderKubeconfig(const std::vector<ServedCluster>& clusters, const std::string& ca_pem,
                             const ClientCertificate& client) {
  std::string ca = base::Base64Encode(ca_pem);
  std::string cert = base::Base64Encode(client.cert_pem);
  std::string key = base::Base64Encode(client.key_pem);
  std::string out = "# Written by `strata sandbox serve --kubeconfig`: the sandbox's EKS clusters, as its admin.\n"
                    "apiVersion: v1\nkind: Config\npreferences: {}\n";
  out += clusters.empty() ? "clusters: []\n" : "clusters:\n";
  for (const ServedCluster& c : clusters) {
    out += "- name: " + c.name + "\n  cluster:\n    server: " + c.endpoint +
           "\n    certificate-authority-data: " + ca + "\n";
  }
  out += clusters.empty() ? "users: []\n" : "users:\n";
  for (const ServedCluster& c : clusters) {
    out += "- name: " + UserName(client, c.name) + "\n  user:\n    client-certificate-data: " + cert +
           "\n    client-key-data: " + key + "\n";
  }
  out += clusters.empty() ? "contexts: []\n" : "contexts:\n";
  for (const ServedCluster& c : clusters) {
    out += "- name: " + c.name + "\n  context:\n    cluster: " + c.name + "\n    user: " + UserName(client, c.name) +
           "\n";
  }
  out += "current-context: \"" + (clusters.empty() ? std::string() : clusters.front().name) + "\"\n";
  return out;
}

bool WritePrivateFile(const std::string& path, const std::string& text, std::string& error) {
  std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = "cannot create " + tmp + ": " + std::strerror(errno);
    return false;
  }
  // The umask can only take bits away, and a leftover file keeps its mode: make it 0600.
  bool ok = ::fchmod(fd, 0600) == 0 && WriteAll(fd, text);
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    error = "cannot write " + path + ": " + std::strerror(saved);
  }
  return ok;
}

}  // namespace strata::sandbox
