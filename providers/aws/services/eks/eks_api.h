#pragma once
// Calling EKS (REST-JSON, API version 2017-11-01; endpoint override key "eks") from a
// resource type, and what the EKS types share: waiting for a status with capped backoff
// (honouring the context's cancellation and deadline, reporting progress), waiting for an
// update id to succeed, tags through TagResource/UntagResource, timestamps, and the
// cluster's state shape (shared by resource and data source "aws_eks_cluster").

#include <chrono>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/value/value.h"
#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/json_members.h"
#include "providers/aws/common/tags.h"
#include "providers/aws/protocol/json_protocol.h"

namespace strata::aws {

inline constexpr const char* kEksNotFound = "ResourceNotFoundException";
inline constexpr const char* kEksInUse = "ResourceInUseException";
inline constexpr const char* kEksInvalidParameter = "InvalidParameterException";

//! "/clusters/my%20c/node-groups/ng": each label percent-encoded, joined with '/'.
std::string EksPath(const std::vector<std::string>& segments);

//! Sends `call` to EKS with the context's deadline and cancellation; `operation`
//! ("DescribeCluster") is logged.
Result<nlohmann::json> CallEks(const AwsSession& session, const OperationContext& ctx,
                               const std::string& operation, const RestJsonRequest& call);

//! A timestamp of a REST-JSON answer (epoch seconds, or an ISO string) as RFC 3339 UTC
//! ("2024-05-01T10:00:00Z"); null when absent.
Value EksTimestamp(const nlohmann::json& j, const std::string& key);

//! A JSON array of strings as a list (or set) value; an empty list when absent.
Value JsonStringList(const nlohmann::json& j, const std::string& key, bool as_set = false);
//! A JSON object of strings.
TagMap JsonStringMap(const nlohmann::json& j, const std::string& key);
//! The "tags" of an EKS object without the create-token tag, whose value goes to `token`
//! when given ("" when there is none).
TagMap EksTags(const nlohmann::json& object, std::string* token = nullptr);
//! A destroy's look for what an interrupted create of an EKS object made, when that create
//! tagged the object with its token: `described` is the Describe* answer (`action` names
//! it; `member` is the object's key in it, "nodegroup"). Nothing of ours (`gone`) when the
//! object is absent or carries another token; else `read()`.
ReadResult ClaimIfTaggedByThisCreate(const OperationContext& ctx, const Result<nlohmann::json>& described,
                                     const std::string& action, const char* member,
                                     const std::function<ReadResult()>& read);
nlohmann::json ToJson(const TagMap& m);
nlohmann::json ToJson(const std::vector<std::string>& v);
//! The two parts of an id "CLUSTER:NAME" of an object within a cluster (an add-on, a node
//! group, an access entry: NAME may hold colons, as an ARN does); without an id, the
//! attributes cluster_name and `name_attribute`.
std::pair<std::string, std::string> SplitClusterScopedId(const Value& v, const char* name_attribute);

//! What one poll of a waiter saw.
struct EksPoll {
  enum class Outcome { Pending, Done, Failed };
  Outcome outcome = Outcome::Pending;
  std::string status;  //!< "CREATING": shown in progress messages
  Diagnostics diags;   //!< why, when Failed
  static EksPoll Pending(std::string status) { return {Outcome::Pending, std::move(status), {}}; }
  static EksPoll Done() { return {Outcome::Done, "", {}}; }
  static EksPoll Failed(Diagnostics d) { return {Outcome::Failed, "", std::move(d)}; }
};

//! How a waiter polls: first at once, then after `initial`, growing by half up to `cap`.
struct EksWaitOptions {
  std::string what;  //!< "EKS cluster \"demo\"": for messages
  std::chrono::seconds limit{std::chrono::minutes(30)};  //!< also capped by ctx.deadline
  std::chrono::milliseconds initial{std::chrono::seconds(2)};
  std::chrono::milliseconds cap{std::chrono::seconds(30)};
};

//! Polls until Done (no diagnostics) or Failed (its diagnostics), or an error when the
//! context is cancelled, its deadline or `limit` passes. Sleeps through the client's clock
//! in slices of at most a second so cancellation is seen quickly; each pending poll is
//! logged and reported as progress ("still CREATING (1m10s elapsed)").
Diagnostics WaitUntil(const AwsSession& session, const OperationContext& ctx,
                      const EksWaitOptions& options, const std::function<EksPoll()>& poll);

//! Waits for the update in `response["update"]` (an Update* answer) to be Successful:
//! nothing to wait for when the answer has no update or it already succeeded; Failed or
//! Cancelled become an error listing the update's errors. `nodegroup` / `addon` select the
//! DescribeUpdate of a node group's or add-on's update.
Diagnostics WaitForEksUpdate(const AwsSession& session, const OperationContext& ctx,
                             const std::string& cluster, const nlohmann::json& response,
                             const std::string& nodegroup, const std::string& addon,
                             const EksWaitOptions& options);

//! TagResource with what `to` adds or changes, UntagResource with what it lacks.
Diagnostics UpdateEksTags(const AwsSession& session, const OperationContext& ctx,
                          const std::string& arn, const TagMap& from, const TagMap& to);

//! For planning nested blocks: in `block` (a list of objects, attribute `name` of
//! `planned`) every attribute in `carried` that is null takes the value at the same index
//! of `prior`'s block (Terraform's optional+computed nested attributes), or unknown when
//! `prior` is null.
Value CarryNested(const Value& planned, const Value& prior, const std::string& name,
                  const std::set<std::string>& carried);

//! A description of a DescribeCluster "cluster" object in the attribute names of
//! aws_eks_cluster (resource and data source): arn, endpoint, version, status, role_arn,
//! platform_version, created_at, cluster_id, vpc_config, kubernetes_network_config,
//! enabled_cluster_log_types, access_config, certificate_authority, identity.
ValueMap EksClusterAttributes(const nlohmann::json& cluster);

}  // namespace strata::aws
