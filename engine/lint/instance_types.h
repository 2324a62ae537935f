#pragma once
// What lint knows of EC2 instance types: the sizes each family it knows comes in, vCPUs and
// NVIDIA GPUs. GPU types are listed; other families' vCPUs follow the size (large 2, xlarge 4,
// Nxlarge 4N). A family lint does not know is not judged: AWS adds families every year, and
// a type of a new one must not be reported as a mistake.

#include <optional>
#include <string>
#include <vector>

namespace strata::lint {

struct InstanceShape {
  int vcpus = 0;
  int gpus = 0;
};

//! The shape of `type` ("p3.8xlarge" → 32 vCPUs, 4 GPUs), or nullopt when lint does not know
//! it (its family unknown, or no such size).
std::optional<InstanceShape> ShapeOf(const std::string& type);

//! Whether `type` exists as far as lint knows.
struct TypeVerdict {
  enum Kind { Exists, NoSuchSize, UnknownFamily, NotAType } kind = NotAType;
  std::string family;
  //! NoSuchSize: the family's sizes closest to the one written, below and above ("p3.2xlarge",
  //! "p3.8xlarge"), and every size of the family.
  std::vector<std::string> nearest;
  std::vector<std::string> sizes;
};
//! "p3.4xlarge" → NoSuchSize (nearest p3.2xlarge, p3.8xlarge); "x9z.large" → UnknownFamily;
//! "p3.*" or "${...}" → NotAType.
TypeVerdict CheckInstanceType(const std::string& type);

}  // namespace strata::lint
