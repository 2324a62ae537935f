#include "providers/kubernetes/client/exec_credential.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "engine/base/base64.h"
#include "engine/base/time_format.h"

namespace strata::kubernetes {
namespace {

constexpr const char* kGroup = "client.authentication.k8s.io/";
constexpr size_t kStderrLines = 10;

std::string Where(const ExecConfig& exec) { return exec.where.empty() ? "" : " (users[].user.exec at " + exec.where + ")"; }

// The last `count` non-empty lines of `text`, each indented for a diagnostic's detail.
std::string LastLines(const std::string& text, size_t count) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) lines.push_back(line);
    start = end + 1;
  }
  std::string out;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i) out += "\n  " + lines[i];
  return out;
}

std::string StringMember(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Why a run that started did not give an answer: the exit code or signal, and stderr.
std::string FailedRun(const ExecConfig& exec, const ProcessResult& run) {
  std::string how;
  if (run.timed_out) {
    how = "did not finish in time and was stopped";
  } else if (run.cancelled) {
    how = "was stopped because the operation was cancelled";
  } else if (run.signal != 0) {
    how = fmt::format("was killed by signal {}", run.signal);
  } else {
    how = fmt::format("failed with exit code {}", run.exit_code);
  }
  std::string stderr_tail = LastLines(run.stderr_text, kStderrLines);
  return fmt::format("The exec credential plugin \"{}\"{} {}.{}", exec.command, Where(exec), how,
                     stderr_tail.empty() ? " It wrote nothing on stderr." : " The end of its stderr:" + stderr_tail);
}

}  // namespace

std::optional<std::string> CheckExecConfig(const ExecConfig& exec) {
  const std::string& v = exec.api_version;
  if (v == std::string(kGroup) + "v1alpha1") {
    return fmt::format("The exec credential plugin \"{}\"{} asks for {}, which Kubernetes removed in 1.24: set "
                       "apiVersion to {}v1 (or v1beta1) — a current plugin speaks it (for EKS, `aws eks "
                       "update-kubeconfig` writes a new entry).",
                       exec.command, Where(exec), v, kGroup);
  }
  if (v != std::string(kGroup) + "v1" && v != std::string(kGroup) + "v1beta1") {
    return fmt::format("The exec credential plugin \"{}\"{} has apiVersion \"{}\": write {}v1 or {}v1beta1.",
                       exec.command, Where(exec), v, kGroup, kGroup);
  }
  const std::string& mode = exec.interactive_mode;
  if (mode == "Always") {
    return fmt::format("The exec credential plugin \"{}\"{} has interactiveMode: Always, but Strata runs plugins "
                       "without a terminal. Log in first so the plugin can answer without asking (e.g. its own "
                       "login command), then set interactiveMode to Never or IfAvailable.",
                       exec.command, Where(exec));
  }
  // kubectl insists on interactiveMode for v1; with no terminal every mode but Always is
  // Never here, so an unset one is read as that rather than refused.
  if (!mode.empty() && mode != "Never" && mode != "IfAvailable") {
    return fmt::format("The exec credential plugin \"{}\"{} has interactiveMode \"{}\": write Never, IfAvailable "
                       "or Always.",
                       exec.command, Where(exec), mode);
  }
  return std::nullopt;
}

std::string ExecInfoJson(const ExecConfig& exec, const KubeConnection& cluster) {
  // client-go's encoding, member order included: kind, apiVersion, spec{cluster, interactive}.
  nlohmann::ordered_json info;
  info["kind"] = "ExecCredential";
  info["apiVersion"] = exec.api_version;
  nlohmann::ordered_json spec = nlohmann::ordered_json::object();
  if (exec.provide_cluster_info) {
    nlohmann::ordered_json c;
    c["server"] = cluster.server;
    if (!cluster.tls_server_name.empty()) c["tls-server-name"] = cluster.tls_server_name;
    if (cluster.insecure) c["insecure-skip-tls-verify"] = true;
    if (!cluster.ca_pem.empty()) c["certificate-authority-data"] = base::Base64Encode(cluster.ca_pem);
    spec["cluster"] = std::move(c);
  }
  spec["interactive"] = false;
  info["spec"] = std::move(spec);
  return info.dump();
}

