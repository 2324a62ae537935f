#include "sandbox/kubernetes/names.h"

namespace strata::sandbox::k8s {
namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool IsLabel(const std::string& s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  for (char c : s)
    if (!IsLowerAlnum(c) && c != '-') return false;
  return true;
}

bool IsSubdomain(const std::string& s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    if (!IsLabel(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start))) return false;
    if (dot == std::string::npos) return true;
    start = dot + 1;
  }
}

constexpr const char* kSubdomainMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and "
    "must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr const char* kLabelMessage =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr const char* kDns1035Message =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
    "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

}  // namespace

NameRule NameRuleFor(const std::string& group, const std::string& kind) {
  if (group.empty() && kind == "Namespace") return NameRule::Dns1123Label;
  if (group.empty() && kind == "Service") return NameRule::Dns1035Label;
  if (group == "rbac.authorization.k8s.io") return NameRule::PathSegment;
  return NameRule::Dns1123Subdomain;
}

std::vector<std::string> NameProblems(NameRule rule, const std::string& name) {
  std::vector<std::string> problems;
  switch (rule) {
    case NameRule::Dns1123Subdomain:
      if (name.size() > 253) problems.push_back("must be no more than 253 characters");
      if (!IsSubdomain(name)) problems.push_back(kSubdomainMessage);
      break;
    case NameRule::Dns1123Label:
      if (name.size() > 63) problems.push_back("must be no more than 63 characters");
      if (!IsLabel(name)) problems.push_back(kLabelMessage);
      break;
    case NameRule::Dns1035Label:
      if (name.size() > 63) problems.push_back("must be no more than 63 characters");
      if (!IsLabel(name) || !(name.front() >= 'a' && name.front() <= 'z')) problems.push_back(kDns1035Message);
      break;
    case NameRule::PathSegment:  // apimachinery's path.IsValidPathSegmentName
      if (name == "." || name == "..") problems.push_back("may not be '" + name + "'");
      for (const char* bad : {"/", "%"})
        if (name.find(bad) != std::string::npos) problems.push_back(std::string("may not contain '") + bad + "'");
      break;
  }
  return problems;
}

}  // namespace strata::sandbox::k8s
