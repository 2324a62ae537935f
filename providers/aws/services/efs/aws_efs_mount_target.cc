// aws_efs_mount_target: an EFS file system's mount target in one subnet, over
// CreateMountTarget / DescribeMountTargets / DescribeMountTargetSecurityGroups /
// ModifyMountTargetSecurityGroups / DeleteMountTarget, with Terraform's attribute names. The
// id is the mount target id ("fsmt-…"), which also imports it.
//
// CreateMountTarget takes no client token, but a file system has at most one mount target
// per Availability Zone: the natural key is the file system and the subnet. A recovery looks
// the mount target up by them, and a create whose earlier attempt's answer was lost, refused
// with MountTargetConflict, finds its mount target there. A create waits for "available", a
// delete until it is gone (the file system cannot be deleted before); security_groups change
// in place, everything else forces a new mount target.

#include "providers/aws/common/aws_resource_type.h"
#include "providers/aws/services/efs/efs_api.h"
#include "providers/aws/services/efs/efs_types.h"

namespace strata::aws {
namespace {

using namespace attrs;
using nlohmann::json;

class AwsEfsMountTarget final : public AwsResourceType {
 public:
  using AwsResourceType::AwsResourceType;

  ResourceSchema Schema() const override {
    return ManagedSchema("aws_efs_mount_target", {{"file_system_id", Required("string", true)},
                                                  {"subnet_id", Required("string", true)},
                                                  {"ip_address", OptionalComputed("string", true)},
                                                  {"security_groups", OptionalComputed("set(string)")},
                                                  {"dns_name", Computed("string")},
                                                  {"mount_target_dns_name", Computed("string")},
                                                  {"file_system_arn", Computed("string")},
                                                  {"network_interface_id", Computed("string")},
                                                  {"availability_zone_name", Computed("string")},
                                                  {"availability_zone_id", Computed("string")},
                                                  {"owner_id", Computed("string")}});
  }

  CreateRecovery Recovery() const override { return CreateRecovery::NaturalKey; }
  std::vector<std::string> RecoveryKey() const override { return {"file_system_id", "subnet_id"}; }

