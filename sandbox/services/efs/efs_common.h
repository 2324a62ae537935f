#pragma once
// What the parts of the sandbox's EFS service (REST-JSON, API version 2015-02-01) share:
// where its objects live in the world, their lifecycles, EFS's refusals, typed reads of a
// request body, tags and pagination.
//
// Storage: one World document per object, keyed by its id, under kFileSystemKind,
// kMountTargetKind or kAccessPointKind: {"region", "lifecycle" (sandbox/timed_lifecycle.h),
// "view"}, "view" being the object as EFS describes it minus the fields derived from the
// clock and from other objects (LifeCycleState, a file system's NumberOfMountTargets, Name).
// A file system's document also keeps "lifecyclePolicies". Every lifecycle lasts
// settings.efs_delay.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"
#include "sandbox/timed_lifecycle.h"

namespace strata::sandbox::efs {

inline constexpr const char* kFileSystemKind = "efs.file_system";
inline constexpr const char* kMountTargetKind = "efs.mount_target";
inline constexpr const char* kAccessPointKind = "efs.access_point";

//! A refusal in EFS's shape: {"ErrorCode", "Message"} and the x-amzn-ErrorType header, with
//! `extra` members (FileSystemAlreadyExists carries the FileSystemId).
struct EfsError : ApiError {
  EfsError(int status, std::string code, const std::string& message, Json extra = Json::object())
      : ApiError(status, std::move(code), message), extra(std::move(extra)) {}
  Json extra;
};
[[noreturn]] void ThrowBadRequest(const std::string& message);

//! The object of `kind` with `id` in the call's region and not yet gone (a gone object's
//! document is erased on the way), or nullopt.
std::optional<Json> FindLive(const ServiceContext& ctx, const char* kind, const std::string& id);
//! Every live object of `kind` in the call's region, oldest first.
std::vector<Json> ListLive(const ServiceContext& ctx, const char* kind);
//! The file system `id`; 404 FileSystemNotFound when there is none.
Json RequireFileSystem(const ServiceContext& ctx, const std::string& id);
//! EFS's lifecycle word for `doc`'s phase: "creating", "available", "updating", "deleting".
std::string LifeCycleState(const ServiceContext& ctx, const Json& doc);
//! 409 IncorrectFileSystemLifeCycleState unless the file system `doc` is available.
void RequireFileSystemAvailable(const ServiceContext& ctx, const Json& doc);
//! Sets the view's "Name" to its Name tag's value, as EFS describes file systems and access points.
void SetNameFromTags(Json& view);
//! A document with its "view", "region" and a fresh lifecycle of settings.efs_delay.
Json NewDocument(const ServiceContext& ctx, Json view);

//! "arn:aws:elasticfilesystem:<region>:<account>:<resource>".
std::string EfsArn(const ServiceContext& ctx, const std::string& resource);

// Typed reads of a body member; absent and null members are not given; a wrong type is a
// 400 BadRequest naming the member.
std::optional<std::string> OptionalString(const Json& body, const char* key);
std::optional<bool> OptionalBool(const Json& body, const char* key);
std::optional<double> OptionalNumber(const Json& body, const char* key);
//! A [{"Key", "Value"}] tag list (EFS's Tags), checked (at most 50, keys 1-128 and not
//! "aws:"-prefixed, values up to 256); [] when absent.
Json CheckedTagList(const Json& body);
//! A tag list with `changes` set (replacing tags of the same keys), or without `removed`.
Json MergeTagList(const Json& tags, const Json& changes);
Json RemoveTagKeys(const Json& tags, const std::vector<std::string>& removed);

//! The values of the query parameter `name`, in order.
std::vector<std::string> QueryValues(const ServiceContext& ctx, const std::string& name);
//! The first value of the query parameter `name`, or "".
std::string QueryValue(const ServiceContext& ctx, const std::string& name);
//! One page of `items` from the index in `marker_param` ("" is the start) with at most the
//! number in `max_param` (default and cap `max`): the page's items, and the next marker ("" at
//! the end).
std::pair<Json, std::string> Page(const ServiceContext& ctx, const std::vector<Json>& items,
                                  const std::string& max_param, const std::string& marker_param, size_t max);

//! A `status` answer with `body` as JSON (no body for 204).
Response EfsResponse(const ServiceContext& ctx, const Json& body, int status = 200);

// The operations, each answering one call (efs_service.cc routes them).
Response CreateFileSystem(ServiceContext& ctx);
Response DescribeFileSystems(ServiceContext& ctx);
Response UpdateFileSystem(ServiceContext& ctx, const std::string& id);
Response DeleteFileSystem(ServiceContext& ctx, const std::string& id);
Response PutLifecycleConfiguration(ServiceContext& ctx, const std::string& id);
Response DescribeLifecycleConfiguration(ServiceContext& ctx, const std::string& id);
Response CreateMountTarget(ServiceContext& ctx);
Response DescribeMountTargets(ServiceContext& ctx);
Response DescribeMountTargetSecurityGroups(ServiceContext& ctx, const std::string& id);
Response ModifyMountTargetSecurityGroups(ServiceContext& ctx, const std::string& id);
Response DeleteMountTarget(ServiceContext& ctx, const std::string& id);
Response CreateAccessPoint(ServiceContext& ctx);
Response DescribeAccessPoints(ServiceContext& ctx);
Response DeleteAccessPoint(ServiceContext& ctx, const std::string& id);
Response TagResource(ServiceContext& ctx, const std::string& id);
Response UntagResource(ServiceContext& ctx, const std::string& id);
Response ListTagsForResource(ServiceContext& ctx, const std::string& id);

}  // namespace strata::sandbox::efs
