#include "sandbox/protocol/ec2_query_params.h"

#include <cctype>

namespace strata::sandbox {

std::string Ec2QueryParams::Require(const std::string& name) const {
  std::string value = Get(name);
  if (value.empty()) throw MissingParameter(name);
  return value;
}

bool Ec2QueryParams::GetBool(const std::string& name, bool fallback) const {
  if (!Has(name)) return fallback;
  std::string value = Get(name);
  if (value == "true") return true;
  if (value == "false") return false;
  throw InvalidParameterValue("Value (" + value + ") for parameter " + name +
                              " is invalid. Expected a boolean.");
}

std::optional<int64_t> Ec2QueryParams::GetInt(const std::string& name) const {
  if (!Has(name)) return std::nullopt;
  std::string value = Get(name);
  size_t start = !value.empty() && value[0] == '-' ? 1 : 0;
  bool digits = value.size() > start && value.size() - start <= 12;
  for (size_t i = start; digits && i < value.size(); ++i)
    digits = std::isdigit(static_cast<unsigned char>(value[i]));
  if (!digits) {
    throw InvalidParameterValue("Value (" + value + ") for parameter " + name +
                                " is invalid. Expected an integer.");
  }
  return std::stoll(value);
}

std::string Ec2QueryParams::RequireAction() const {
  std::string action = Action();
  if (action.empty())
    throw ApiError(400, "MissingAction", "The request must contain the parameter Action");
  return action;
}

ApiError MissingParameter(const std::string& name) {
  return ApiError(400, "MissingParameter", "The request must contain the parameter " + name);
}

ApiError InvalidParameterValue(const std::string& message) {
  return ApiError(400, "InvalidParameterValue", message);
}

ApiError InvalidEc2Action(const std::string& action) {
  return ApiError(400, "InvalidAction",
                  "The action " + action + " is not valid for this web service.");
}

}  // namespace strata::sandbox
