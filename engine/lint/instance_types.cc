#include "engine/lint/instance_types.h"

#include <map>
#include <set>

namespace strata::lint {

std::optional<InstanceShape> ShapeOf(const std::string& type) {
  static const std::map<std::string, InstanceShape> listed = {
      {"p2.xlarge", {4, 1}},       {"p2.8xlarge", {32, 8}},     {"p2.16xlarge", {64, 16}},
      {"p3.2xlarge", {8, 1}},      {"p3.8xlarge", {32, 4}},     {"p3.16xlarge", {64, 8}},
      {"p3dn.24xlarge", {96, 8}},  {"p4d.24xlarge", {96, 8}},   {"p4de.24xlarge", {96, 8}},
      {"p5.48xlarge", {192, 8}},   {"g4dn.xlarge", {4, 1}},     {"g4dn.2xlarge", {8, 1}},
      {"g4dn.4xlarge", {16, 1}},   {"g4dn.8xlarge", {32, 1}},   {"g4dn.12xlarge", {48, 4}},
      {"g4dn.16xlarge", {64, 1}},  {"g4dn.metal", {96, 8}},     {"g5.xlarge", {4, 1}},
      {"g5.2xlarge", {8, 1}},      {"g5.4xlarge", {16, 1}},     {"g5.8xlarge", {32, 1}},
      {"g5.12xlarge", {48, 4}},    {"g5.16xlarge", {64, 1}},    {"g5.24xlarge", {96, 4}},
      {"g5.48xlarge", {192, 8}},   {"g6.xlarge", {4, 1}},       {"g6.2xlarge", {8, 1}},
      {"g6.4xlarge", {16, 1}},     {"g6.8xlarge", {32, 1}},     {"g6.12xlarge", {48, 4}},
      {"g6.16xlarge", {64, 1}},    {"g6.24xlarge", {96, 4}},    {"g6.48xlarge", {192, 8}},
      {"c4.8xlarge", {36, 0}},     {"trn1.2xlarge", {8, 0}},    {"trn1.32xlarge", {128, 0}},
      {"trn1n.32xlarge", {128, 0}},
  };
  auto it = listed.find(type);
  if (it != listed.end()) return it->second;
  // Families without GPUs whose vCPUs follow the size.
  static const std::set<std::string> sized = {"m4", "m5", "m5a", "m5n", "m5d", "m6i", "m6a", "m7i", "m7a", "c4", "c5",
                                              "c5a", "c5n", "c6i", "c6a", "c7i", "r5", "r5a", "r6i", "r7i", "t3", "t3a"};
  auto dot = type.find('.');
  if (dot == std::string::npos || !sized.count(type.substr(0, dot))) return std::nullopt;
  std::string size = type.substr(dot + 1);
  if (size == "nano" || size == "micro" || size == "small" || size == "medium" || size == "large") return InstanceShape{2, 0};
  if (size == "xlarge") return InstanceShape{4, 0};
  auto x = size.find("xlarge");
  if (x == std::string::npos || x == 0 || x + 6 != size.size()) return std::nullopt;
  try {
    return InstanceShape{4 * std::stoi(size.substr(0, x)), 0};
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace strata::lint
