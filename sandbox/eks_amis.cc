#include "sandbox/eks_amis.h"

#include "engine/base/hash.h"

namespace strata::sandbox {
namespace {

constexpr const char* kAmiVersions[] = {"1.28", "1.29", "1.30", "1.31", "1.32", "1.33"};
constexpr const char* kAmiBuild = "v20250116";

//! A flavour: its SSM path part, its image name's stem, its architecture, whether it is AL2.
struct AmiFlavour {
  const char* path;
  const char* stem;
  const char* architecture;
  bool al2;
};

constexpr AmiFlavour kFlavours[] = {
    {"amazon-linux-2", "amazon-eks-node", "x86_64", true},
    {"amazon-linux-2-gpu", "amazon-eks-gpu-node", "x86_64", true},
    {"amazon-linux-2-arm64", "amazon-eks-arm64-node", "arm64", true},
    {"amazon-linux-2023/x86_64/standard", "amazon-eks-node-al2023-x86_64-standard", "x86_64", false},
    {"amazon-linux-2023/x86_64/nvidia", "amazon-eks-node-al2023-x86_64-nvidia", "x86_64", false},
    {"amazon-linux-2023/x86_64/neuron", "amazon-eks-node-al2023-x86_64-neuron", "x86_64", false},
    {"amazon-linux-2023/arm64/standard", "amazon-eks-node-al2023-arm64-standard", "arm64", false},
};

bool Published(const AmiFlavour& flavour, const std::string& version) {
  // Amazon Linux 2 AMIs are published up to Kubernetes 1.32.
  return !flavour.al2 || std::stoi(version.substr(2)) <= 32;
}

EksOptimizedAmi AmiOf(const std::string& region, const std::string& version, const AmiFlavour& flavour) {
  std::string name = std::string(flavour.stem) + "-" + version + "-" + kAmiBuild;
  return {"ami-" + base::Sha256Hex(region + "/" + version + "/" + flavour.path).substr(0, 17),
          name,
          "EKS Kubernetes Worker AMI (" + std::string(flavour.path) + ") for Kubernetes " + version,
          flavour.architecture,
          version,
          flavour.path,
          "2025-01-16T00:00:00.000Z"};
}

}  // namespace

std::vector<EksOptimizedAmi> EksOptimizedAmis(const std::string& region) {
  std::vector<EksOptimizedAmi> out;
  for (const char* version : kAmiVersions) {
    for (const AmiFlavour& flavour : kFlavours) {
      if (Published(flavour, version)) out.push_back(AmiOf(region, version, flavour));
    }
  }
  return out;
}

std::optional<EksOptimizedAmi> FindEksOptimizedAmi(const std::string& region, const std::string& version,
                                                   const std::string& flavour) {
  for (const char* known : kAmiVersions) {
    if (version != known) continue;
    for (const AmiFlavour& f : kFlavours) {
      if (flavour == f.path && Published(f, version)) return AmiOf(region, version, f);
    }
  }
  return std::nullopt;
}

}  // namespace strata::sandbox
