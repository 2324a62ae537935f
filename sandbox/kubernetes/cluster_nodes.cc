#include "sandbox/kubernetes/cluster_nodes.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace strata::sandbox::k8s {
namespace {

uint64_t Hash(const std::string& text) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

bool StartsWith(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// vCPUs by size ("xlarge" → 4), as EC2 sizes go.
int64_t CpusOfSize(const std::string& size) {
  if (size == "nano" || size == "micro" || size == "small" || size == "medium" || size == "large") return 2;
  if (size == "xlarge") return 4;
  if (size == "metal") return 96;
  size_t x = size.find("xlarge");
  if (x == std::string::npos || x == 0) return 2;
  return 4 * std::stoll(size.substr(0, x));
}

// NVIDIA GPUs of the GPU families: one up to 8xlarge/16xlarge, four on 12/24xlarge, eight
// on the largest; the p3dn/p4/p5 families have eight.
int64_t GpusOf(const std::string& family, const std::string& size) {
  static const std::set<std::string> kEight = {"p3dn", "p4d", "p4de", "p5", "p5e", "p5en"};
  static const std::set<std::string> kSingle = {"g4dn", "g5", "g6", "g6e", "gr6", "g5g"};
  if (kEight.count(family)) return 8;
  if (family == "p3") return size == "2xlarge" ? 1 : size == "8xlarge" ? 4 : 8;
  if (!kSingle.count(family)) return 0;
  if (size == "12xlarge" || size == "24xlarge") return 4;
  if (size == "48xlarge" || size == "metal") return 8;
  return 1;
}

std::string Domain(const std::string& region) {
  return region == "us-east-1" ? "ec2.internal" : region + ".compute.internal";
}

// EKS's taint effects in Kubernetes' words.
std::string Effect(const std::string& eks_effect) {
  if (eks_effect == "NO_EXECUTE") return "NoExecute";
  if (eks_effect == "PREFER_NO_SCHEDULE") return "PreferNoSchedule";
  return "NoSchedule";
}

Json Quantities(const InstanceCapacity& c, int64_t memory_mib) {
  Json q = {{"cpu", std::to_string(c.cpu)},
            {"memory", std::to_string(memory_mib * 1024) + "Ki"},
            {"pods", std::to_string(c.max_pods)},
            {"ephemeral-storage", "20959212Ki"},
            {"hugepages-1Gi", "0"},
            {"hugepages-2Mi", "0"}};
  if (c.gpus > 0) q["nvidia.com/gpu"] = std::to_string(c.gpus);
  return q;
}

Json NodeOf(const NodeGroupView& group, int index, const std::string& name, const std::string& ip,
            const std::string& region, const std::string& now) {
  std::string zone = group.zones.empty() ? region + "a" : group.zones[index % group.zones.size()];
  InstanceCapacity capacity = CapacityOf(group.instance_type);
  bool gpu = capacity.gpus > 0;
  Json labels = Json::object();
  for (const auto& [key, value] : group.labels) labels[key] = value;
  labels[kNodegroupLabel] = group.name;
  labels["eks.amazonaws.com/capacityType"] = group.capacity_type;
  labels["node.kubernetes.io/instance-type"] = group.instance_type;
  labels["beta.kubernetes.io/instance-type"] = group.instance_type;
  labels["topology.kubernetes.io/zone"] = zone;
  labels["topology.kubernetes.io/region"] = region;
  labels["failure-domain.beta.kubernetes.io/zone"] = zone;
  labels["failure-domain.beta.kubernetes.io/region"] = region;
  labels["kubernetes.io/hostname"] = name;
  labels["kubernetes.io/os"] = "linux";
  labels["beta.kubernetes.io/os"] = "linux";
  labels["kubernetes.io/arch"] = "amd64";
  labels["beta.kubernetes.io/arch"] = "amd64";
  if (gpu) labels["k8s.amazonaws.com/accelerator"] = "nvidia";

  Json spec = {{"providerID", "aws:///" + zone + "/i-0" + std::to_string(Hash(name) % 10000000000000000ULL)}};
  Json taints = Json::array();
  if (group.taints.is_array())
    for (const Json& t : group.taints) {
      Json taint = {{"key", t.value("key", "")}, {"effect", Effect(t.value("effect", ""))}};
      if (t.contains("value") && t["value"].is_string()) taint["value"] = t["value"];
      taints.push_back(taint);
    }
  if (!taints.empty()) spec["taints"] = taints;

  // The kubelet reserves some memory: allocatable is a little less than capacity.
  int64_t allocatable_mib = capacity.memory_mib - capacity.memory_mib / 10;
  Json conditions = Json::array();
  for (const auto& [type, reason, message] :
       std::initializer_list<std::tuple<const char*, const char*, const char*>>{
           {"MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
           {"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
           {"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
           {"Ready", "KubeletReady", "kubelet is posting ready status"}})
    conditions.push_back({{"type", type},
                          {"status", std::string(type) == "Ready" ? "True" : "False"},
                          {"reason", reason},
                          {"message", message},
                          {"lastHeartbeatTime", now},
                          {"lastTransitionTime", now}});
  Json status = {
      {"capacity", Quantities(capacity, capacity.memory_mib)},
      {"allocatable", Quantities(capacity, allocatable_mib)},
      {"conditions", conditions},
      {"addresses",
       {{{"type", "InternalIP"}, {"address", ip}}, {{"type", "InternalDNS"}, {"address", name}},
        {{"type", "Hostname"}, {"address", name}}}},
      {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", 10250}}}}},
      {"nodeInfo",
       {{"architecture", "amd64"},
        {"operatingSystem", "linux"},
        {"osImage", "Amazon Linux 2"},
        {"kernelVersion", "5.10.228-219.884.amzn2.x86_64"},
        {"containerRuntimeVersion", "containerd://1.7.23"},
        {"kubeletVersion", "v" + group.kubernetes_version + ".0-eks-sandbox"},
        {"kubeProxyVersion", "v" + group.kubernetes_version + ".0-eks-sandbox"},
        {"machineID", std::to_string(Hash(name + "machine"))},
        {"systemUUID", std::to_string(Hash(name + "system"))},
        {"bootID", std::to_string(Hash(name + "boot"))}}}};
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels}, {"annotations", {{"node.alpha.kubernetes.io/ttl", "0"}}}}},
          {"spec", spec},
          {"status", status}};
}

}  // namespace

InstanceCapacity CapacityOf(const std::string& instance_type) {
  size_t dot = instance_type.find('.');
  std::string family = instance_type.substr(0, dot);
  std::string size = dot == std::string::npos ? "large" : instance_type.substr(dot + 1);
  InstanceCapacity c;
  c.cpu = CpusOfSize(size);
  // GiB per vCPU by family: compute 2, memory 8, GPU and general purpose 4.
  int64_t gib_per_cpu = StartsWith(family, "c") ? 2 : StartsWith(family, "r") || StartsWith(family, "x") ? 8 : 4;
  if (family == "p3" || family == "p3dn" || family == "p4d" || family == "p5") gib_per_cpu = 8;
  c.memory_mib = c.cpu * gib_per_cpu * 1024;
  if (size == "medium" && StartsWith(family, "t")) c.memory_mib = 4096;
  c.gpus = GpusOf(family, size);
  // The ENI-based pod limits of the Amazon VPC CNI, roughly by size.
  c.max_pods = size == "medium" ? 17 : size == "large" ? 29 : c.cpu <= 8 ? 58 : c.cpu <= 48 ? 234 : 737;
  return c;
}

std::vector<Json> NodesOf(const std::vector<NodeGroupView>& groups, const std::string& region, const std::string& now) {
  std::vector<Json> nodes;
  std::set<std::string> taken;
  for (const NodeGroupView& group : groups)
    for (int index = 0; index < group.desired_size; ++index) {
      // A private address from the group and the index: the same node each time it is made.
      uint64_t h = Hash(group.name + "#" + std::to_string(index));
      std::string ip, name;
      do {
        ip = "10." + std::to_string(h % 256) + "." + std::to_string((h >> 8) % 256) + "." +
             std::to_string(1 + (h >> 16) % 254);
        std::string dashed = ip;
        std::replace(dashed.begin(), dashed.end(), '.', '-');
        name = "ip-" + dashed + "." + Domain(region);
        ++h;
      } while (!taken.insert(name).second);
      nodes.push_back(NodeOf(group, index, name, ip, region, now));
    }
  return nodes;
}

}  // namespace strata::sandbox::k8s
