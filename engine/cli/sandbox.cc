// `strata sandbox serve`: the sandbox cloud in the foreground, until Ctrl-C. Other
// processes (the AWS CLI, `strata` without -sandbox, tests) reach it through the printed
// AWS_ENDPOINT_URL and key pair. In a project directory it serves the project's world
// (strata.yaml `sandbox:`), so `-sandbox` commands and the server see the same objects.

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <thread>
#include <vector>

#include "engine/cli/command.h"
#include "engine/cli/interrupts.h"
#include "engine/cli/run_session.h"
#include "engine/cli/sandbox_scope.h"
#include "engine/config/project.h"
#include "sandbox/kubeconfig.h"

namespace strata::cli {
namespace {

struct ServeFlags {
  int port = 0;
  int cluster_port = 0;
  std::string state;
  std::optional<int> latency_ms;
  std::optional<double> throttle_rate;
  std::optional<double> fault_rate;
  std::optional<double> lost_reply_rate;
  std::optional<int> seed;
  std::optional<int> cluster_delay_ms;
  std::optional<int> nodegroup_delay_ms;
  std::optional<int> workload_delay_ms;
  std::optional<int> load_balancer_delay_ms;
  std::vector<std::string> certificates;  // ACM certificates the account already holds
  std::optional<int> route53_change_delay_ms;
  std::vector<std::string> hosted_zones;
  std::optional<int> cognito_domain_delay_ms;
  std::optional<int> efs_delay_ms;
  std::optional<int> fsx_delay_ms;
  bool memory = false;
  std::string kubeconfig;  // written and kept current while serving; empty: none
};

sandbox::SandboxSettings SettingsFor(const CommandContext& ctx, const ServeFlags& f) {
  SourceRegistry sources;
  Diagnostics ignored;  // not a project directory: the defaults below apply
  std::optional<ProjectConfig> project = LoadProject(ctx.WorkingDir(), sources, ignored);
  sandbox::SandboxSettings s;
  if (project && !ignored.HasErrors()) {
    s = SandboxSettingsFor(*project);
  } else {
    s.state_path = (std::filesystem::path(ctx.WorkingDir()) / ".strata" / "sandbox.db").string();
  }
  s.port = f.port;
  s.cluster_port = f.cluster_port;
  if (!f.state.empty()) s.state_path = ResolvePath(ctx, f.state);
  if (f.memory) s.state_path.clear();
  if (f.latency_ms) s.latency = sandbox::Millis(*f.latency_ms);
  if (f.throttle_rate) s.throttle_probability = *f.throttle_rate;
  if (f.fault_rate) s.fault_probability = *f.fault_rate;
  if (f.lost_reply_rate) s.lost_reply_probability = *f.lost_reply_rate;
  if (f.seed) s.seed = static_cast<uint64_t>(*f.seed);
  if (f.cluster_delay_ms) s.cluster_delay = sandbox::Millis(*f.cluster_delay_ms);
  if (f.nodegroup_delay_ms) s.nodegroup_delay = sandbox::Millis(*f.nodegroup_delay_ms);
  if (f.workload_delay_ms) s.workload_delay = sandbox::Millis(*f.workload_delay_ms);
  if (f.load_balancer_delay_ms) s.load_balancer_delay = sandbox::Millis(*f.load_balancer_delay_ms);
  for (const std::string& domain : f.certificates) {
    if (std::find(s.seed_certificates.begin(), s.seed_certificates.end(), domain) == s.seed_certificates.end()) {
      s.seed_certificates.push_back(domain);
    }
  }
  if (f.route53_change_delay_ms) s.route53_change_delay = sandbox::Millis(*f.route53_change_delay_ms);
  s.seed_hosted_zones.insert(s.seed_hosted_zones.end(), f.hosted_zones.begin(), f.hosted_zones.end());
  if (f.cognito_domain_delay_ms) s.cognito_domain_delay = sandbox::Millis(*f.cognito_domain_delay_ms);
  if (f.efs_delay_ms) s.efs_delay = sandbox::Millis(*f.efs_delay_ms);
  if (f.fsx_delay_ms) s.fsx_delay = sandbox::Millis(*f.fsx_delay_ms);
  return s;
}

// When the world's cluster port is taken (another sandbox serving the same world), this one
// serves its cluster endpoint elsewhere for its lifetime and leaves the world as it is.
std::string ClusterPortNote(const sandbox::Sandbox& server) {
  if (server.cluster_url() == server.recorded_cluster_url()) return "";
  return "  (that port is in use, probably by another sandbox serving this world, which answers there;\n"
         "   this one serves the same endpoints on " + server.cluster_url() + " until it stops)\n";
}

// Keeps `path` holding the kubeconfig of the clusters served now. Polled rather than told
// by CreateCluster: clusters become ACTIVE with time, not with a call, and other processes
// (`strata apply -sandbox`) create clusters in the same world. Written only when it changes.
class KubeconfigFile {
 public:
  KubeconfigFile(const sandbox::Sandbox& server, std::string path) : server_(server), path_(std::move(path)) {}
  //! False with `error` when the file cannot be written.
  bool Refresh(std::string& error) {
    if (path_.empty()) return true;
    std::string text = server_.Kubeconfig();
    if (text == written_) return true;
    if (!sandbox::WritePrivateFile(path_, text, error)) return false;
    written_ = std::move(text);
    return true;
  }

