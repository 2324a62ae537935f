#include "sandbox/services/iam/iam_params.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace strata::sandbox::iam {

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

std::string Params::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::string Params::Required(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) {
    throw ApiError(400, "ValidationError",
                   "1 validation error detected: Value null at '" + MemberName(name) +
                       "' failed to satisfy constraint: Member must not be null");
  }
  return it->second;
}

std::string Params::Length(const std::string& name, size_t min_length, size_t max_length,
                           bool required) const {
  if (!required && !Has(name)) return "";
  std::string value = Required(name);
  if (value.size() < min_length) {
    throw ValidationError(name, value,
                          "Member must have length greater than or equal to " +
                              std::to_string(min_length));
  }
  if (value.size() > max_length) {
    throw ValidationError(name, value,
                          "Member must have length less than or equal to " +
                              std::to_string(max_length));
  }
  return value;
}

std::vector<std::string> Params::Members(const std::string& name) const {
  std::string prefix = name + ".member.";
  std::vector<std::pair<long, std::string>> found;
  for (auto it = values_.lower_bound(prefix); it != values_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    std::string index = it->first.substr(prefix.size());
    if (index.empty() || !std::all_of(index.begin(), index.end(),
                                      [](char c) { return c >= '0' && c <= '9'; })) continue;
    found.emplace_back(std::strtol(index.c_str(), nullptr, 10), it->second);
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [n, value] : found) out.push_back(std::move(value));
  return out;
}

std::vector<Tag> Params::Tags(const std::string& name) const {
  std::string prefix = name + ".member.";
  std::map<long, Tag> found;
  std::map<long, bool> has_key;
  for (auto it = values_.lower_bound(prefix); it != values_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    std::string rest = it->first.substr(prefix.size());
    size_t dot = rest.find('.');
    if (dot == std::string::npos) continue;
    long n = std::strtol(rest.c_str(), nullptr, 10);
    std::string field = rest.substr(dot + 1);
    if (field == "Key") {
      found[n].key = it->second;
      has_key[n] = true;
    } else if (field == "Value") {
      found[n].value = it->second;
    }
  }
  std::vector<Tag> out;
  for (auto& [n, tag] : found) {
    if (!has_key[n]) {
      throw ApiError(400, "ValidationError",
                     "1 validation error detected: Value null at '" + MemberName(name) +
                         ".member." + std::to_string(n) +
                         ".key' failed to satisfy constraint: Member must not be null");
    }
    if (tag.key.empty() || tag.key.size() > 128) {
      throw ValidationError(name + ".member." + std::to_string(n) + ".key", tag.key,
                            "Member must have length between 1 and 128");
    }
    if (tag.value.size() > 256) {
      throw ValidationError(name + ".member." + std::to_string(n) + ".value", tag.value,
                            "Member must have length less than or equal to 256");
    }
    out.push_back(std::move(tag));
  }
  return out;
}

std::optional<long long> Params::Integer(const std::string& name, long long min,
                                         long long max) const {
  if (!Has(name)) return std::nullopt;
  std::string text = Get(name);
  char* end = nullptr;
  long long n = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0') {
    throw ValidationError(name, text, "Member must be a number");
  }
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

bool Params::Bool(const std::string& name, bool fallback) const {
  if (!Has(name)) return fallback;
  std::string text = Get(name);
  std::transform(text.begin(), text.end(), text.begin(), ::tolower);
  if (text == "true") return true;
  if (text == "false") return false;
  throw ValidationError(name, Get(name), "Member must be a boolean");
}

}  // namespace strata::sandbox::iam
