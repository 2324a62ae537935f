#pragma once
// Calling EFS (REST-JSON, API version 2015-02-01, signing name "elasticfilesystem"; endpoint
// override key "efs") from a resource type, and what the EFS types share: EFS's error codes,
// its [{"Key", "Value"}] tag lists, tags through TagResource / UntagResource, and waiting
// for an object's LifeCycleState.

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/value/value.h"
#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/json_members.h"
#include "providers/aws/common/tags.h"
#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

inline constexpr const char* kEfsFileSystemNotFound = "FileSystemNotFound";
inline constexpr const char* kEfsMountTargetNotFound = "MountTargetNotFound";
inline constexpr const char* kEfsAccessPointNotFound = "AccessPointNotFound";

//! "/2015-02-01/<collection>[/<id>[/<sub>]]", each label percent-encoded.
std::string EfsPath(const std::string& collection, const std::string& id = "", const std::string& sub = "");

//! Sends `call` to EFS with the context's deadline and cancellation; `operation`
//! ("DescribeFileSystems") is logged.
Result<nlohmann::json> CallEfs(const AwsSession& session, const OperationContext& ctx, const std::string& operation,
                               const RestJsonRequest& call);

//! One object by id: GET /2015-02-01/<collection>?<id_member>=<id> (`operation` names the
//! call: "DescribeFileSystems"), the element of the answer's `list_member` whose `id_member`
//! is `id`; nullopt when EFS answers `not_found` or lists no such object.
Result<std::optional<nlohmann::json>> DescribeEfsObject(const AwsSession& session, const OperationContext& ctx,
                                                        const std::string& operation, const std::string& collection,
                                                        const std::string& id_member, const std::string& id,
                                                        const std::string& list_member, const std::string& not_found);

//! The string member `key` of `j` as a value; null when absent.
Value EfsStringOrNull(const nlohmann::json& j, const std::string& key);

//! EFS's tag list [{"Key", "Value"}] of `tags`.
nlohmann::json EfsTagList(const TagMap& tags);
//! The "Tags" list of an EFS object as a map.
TagMap EfsTags(const nlohmann::json& object);

//! TagResource with what `to` adds or changes, UntagResource with what it lacks, on the file
//! system or access point `id`.
Diagnostics UpdateEfsTags(const AwsSession& session, const OperationContext& ctx, const std::string& id,
                          const TagMap& from, const TagMap& to);

//! Polls `describe` (the object's description; nullopt when it is gone, an error ends the
//! wait) until its LifeCycleState is `wanted` ("available"), or, for "deleted", until it is
//! gone. `what` names the object in messages ("EFS file system fs-1").
Diagnostics WaitForEfsState(const AwsSession& session, const OperationContext& ctx, const std::string& what,
                            const std::string& wanted,
                            const std::function<Result<std::optional<nlohmann::json>>()>& describe);

}  // namespace strata::aws