 private:
  const sandbox::Sandbox& server_;
  std::string path_;
  std::string written_;
};

void Serve(CommandContext& ctx, const ServeFlags& flags) {
  sandbox::SandboxSettings settings = SettingsFor(ctx, flags);
  GracefulStopScope graceful;  // the first Ctrl-C stops serving cleanly
  sandbox::Sandbox server(settings);
  std::string error;
  if (!server.Start(error)) {
    *ctx.err << "Error: the sandbox could not start: " << error << "\n";
    ctx.exit_code = 1;
    return;
  }
  *ctx.out << "Strata sandbox serving AWS (EC2, IAM, STS, EKS, Auto Scaling, SQS, SSM, KMS, EventBridge, ELBv2, ACM, "
              "CloudWatch Logs, CloudWatch, Route 53, S3, Secrets Manager, Cognito, EFS, FSx) on "
           << server.url() << "\n"
           << "EKS cluster endpoints on " << server.recorded_cluster_url() << "\n"
           << ClusterPortNote(server)
           << "World: " << (settings.state_path.empty() ? "in memory" : settings.state_path) << "\n\n"
           << "Point AWS clients at it (the sandbox's own well-known key pair, not an AWS secret):\n"
           << SandboxEnvironmentLines(server);
  KubeconfigFile kubeconfig(server, flags.kubeconfig.empty() ? "" : ResolvePath(ctx, flags.kubeconfig));
  if (!kubeconfig.Refresh(error)) {
    *ctx.err << "Error: the kubeconfig could not be written: " << error << "\n";
    ctx.exit_code = 1;
    server.Stop();
    return;
  }
  if (!flags.kubeconfig.empty()) {
    *ctx.out << "\nkubectl: export KUBECONFIG=" << ResolvePath(ctx, flags.kubeconfig)
             << "  (every EKS cluster, as admin; rewritten as clusters come and go)\n";
  }
  *ctx.out << "\nPress Ctrl-C to stop.\n" << std::flush;
  for (int tick = 1; !Interrupts().stop; ++tick) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (tick % 10 == 0 && !kubeconfig.Refresh(error)) *ctx.err << "Warning: " << error << "\n";
  }
  server.Stop();
  sandbox::SandboxStats stats = server.stats();
  *ctx.out << "\nSandbox stopped after " << stats.calls << " call(s) (" << stats.throttled << " throttled, "
           << stats.faults << " failed by fault injection, " << stats.lost_replies << " answers lost after the change, "
           << stats.bad_signatures << " with bad signatures).\n";
}

// `strata sandbox kubeconfig`: the kubeconfig of the world's clusters on stdout. It starts
// the sandbox on the world for a moment (any free ports: the endpoints it names are the
// world's, served by `strata sandbox serve`), as the client certificate comes from its CA.
void PrintKubeconfig(CommandContext& ctx, const ServeFlags& flags) {
  sandbox::SandboxSettings settings = SettingsFor(ctx, flags);
  if (!settings.state_path.empty() && !std::filesystem::exists(settings.state_path)) {
    *ctx.err << "Error: there is no sandbox world at " << settings.state_path
             << ": start one with `strata sandbox serve` (or an apply with -sandbox), or name it with --state FILE\n";
    ctx.exit_code = 1;
    return;
  }
  settings.port = 0;
  settings.cluster_port = 0;
  sandbox::Sandbox server(settings);
  std::string error;
  if (!server.Start(error)) {
    *ctx.err << "Error: the sandbox world could not be opened: " << error << "\n";
    ctx.exit_code = 1;
    return;
  }
  *ctx.out << server.Kubeconfig() << std::flush;
  server.Stop();
}

}  // namespace

