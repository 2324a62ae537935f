#include "sandbox/services/autoscaling/autoscaling_groups.h"

#include <chrono>

namespace strata::sandbox::autoscaling {
namespace {

std::string GroupKey(const ServiceContext& ctx, const std::string& name) { return RegionOf(ctx) + "/" + name; }

int64_t NowMillis(const ServiceContext& ctx) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ctx.now.time_since_epoch()).count();
}

bool IsGone(const ServiceContext& ctx, const Json& group) {
  return group.contains("gone_at_ms") && NowMillis(ctx) >= group["gone_at_ms"].get<int64_t>();
}

}  // namespace

void CreateGroup(ServiceContext& ctx, const GroupSpec& spec) {
  if (LoadGroup(ctx, spec.name)) return;
  Json tags = Json::object();
  for (const auto& [key, value] : spec.tags) tags[key] = {{"value", value}, {"propagate", true}};
  std::string region = RegionOf(ctx);
  Json group = {{"region", region},
                {"name", spec.name},
                {"arn", "arn:aws:autoscaling:" + region + ":" + ctx.settings.account_id + ":autoScalingGroup:" +
                            ctx.world.NewUuid() + ":autoScalingGroupName/" + spec.name},
                {"created", IsoTime(ctx.now)},
                {"min", spec.min_size},
                {"max", spec.max_size},
                {"desired", spec.desired_capacity},
                {"subnets", spec.subnet_ids},
                {"zones", spec.availability_zones},
                {"instance_types", spec.instance_types},
                {"spot", spec.spot},
                {"launch_template", spec.launch_template},
                {"tags", tags}};
  SaveGroup(ctx, group);
}

void ResizeGroup(ServiceContext& ctx, const std::string& name, int64_t min_size, int64_t max_size,
                 int64_t desired_capacity) {
  std::optional<Json> group = LoadGroup(ctx, name);
  if (!group) return;
  (*group)["min"] = min_size;
  (*group)["max"] = max_size;
  (*group)["desired"] = desired_capacity;
  SaveGroup(ctx, *group);
}

void DeleteGroupAt(ServiceContext& ctx, const std::string& name, int64_t gone_at_ms) {
  std::optional<Json> group = LoadGroup(ctx, name);
  if (!group || group->contains("gone_at_ms")) return;
  (*group)["gone_at_ms"] = gone_at_ms;
  SaveGroup(ctx, *group);
}

std::optional<Json> LoadGroup(ServiceContext& ctx, const std::string& name) {
  std::string key = GroupKey(ctx, name);
  std::optional<Json> group = ctx.world.Get(kGroupKind, key);
  if (!group) return std::nullopt;
  if (!IsGone(ctx, *group)) return group;
  ctx.world.Erase(kGroupKind, key);
  return std::nullopt;
}

std::vector<Json> LiveGroups(ServiceContext& ctx) {
  std::vector<Json> groups;
  for (auto& [key, group] : ctx.world.ListPrefix(kGroupKind, RegionOf(ctx) + "/")) {
    if (!IsGone(ctx, group)) {
      groups.push_back(std::move(group));
    } else {
      ctx.world.Erase(kGroupKind, key);
    }
  }
  return groups;
}

void SaveGroup(ServiceContext& ctx, const Json& group) {
  ctx.world.Put(kGroupKind, group.at("region").get<std::string>() + "/" + group.at("name").get<std::string>(), group);
}

bool IsDeleting(const ServiceContext& ctx, const Json& group) {
  return group.contains("gone_at_ms") && !IsGone(ctx, group);
}

}  // namespace strata::sandbox::autoscaling
