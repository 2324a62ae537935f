#pragma once
// Reading the body of a REST-JSON call (EKS), refusing what is not JSON as AWS does.

#include <string>

#include "sandbox/protocol/response.h"

namespace strata::sandbox {

//! The body as JSON; an empty body is {}. Not JSON: 400 BadRequestException "The request
//! body is not valid JSON.".
Json ParseJsonBody(const std::string& body);
//! As ParseJsonBody, and a body that is not a JSON object is 400 BadRequestException
//! "The request body must be a JSON object.".
Json ParseJsonObjectBody(const std::string& body);

}  // namespace strata::sandbox