void AddSandboxCommand(CLI::App& app, CommandContext& ctx) {
  auto flags = std::make_shared<ServeFlags>();
  auto* cmd = app.add_subcommand("sandbox", "The embedded sandbox cloud (AWS APIs on 127.0.0.1)");
  cmd->require_subcommand(1);
  auto* serve = cmd->add_subcommand("serve", "Serve the sandbox in the foreground until Ctrl-C");
  serve->add_option("--port", flags->port, "Port of the AWS API endpoint (default: any free port)");
  serve->add_option("--cluster-port", flags->cluster_port,
                    "Port of the https EKS cluster endpoint of a new world (default: any; a world keeps its own)");
  serve->add_option("--state", flags->state, "SQLite file of the sandbox's world (default: the project's, or .strata/sandbox.db)")
      ->option_text("FILE");
  serve->add_flag("--memory", flags->memory, "Keep the world in memory only");
  serve->add_option("--latency-ms", flags->latency_ms, "Delay added to every call");
  serve->add_option("--throttle-rate", flags->throttle_rate, "Share of calls refused with a throttling error (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  serve->add_option("--fault-rate", flags->fault_rate, "Share of calls failed with a 500 (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  serve->add_option("--lost-reply-rate", flags->lost_reply_rate,
                    "Share of changing calls whose answer is lost: the change is made, the client gets a 500 (0..1)")
      ->check(CLI::Range(0.0, 1.0));
  serve->add_option("--seed", flags->seed, "Seed of the throttling and fault draws");
  serve->add_option("--cluster-delay-ms", flags->cluster_delay_ms, "Time an EKS cluster spends CREATING/DELETING");
  serve->add_option("--nodegroup-delay-ms", flags->nodegroup_delay_ms, "Time a node group spends CREATING/DELETING");
  serve->add_option("--workload-delay-ms", flags->workload_delay_ms,
                    "Time a Kubernetes workload in an EKS cluster takes to roll out (or a Job to complete)");
  serve->add_option("--load-balancer-delay-ms", flags->load_balancer_delay_ms,
                    "Time an ELBv2 load balancer spends provisioning before it is active");
  serve->add_option("--certificate", flags->certificates,
                    "A domain (\"*.example.com\") the account already holds an ISSUED ACM certificate for (repeatable)")
      ->option_text("DOMAIN");
  serve->add_option("--route53-change-delay-ms", flags->route53_change_delay_ms,
                    "Time a Route 53 change stays PENDING before it is INSYNC");
  serve->add_option("--hosted-zone", flags->hosted_zones,
                    "A public Route 53 hosted zone the account holds from the start (repeatable)")
      ->option_text("DOMAIN");
  serve->add_option("--cognito-domain-delay-ms", flags->cognito_domain_delay_ms,
                    "Time a Cognito user pool domain spends CREATING/DELETING");
  serve->add_option("--efs-delay-ms", flags->efs_delay_ms,
                    "Time an EFS file system, mount target or access point spends creating/deleting");
  serve->add_option("--fsx-delay-ms", flags->fsx_delay_ms, "Time an FSx file system spends CREATING/UPDATING/DELETING");
  serve->add_option("--kubeconfig", flags->kubeconfig,
                    "Write a kubeconfig for kubectl (every EKS cluster, as admin; mode 0600) and keep it current")
      ->option_text("FILE");
  serve->callback([flags, &ctx] { Serve(ctx, *flags); });

  auto print_flags = std::make_shared<ServeFlags>();
  auto* print = cmd->add_subcommand("kubeconfig", "Print a kubeconfig for kubectl: every EKS cluster of the world, as admin");
  print->add_option("--state", print_flags->state, "SQLite file of the sandbox's world (default: the project's, or .strata/sandbox.db)")
      ->option_text("FILE");
  print->callback([print_flags, &ctx] { PrintKubeconfig(ctx, *print_flags); });
}

}  // namespace strata::cli
