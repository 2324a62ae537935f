#pragma once
// The checks IAM applies to names, paths and policy documents before it stores them.
// Each throws the ApiError IAM answers with (ValidationError, MalformedPolicyDocument,
// LimitExceeded).

#include <string>

#include "sandbox/protocol/aws_query_params.h"

namespace strata::sandbox::iam {

//! A role, policy or instance profile name: 1..`max_length` of [\w+=,.@-]. Returns it.
std::string RequireName(const AwsQueryParams& params, const std::string& param, size_t max_length);
//! An IAM path ("/" or "/a/b/", printable ASCII), default "/". Returns it.
std::string OptionalPath(const AwsQueryParams& params, const std::string& param = "Path");
//! A PathPrefix filter (default "/"), checked like a path but without the trailing slash.
std::string OptionalPathPrefix(const AwsQueryParams& params);
//! An optional description of at most 1000 characters.
std::string OptionalDescription(const AwsQueryParams& params);

enum class PolicyKind {
  Trust,     //!< a role's assume-role policy: Principal required, no Resource
  Managed,   //!< a managed policy version: Resource required, no Principal; 6144 characters
  Inline,    //!< a role's inline policy: as Managed; 10240 characters
};

//! Checks `document` as IAM does: JSON, an object with a Statement whose entries have an
//! Effect of Allow/Deny, an Action, and a Principal or Resource as `kind` requires; and the
//! size quota (whitespace not counted). Throws MalformedPolicyDocument / LimitExceeded.
void CheckPolicyDocument(const std::string& document, PolicyKind kind);

//! Lower case: IAM names are unique regardless of case, so objects are stored by this key.
std::string NameKey(const std::string& name);

}  // namespace strata::sandbox::iam
