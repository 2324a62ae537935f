#include "sandbox/kubernetes/authenticator.h"

namespace strata::sandbox::k8s {

std::optional<KubeUser> Authenticate(const httplib::Request& request, const std::string& cluster) {
  (void)cluster;  // tokens name their cluster (x-k8s-aws-id) once they are checked
  std::string authorization = request.get_header_value("Authorization");
  if (authorization.rfind("Bearer ", 0) != 0 || authorization.size() == 7) return std::nullopt;
  return KubeUser{"kubernetes-admin", {"system:masters", "system:authenticated"}};
}

}  // namespace strata::sandbox::k8s
