#pragma once
// Calling IAM (query protocol, API version 2010-05-08; a global service: endpoint
// override key "iam", signed for us-east-1 in the aws partition) from a resource type, and
// what the IAM types share: policy documents compared as JSON, IAM-style tags.

#include <functional>
#include <string>

#include <pugixml.hpp>

#include "engine/value/value.h"
#include "providers/aws/common/aws_session.h"
#include "providers/aws/common/policy_json.h"
#include "providers/aws/common/tags.h"

namespace strata::aws {

inline constexpr const char* kIamVersion = "2010-05-08";
inline constexpr const char* kIamNoSuchEntity = "NoSuchEntity";

//! An IAM call with no parameters yet.
QueryRequest IamCall(const std::string& action);

//! Sends `call` to IAM with the context's deadline and cancellation.
Result<XmlResponse> CallIam(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call);
//! The same with explicit options (CreateCallOptionsFor(ctx) for a create's own call).
Result<XmlResponse> CallIam(const AwsSession& session, const OperationContext& ctx,
                            const QueryRequest& call, const CallOptions& options);

//! Sends `call` and turns a failure into a diagnostic naming the action (code, message,
//! request id); an empty action (nothing to do) succeeds without a call.
Diagnostics RunIam(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call);
//! RunIam of a call that refuses work already done with one of `done` (see
//! DoneByAnEarlierAttempt): such an answer to a retry counts as success.
Diagnostics RunIam(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                   const AlreadyDoneCodes& done);
//! RunIam for a delete: NoSuchEntity (already gone) counts as done.
Diagnostics RunIamDelete(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call);

//! A read through a Get* `call`: NoSuchEntity, or an answer without an <`element`> in its
//! result, is `gone`; another failure is an error naming the action; otherwise the state
//! is `state_from(<element>)` (`element` empty: the result itself).
ReadResult ReadIamObject(const AwsSession& session, const OperationContext& ctx, const QueryRequest& call,
                         const std::string& element, const std::function<ReadResult(pugi::xml_node)>& state_from);

//! A policy document as IAM returns it: URL-encoded (RFC 3986) unless it already parses
//! as JSON (moto leaves some documents as they were sent).
std::string DecodePolicyDocument(const std::string& text);

//! The document to keep in state: `prior`'s text (what the user wrote) when it means the
//! same as `remote`, else `remote` (decoded).
Value PolicyForState(const std::string& remote, const Value& prior);

//! "arn:<partition>:iam::<account>:<resource>" ("policy/team/reader") for the caller's
//! account (sts:GetCallerIdentity): the ARN an object of that natural key has.
Result<std::string> IamArn(const AwsSession& session, const std::string& resource);

//! `v` with `path` set to IAM's default "/" when it is null.
Value WithDefaultIamPath(const Value& v);

//! Adds Tags.member.<n>.Key / .Value; nothing when empty.
void AddIamTags(QueryRequest& call, const TagMap& tags);
//! The <Tags><member><Key/><Value/></member></Tags> under `node`, without the
//! create-token tag (common/tags.h), whose value goes to `token` when given.
TagMap ReadIamTags(pugi::xml_node node, std::string* token = nullptr);

//! The Tag* call (TagRole, TagPolicy) setting what `to` adds or changes, and the Untag*
//! call removing what `to` lacks, for the object named `id_param`=`id`; an empty action
//! means nothing to do.
QueryRequest IamTagCall(const std::string& action, const std::string& id_param,
                        const std::string& id, const TagMap& from, const TagMap& to);
QueryRequest IamUntagCall(const std::string& action, const std::string& id_param,
                          const std::string& id, const TagMap& from, const TagMap& to);

}  // namespace strata::aws
