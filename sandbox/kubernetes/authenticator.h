#pragma once
// Who is calling a cluster's API: the one seam for authentication. Today any
// `Authorization: Bearer <token>` is accepted as the cluster's admin; EKS-style token
// checks (k8s-aws-v1. presigned STS URLs) and client certificates replace this function's
// body, nothing else.

#include <optional>
#include <string>
#include <vector>

#include <httplib.h>

namespace strata::sandbox::k8s {

struct KubeUser {
  std::string name;
  std::vector<std::string> groups;
};

//! The caller of `request` to cluster `cluster`, or nullopt (answered 401 Unauthorized).
std::optional<KubeUser> Authenticate(const httplib::Request& request, const std::string& cluster);

}  // namespace strata::sandbox::k8s
