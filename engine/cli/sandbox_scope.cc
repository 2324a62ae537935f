#include "engine/cli/sandbox_scope.h"

#include <cstdlib>

namespace strata::cli {

sandbox::SandboxSettings SandboxSettingsFor(const ProjectConfig& project) {
  const SandboxConfig& c = project.sandbox;
  sandbox::SandboxSettings s;
  s.state_path = project.SandboxPath();
  s.latency = sandbox::Millis(c.latency_ms);
  s.throttle_probability = c.throttle_rate;
  s.fault_probability = c.fault_rate;
  s.seed = static_cast<uint64_t>(c.seed);
  s.cluster_delay = sandbox::Millis(c.cluster_delay_ms);
  s.nodegroup_delay = sandbox::Millis(c.nodegroup_delay_ms);
  s.workload_delay = sandbox::Millis(c.workload_delay_ms);
  s.load_balancer_delay = sandbox::Millis(c.load_balancer_delay_ms);
  s.seed_certificates = c.seed_certificates;
  s.route53_change_delay = sandbox::Millis(c.route53_change_delay_ms);
  s.seed_hosted_zones = c.seed_hosted_zones;
  s.efs_delay = sandbox::Millis(c.efs_delay_ms);
  s.fsx_delay = sandbox::Millis(c.fsx_delay_ms);
  s.cognito_domain_delay = sandbox::Millis(c.cognito_domain_delay_ms);
  return s;
}

std::unique_ptr<SandboxScope> SandboxScope::Start(const sandbox::SandboxSettings& settings, std::string& error) {
  std::unique_ptr<SandboxScope> scope(new SandboxScope());
  scope->server_ = std::make_unique<sandbox::Sandbox>(settings);
  if (!scope->server_->Start(error)) return nullptr;
  const sandbox::Sandbox& s = *scope->server_;
  // Explicit settings of the user's environment would otherwise win over the sandbox.
  scope->SetEnv("AWS_ENDPOINT_URL", s.url());
  scope->SetEnv("AWS_ACCESS_KEY_ID", s.settings().access_key);
  scope->SetEnv("AWS_SECRET_ACCESS_KEY", s.settings().secret_key);
  for (const char* name : {"AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
                           "AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL_IAM", "AWS_ENDPOINT_URL_STS",
                           "AWS_ENDPOINT_URL_EKS", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
                           "AWS_CA_BUNDLE"}) {  // plain http: a bundle for the real AWS is beside the point
    scope->SetEnv(name, std::nullopt);
  }
  return scope;
}

void SandboxScope::SetEnv(const std::string& name, const std::optional<std::string>& value) {
  if (!saved_env_.count(name)) {
    const char* old = std::getenv(name.c_str());
    saved_env_[name] = old ? std::optional<std::string>(old) : std::nullopt;
  }
  if (value) {
    setenv(name.c_str(), value->c_str(), 1);
  } else {
    unsetenv(name.c_str());
  }
}

SandboxScope::~SandboxScope() {
  if (server_) server_->Stop();
  for (const auto& [name, value] : saved_env_) {
    if (value) {
      setenv(name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
}

std::string SandboxEnvironmentLines(const sandbox::Sandbox& server) {
  return "export AWS_ENDPOINT_URL=" + server.url() + "\n" +
         "export AWS_ACCESS_KEY_ID=" + server.settings().access_key + "\n" +
         "export AWS_SECRET_ACCESS_KEY=" + server.settings().secret_key + "\n";
}

}  // namespace strata::cli
