#include "sandbox/cluster_endpoint.h"

#include <nlohmann/json.hpp>

namespace strata::sandbox {
namespace {

// A metav1.Status, as kube-apiserver answers failures.
void SetStatus(httplib::Response& res, int code, const char* reason, const std::string& message) {
  nlohmann::json status = {{"kind", "Status"},   {"apiVersion", "v1"}, {"metadata", nlohmann::json::object()},
                           {"status", "Failure"}, {"message", message}, {"reason", reason},
                           {"code", code}};
  res.status = code;
  res.set_content(status.dump(), "application/json");
}

// "/clusters/<name>[/...]" -> name; "" for any other path.
std::string ClusterOf(const std::string& path) {
  const std::string prefix = "/clusters/";
  if (path.compare(0, prefix.size(), prefix) != 0) return "";
  return path.substr(prefix.size(), path.find('/', prefix.size()) - prefix.size());
}

void Answer(const httplib::Request& req, httplib::Response& res, const ClusterEndpointAuth& auth) {
  // Paths outside /clusters/<name> are authenticated too (cluster ""): a client certificate
  // gets the 404 below, anyone else a 401.
  if (!AdmitClusterRequest(req, ClusterOf(req.path), auth, res)) return;
  SetStatus(res, 404, "NotFound", "the server could not find the requested resource");
}

}  // namespace

void ServeClusterEndpoint(httplib::Server& server, const ClusterEndpointAuth& auth) {
  const char* any = ".*";
  auto answer = [&auth](const httplib::Request& req, httplib::Response& res) { Answer(req, res, auth); };
  server.Get(any, answer);
  server.Post(any, answer);
  server.Put(any, answer);
  server.Patch(any, answer);
  server.Delete(any, answer);
  server.Options(any, answer);
}

}  // namespace strata::sandbox
