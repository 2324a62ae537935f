#include "sandbox/services/ec2/ec2_request.h"

#include <cctype>
#include <set>

namespace strata::sandbox {

Ec2Call::Ec2Call(ServiceContext& ctx) : ctx_(ctx), params_(ctx.request.Params()) {
  action_ = Get("Action");
}

const std::string& Ec2Call::account() const {
  return ctx_.request.account_id.empty() ? ctx_.settings.account_id : ctx_.request.account_id;
}

int64_t Ec2Call::NowMillis() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ctx_.now.time_since_epoch()).count();
}

std::string Ec2Call::Get(const std::string& name, const std::string& fallback) const {
  auto it = params_.find(name);
  return it == params_.end() ? fallback : it->second;
}

std::string Ec2Call::Require(const std::string& name) const {
  std::string value = Get(name);
  if (value.empty()) throw MissingParameter(name);
  return value;
}

bool Ec2Call::GetBool(const std::string& name, bool fallback) const {
  if (!Has(name)) return fallback;
  std::string value = Get(name);
  if (value == "true") return true;
  if (value == "false") return false;
  throw InvalidParameterValue("Value (" + value + ") for parameter " + name +
                              " is invalid. Expected a boolean.");
}

std::optional<int64_t> Ec2Call::GetInt(const std::string& name) const {
  if (!Has(name)) return std::nullopt;
  std::string value = Get(name);
  size_t start = !value.empty() && value[0] == '-' ? 1 : 0;
  bool digits = value.size() > start && value.size() - start <= 12;
  for (size_t i = start; digits && i < value.size(); ++i) digits = std::isdigit(static_cast<unsigned char>(value[i]));
  if (!digits) {
    throw InvalidParameterValue("Value (" + value + ") for parameter " + name + " is invalid. Expected an integer.");
  }
  return std::stoll(value);
}

std::vector<std::string> Ec2Call::GetList(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const std::string& member : Members(prefix)) {
    if (Has(member)) out.push_back(Get(member));
  }
  return out;
}

std::vector<std::string> Ec2Call::Members(const std::string& prefix) const {
  // Indices need not be dense or sorted as text ("x.10" after "x.9"): collect them as numbers.
  std::set<long> indices;
  std::string head = prefix + ".";
  for (auto it = params_.lower_bound(head); it != params_.end() && it->first.compare(0, head.size(), head) == 0; ++it) {
    size_t end = head.size();
    while (end < it->first.size() && std::isdigit(static_cast<unsigned char>(it->first[end]))) ++end;
    if (end == head.size() || end - head.size() > 6) continue;
    if (end < it->first.size() && it->first[end] != '.') continue;
    indices.insert(std::stol(it->first.substr(head.size(), end - head.size())));
  }
  std::vector<std::string> out;
  for (long i : indices) out.push_back(head + std::to_string(i));
  return out;
}

ApiError MissingParameter(const std::string& name) {
  return ApiError(400, "MissingParameter", "The request must contain the parameter " + name);
}

ApiError InvalidParameterValue(const std::string& message) {
  return ApiError(400, "InvalidParameterValue", message);
}

ApiError HasDependencies(const std::string& noun, const std::string& id) {
  return ApiError(400, "DependencyViolation",
                  "The " + noun + " '" + id + "' has dependencies and cannot be deleted.");
}

}  // namespace strata::sandbox
