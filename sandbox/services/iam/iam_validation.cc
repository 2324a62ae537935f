#include "sandbox/services/iam/iam_validation.h"

#include <algorithm>
#include <cctype>

#include "sandbox/services/iam/iam_errors.h"

namespace strata::sandbox::iam {
namespace {

constexpr const char* kNamePattern = "[\\w+=,.@-]+";
constexpr const char* kPathPattern = "(\\u002F)|(\\u002F[\\u0021-\\u007E]+\\u002F)";

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '=' ||
         c == ',' || c == '.' || c == '@' || c == '-';
}

bool IsPathChar(char c) { return c >= 0x21 && c <= 0x7E; }

size_t SizeWithoutWhitespace(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return !std::isspace(static_cast<unsigned char>(c));
  }));
}

void CheckStatement(const Json& statement, PolicyKind kind) {
  if (!statement.is_object()) throw MalformedPolicyDocument("Syntax errors in policy.");
  if (!statement.contains("Effect")) throw MalformedPolicyDocument("Missing required field Effect");
  const Json& effect = statement["Effect"];
  if (!effect.is_string() || (effect != "Allow" && effect != "Deny")) {
    throw MalformedPolicyDocument("Invalid effect: " + effect.dump());
  }
  if (!statement.contains("Action") && !statement.contains("NotAction")) {
    throw MalformedPolicyDocument("Policy statement must contain actions.");
  }
  bool has_principal = statement.contains("Principal") || statement.contains("NotPrincipal");
  bool has_resource = statement.contains("Resource") || statement.contains("NotResource");
  if (kind == PolicyKind::Trust) {
    if (has_resource) throw MalformedPolicyDocument("Has prohibited field Resource");
    if (!has_principal) throw MalformedPolicyDocument("Missing required field Principal");
  } else {
    if (has_principal) {
      throw MalformedPolicyDocument("Policy document should not specify a principal.");
    }
    if (!has_resource) throw MalformedPolicyDocument("Policy statement must contain resources.");
  }
}

}  // namespace

std::string NameKey(const std::string& name) {
  std::string key = name;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return key;
}

std::string RequireName(const AwsQueryParams& params, const std::string& param, size_t max_length) {
  std::string name = params.Length(param, 1, max_length, true);
  if (!std::all_of(name.begin(), name.end(), IsNameChar)) {
    throw ValidationError(param, name,
                          std::string("Member must satisfy regular expression pattern: ") +
                              kNamePattern);
  }
  return name;
}

std::string OptionalPath(const AwsQueryParams& params, const std::string& param) {
  if (!params.Has(param)) return "/";
  std::string path = params.Length(param, 1, 512, true);
  bool ok = path.front() == '/' && path.back() == '/' &&
            std::all_of(path.begin(), path.end(), IsPathChar) &&
            (path.size() == 1 || path.find("//") == std::string::npos);
  if (!ok) {
    throw ValidationError(param, path,
                          std::string("Member must satisfy regular expression pattern: ") +
                              kPathPattern);
  }
  return path;
}

std::string OptionalPathPrefix(const AwsQueryParams& params) {
  if (!params.Has("PathPrefix")) return "/";
  std::string prefix = params.Length("PathPrefix", 1, 512, true);
  if (prefix.front() != '/' || !std::all_of(prefix.begin(), prefix.end(), IsPathChar)) {
    throw ValidationError("PathPrefix", prefix,
                          "Member must satisfy regular expression pattern: "
                          "\\u002F[\\u0021-\\u007F]*");
  }
  return prefix;
}

std::string OptionalDescription(const AwsQueryParams& params) {
  return params.Length("Description", 0, 1000, false);
}

void CheckPolicyDocument(const std::string& document, PolicyKind kind) {
  Json parsed = Json::parse(document, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw MalformedPolicyDocument(kind == PolicyKind::Trust ? "This policy contains invalid Json"
                                                            : "Syntax errors in policy.");
  }
  if (parsed.contains("Version")) {
    const Json& version = parsed["Version"];
    if (version != "2012-10-17" && version != "2008-10-17") {
      throw MalformedPolicyDocument("The policy failed legacy parsing");
    }
  }
  if (!parsed.contains("Statement")) {
    throw MalformedPolicyDocument("Syntax errors in policy.");
  }
  const Json& statements = parsed["Statement"];
  if (statements.is_array()) {
    for (const Json& s : statements) CheckStatement(s, kind);
  } else {
    CheckStatement(statements, kind);
  }
  size_t size = SizeWithoutWhitespace(document);
  if (kind == PolicyKind::Trust && size > 2048) {
    throw LimitExceeded("Cannot exceed quota for ACLSizePerRole: 2048");
  }
  if (kind == PolicyKind::Managed && size > 6144) {
    throw LimitExceeded("Cannot exceed quota for PolicySize: 6144");
  }
  if (kind == PolicyKind::Inline && size > 10240) {
    throw LimitExceeded("Maximum policy size of 10240 bytes exceeded for role");
  }
}

}  // namespace strata::sandbox::iam
