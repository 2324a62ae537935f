#include "providers/aws/client/endpoint_resolver.h"

namespace strata::aws {
namespace {

struct ServiceInfo {
  const char* id;
  const char* endpoint_prefix;
  const char* signing_name;
  bool global;
};

constexpr ServiceInfo kServices[] = {
    {"iam", "iam", "iam", true},
    {"route53", "route53", "route53", true},
    {"elbv2", "elasticloadbalancing", "elasticloadbalancing", false},
    {"elb", "elasticloadbalancing", "elasticloadbalancing", false},
    {"efs", "elasticfilesystem", "elasticfilesystem", false},
    {"cloudwatch", "monitoring", "monitoring", false},
    {"cognito-idp", "cognito-idp", "cognito-idp", false},
    {"s3", "s3", "s3", false},
};

ServiceInfo Lookup(const std::string& id) {
  for (const auto& s : kServices)
    if (id == s.id) return s;
  return ServiceInfo{id.c_str(), id.c_str(), id.c_str(), false};
}

bool IsValidRegion(const std::string& region) {
  if (region.empty() || region.size() > 64) return false;
  for (char c : region)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Global services: the endpoint host and the region requests are signed for.
void ResolveGlobal(const ServiceInfo& info, const std::string& region, std::string* host,
                   std::string* signing_region) {
  std::string name = info.endpoint_prefix;
  if (StartsWith(region, "cn-")) {
    *host = name == "iam" ? "iam.cn-north-1.amazonaws.com.cn" : name + ".amazonaws.com.cn";
    *signing_region = name == "iam" ? "cn-north-1" : "cn-northwest-1";
  } else if (StartsWith(region, "us-gov-")) {
    *host = name + ".us-gov.amazonaws.com";
    *signing_region = "us-gov-west-1";
  } else {
    *host = name + ".amazonaws.com";
    *signing_region = "us-east-1";
  }
}

std::string NormalizeOverride(std::string url) {
  if (url.find("://") == std::string::npos) url = "https://" + url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

std::string PartitionDnsSuffix(const std::string& region) {
  return StartsWith(region, "cn-") ? "amazonaws.com.cn" : "amazonaws.com";
}

EndpointResolver::EndpointResolver(std::string region, std::map<std::string, std::string> overrides)
    : region_(std::move(region)), overrides_(std::move(overrides)) {}

Result<ResolvedEndpoint> EndpointResolver::Resolve(const std::string& service) const {
  const ServiceInfo info = Lookup(service);
  ResolvedEndpoint out;
  out.signing_name = info.signing_name;
  out.s3_style_signing = service == "s3";
  std::string host;
  if (info.global) {
    ResolveGlobal(info, region_, &host, &out.signing_region);
  } else {
    out.signing_region = region_;
    host = std::string(info.endpoint_prefix) + "." + region_ + "." + PartitionDnsSuffix(region_);
  }
  auto it = overrides_.find(service);
  if (it == overrides_.end()) it = overrides_.find(info.endpoint_prefix);
  if (it == overrides_.end()) it = overrides_.find(kAllServices);
  if (it != overrides_.end() && !it->second.empty()) {
    out.url = NormalizeOverride(it->second);
    out.overridden = true;
    if (out.signing_region.empty()) out.signing_region = "us-east-1";
    return out;
  }
  if (region_.empty() && !info.global)
    return AwsError::Client(error_codes::kInvalidConfig,
                            "no AWS region configured for " + service +
                                " (set the provider's region, AWS_REGION or AWS_DEFAULT_REGION)");
  if (!region_.empty() && !IsValidRegion(region_))
    return AwsError::Client(error_codes::kInvalidConfig, "invalid AWS region \"" + region_ + "\"");
  out.url = "https://" + host;
  return out;
}

}  // namespace strata::aws
