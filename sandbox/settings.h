#pragma once
// How a sandbox behaves: where it listens and persists, whose credentials it accepts, how
// slow and how unreliable it is, and how long its objects take to become ready or gone.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::sandbox {

using Millis = std::chrono::milliseconds;

struct SandboxSettings {
  //! Loopback only: the sandbox never listens beyond this machine.
  std::string host = "127.0.0.1";
  //! 0: any free port (see Sandbox::port()).
  int port = 0;
  //! The port of the https endpoint that serves EKS clusters' API servers (0: any).
  int cluster_port = 0;
  //! The SQLite file holding the world; empty: in memory, gone with the process.
  std::string state_path;

  //! The one account, and the key pair requests must be signed with.
  std::string account_id = "111122223333";
  std::string access_key = "AKIASTRATASANDBOX001";
  std::string secret_key = "strata-sandbox-secret-access-key";
  //! Off only for experiments: a real client always signs.
  bool verify_signatures = true;

  //! Added to every API call before it is answered.
  Millis latency{0};
  //! Chance in [0,1] that a call is refused with the service's throttling error.
  double throttle_probability = 0;
  //! Chance in [0,1] that a call fails with a 500 InternalError (InternalFailure for EKS).
  double fault_probability = 0;
  //! Chance in [0,1] that a call which changed the world loses its answer: the change is
  //! committed, and the client gets a 500 InternalError as if the connection had dropped
  //! after AWS did the work. Clients must not assume a 5xx means nothing happened.
  double lost_reply_probability = 0;
  //! Seed of the throttling and fault draws: a given seed refuses the same calls.
  uint64_t seed = 1;

  //! How long objects take to reach their steady state after a create, and to disappear
  //! after a delete (EKS clusters CREATING/DELETING, node groups, add-ons, NAT gateways).
  Millis cluster_delay{std::chrono::seconds(3)};
  Millis nodegroup_delay{std::chrono::seconds(2)};
  Millis addon_delay{std::chrono::seconds(1)};
  Millis nat_gateway_delay{std::chrono::seconds(1)};
  //! How long an Elastic Load Balancing load balancer is "provisioning" before "active".
  Millis load_balancer_delay{std::chrono::seconds(2)};
  //! How long a Cognito user pool domain spends CREATING (then ACTIVE) and DELETING.
  Millis cognito_domain_delay{std::chrono::seconds(1)};
  //! EFS file systems, mount targets and access points creating/deleting (seconds on AWS).
  Millis efs_delay{std::chrono::seconds(1)};
  //! FSx file systems CREATING/UPDATING/DELETING (5 to 15 minutes on AWS).
  Millis fsx_delay{std::chrono::seconds(2)};
  //! How long a Kubernetes workload (Deployment, StatefulSet, DaemonSet, Job) in an EKS
  //! cluster takes from a spec change to rolled out (or completed).
  Millis workload_delay{std::chrono::seconds(1)};

  //! Domains ("*.example.com") the account already holds an ISSUED ACM certificate for, as a
  //! real account does before a deployment starts: made in each region on ACM's first call
  //! there (sandbox/services/acm), never again once deleted.
  std::vector<std::string> seed_certificates;
  //! How long a Route 53 change (ChangeResourceRecordSets, CreateHostedZone) stays PENDING
  //! before GetChange answers INSYNC.
  Millis route53_change_delay{std::chrono::seconds(1)};

  //! Public hosted zones the account holds before anything is deployed ("example.com"):
  //! made when the sandbox starts on a world that has no zone of that name.
  std::vector<std::string> seed_hosted_zones;
};

}  // namespace strata::sandbox
