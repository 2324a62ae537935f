#pragma once
// Exec credential plugins (client.authentication.k8s.io): a kubeconfig user whose `exec:`
// names a command (`aws eks get-token`, `gke-gcloud-auth-plugin`, `kubelogin`) that prints
// the credentials. Run as client-go runs it:
//  - argv is the command and its args; the environment is Strata's with the exec block's
//    `env` entries added, and KUBERNETES_EXEC_INFO holding an ExecCredential of the block's
//    apiVersion: {"kind":"ExecCredential","apiVersion":…,"spec":{"interactive":false}}, with
//    spec.cluster (server, tls-server-name, insecure-skip-tls-verify, certificate-authority-
//    data) when provideClusterInfo is set.
//  - stdin is not a terminal (Strata never has one for a plugin): interactiveMode Always is
//    refused before anything runs; Never and IfAvailable run non-interactively.
//  - stdout must be an ExecCredential of the same apiVersion (v1 or v1beta1; v1alpha1 was
//    removed in Kubernetes 1.24 and is refused) whose status holds a token, or a client
//    certificate and key (PEM), or both, and optionally expirationTimestamp.
//
// Errors are messages for the user: the command (never its args, which may carry secrets),
// the exit code, the last lines of its stderr, the installHint when the command cannot be
// found. They never contain the plugin's stdout, which holds the credential.

#include <chrono>
#include <optional>
#include <string>

#include "engine/base/result.h"
#include "providers/kubernetes/config/kubeconfig.h"
#include "providers/process/process_runner.h"
#include "providers/provider.h"

namespace strata::kubernetes {

//! What a plugin printed in status.
struct ExecCredential {
  std::string token;
  std::string client_certificate_pem;
  std::string client_key_pem;
  //! status.expirationTimestamp; nullopt: good until the server refuses it.
  std::optional<std::chrono::system_clock::time_point> expires_at;
};

template <typename T>
using ExecResult = base::Result<T, std::string>;

//! Checks what can be checked before running anything: a supported apiVersion, an
//! interactiveMode Strata can honour. The error says what to change in the kubeconfig.
std::optional<std::string> CheckExecConfig(const ExecConfig& exec);

//! KUBERNETES_EXEC_INFO for `exec`, `cluster` being the connection the credential is for
//! (its server, CA and TLS settings go into spec.cluster when provideClusterInfo is set).
std::string ExecInfoJson(const ExecConfig& exec, const KubeConnection& cluster);

//! The process to run: argv, the exec block's env and KUBERNETES_EXEC_INFO.
ProcessSpec ExecPluginSpec(const ExecConfig& exec, const KubeConnection& cluster);

//! Reads a plugin's stdout: an ExecCredential of `api_version` with a usable status.
ExecResult<ExecCredential> ParseExecCredential(const std::string& stdout_text, const std::string& api_version);

//! CheckExecConfig, then runs the plugin through `runner` and parses its answer. Never
//! throws for what the plugin does.
ExecResult<ExecCredential> RunExecPlugin(ProcessRunner& runner, const OperationContext& ctx, const ExecConfig& exec,
                                         const KubeConnection& cluster);

}  // namespace strata::kubernetes
