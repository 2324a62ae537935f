#pragma once
// Object names as kube-apiserver checks them (k8s.io/apimachinery/pkg/util/validation):
// most kinds take a DNS-1123 subdomain, namespaces a DNS-1123 label, services a DNS-1035
// label, the four RBAC kinds a path segment (ValidateRBACName: `system:metrics-server`). The messages are kube's, word for word, so kubectl users see what they know.

#include <string>
#include <vector>

namespace strata::sandbox::k8s {

enum class NameRule { Dns1123Subdomain, Dns1123Label, Dns1035Label, PathSegment };

//! The rule kube applies to the names of `kind` in `group`.
NameRule NameRuleFor(const std::string& group, const std::string& kind);

//! What is wrong with `name` under `rule` (kube's texts, e.g. "must be no more than 63
//! characters"), empty when it is valid.
std::vector<std::string> NameProblems(NameRule rule, const std::string& name);

//! A namespace name: a DNS-1123 label.
inline bool IsNamespaceName(const std::string& name) {
  return NameProblems(NameRule::Dns1123Label, name).empty();
}

}  // namespace strata::sandbox::k8s
