#pragma once
// What the https cluster endpoint answers: EKS clusters' API servers live under
// /clusters/<name>/. Until the Kubernetes API is served there, every request gets a
// Kubernetes-shaped Status: 401 without a bearer token, 404 with one.

#include <httplib.h>

namespace strata::sandbox {

//! Registers the endpoint's handlers (every method, every path) on `server`.
void ServeClusterEndpoint(httplib::Server& server);

}  // namespace strata::sandbox
