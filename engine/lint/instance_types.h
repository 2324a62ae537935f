#pragma once
// What lint knows of EC2 instance types: vCPUs and NVIDIA GPUs. GPU types are listed; other
// families' vCPUs follow the size (large 2, xlarge 4, Nxlarge 4N).

#include <optional>
#include <string>

namespace strata::lint {

struct InstanceShape {
  int vcpus = 0;
  int gpus = 0;
};

//! The shape of `type` ("p3.8xlarge" → 32 vCPUs, 4 GPUs), or nullopt when lint does not know it.
std::optional<InstanceShape> ShapeOf(const std::string& type);

}  // namespace strata::lint
