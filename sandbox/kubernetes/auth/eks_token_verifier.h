#pragma once
// The server side of EKS bearer tokens ("k8s-aws-v1." + base64url of a presigned STS
// GetCallerIdentity URL), checked as aws-iam-authenticator's Verify checks them
// (pkg/token/token.go at 81b1dab, see shared/testdata/eks-token/README.md), in its order:
// length <= 4096, the prefix, unpadded base64url, an https URL on an STS host of the
// cluster's partition, path "/", only the allowed query keys (case-insensitive, each
// once), Action=GetCallerIdentity, x-k8s-aws-id among X-Amz-SignedHeaders, X-Amz-Expires an
// integer in 0..900, X-Amz-Date present and less than 15 minutes old.
//
// Where the authenticator then replays the URL to STS (re-adding "x-k8s-aws-id: <cluster>"),
// the sandbox is its own STS and does what STS would do, locally: the date not more than 15
// minutes ahead either, the credential scope's region that of the host, the access key one
// the sandbox issued (its key pair, or temporary credentials from its STS with their
// session token, unexpired), and the SigV4 signature recomputed over the URL with the header
// "x-k8s-aws-id: <this cluster>" — so a token made for another cluster does not verify.
//
// The sandbox's own STS endpoint. Strata's aws provider makes tokens against the STS
// endpoint it uses, which for the sandbox is the sandbox's AWS URL (http://127.0.0.1:PORT),
// and `aws eks get-token` does the same under AWS_ENDPOINT_URL_STS. Such URLs name a host
// no real authenticator accepts, but it is where the sandbox serves STS: it accepts them
// (http or https, any port) when the host is one of `own_sts_hosts`. Any port, because
// every sandbox process serving a world serves its AWS API on a port of its own while the
// world's cluster endpoints are served by one of them: a token made through another
// process's port is still signed by a key this world issued. Nothing is ever fetched from
// the URL, so accepting the host gives no way to make the sandbox call anywhere.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sandbox/caller_identity.h"

namespace strata::sandbox::k8s_auth {

struct EksTokenOptions {
  //! The cluster name the token must be made for (its x-k8s-aws-id).
  std::string cluster;
  //! The cluster's partition ("aws", "aws-cn", …: PartitionOfRegion of its region).
  std::string partition = "aws";
  //! Hosts (without port) that are the sandbox's own STS endpoint: "127.0.0.1", "localhost".
  std::vector<std::string> own_sts_hosts;
};

//! The access keys the verifier may check signatures with (sandbox/caller_identity.h);
//! nullopt for a key the sandbox never issued.
using AccessKeyLookup = std::function<std::optional<AccessKeyRecord>(const std::string& access_key)>;

//! Who a verified token says the caller is, as the authenticator's Identity has it.
struct TokenIdentity {
  CallerIdentity caller;      //!< ARN, user id and account, as GetCallerIdentity answers
  std::string access_key_id;  //!< from X-Amz-Credential
  std::string sts_host;       //!< the URL's host[:port]
};

struct TokenVerification {
  std::optional<TokenIdentity> identity;  //!< set when the token is accepted
  //! Why not, in the authenticator's words where it has them ("input token was not
  //! properly formatted: …") and STS's otherwise; empty when accepted.
  std::string reason;
  bool ok() const { return identity.has_value(); }
};

//! Verifies `token` (the bearer token alone, without "Bearer ") at `now`.
TokenVerification VerifyEksToken(std::string_view token, const EksTokenOptions& options,
                                 const AccessKeyLookup& keys, std::chrono::system_clock::time_point now);

//! The authenticator's limits.
inline constexpr size_t kMaxEksTokenBytes = 4096;
inline constexpr std::string_view kEksTokenPrefix = "k8s-aws-v1.";

}  // namespace strata::sandbox::k8s_auth
