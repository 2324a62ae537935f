#include "sandbox/kubernetes/auth/sts_host.h"

#include <cctype>
#include <vector>

namespace strata::sandbox::k8s_auth {
namespace {

struct PartitionDomains {
  const char* partition;
  const char* region_prefix;  // the longest prefix wins; "" for aws
  const char* domain;
  const char* dual_stack_domain;  // "" when the partition has none
};

constexpr PartitionDomains kPartitions[] = {
    {"aws-cn", "cn-", "amazonaws.com.cn", "api.amazonwebservices.com.cn"},
    {"aws-us-gov", "us-gov-", "amazonaws.com", "api.aws"},
    {"aws-iso", "us-iso-", "c2s.ic.gov", ""},
    {"aws-iso-b", "us-isob-", "sc2s.sgov.gov", ""},
    {"aws-iso-e", "eu-isoe-", "cloud.adc-e.uk", ""},
    {"aws-iso-f", "us-isof-", "csp.hci.ic.gov", ""},
    {"aws-eusc", "eusc-", "amazonaws.eu", "api.amazonwebservices.eu"},
    {"aws", "", "amazonaws.com", "api.aws"},
};

const PartitionDomains* Find(const std::string& partition) {
  for (const PartitionDomains& p : kPartitions)
    if (partition == p.partition) return &p;
  return nullptr;
}

// ^[[:alnum:]]([[:alnum:]\-]*[[:alnum:]])?$ (the authenticator's validateInputRegion).
bool LooksLikeRegion(const std::string& s) {
  if (s.empty() || !std::isalnum(static_cast<unsigned char>(s.front())) ||
      !std::isalnum(static_cast<unsigned char>(s.back())))
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}

std::optional<std::string> Refuse(std::string* why, std::string message) {
  *why = std::move(message);
  return std::nullopt;
}

}  // namespace

std::string PartitionOfRegion(const std::string& region) {
  for (const PartitionDomains& p : kPartitions) {
    std::string prefix = p.region_prefix;
    if (!prefix.empty() && region.compare(0, prefix.size(), prefix) == 0) return p.partition;
  }
  return "aws";
}

std::optional<std::string> StsHostRegion(const std::string& host, const std::string& partition, std::string* why) {
  const PartitionDomains* domains = Find(partition);
  if (!domains) return Refuse(why, "partition " + partition + " not valid");
  if (host == "sts.amazonaws.com") {
    if (partition != "aws") return Refuse(why, "global endpoint unsupported in partition " + partition);
    return "us-east-1";
  }
  size_t first = host.find('.');
  size_t second = first == std::string::npos ? first : host.find('.', first + 1);
  if (second == std::string::npos) return Refuse(why, "could not parse region for pre-signed URL " + host);
  std::string service = host.substr(0, first);
  std::string region = host.substr(first + 1, second - first - 1);
  std::string domain = host.substr(second + 1);
  if (!LooksLikeRegion(region)) return Refuse(why, "invalid region identifier format provided: " + region);
  bool known_domain = domain == domains->domain || (*domains->dual_stack_domain && domain == domains->dual_stack_domain);
  if ((service != "sts" && service != "sts-fips") || !known_domain)
    return Refuse(why, "unexpected hostname \"" + host + "\" in pre-signed URL");
  return region;
}

}  // namespace strata::sandbox::k8s_auth
