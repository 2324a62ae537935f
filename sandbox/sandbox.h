#pragma once
// The sandbox cloud: an AWS API server on 127.0.0.1 (plain HTTP), and an https server on a
// second port for EKS clusters' API servers, signed by the sandbox's own CA. Requests are
// routed by the service name in their SigV4 credential scope, as AWS's own front ends do,
// so one URL serves every service (AWS_ENDPOINT_URL, or `endpoints` for each service).

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "sandbox/settings.h"

namespace strata::sandbox {

struct SandboxStats {
  uint64_t calls = 0;       //!< requests answered (any status)
  uint64_t throttled = 0;   //!< refused by throttling injection
  uint64_t faults = 0;      //!< failed by fault injection
  uint64_t bad_signatures = 0;
  uint64_t lost_replies = 0;  //!< changes made whose answer was replaced by a 500
};

class Sandbox {
 public:
  explicit Sandbox(SandboxSettings settings);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  //! Opens the world, binds both ports and serves on background threads. On failure
  //! returns false with `error` saying what went wrong (port taken, world unreadable).
  //! Starting writes to the world only when it is new (its CA, its cluster port): the CA
  //! and the recorded cluster endpoint of an existing world never change.
  bool Start(std::string& error);
  //! Stops serving and closes the world. Idempotent.
  void Stop();

  int port() const;
  //! "http://127.0.0.1:<port>": the endpoint of every AWS service.
  std::string url() const;
  //! "https://127.0.0.1:<port>" where this process serves the cluster endpoint.
  std::string cluster_url() const;
  //! The world's cluster endpoint, which DescribeCluster names: the same as cluster_url()
  //! unless another process (a sandbox serving the same world) holds the world's port
  //! (see cluster_port.h).
  std::string recorded_cluster_url() const;
  //! PEM of the CA that signed the cluster endpoint's certificate.
  std::string ca_pem() const;
  //! A kubeconfig for every EKS cluster of the world served now (sandbox/kubeconfig.h),
  //! as an admin (a client certificate issued at Start); "" when not started.
  std::string Kubeconfig() const;
  const SandboxSettings& settings() const;
  SandboxStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::sandbox
