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

void Answer(const httplib::Request& req, httplib::Response& res) {
  std::string authorization = req.get_header_value("Authorization");
  if (authorization.rfind("Bearer ", 0) != 0) {
    SetStatus(res, 401, "Unauthorized", "Unauthorized");
    return;
  }
  SetStatus(res, 404, "NotFound", "the server could not find the requested resource");
}

}  // namespace

void ServeClusterEndpoint(httplib::Server& server) {
  const char* any = ".*";
  server.Get(any, Answer);
  server.Post(any, Answer);
  server.Put(any, Answer);
  server.Patch(any, Answer);
  server.Delete(any, Answer);
  server.Options(any, Answer);
}

}  // namespace strata::sandbox