  ApplyResult Create(const OperationContext& ctx, const Value& planned) override {
    json body = {{"FileSystemId", GetString(planned, "file_system_id")}, {"SubnetId", GetString(planned, "subnet_id")}};
    if (Get(planned, "ip_address").IsString()) body["IpAddress"] = GetString(planned, "ip_address");
    if (Get(planned, "security_groups").IsSequence()) body["SecurityGroups"] = GetStringList(planned, "security_groups");
    RestJsonRequest call;
    call.method = "POST";
    call.path = EfsPath("mount-targets");
    call.body = body;
    Result<json> created = CallEfs(*session_, ctx, "CreateMountTarget", call);
    std::string id;
    if (created.ok()) {
      id = JsonString(*created, "MountTargetId");
    } else if (DoneByAnEarlierAttempt(created.error(), {"MountTargetConflict"})) {
      Result<std::optional<json>> found = FindByKey(ctx, planned);
      if (!found.ok() || !found->has_value()) return CreateFailed("CreateMountTarget", created.error());
      id = JsonString(**found, "MountTargetId");
    } else {
      ApplyResult failed = CreateFailed("CreateMountTarget", created.error());
      if (created.error().code == "MountTargetConflict") {
        failed.diags.Error("EFS mount target conflict", ctx.address + ": a file system has one mount target per Availability Zone, "
                                                        "all in one VPC; use a subnet of another zone of that VPC, or import the "
                                                        "existing mount target.");
      }
      return failed;
    }
    Diagnostics diags = WaitForEfsState(*session_, ctx, "EFS mount target " + id, "available", [&] { return Describe(ctx, id); });
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  ReadResult Read(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    Result<std::optional<json>> got = Describe(ctx, id);
    if (!got.ok()) return {Value(), false, AwsErrorDiag("DescribeMountTargets", got.error())};
    if (!got->has_value() || JsonString(**got, "LifeCycleState") == "deleted") return {Value(), true, {}};
    const json& mt = **got;
    RestJsonRequest call;
    call.path = EfsPath("mount-targets", id, "security-groups");
    Result<json> groups = CallEfs(*session_, ctx, "DescribeMountTargetSecurityGroups", call);
    if (!groups.ok()) return {Value(), false, AwsErrorDiag("DescribeMountTargetSecurityGroups", groups.error())};
    ValueList group_values;
    for (const json& g : groups->value("SecurityGroups", json::array())) {
      if (g.is_string()) group_values.push_back(Value::String(g.get<std::string>()));
    }
    std::string fs_id = JsonString(mt, "FileSystemId"), region = session_->Region();
    std::string zone = JsonString(mt, "AvailabilityZoneName");
    return {Value::Object({
                {"id", Value::String(id)},
                {"file_system_id", Value::String(fs_id)},
                {"subnet_id", Value::String(JsonString(mt, "SubnetId"))},
                {"ip_address", Value::String(JsonString(mt, "IpAddress"))},
                {"security_groups", Value::Set(std::move(group_values))},
                {"dns_name", Value::String(fs_id + ".efs." + region + ".amazonaws.com")},
                {"mount_target_dns_name", Value::String(zone + "." + fs_id + ".efs." + region + ".amazonaws.com")},
                {"file_system_arn", Value::String(MakeArn("elasticfilesystem", region, JsonString(mt, "OwnerId"), "file-system/" + fs_id))},
                {"network_interface_id", Value::String(JsonString(mt, "NetworkInterfaceId"))},
                {"availability_zone_name", Value::String(zone)},
                {"availability_zone_id", EfsStringOrNull(mt, "AvailabilityZoneId")},
                {"owner_id", Value::String(JsonString(mt, "OwnerId"))},
            }),
            false,
            {}};
  }

  ApplyResult Update(const OperationContext& ctx, const Value& prior, const Value& planned) override {
    std::string id = GetString(prior, "id");
    Diagnostics diags;
    if (!Get(planned, "security_groups").Equals(Get(prior, "security_groups")) && Get(planned, "security_groups").IsSequence()) {
      RestJsonRequest call;
      call.method = "PUT";
      call.path = EfsPath("mount-targets", id, "security-groups");
      call.body = json{{"SecurityGroups", GetStringList(planned, "security_groups")}};
      Result<json> done = CallEfs(*session_, ctx, "ModifyMountTargetSecurityGroups", call);
      if (!done.ok()) diags = AwsErrorDiag("ModifyMountTargetSecurityGroups", done.error());
    }
    return ReadAfterWrite(ctx, planned, id, diags);
  }

  DeleteResult Delete(const OperationContext& ctx, const Value& prior) override {
    std::string id = GetString(prior, "id");
    RestJsonRequest call;
    call.method = "DELETE";
    call.path = EfsPath("mount-targets", id);
    Result<json> deleted = CallEfs(*session_, ctx, "DeleteMountTarget", call);
    if (!deleted.ok()) {
      if (deleted.error().code == kEfsMountTargetNotFound) return {};
      return {AwsErrorDiag("DeleteMountTarget", deleted.error())};
    }
    return {WaitForEfsState(*session_, ctx, "EFS mount target " + id, "deleted", [&] { return Describe(ctx, id); })};
  }

  ApplyResult Import(const OperationContext& ctx, const std::string& id) override {
    if (id.rfind("fsmt-", 0) != 0) {
      return {Value(), Error("Invalid import id", "An aws_efs_mount_target is imported by its mount target id (\"fsmt-…\"), not \"" + id + "\".")};
    }
    return ImportById(ctx, id);
  }

 protected:
  //! The mount target of the planned file system in the planned subnet.
  ReadResult FindCreated(const OperationContext& ctx, const Value& planned) override {
    Result<std::optional<json>> found = FindByKey(ctx, planned);
    if (!found.ok()) return {Value(), false, AwsErrorDiag("DescribeMountTargets", found.error())};
    if (!found->has_value()) return {Value(), true, {}};
    return Read(ctx, With(planned, "id", Value::String(JsonString(**found, "MountTargetId"))));
  }

 private:
  Result<std::optional<json>> Describe(const OperationContext& ctx, const std::string& id) const {
    return DescribeEfsObject(*session_, ctx, "DescribeMountTargets", "mount-targets", "MountTargetId", id, "MountTargets",
                             kEfsMountTargetNotFound);
  }

  Result<std::optional<json>> FindByKey(const OperationContext& ctx, const Value& planned) const {
    RestJsonRequest call;
    call.path = EfsPath("mount-targets");
    call.query.push_back({"FileSystemId", GetString(planned, "file_system_id")});
    Result<json> got = CallEfs(*session_, ctx, "DescribeMountTargets", call);
    if (!got.ok()) {
      if (got.error().code == kEfsFileSystemNotFound) return std::optional<json>();
      return got.error();
    }
    for (const json& mt : got->value("MountTargets", json::array())) {
      if (JsonString(mt, "SubnetId") == GetString(planned, "subnet_id") && JsonString(mt, "LifeCycleState") != "deleting" &&
          JsonString(mt, "LifeCycleState") != "deleted") {
        return std::optional<json>(mt);
      }
    }
    return std::optional<json>();
  }
};

}  // namespace

std::unique_ptr<ResourceType> NewAwsEfsMountTarget(std::shared_ptr<AwsSession> session) {
  return std::make_unique<AwsEfsMountTarget>(std::move(session));
}

}  // namespace strata::aws
