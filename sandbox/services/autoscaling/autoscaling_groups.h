#pragma once
// The sandbox's Auto Scaling groups. EKS makes one for each managed node group, as it does on
// AWS ("eks-<group>-<uuid>", with EKS's own tags), resizes it with the node group and
// deletes it with it; CreateAutoScalingGroup makes the others (autoscaling_lifecycle.cc).
// The Auto Scaling API (autoscaling_service.cc) shows them and edits their tags.
//
// Storage: one World document per group under kGroupKind, keyed "<region>/<name>":
// {"region", "name", "arn", "created", "min", "max", "desired", "subnets", "zones",
//  "instance_types", "spot", "launch_template": {...}, "tags": {"<key>": {"value",
//  "propagate"}}, "gone_at_ms" (set once its owner began deleting it)}; a group made through
// the API also has "api" (what its calls set: "template" or "policy", "health_check_type",
// "grace", "cooldown", "rebalance", "protect", "termination_policies", "suspended") and
// "instances" ([{"InstanceId", "InstanceType", "AvailabilityZone", "LifecycleState",
// "HealthStatus", "ProtectedFromScaleIn"}]).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::autoscaling {

inline constexpr const char* kGroupKind = "autoscaling.group";

//! What the service that owns a group (EKS, for a managed node group) says of it.
struct GroupSpec {
  std::string name;
  int64_t min_size = 0;
  int64_t max_size = 0;
  int64_t desired_capacity = 0;
  std::vector<std::string> subnet_ids;
  std::vector<std::string> availability_zones;
  std::vector<std::string> instance_types;
  bool spot = false;
  //! The launch template the group launches from: {"LaunchTemplateId", "LaunchTemplateName",
  //! "Version"}.
  Json launch_template = Json::object();
  //! Tags set at creation, all propagated at launch.
  std::map<std::string, std::string> tags;
};

//! Creates the group `spec` names in the call's region; a group of that name that exists
//! already is left as it is (a create answered again).
void CreateGroup(ServiceContext& ctx, const GroupSpec& spec);
//! Sets the group's size, if it exists.
void ResizeGroup(ServiceContext& ctx, const std::string& name, int64_t min_size, int64_t max_size,
                 int64_t desired_capacity);
//! Marks the group as being deleted ("Delete in progress") until `gone_at_ms` (milliseconds
//! since the epoch), when it is gone.
void DeleteGroupAt(ServiceContext& ctx, const std::string& name, int64_t gone_at_ms);

//! The group `name` of the call's region, or nullopt when there is none or it has finished
//! deleting (then it is erased).
std::optional<Json> LoadGroup(ServiceContext& ctx, const std::string& name);
//! Every group of the call's region that still exists, in name order.
std::vector<Json> LiveGroups(ServiceContext& ctx);
void SaveGroup(ServiceContext& ctx, const Json& group);

//! Whether the group is being deleted (its owner began deleting it).
bool IsDeleting(const ServiceContext& ctx, const Json& group);

}  // namespace strata::sandbox::autoscaling
