#pragma once
// Endpoint resolution per service: the default https://{prefix}.{region}.{dns suffix},
// the global services (IAM, Route 53) and a per-service override map — the one and
// only way to reach LocalStack, moto or the Strata sandbox.

#include <map>
#include <string>

#include "providers/aws/core/result.h"

namespace strata::aws {

//! Where and how to send a service's requests.
struct ResolvedEndpoint {
  std::string url;             //!< "https://eks.us-west-2.amazonaws.com" (no trailing slash)
  std::string signing_region;  //!< "us-west-2"; "us-east-1" for IAM in the aws partition
  std::string signing_name;    //!< SigV4 service name: "eks", "elasticloadbalancing", ...
  bool s3_style_signing = false;  //!< S3: no path normalization or double encoding,
                                  //!< x-amz-content-sha256 signed
  bool overridden = false;  //!< the URL is an override (a local endpoint: no per-bucket hosts)
};

//! The DNS suffix of the region's partition: "amazonaws.com", "amazonaws.com.cn".
std::string PartitionDnsSuffix(const std::string& region);

//! The override key that applies to every service without one of its own (what
//! AWS_ENDPOINT_URL sets).
inline constexpr const char* kAllServices = "*";

//! Resolves endpoints for one region. Service ids are the lower-case names used by the
//! provider: "ec2", "eks", "iam", "sts", "elbv2", "autoscaling", "s3", "route53",
//! "cognito-idp", "fsx", "acm", "efs", "cloudwatch", "ssm", ...; unknown ids resolve
//! with the id as the endpoint prefix and signing name.
class EndpointResolver {
 public:
  //! `overrides` maps a service id (or its endpoint prefix, e.g. "elasticloadbalancing")
  //! to a base URL. A URL without a scheme gets "https://". The signing region and name
  //! stay those of the service, so requests are signed exactly as for AWS.
  EndpointResolver(std::string region, std::map<std::string, std::string> overrides = {});

  //! Fails (InvalidConfiguration) when no region is set or the region is not a valid
  //! region name and no override applies.
  Result<ResolvedEndpoint> Resolve(const std::string& service) const;

  const std::string& region() const { return region_; }

 private:
  std::string region_;
  std::map<std::string, std::string> overrides_;
};

}  // namespace strata::aws
