#include "engine/lint/instance_types.h"

#include <map>

namespace strata::lint {
namespace {

// The families lint knows and the sizes each comes in (AWS's instance type pages), smallest
// first. Every family whose types rules look at (GPU, Trainium, and the general-purpose ones
// the reference deployments use) must be here.
const std::map<std::string, std::vector<std::string>>& FamilySizes() {
  static const std::vector<std::string> to24 = {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge",
                                                "12xlarge", "16xlarge", "24xlarge"};
  static const std::vector<std::string> to24metal = {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge",
                                                     "12xlarge", "16xlarge", "24xlarge", "metal"};
  static const std::vector<std::string> to32metal = {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge",
                                                     "12xlarge", "16xlarge", "24xlarge", "32xlarge", "metal"};
  static const std::vector<std::string> to48metal = {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
                                                     "16xlarge", "24xlarge", "32xlarge", "48xlarge", "metal"};
  static const std::vector<std::string> gen7i = {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
                                                 "16xlarge", "24xlarge", "48xlarge", "metal-24xl", "metal-48xl"};
  static const std::vector<std::string> burst = {"nano", "micro", "small", "medium", "large", "xlarge", "2xlarge"};
  static const std::vector<std::string> g5 = {"xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge",
                                              "24xlarge", "48xlarge"};
  static const std::map<std::string, std::vector<std::string>> families = {
      {"p2", {"xlarge", "8xlarge", "16xlarge"}},
      {"p3", {"2xlarge", "8xlarge", "16xlarge"}},
      {"p3dn", {"24xlarge"}},
      {"p4d", {"24xlarge"}},
      {"p4de", {"24xlarge"}},
      {"p5", {"4xlarge", "48xlarge"}},
      {"g4dn", {"xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "metal"}},
      {"g5", g5},
      {"g6", g5},
      {"trn1", {"2xlarge", "32xlarge"}},
      {"trn1n", {"32xlarge"}},
      {"inf2", {"xlarge", "8xlarge", "24xlarge", "48xlarge"}},
      {"m4", {"large", "xlarge", "2xlarge", "4xlarge", "10xlarge", "16xlarge"}},
      {"m5", to24metal},
      {"m5a", to24},
      {"m5n", to24metal},
      {"m5d", to24metal},
      {"m6i", to32metal},
      {"m6a", to48metal},
      {"m7i", gen7i},
      {"m7a", {"medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge",
               "32xlarge", "48xlarge", "metal-48xl"}},
      {"c4", {"large", "xlarge", "2xlarge", "4xlarge", "8xlarge"}},
      {"c5", {"large", "xlarge", "2xlarge", "4xlarge", "9xlarge", "12xlarge", "18xlarge", "24xlarge", "metal"}},
      {"c5a", to24},
      {"c5n", {"large", "xlarge", "2xlarge", "4xlarge", "9xlarge", "18xlarge", "metal"}},
      {"c6i", to32metal},
      {"c6a", to48metal},
      {"c7i", gen7i},
      {"r5", to24metal},
      {"r5a", to24},
      {"r6i", to32metal},
      {"r7i", gen7i},
      {"t3", burst},
      {"t3a", burst},
  };
  return families;
}

// A size's rough magnitude, to order sizes and find the nearest ones: Nxlarge → 4N vCPUs.
double SizeRank(const std::string& size) {
  static const std::map<std::string, double> named = {{"nano", 0.25}, {"micro", 0.5}, {"small", 1},
                                                       {"medium", 1.5}, {"large", 2},  {"xlarge", 4}};
  if (auto it = named.find(size); it != named.end()) return it->second;
  if (size.rfind("metal", 0) == 0) return 1e6;
  auto x = size.find("xlarge");
  if (x == std::string::npos || x == 0 || x + 6 != size.size()) return -1;
  try {
    return 4.0 * std::stoi(size.substr(0, x));
  } catch (...) {
    return -1;
  }
}

}  // namespace

TypeVerdict CheckInstanceType(const std::string& type) {
  TypeVerdict out;
  auto dot = type.find('.');
  if (dot == std::string::npos || dot == 0 || type.find_first_of("*${} ") != std::string::npos) return out;
  out.family = type.substr(0, dot);
  std::string size = type.substr(dot + 1);
  auto family = FamilySizes().find(out.family);
  if (family == FamilySizes().end()) {
    out.kind = TypeVerdict::UnknownFamily;
    return out;
  }
  for (const auto& s : family->second) {
    if (s == size) {
      out.kind = TypeVerdict::Exists;
      return out;
    }
    out.sizes.push_back(out.family + "." + s);
  }
  out.kind = TypeVerdict::NoSuchSize;
  double rank = SizeRank(size);
  const std::string* below = nullptr;
  const std::string* above = nullptr;
  for (const auto& s : family->second) {
    double r = SizeRank(s);
    if (r < rank) below = &s;
    if (r > rank && !above) above = &s;
  }
  if (rank < 0) below = above = nullptr;  // not a size at all: list them all instead
  for (const std::string* s : {below, above}) {
    if (s) out.nearest.push_back(out.family + "." + *s);
  }
  return out;
}

std::optional<InstanceShape> ShapeOf(const std::string& type) {
  static const std::map<std::string, InstanceShape> listed = {
      {"p2.xlarge", {4, 1}},       {"p2.8xlarge", {32, 8}},     {"p2.16xlarge", {64, 16}},
      {"p3.2xlarge", {8, 1}},      {"p3.8xlarge", {32, 4}},     {"p3.16xlarge", {64, 8}},
      {"p3dn.24xlarge", {96, 8}},  {"p4d.24xlarge", {96, 8}},   {"p4de.24xlarge", {96, 8}},
      {"p5.4xlarge", {16, 1}},     {"p5.48xlarge", {192, 8}},   {"g4dn.xlarge", {4, 1}},
      {"g4dn.2xlarge", {8, 1}},    {"g4dn.4xlarge", {16, 1}},   {"g4dn.8xlarge", {32, 1}},
      {"g4dn.12xlarge", {48, 4}},  {"g4dn.16xlarge", {64, 1}},  {"g4dn.metal", {96, 8}},
      {"g5.xlarge", {4, 1}},       {"g5.2xlarge", {8, 1}},      {"g5.4xlarge", {16, 1}},
      {"g5.8xlarge", {32, 1}},     {"g5.12xlarge", {48, 4}},    {"g5.16xlarge", {64, 1}},
      {"g5.24xlarge", {96, 4}},    {"g5.48xlarge", {192, 8}},   {"g6.xlarge", {4, 1}},
      {"g6.2xlarge", {8, 1}},      {"g6.4xlarge", {16, 1}},     {"g6.8xlarge", {32, 1}},
      {"g6.12xlarge", {48, 4}},    {"g6.16xlarge", {64, 1}},    {"g6.24xlarge", {96, 4}},
      {"g6.48xlarge", {192, 8}},   {"c4.8xlarge", {36, 0}},     {"trn1.2xlarge", {8, 0}},
      {"trn1.32xlarge", {128, 0}}, {"trn1n.32xlarge", {128, 0}},
  };
  auto it = listed.find(type);
  if (it != listed.end()) return it->second;
  // Families without GPUs whose vCPUs follow the size (t3's small sizes have 2).
  if (CheckInstanceType(type).kind != TypeVerdict::Exists) return std::nullopt;
  auto dot = type.find('.');
  std::string family = type.substr(0, dot);
  if (family[0] == 'p' || family[0] == 'g' || family[0] == 'i') return std::nullopt;  // GPU/accelerator: listed only
  double rank = SizeRank(type.substr(dot + 1));
  if (rank <= 0 || rank >= 1e6) return std::nullopt;  // metal: varies
  return InstanceShape{rank < 2 ? 2 : static_cast<int>(rank), 0};
}

}  // namespace strata::lint
