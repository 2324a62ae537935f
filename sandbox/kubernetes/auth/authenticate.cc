#include "sandbox/kubernetes/auth/authenticate.h"

#include <mutex>

#include <nlohmann/json.hpp>

#include "sandbox/kubernetes/auth/client_certificate.h"
#include "sandbox/kubernetes/auth/sts_host.h"

namespace strata::sandbox::k8s_auth {
namespace {

// The verb kube-apiserver's authorizer is asked about (for a path; resources come later).
std::string VerbOf(const std::string& method) {
  if (method == "GET" || method == "HEAD") return "get";
  if (method == "POST") return "create";
  if (method == "PUT") return "update";
  if (method == "PATCH") return "patch";
  if (method == "DELETE") return "delete";
  return "get";
}

AuthResult Unauthorized(std::string reason) {
  AuthResult result;
  result.status = 401;
  result.status_json = FailureStatusJson(401, "Unauthorized", "Unauthorized");
  result.reason = std::move(reason);
  return result;
}

AuthResult Admit(KubeUser user, const std::string& method, const std::string& path, const ClusterAccess& cluster) {
  AuthResult result;
  result.user = std::move(user);
  if (result.user.IsAdmin()) {
    result.status = 200;
    return result;
  }
  result.status = 403;
  result.reason = "\"" + result.user.name + "\" is not an admin of cluster \"" + cluster.name + "\"";
  result.status_json = FailureStatusJson(
      403, "Forbidden",
      "forbidden: User \"" + result.user.name + "\" cannot " + VerbOf(method) + " path \"" + path +
          "\": the sandbox admits only the cluster's creator (" + cluster.creator_arn +
          (cluster.creator_is_admin ? "" : ", and not even that: bootstrapClusterCreatorAdminPermissions is false") +
          ") and the sandbox's client certificate (strata sandbox serve --kubeconfig)");
  return result;
}

}  // namespace

std::string FailureStatusJson(int code, const std::string& reason, const std::string& message) {
  nlohmann::ordered_json status = {{"kind", "Status"},   {"apiVersion", "v1"}, {"metadata", nlohmann::json::object()},
                                   {"status", "Failure"}, {"message", message}, {"reason", reason},
                                   {"code", code}};
  return status.dump();
}

AuthResult AuthenticateParts(const SSL* ssl, const std::string& authorization, const std::string& method,
                             const std::string& path, const ClusterAccess& cluster, const AuthContext& ctx) {
  ClientCertificateCheck certificate = VerifyClientCertificate(ssl, ctx.ca_cert);
  if (certificate.user) return Admit(std::move(*certificate.user), method, path, cluster);

  const std::string bearer = "Bearer ";
  if (authorization.compare(0, bearer.size(), bearer) != 0) {
    return Unauthorized(certificate.presented ? certificate.reason
                                              : "no client certificate and no \"Authorization: Bearer\" token");
  }
  EksTokenOptions options{cluster.name, PartitionOfRegion(cluster.region), ctx.own_sts_hosts};
  TokenVerification token = VerifyEksToken(std::string_view(authorization).substr(bearer.size()), options, ctx.keys, ctx.now);
  if (!token.ok()) return Unauthorized(token.reason);
  const CallerIdentity& caller = token.identity->caller;
  return Admit(KubeUserFor(caller.arn, caller.user_id, caller.account, cluster), method, path, cluster);
}

AuthResult Authenticate(const httplib::Request& req, const ClusterAccess& cluster, const AuthContext& ctx) {
  return AuthenticateParts(req.ssl, req.get_header_value("Authorization"), req.method, req.path, cluster, ctx);
}

AccessKeyLookup WorldKeyLookup(World& world, std::mutex& world_mutex, const SandboxSettings& settings) {
  return [&world, &world_mutex, &settings](const std::string& access_key) {
    std::lock_guard lock(world_mutex);
    return LookUpAccessKey(world, settings, access_key);
  };
}

}  // namespace strata::sandbox::k8s_auth
