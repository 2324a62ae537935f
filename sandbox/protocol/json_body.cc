#include "sandbox/protocol/json_body.h"

#include "sandbox/protocol/api_error.h"

namespace strata::sandbox {

Json ParseJsonBody(const std::string& body) {
  if (body.empty()) return Json::object();
  Json parsed = Json::parse(body, nullptr, false);
  if (parsed.is_discarded())
    throw ApiError(400, "BadRequestException", "The request body is not valid JSON.");
  return parsed;
}

Json ParseJsonObjectBody(const std::string& body) {
  Json parsed = ParseJsonBody(body);
  if (!parsed.is_object())
    throw ApiError(400, "BadRequestException", "The request body must be a JSON object.");
  return parsed;
}

}  // namespace strata::sandbox
