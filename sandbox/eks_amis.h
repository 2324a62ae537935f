#pragma once
// The EKS-optimized AMIs AWS publishes in every region: one per Kubernetes version the
// sandbox's EKS runs and image flavour (Amazon Linux 2 up to 1.32; Amazon Linux 2023 for
// all). Two services show them — EC2's DescribeImages (owner 602401143452) and Systems
// Manager's public parameters (/aws/service/eks/optimized-ami/<version>/<flavour>/
// recommended/image_id) — and this is the one place that knows them. Nothing is stored:
// they are computed the same in every world, so an AMI id read today is the one read
// tomorrow.

#include <optional>
#include <string>
#include <vector>

namespace strata::sandbox {

inline constexpr const char* kEksAmiOwner = "602401143452";

struct EksOptimizedAmi {
  std::string id;            //!< "ami-" and 17 hex digits, stable per region, version, flavour
  std::string name;          //!< "amazon-eks-gpu-node-1.31-v20250116"
  std::string description;
  std::string architecture;  //!< "x86_64", "arm64"
  std::string version;       //!< "1.31"
  std::string flavour;       //!< "amazon-linux-2-gpu", "amazon-linux-2023/x86_64/nvidia"
  std::string created;       //!< ISO 8601
};

//! Every EKS-optimized AMI of `region`.
std::vector<EksOptimizedAmi> EksOptimizedAmis(const std::string& region);
//! The AMI of a version and flavour in `region`; nullopt when AWS publishes none.
std::optional<EksOptimizedAmi> FindEksOptimizedAmi(const std::string& region, const std::string& version,
                                                   const std::string& flavour);

}  // namespace strata::sandbox
