#pragma once
// The answer of a REST-JSON call (EKS) or an awsJson call (SQS, EventBridge): the body as
// compact JSON, application/json or application/x-amz-json-1.x, and the request id in
// x-amzn-RequestId.

#include <string>

#include "sandbox/protocol/response.h"

namespace strata::sandbox {

//! A `status` answer with `body` as JSON; the x-amzn-RequestId header is set when
//! `request_id` is not empty.
Response JsonResponse(const Json& body, const std::string& request_id, int status = 200);
//! The same as application/x-amz-json-`json_version` ("1.0", "1.1").
Response AwsJsonResponse(const Json& body, const std::string& json_version, const std::string& request_id,
                         int status = 200);

}  // namespace strata::sandbox
