#include "sandbox/protocol/json_response.h"

namespace strata::sandbox {

Response JsonResponse(const Json& body, const std::string& request_id, int status) {
  Response response;
  response.status = status;
  response.content_type = "application/json";
  response.body = body.dump();
  if (!request_id.empty()) response.headers["x-amzn-RequestId"] = request_id;
  return response;
}

Response AwsJsonResponse(const Json& body, const std::string& json_version, const std::string& request_id,
                         int status) {
  Response response = JsonResponse(body, request_id, status);
  response.content_type = "application/x-amz-json-" + json_version;
  return response;
}

}  // namespace strata::sandbox
