#pragma once
// `-sandbox` (or `sandbox: {enabled: true}` in strata.yaml): a sandbox cloud started for the
// duration of one command. The providers are pointed at it the way a user would point
// them at LocalStack — AWS_ENDPOINT_URL and the sandbox's key pair in the environment —
// so no provider knows it is talking to a sandbox.

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/config/project.h"
#include "sandbox/sandbox.h"

namespace strata::cli {

//! The sandbox's settings from strata.yaml's `sandbox:` section (world at SandboxPath()).
sandbox::SandboxSettings SandboxSettingsFor(const ProjectConfig& project);

class SandboxScope {
 public:
  //! Starts a sandbox; on failure returns null with `error` set.
  static std::unique_ptr<SandboxScope> Start(const sandbox::SandboxSettings& settings, std::string& error);
  //! Stops the sandbox and restores the environment as it was.
  ~SandboxScope();
  SandboxScope(const SandboxScope&) = delete;
  SandboxScope& operator=(const SandboxScope&) = delete;

  const sandbox::Sandbox& server() const { return *server_; }

 private:
  SandboxScope() = default;
  void SetEnv(const std::string& name, const std::optional<std::string>& value);

  std::unique_ptr<sandbox::Sandbox> server_;
  std::map<std::string, std::optional<std::string>> saved_env_;
};

//! The environment lines that point AWS clients at `server` ("export AWS_ENDPOINT_URL=...").
std::string SandboxEnvironmentLines(const sandbox::Sandbox& server);

}  // namespace strata::cli
