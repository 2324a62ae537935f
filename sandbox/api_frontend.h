#pragma once
// The sandbox's AWS front door: takes every HTTP request the API port receives, checks
// its SigV4 signature, routes it by the service name of its credential scope, adds the
// configured latency, injects throttling and faults, and runs the service inside one
// world transaction at a time. Errors come back in the service's own protocol.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <httplib.h>

#include "sandbox/error_render.h"
#include "sandbox/faults.h"
#include "sandbox/sandbox.h"
#include "sandbox/service.h"
#include "sandbox/sigv4_verifier.h"

namespace strata::sandbox {

class ApiFrontEnd {
 public:
  //! `world` is shared with others through `world_mutex`, which guards every use of it.
  ApiFrontEnd(const SandboxSettings& settings, World& world, std::mutex& world_mutex,
              std::string cluster_endpoint_base, std::string cluster_ca_pem);

  //! Answers `req` (whose body is `body`) in `res`. Never throws.
  void Serve(const httplib::Request& req, const std::string& body, httplib::Response& res);

  SandboxStats stats() const;

 private:
  // The answer to one request; `request` is filled as far as it got.
  Response Answer(const httplib::Request& req, const std::string& body, Request& request);
  // The secret of `access_key`: the sandbox's own, or one of the temporary keys the
  // services stored in the world under kind "access_key" ({"secret_access_key": ...}).
  std::optional<std::string> SecretOf(const std::string& access_key);
  // Runs the service in a world transaction; ApiError and exceptions become errors.
  Response Dispatch(Service& service, const Request& request);
  //! Every service's Seed, in one transaction.
  void SeedServices();
  Response Refuse(const Service* service, const Request& request, const ErrorInfo& error) const;

  const SandboxSettings& settings_;
  World& world_;
  std::mutex& world_mutex_;
  std::string cluster_endpoint_base_;
  std::string cluster_ca_pem_;
  std::map<std::string, std::unique_ptr<Service>> services_;
  FaultInjector injector_;

  std::atomic<uint64_t> calls_{0};
  std::atomic<uint64_t> throttled_{0};
  std::atomic<uint64_t> faults_{0};
  std::atomic<uint64_t> lost_replies_{0};
  std::atomic<uint64_t> bad_signatures_{0};
};

}  // namespace strata::sandbox
