#include "sandbox/protocol/aws_query_params.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace strata::sandbox {
namespace {

ApiError NullValueError(const std::string& member) {
  return ApiError(400, "ValidationError",
                  "1 validation error detected: Value null at '" + member +
                      "' failed to satisfy constraint: Member must not be null");
}

}  // namespace

std::string MemberName(const std::string& param) {
  // AWS's members are the parameter with its first letter in lower case.
  std::string out = param;
  if (!out.empty()) out[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(out[0])));
  return out;
}

ApiError ValidationError(const std::string& param, const std::string& value,
                         const std::string& constraint) {
  return ApiError(400, "ValidationError",
                  "1 validation error detected: Value '" + value + "' at '" + MemberName(param) +
                      "' failed to satisfy constraint: " + constraint);
}

void CheckAction(const QueryParams& params, bool known, const std::string& version) {
  std::string action = params.Action();
  if (action.empty())
    throw ApiError(400, "MissingAction", "The request must contain the parameter Action.");
  std::string asked = params.Get("Version", version);
  if (!known || asked != version) {
    throw ApiError(400, "InvalidAction",
                   "Could not find operation " + action + " for version " + asked);
  }
}

std::string AwsQueryParams::Required(const std::string& name) const {
  if (!Has(name)) throw NullValueError(MemberName(name));
  return Get(name);
}

std::string AwsQueryParams::Length(const std::string& name, size_t min_length, size_t max_length,
                                   bool required) const {
  if (!required && !Has(name)) return "";
  std::string value = Required(name);
  if (value.size() < min_length) {
    throw ValidationError(
        name, value,
        "Member must have length greater than or equal to " + std::to_string(min_length));
  }
  if (value.size() > max_length) {
    throw ValidationError(
        name, value, "Member must have length less than or equal to " + std::to_string(max_length));
  }
  return value;
}

std::vector<QueryTag> AwsQueryParams::Tags(const std::string& name) const {
  std::vector<QueryTag> out;
  for (const auto& [n, fields] : MemberStructs(name)) {
    auto key = fields.find("Key");
    auto value = fields.find("Value");
    if (key == fields.end() && value == fields.end()) continue;  // neither: not a tag at all
    std::string member = name + ".member." + std::to_string(n);
    if (key == fields.end()) throw NullValueError(MemberName(member) + ".key");
    QueryTag tag{key->second, value == fields.end() ? "" : value->second};
    if (tag.key.empty() || tag.key.size() > 128) {
      throw ValidationError(member + ".key", tag.key, "Member must have length between 1 and 128");
    }
    if (tag.value.size() > 256) {
      throw ValidationError(member + ".value", tag.value,
                            "Member must have length less than or equal to 256");
    }
    out.push_back(std::move(tag));
  }
  return out;
}

std::optional<long long> AwsQueryParams::Integer(const std::string& name, long long min,
                                                 long long max) const {
  if (!Has(name)) return std::nullopt;
  std::string text = Get(name);
  char* end = nullptr;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') throw ValidationError(name, text, "Member must be a number");
  if (n < min) {
    throw ValidationError(name, text,
                          "Member must have value greater than or equal to " + std::to_string(min));
  }
  if (n > max) {
    throw ValidationError(name, text,
                          "Member must have value less than or equal to " + std::to_string(max));
  }
  return n;
}

bool AwsQueryParams::Bool(const std::string& name, bool fallback) const {
  if (!Has(name)) return fallback;
  std::string text = Get(name);
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (text == "true") return true;
  if (text == "false") return false;
  throw ValidationError(name, Get(name), "Member must be a boolean");
}

}  // namespace strata::sandbox
