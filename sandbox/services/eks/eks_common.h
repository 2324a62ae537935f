#pragma once
// What every part of the sandbox's EKS service shares: where its objects live in the world,
// the lifecycle clock (CREATING → ACTIVE, UPDATING, DELETING → gone, computed from stored
// timestamps and the request's clock, never from a background thread), typed reads of a
// REST-JSON request body that refuse badly typed members in EKS's terms, pagination, and
// the JSON answer.
//
// Storage: every EKS object is one World document keyed "<region>/<cluster>[/<child>]" under
// its kind, shaped {"region", "cluster", "name", "lifecycle": {...}, "view": {...}} where
// "view" is the object exactly as the API answers it minus the fields derived from the clock
// (status, and a cluster's endpoint, certificate and issuer). A cluster's document also keeps
// "creatorArn": the ARN of the caller that created it (the sandbox user in worlds made before
// it was recorded), whom its Kubernetes API admits as admin.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/service.h"

namespace strata::sandbox::eks {

//! World kinds of the EKS objects.
inline constexpr const char* kClusterKind = "eks.cluster";
inline constexpr const char* kNodegroupKind = "eks.nodegroup";
inline constexpr const char* kAddonKind = "eks.addon";
inline constexpr const char* kUpdateKind = "eks.update";

//! The region the call was signed for ("us-east-1" when the scope names none).
std::string Region(const ServiceContext& ctx);
//! "arn:aws:eks:<region>:<account>:<resource>".
std::string EksArn(const ServiceContext& ctx, const std::string& resource);
//! World ids: "<region>/<cluster>" and "<region>/<cluster>/<child>".
std::string ClusterKey(const ServiceContext& ctx, const std::string& cluster);
std::string ChildKey(const ServiceContext& ctx, const std::string& cluster,
                     const std::string& child);
//! The keys of `kind` that belong to `cluster` in the call's region, oldest first.
std::vector<std::string> ChildKeys(const ServiceContext& ctx, const char* kind,
                                   const std::string& cluster);

//! Milliseconds since the epoch of the request's clock, and of a delay from now.
int64_t NowMs(const ServiceContext& ctx);
int64_t MsFromNow(const ServiceContext& ctx, Millis delay);
//! The request's clock as REST-JSON writes times (epoch seconds with a fraction).
double NowEpoch(const ServiceContext& ctx);

//! The Kubernetes versions clusters may run, oldest first, and the default.
const std::vector<std::string>& SupportedKubernetesVersions();
inline constexpr const char* kDefaultKubernetesVersion = "1.31";
//! The minor number of "1.31" (31); -1 when the text has no dot.
int MinorOf(const std::string& version);

//! Where an object is in its life at a given instant.
enum class Phase { Creating, Active, Updating, Deleting, Gone };

//! A fresh lifecycle document: ready after `delay`.
Json NewLifecycle(const ServiceContext& ctx, Millis delay);
//! The phase of `doc` (its "lifecycle" member) now.
Phase PhaseOf(const ServiceContext& ctx, const Json& doc);
//! True once the object finished creating (it may since be updating or deleting).
bool WasReady(const ServiceContext& ctx, const Json& doc);
//! Marks `doc` UPDATING until `delay` from now, or DELETING and then gone after `delay`.
void BeginUpdating(const ServiceContext& ctx, Json& doc, Millis delay);
void BeginDeleting(const ServiceContext& ctx, Json& doc, Millis delay);
//! The API's status word for a phase ("CREATING", "ACTIVE", "UPDATING", "DELETING").
std::string StatusWord(Phase phase);

//! The request's JSON body; BadRequestException unless it is a JSON object
//! (sandbox/protocol/json_body.h).
Json ObjectBody(const ServiceContext& ctx);

// Typed reads of a member of a JSON object. Absent and null members are "not given"; a member
// of the wrong type, or a missing required one, is an InvalidParameterException naming
// `label` + `key` (label: "resourcesVpcConfig." for nested members).
std::string RequiredString(const Json& obj, const std::string& key, const std::string& label = "");
std::optional<std::string> OptionalString(const Json& obj, const std::string& key,
                                          const std::string& label = "");
std::optional<bool> OptionalBool(const Json& obj, const std::string& key,
                                 const std::string& label = "");
std::optional<int64_t> OptionalInt(const Json& obj, const std::string& key,
                                   const std::string& label = "");
std::optional<std::vector<std::string>> OptionalStringList(const Json& obj, const std::string& key,
                                                           const std::string& label = "");
std::optional<std::map<std::string, std::string>> OptionalStringMap(const Json& obj,
                                                                    const std::string& key,
                                                                    const std::string& label = "");
//! The member if it is an object; nullptr when absent; InvalidParameterException otherwise.
const Json* OptionalObject(const Json& obj, const std::string& key, const std::string& label = "");
//! The member if it is an array; nullptr when absent; InvalidParameterException otherwise.
const Json* OptionalArray(const Json& obj, const std::string& key, const std::string& label = "");

//! Checks a tags map as EKS does (at most 50, keys 1-128 characters and not "aws:"-prefixed,
//! values up to 256) and returns it as JSON; refusals carry `error_code`
//! (InvalidParameterException on creates, BadRequestException on TagResource).
Json CheckedTags(const std::map<std::string, std::string>& tags, const std::string& error_code);

//! Checks a cluster, node group or add-on name (1-100 letters, digits, '-' and '_', starting
//! with a letter or digit).
void CheckName(const std::string& name, const std::string& what);

//! One page of `names` per the call's maxResults (1-100, default 100) and nextToken query
//! parameters: {"<member>": [...], "nextToken": ... only when more follow}.
Json Paginate(const ServiceContext& ctx, const std::vector<std::string>& names,
              const std::string& member);

//! A 200 (or `status`) answer with `body` as JSON, with the call's request id
//! (sandbox/protocol/json_response.h).
Response JsonResponse(const ServiceContext& ctx, const Json& body, int status = 200);

//! Refusals in EKS's terms.
[[noreturn]] void ThrowInvalidParameter(const std::string& message);
[[noreturn]] void ThrowInvalidRequest(const std::string& message);
[[noreturn]] void ThrowNotFound(const std::string& message);
[[noreturn]] void ThrowInUse(const std::string& message);

//! {"type": type, "value": value}, an entry of an update's params.
Json UpdateParam(const std::string& type, const std::string& value);

}  // namespace strata::sandbox::eks
