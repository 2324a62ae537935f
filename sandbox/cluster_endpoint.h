#pragma once
// What the https cluster endpoint answers: each EKS cluster's Kubernetes API server lives
// under /clusters/<name>/ (DescribeCluster's `endpoint`). Implemented by the sandbox's
// Kubernetes API (sandbox/kubernetes/api_server.cc); declared here so that the sandbox
// itself needs none of its headers.

#include <mutex>

#include <httplib.h>

namespace strata::sandbox {

class World;

//! Registers the endpoint's handlers (every method, every path) on `server`. Requests run
//! one at a time under `world_mutex`, each in its own world transaction, as the AWS front
//! end's do; `world` must outlive the server.
void ServeClusterEndpoint(httplib::Server& server, World& world, std::mutex& world_mutex);

}  // namespace strata::sandbox
