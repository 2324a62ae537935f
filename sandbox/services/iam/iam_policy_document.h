#pragma once
// Policy documents as IAM answers with them (GetRole, GetPolicyVersion, GetRolePolicy).

#include <string>

namespace strata::sandbox::iam {

//! A policy document as IAM returns it: percent-encoded (RFC 3986, space as %20).
std::string EncodePolicyDocument(const std::string& document);

}  // namespace strata::sandbox::iam
