#pragma once
// Where an ApiClient's credentials come from for each request: the connection's static
// bearer token, or an exec credential plugin whose answer is cached until shortly before it
// expires and fetched again once after the server refuses it (401), as client-go does.
//
// Thread-safe: the client's calls may run in parallel; a plugin runs for one of them at a
// time, and the others wait for its answer rather than running it again.

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/base/clock.h"
#include "engine/base/result.h"
#include "providers/kubernetes/client/exec_credential.h"
#include "providers/kubernetes/config/kubeconfig.h"
#include "providers/process/process_runner.h"
#include "providers/provider.h"

namespace strata::kubernetes {

//! What one request is sent with. A client certificate here (from a plugin) is the one the
//! transport must present; empty: whatever the transport was built with.
struct Credential {
  std::string token;
  std::string client_certificate_pem;
  std::string client_key_pem;
};

class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  //! The credential for the next request, or a message for the user saying why there is none.
  virtual base::Result<Credential, std::string> Get(const OperationContext& ctx) = 0;
  //! The server answered 401 to a request sent with `used`. True when another Get may give a
  //! different credential (worth one retry); false when it cannot (a static token).
  virtual bool Rejected(const Credential& used) = 0;
};

//! The connection's own token (possibly none); never refreshed.
std::shared_ptr<CredentialSource> StaticCredentials(const KubeConnection& connection);

//! An exec credential plugin (RunExecPlugin), run on the first Get, again when the cached
//! answer is within `kExpiryMargin` of its expirationTimestamp, and again after a 401.
class ExecCredentialSource final : public CredentialSource {
 public:
  //! A credential this close to its expiry is fetched anew (a request takes time to arrive).
  static constexpr std::chrono::minutes kExpiryMargin{1};

  //! `cluster`: the connection the credential is for (spec.cluster with provideClusterInfo).
  ExecCredentialSource(ExecConfig exec, KubeConnection cluster, std::shared_ptr<ProcessRunner> runner,
                       std::shared_ptr<base::Clock> clock);

  base::Result<Credential, std::string> Get(const OperationContext& ctx) override;
  bool Rejected(const Credential& used) override;

 private:
  bool FreshLocked() const;

  ExecConfig exec_;
  KubeConnection cluster_;
  std::shared_ptr<ProcessRunner> runner_;
  std::shared_ptr<base::Clock> clock_;
  std::mutex mu_;  // guards the cache and serialises plugin runs
  std::optional<ExecCredential> cached_;
};

}  // namespace strata::kubernetes