ProcessSpec ExecPluginSpec(const ExecConfig& exec, const KubeConnection& cluster) {
  ProcessSpec spec;
  spec.argv.push_back(exec.command);
  spec.argv.insert(spec.argv.end(), exec.args.begin(), exec.args.end());
  for (const auto& [name, value] : exec.env) spec.env[name] = value;  // a later entry wins, as in Go
  spec.env["KUBERNETES_EXEC_INFO"] = ExecInfoJson(exec, cluster);
  return spec;
}

ExecResult<ExecCredential> ParseExecCredential(const std::string& stdout_text, const std::string& api_version) {
  // The parser's own message quotes the text it read, which may be the token: not shown.
  auto answer = nlohmann::json::parse(stdout_text, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded() || !answer.is_object()) {
    return std::string(stdout_text.find_first_not_of(" \t\r\n") == std::string::npos
                           ? "it printed nothing on stdout"
                           : "its stdout is not a JSON object (an ExecCredential was expected)");
  }
  std::string answered = StringMember(answer, "apiVersion");
  if (answered != api_version) {
    return fmt::format("it answered with apiVersion \"{}\" but the kubeconfig asks for \"{}\": set the exec "
                       "block's apiVersion to the one the plugin speaks",
                       answered, api_version);
  }
  if (std::string kind = StringMember(answer, "kind"); kind != "ExecCredential") {
    return fmt::format("it answered with kind \"{}\", not ExecCredential", kind);
  }
  auto status = answer.find("status");
  if (status == answer.end() || !status->is_object()) return std::string("its answer has no status");
  ExecCredential credential;
  credential.token = StringMember(*status, "token");
  credential.client_certificate_pem = StringMember(*status, "clientCertificateData");
  credential.client_key_pem = StringMember(*status, "clientKeyData");
  if (credential.token.empty() && credential.client_certificate_pem.empty() && credential.client_key_pem.empty()) {
    return std::string("its answer's status holds no token and no client certificate");
  }
  if (credential.client_certificate_pem.empty() != credential.client_key_pem.empty()) {
    return std::string("its answer's status holds a client certificate or a key, not both");
  }
  if (std::string expiry = StringMember(*status, "expirationTimestamp"); !expiry.empty()) {
    std::chrono::system_clock::time_point t;
    if (!base::ParseRfc3339(expiry, &t)) {
      return fmt::format("its status.expirationTimestamp \"{}\" is not an RFC 3339 time", expiry);
    }
    credential.expires_at = t;
  }
  return credential;
}

ExecResult<ExecCredential> RunExecPlugin(ProcessRunner& runner, const OperationContext& ctx, const ExecConfig& exec,
                                         const KubeConnection& cluster) {
  if (auto problem = CheckExecConfig(exec)) return *problem;
  ctx.Log(LogLevel::Debug, fmt::format("kubernetes: running the exec credential plugin \"{}\"", exec.command));
  ProcessResult run = runner.Run(ctx, ExecPluginSpec(exec, cluster));
  if (!run.started) {
    std::string message = fmt::format("The exec credential plugin \"{}\"{} was not found or could not be started "
                                      "({}).",
                                      exec.command, Where(exec), run.error);
    if (!exec.install_hint.empty()) return message + "\n\n" + exec.install_hint;
    return message + " Install it, or put the directory that holds it on PATH.";
  }
  if (!run.ok()) return FailedRun(exec, run);
  auto credential = ParseExecCredential(run.stdout_text, exec.api_version);
  if (!credential) {
    return fmt::format("The exec credential plugin \"{}\"{} ran, but {}.", exec.command, Where(exec),
                       credential.error());
  }
  // A plugin's warnings (a CLI about to be retired, a profile not found) are worth a line.
  if (std::string notes = LastLines(run.stderr_text, kStderrLines); !notes.empty()) {
    ctx.Log(LogLevel::Info, fmt::format("kubernetes: the exec credential plugin \"{}\" said:{}", exec.command, notes));
  }
  return credential;
}

}  // namespace strata::kubernetes
