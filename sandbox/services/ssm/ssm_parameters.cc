#include "sandbox/services/ssm/ssm_parameters.h"

#include "sandbox/eks_amis.h"

namespace strata::sandbox::ssm {
namespace {

constexpr const char* kEksAmiPrefix = "/aws/service/eks/optimized-ami/";
constexpr const char* kEksAmiSuffix = "/recommended/image_id";

}  // namespace

std::optional<Json> PublicParameter(const ServiceContext& ctx, const std::string& name) {
  std::string prefix = kEksAmiPrefix, suffix = kEksAmiSuffix;
  if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return std::nullopt;
  }
  std::string middle = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  size_t slash = middle.find('/');
  if (slash == std::string::npos) return std::nullopt;
  std::string region = RegionOf(ctx);
  std::optional<EksOptimizedAmi> ami = FindEksOptimizedAmi(region, middle.substr(0, slash), middle.substr(slash + 1));
  if (!ami) return std::nullopt;
  return Json{{"region", region},
              {"name", name},
              {"type", "String"},
              {"value", ami->id},
              {"data_type", "aws:ec2:image"},
              {"version", 1},
              {"modified", 1736985600.0},
              {"arn", "arn:aws:ssm:" + region + "::parameter" + name}};
}

}  // namespace strata::sandbox::ssm
