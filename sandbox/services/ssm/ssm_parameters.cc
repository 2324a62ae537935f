#include "sandbox/services/ssm/ssm_parameters.h"

#include <set>

#include "engine/base/hash.h"

namespace strata::sandbox::ssm {
namespace {

constexpr const char* kEksAmiPrefix = "/aws/service/eks/optimized-ami/";
constexpr const char* kEksAmiSuffix = "/recommended/image_id";

//! The Kubernetes versions EKS publishes optimized AMIs for here, and the flavours.
const std::set<std::string> kAmiVersions = {"1.28", "1.29", "1.30", "1.31", "1.32", "1.33"};
const std::set<std::string> kAl2Flavours = {"amazon-linux-2", "amazon-linux-2-gpu", "amazon-linux-2-arm64"};
const std::set<std::string> kAl2023Flavours = {"amazon-linux-2023/x86_64/standard", "amazon-linux-2023/x86_64/nvidia",
                                               "amazon-linux-2023/arm64/standard", "amazon-linux-2023/x86_64/neuron"};

bool HasAl2(const std::string& version) {
  // Amazon Linux 2 AMIs are published up to Kubernetes 1.32.
  return version.size() >= 4 && std::stoi(version.substr(2)) <= 32;
}

}  // namespace

std::string EksOptimizedAmiId(const std::string& region, const std::string& version, const std::string& flavour) {
  return "ami-" + base::Sha256Hex(region + "/" + version + "/" + flavour).substr(0, 17);
}

std::optional<Json> PublicParameter(const ServiceContext& ctx, const std::string& name) {
  std::string prefix = kEksAmiPrefix, suffix = kEksAmiSuffix;
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  size_t slash = middle.find('/');
  if (slash == std::string::npos) return std::nullopt;
  std::string version = middle.substr(0, slash), flavour = middle.substr(slash + 1);
  bool known = kAmiVersions.count(version) &&
               (kAl2023Flavours.count(flavour) || (kAl2Flavours.count(flavour) && HasAl2(version)));
  if (!known) return std::nullopt;
  std::string region = RegionOf(ctx);
  return Json{{"region", region},
              {"name", name},
              {"type", "String"},
              {"value", EksOptimizedAmiId(region, version, flavour)},
              {"data_type", "aws:ec2:image"},
              {"version", 1},
              {"modified", 1735689600.0},
              {"arn", "arn:aws:ssm:" + region + "::parameter" + name}};
}

}  // namespace strata::sandbox::ssm
