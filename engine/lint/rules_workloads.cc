// What a workload's containers run: two NVIDIA device plugins on the same nodes, images
// pinned to nothing (`latest`, or no tag), and commands the AWS CLI removed (`aws ecr
// get-login`, gone in CLI v2).
#include <fmt/format.h>

#include <map>

#include "engine/lint/rules.h"

namespace strata::lint {
namespace {

struct WorkloadContainer {
  const KubeObject* object;
  Path spec;  // the pod spec, relative to the object
  Path path;  // the container, relative to the object
  const Value* value;
};

// Every container and init container of every manifest's pod specs.
std::vector<WorkloadContainer> WorkloadContainers(const ProjectModel& model) {
  std::vector<WorkloadContainer> out;
  for (const auto& o : model.objects) {
    if (o.typed) continue;
    for (const Path& spec : o.PodSpecs()) {
      for (const char* list : {"initContainers", "containers"}) {
        const Value* containers = ValueAt(o.object, Join(spec, {list}));
        for (size_t i = 0; containers && containers->IsSequence() && i < containers->AsList().size(); ++i) {
          if (containers->AsList()[i].IsMapping()) out.push_back({&o, spec, Join(spec, {list, i}), &containers->AsList()[i]});
        }
      }
    }
  }
  return out;
}

bool DevicePluginImage(const std::string& image) {
  return image.find("k8s-device-plugin") != std::string::npos || image.find("nvidia-device-plugin") != std::string::npos;
}

// Whether two pod specs surely land on different nodes: both select by known, differing labels.
bool DisjointPlacement(const WorkloadContainer& a, const WorkloadContainer& b) {
  const Value* sa = ValueAt(a.object->object, Join(a.spec, {"nodeSelector"}));
  const Value* sb = ValueAt(b.object->object, Join(b.spec, {"nodeSelector"}));
  if (!sa || !sb || !sa->IsMapping() || !sb->IsMapping()) return false;
  for (const auto& [key, value] : sa->AsMap()) {
    auto other = sb->AsMap().find(key);
    if (other != sb->AsMap().end() && value.IsString() && other->second.IsString() &&
        value.AsString() != other->second.AsString()) {
      return true;
    }
  }
  return false;
}

void DuplicateDevicePlugins(LintContext& ctx, const std::vector<WorkloadContainer>& containers) {
  std::map<int, std::vector<const WorkloadContainer*>> plugins;  // per component
  for (const auto& c : containers) {
    auto image = StringAt(*c.value, {"image"});
    if (c.object->kind != "DaemonSet" || !image || !DevicePluginImage(*image)) continue;
    auto& seen = plugins[c.object->instance->component];
    if (!seen.empty() && seen.back()->object == c.object) continue;  // one per DaemonSet
    for (const WorkloadContainer* first : seen) {
      if (DisjointPlacement(*first, c)) continue;
      ctx.Report("k8s-duplicate-device-plugin", *c.object, Join(c.path, {"image"}),
                 fmt::format("{} runs the NVIDIA device plugin, as {} does (stage {}): two plugins register the same "
                             "GPUs on one node",
                             c.object->Identity(), first->object->Identity(), first->object->instance->stage->name));
      break;
    }
    seen.push_back(&c);
  }
}

// The tag of an image reference ("" when none); nullopt when pinned by digest.
std::optional<std::string> ImageTag(const std::string& image) {
  if (image.find('@') != std::string::npos) return std::nullopt;
  size_t slash = image.rfind('/');
  size_t colon = image.rfind(':');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return std::string();
  return image.substr(colon + 1);
}

void LatestTags(LintContext& ctx, const std::vector<WorkloadContainer>& containers) {
  for (const auto& c : containers) {
    auto image = StringAt(*c.value, {"image"});
    if (!image || image->empty()) continue;
    auto tag = ImageTag(*image);
    if (!tag || (!tag->empty() && *tag != "latest")) continue;
    ctx.Report("k8s-image-latest-tag", *c.object, Join(c.path, {"image"}),
               fmt::format("image {} {}: each node pulls whatever is newest when it starts the pod", *image,
                           tag->empty() ? "has no tag (latest)" : "is tagged latest"));
  }
}

void RemovedCliCommands(LintContext& ctx, const std::vector<WorkloadContainer>& containers) {
  for (const auto& c : containers) {
    for (const char* field : {"command", "args"}) {
      const Value* list = ValueAt(*c.value, {field});
      for (size_t i = 0; list && list->IsSequence() && i < list->AsList().size(); ++i) {
        const Value& arg = list->AsList()[i];
        if (!arg.IsString()) continue;
        size_t at = arg.AsString().find("ecr get-login");
        if (at == std::string::npos || arg.AsString().compare(at, 22, "ecr get-login-password") == 0) continue;
        ctx.Report("k8s-removed-aws-cli-command", *c.object, Join(c.path, {field, i}),
                   "aws ecr get-login is gone from AWS CLI v2: the command fails and no registry login happens");
      }
    }
  }
}

}  // namespace

void CheckWorkloads(LintContext& ctx) {
  std::vector<WorkloadContainer> containers = WorkloadContainers(ctx.model());
  DuplicateDevicePlugins(ctx, containers);
  LatestTags(ctx, containers);
  RemovedCliCommands(ctx, containers);
}

}  // namespace strata::lint
