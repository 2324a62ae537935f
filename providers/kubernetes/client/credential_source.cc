#include "providers/kubernetes/client/credential_source.h"

namespace strata::kubernetes {
namespace {

class StaticSource final : public CredentialSource {
 public:
  explicit StaticSource(std::string token) { credential_.token = std::move(token); }
  base::Result<Credential, std::string> Get(const OperationContext&) override { return credential_; }
  bool Rejected(const Credential&) override { return false; }

 private:
  Credential credential_;
};

Credential ToCredential(const ExecCredential& c) { return Credential{c.token, c.client_certificate_pem, c.client_key_pem}; }

bool SameCredential(const Credential& a, const ExecCredential& b) {
  return a.token == b.token && a.client_certificate_pem == b.client_certificate_pem &&
         a.client_key_pem == b.client_key_pem;
}

}  // namespace

std::shared_ptr<CredentialSource> StaticCredentials(const KubeConnection& connection) {
  return std::make_shared<StaticSource>(connection.token);
}

ExecCredentialSource::ExecCredentialSource(ExecConfig exec, KubeConnection cluster,
                                           std::shared_ptr<ProcessRunner> runner, std::shared_ptr<base::Clock> clock)
    : exec_(std::move(exec)), cluster_(std::move(cluster)), runner_(std::move(runner)), clock_(std::move(clock)) {}

bool ExecCredentialSource::FreshLocked() const {
  if (!cached_) return false;
  if (!cached_->expires_at) return true;
  return clock_->Now() + kExpiryMargin < *cached_->expires_at;
}

base::Result<Credential, std::string> ExecCredentialSource::Get(const OperationContext& ctx) {
  std::lock_guard lock(mu_);
  if (FreshLocked()) return ToCredential(*cached_);
  cached_.reset();
  auto answer = RunExecPlugin(*runner_, ctx, exec_, cluster_);
  if (!answer) return std::move(answer).error();
  cached_ = std::move(*answer);
  return ToCredential(*cached_);
}

bool ExecCredentialSource::Rejected(const Credential& used) {
  std::lock_guard lock(mu_);
  // Another request may have fetched a new credential since `used` was handed out: keep it.
  if (cached_ && SameCredential(used, *cached_)) cached_.reset();
  return true;
}

}  // namespace strata::kubernetes
