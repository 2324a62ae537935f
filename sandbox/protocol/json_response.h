#pragma once
// The answer of a REST-JSON call (EKS): the body as compact JSON, application/json, and
// the request id in x-amzn-RequestId.

#include <string>

#include "sandbox/protocol/response.h"

namespace strata::sandbox {

//! A `status` answer with `body` as JSON; the x-amzn-RequestId header is set when
//! `request_id` is not empty.
Response JsonResponse(const Json& body, const std::string& request_id, int status = 200);

}  // namespace strata::sandbox
