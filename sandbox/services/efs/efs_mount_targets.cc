// EFS mount targets (one per Availability Zone of a file system, all in one VPC, in an EC2
// subnet of the world with its security groups) and access points (idempotent by
// ClientToken: a repeated token is AccessPointAlreadyExists naming the access point).
#include <cstdint>
#include <set>

#include "sandbox/ec2_refs.h"
#include "sandbox/services/efs/efs_common.h"

namespace strata::sandbox::efs {

namespace {

Json MountTargetView(const ServiceContext& ctx, const Json& doc) {
  Json view = doc["view"];
  view["LifeCycleState"] = LifeCycleState(ctx, doc);
  view.erase("SecurityGroups");
  view.erase("CreationTime");
  return view;
}

Json RequireMountTarget(const ServiceContext& ctx, const std::string& id) {
  std::optional<Json> mt = FindLive(ctx, kMountTargetKind, id);
  if (!mt) throw EfsError(404, "MountTargetNotFound", "Mount target '" + id + "' does not exist.");
  return *mt;
}

std::vector<Json> MountTargetsOf(const ServiceContext& ctx, const std::string& file_system) {
  std::vector<Json> out;
  for (Json& mt : ListLive(ctx, kMountTargetKind)) {
    if (mt["view"].value("FileSystemId", "") == file_system) out.push_back(std::move(mt));
  }
  return out;
}

//! The security groups of a create or modify: 1-5 groups EC2 has, in `vpc`.
Json CheckedSecurityGroups(const ServiceContext& ctx, const Json& groups, const std::string& vpc) {
  if (!groups.is_array() || groups.empty() || groups.size() > 5) {
    throw EfsError(400, groups.size() > 5 ? "SecurityGroupLimitExceeded" : "BadRequest",
                   "SecurityGroups must list 1 to 5 security group ids.");
  }
  for (const Json& group : groups) {
    std::string id = group.is_string() ? group.get<std::string>() : "";
    std::string group_vpc = Ec2SecurityGroupVpc(ctx, id);
    if (group_vpc.empty()) throw EfsError(400, "SecurityGroupNotFound", "Security group '" + id + "' does not exist.");
    if (group_vpc != vpc) {
      throw EfsError(400, "SecurityGroupNotFound", "Security group '" + id + "' is not in the mount target's VPC " + vpc + ".");
    }
  }
  return groups;
}

std::optional<uint32_t> EfsParseIpv4(const std::string& text) {
  uint32_t value = 0;
  int parts = 0;
  size_t pos = 0;
  while (pos <= text.size() && parts < 4) {
    size_t end = text.find_first_of("./", pos);
    if (end == std::string::npos) end = text.size();
    if (end == pos || end - pos > 3 ||
        text.find_first_not_of("0123456789", pos) < end) {
      return std::nullopt;
    }
    int octet = std::stoi(text.substr(pos, end - pos));
    if (octet > 255) return std::nullopt;
    value = value << 8 | static_cast<uint32_t>(octet);
    ++parts;
    if (end == text.size() || text[end] == '/') break;
    pos = end + 1;
  }
  return parts == 4 ? std::optional<uint32_t>(value) : std::nullopt;
}

std::string EfsFormatIpv4(uint32_t ip) {
  return std::to_string(ip >> 24) + "." + std::to_string(ip >> 16 & 255) + "." + std::to_string(ip >> 8 & 255) + "." +
         std::to_string(ip & 255);
}

//! The mount target's address: the one asked for (in the subnet, not taken), or the
//! subnet's next free one after the five AWS reserves.
std::string MountTargetAddress(const ServiceContext& ctx, const Ec2SubnetRef& subnet, const std::optional<std::string>& wanted) {
  std::optional<uint32_t> base = EfsParseIpv4(subnet.cidr_block);
  size_t slash = subnet.cidr_block.find('/');
  int prefix = slash == std::string::npos ? 24 : std::stoi(subnet.cidr_block.substr(slash + 1));
  uint32_t size = prefix <= 0 ? 0 : 1u << (32 - prefix);
  std::set<std::string> taken;
  for (const Json& mt : ListLive(ctx, kMountTargetKind)) {
    if (mt["view"].value("SubnetId", "") == subnet.id) taken.insert(mt["view"].value("IpAddress", ""));
  }
  if (wanted) {
    std::optional<uint32_t> ip = EfsParseIpv4(*wanted);
    if (!ip || !base || *ip < *base + 4 || *ip >= *base + size - 1) {
      ThrowBadRequest("IpAddress " + *wanted + " is not a usable address of subnet " + subnet.id + " (" + subnet.cidr_block + ").");
    }
    if (taken.count(*wanted)) throw EfsError(409, "IpAddressInUse", "IpAddress " + *wanted + " is already in use.");
    return *wanted;
  }
  for (uint32_t offset = 4; base && offset + 1 < size; ++offset) {
    std::string candidate = EfsFormatIpv4(*base + offset);
    if (!taken.count(candidate)) return candidate;
  }
  throw EfsError(409, "NoFreeAddressesInSubnet", "Subnet " + subnet.id + " has no free addresses.");
}

Json AccessPointView(const ServiceContext& ctx, const Json& doc) {
  Json view = doc["view"];
  view["LifeCycleState"] = LifeCycleState(ctx, doc);
  view.erase("CreationTime");
  SetNameFromTags(view);
  return view;
}

}  // namespace

Response CreateMountTarget(ServiceContext& ctx) {
  Json body = ctx.request.JsonBody();
  std::string fs_id = OptionalString(body, "FileSystemId").value_or("");
  std::string subnet_id = OptionalString(body, "SubnetId").value_or("");
  if (fs_id.empty() || subnet_id.empty()) ThrowBadRequest("FileSystemId and SubnetId are required.");
  Json fs = RequireFileSystem(ctx, fs_id);
  RequireFileSystemAvailable(ctx, fs);
  std::optional<Ec2SubnetRef> subnet = FindEc2Subnet(ctx, subnet_id);
  if (!subnet) throw EfsError(400, "SubnetNotFound", "Subnet '" + subnet_id + "' does not exist.");
  for (const Json& other : MountTargetsOf(ctx, fs_id)) {
    if (other["view"].value("VpcId", "") != subnet->vpc_id) {
      throw EfsError(409, "MountTargetConflict", "All mount targets of file system '" + fs_id +
                                                     "' must be in the same VPC (" + other["view"].value("VpcId", "") + ").");
    }
    if (other["view"].value("AvailabilityZoneName", "") == subnet->availability_zone) {
      throw EfsError(409, "MountTargetConflict", "File system '" + fs_id + "' already has mount target '" +
                                                     other["view"].value("MountTargetId", "") + "' in " +
                                                     subnet->availability_zone + ".");
    }
  }
  Json groups;
  if (body.contains("SecurityGroups") && !body["SecurityGroups"].is_null()) {
    groups = CheckedSecurityGroups(ctx, body["SecurityGroups"], subnet->vpc_id);
  } else {
    std::string fallback = Ec2DefaultSecurityGroup(ctx, subnet->vpc_id);
    groups = fallback.empty() ? Json::array() : Json::array({fallback});
  }
  std::string id = ctx.world.NewId("fsmt");
  Json view = {{"OwnerId", ctx.settings.account_id},
               {"MountTargetId", id},
               {"FileSystemId", fs_id},
               {"SubnetId", subnet_id},
               {"IpAddress", MountTargetAddress(ctx, *subnet, OptionalString(body, "IpAddress"))},
               {"NetworkInterfaceId", ctx.world.NewId("eni")},
               {"AvailabilityZoneId", subnet->availability_zone_id},
               {"AvailabilityZoneName", subnet->availability_zone},
               {"VpcId", subnet->vpc_id},
               {"SecurityGroups", groups}};
  Json doc = NewDocument(ctx, view);
  ctx.world.Put(kMountTargetKind, id, doc);
  return EfsResponse(ctx, MountTargetView(ctx, doc));
}

Response DescribeMountTargets(ServiceContext& ctx) {
  std::string fs_id = QueryValue(ctx, "FileSystemId"), mt_id = QueryValue(ctx, "MountTargetId");
  std::string ap_id = QueryValue(ctx, "AccessPointId");
  std::vector<Json> views;
  if (!mt_id.empty()) {
    views.push_back(MountTargetView(ctx, RequireMountTarget(ctx, mt_id)));
  } else if (!fs_id.empty() || !ap_id.empty()) {
    if (!ap_id.empty()) {
      std::optional<Json> ap = FindLive(ctx, kAccessPointKind, ap_id);
      if (!ap) throw EfsError(404, "AccessPointNotFound", "Access point '" + ap_id + "' does not exist.");
      fs_id = (*ap)["view"].value("FileSystemId", "");
    }
    RequireFileSystem(ctx, fs_id);
    for (const Json& mt : MountTargetsOf(ctx, fs_id)) views.push_back(MountTargetView(ctx, mt));
  } else {
    ThrowBadRequest("One of FileSystemId, MountTargetId or AccessPointId is required.");
  }
  auto [page, next] = Page(ctx, views, "MaxItems", "Marker", 100);
  Json out = {{"MountTargets", page}};
  if (!QueryValue(ctx, "Marker").empty()) out["Marker"] = QueryValue(ctx, "Marker");
  if (!next.empty()) out["NextMarker"] = next;
  return EfsResponse(ctx, out);
}

Response DescribeMountTargetSecurityGroups(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireMountTarget(ctx, id);
  return EfsResponse(ctx, Json{{"SecurityGroups", doc["view"]["SecurityGroups"]}});
}

Response ModifyMountTargetSecurityGroups(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireMountTarget(ctx, id);
  std::string state = LifeCycleState(ctx, doc);
  if (state != "available") {
    throw EfsError(409, "IncorrectMountTargetState", "Mount target '" + id + "' is " + state + "; it must be available.");
  }
  Json body = ctx.request.JsonBody();
  doc["view"]["SecurityGroups"] =
      CheckedSecurityGroups(ctx, body.value("SecurityGroups", Json::array()), doc["view"].value("VpcId", ""));
  ctx.world.Put(kMountTargetKind, id, doc);
  return EfsResponse(ctx, Json::object(), 204);
}

Response DeleteMountTarget(ServiceContext& ctx, const std::string& id) {
  Json doc = RequireMountTarget(ctx, id);
  if (LifeCycleState(ctx, doc) != "deleting") {
    BeginTimedDelete(ctx, doc["lifecycle"], ctx.settings.efs_delay);
    ctx.world.Put(kMountTargetKind, id, doc);
  }
  return EfsResponse(ctx, Json::object(), 204);
}

Response CreateAccessPoint(ServiceContext& ctx) {
  Json body = ctx.request.JsonBody();
  std::string token = OptionalString(body, "ClientToken").value_or("");
  std::string fs_id = OptionalString(body, "FileSystemId").value_or("");
  if (token.empty() || token.size() > 64) ThrowBadRequest("ClientToken must be 1 to 64 characters long.");
  if (fs_id.empty()) ThrowBadRequest("FileSystemId is required.");
  for (const Json& ap : ListLive(ctx, kAccessPointKind)) {
    if (ap["view"].value("ClientToken", "") == token) {
      std::string id = ap["view"].value("AccessPointId", "");
      throw EfsError(409, "AccessPointAlreadyExists", "Access point '" + id + "' already exists with client token '" + token + "'.",
                     Json{{"AccessPointId", id}});
    }
  }
  Json fs = RequireFileSystem(ctx, fs_id);
  RequireFileSystemAvailable(ctx, fs);
  Json root = body.value("RootDirectory", Json::object());
  if (!root.is_object()) ThrowBadRequest("RootDirectory must be an object.");
  std::string path = root.value("Path", "/");
  if (path.empty() || path[0] != '/' || path.size() > 100) ThrowBadRequest("RootDirectory.Path must be an absolute path of at most 100 characters.");
  root["Path"] = path;
  if (root.contains("CreationInfo")) {
    const Json& info = root["CreationInfo"];
    if (!info.is_object() || !info.contains("OwnerUid") || !info.contains("OwnerGid") || !info.contains("Permissions") ||
        !info["Permissions"].is_string()) {
      ThrowBadRequest("RootDirectory.CreationInfo needs OwnerUid, OwnerGid and Permissions.");
    }
  }
  std::string id = ctx.world.NewId("fsap");
  Json view = {{"ClientToken", token},
               {"Tags", CheckedTagList(body)},
               {"AccessPointId", id},
               {"AccessPointArn", EfsArn(ctx, "access-point/" + id)},
               {"FileSystemId", fs_id},
               {"RootDirectory", root},
               {"OwnerId", ctx.settings.account_id}};
  if (body.contains("PosixUser") && !body["PosixUser"].is_null()) {
    const Json& user = body["PosixUser"];
    if (!user.is_object() || !user.contains("Uid") || !user.contains("Gid")) ThrowBadRequest("PosixUser needs Uid and Gid.");
    view["PosixUser"] = user;
  }
  Json doc = NewDocument(ctx, view);
  ctx.world.Put(kAccessPointKind, id, doc);
  return EfsResponse(ctx, AccessPointView(ctx, doc));
}

Response DescribeAccessPoints(ServiceContext& ctx) {
  std::string ap_id = QueryValue(ctx, "AccessPointId"), fs_id = QueryValue(ctx, "FileSystemId");
  std::vector<Json> views;
  if (!ap_id.empty()) {
    std::optional<Json> ap = FindLive(ctx, kAccessPointKind, ap_id);
    if (!ap) throw EfsError(404, "AccessPointNotFound", "Access point '" + ap_id + "' does not exist.");
    views.push_back(AccessPointView(ctx, *ap));
  } else {
    if (!fs_id.empty()) RequireFileSystem(ctx, fs_id);
    for (const Json& ap : ListLive(ctx, kAccessPointKind)) {
      if (fs_id.empty() || ap["view"].value("FileSystemId", "") == fs_id) views.push_back(AccessPointView(ctx, ap));
    }
  }
  auto [page, next] = Page(ctx, views, "MaxResults", "NextToken", 1000);
  Json out = {{"AccessPoints", page}};
  if (!next.empty()) out["NextToken"] = next;
  return EfsResponse(ctx, out);
}

Response DeleteAccessPoint(ServiceContext& ctx, const std::string& id) {
  if (!FindLive(ctx, kAccessPointKind, id)) throw EfsError(404, "AccessPointNotFound", "Access point '" + id + "' does not exist.");
  ctx.world.Erase(kAccessPointKind, id);
  return EfsResponse(ctx, Json::object(), 204);
}

}  // namespace strata::sandbox::efs
