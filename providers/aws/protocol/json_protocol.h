#pragma once
// The JSON protocols: x-amz-json-1.0/1.1 (POST / with X-Amz-Target: Prefix.Operation;
// ACM, Cognito, FSx, SSM) and REST-JSON (method + path + query, JSON body; EKS, EFS).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "providers/aws/core/result.h"
#include "providers/aws/http/http_types.h"
#include "providers/aws/http/url.h"

namespace strata::aws {

//! An x-amz-json call: `target_prefix` is the service's (e.g. "AWSCognitoIdentityProviderService").
struct JsonRpcRequest {
  std::string target_prefix;
  std::string operation;  //!< "DescribeUserPool"
  nlohmann::json body = nlohmann::json::object();
  std::string json_version = "1.1";  //!< "1.0" for DynamoDB-style services
};

//! POST {endpoint}/ with X-Amz-Target and Content-Type application/x-amz-json-1.x.
HttpRequest BuildJsonRpcHttpRequest(const JsonRpcRequest& call, const std::string& endpoint);

//! A REST-JSON call. `path` is already encoded: build it with EncodePathLabel.
struct RestJsonRequest {
  std::string method = "GET";
  std::string path = "/";
  QueryParams query;
  std::optional<nlohmann::json> body;  //!< nullopt: no body
  HttpHeaders headers;                 //!< extra headers (e.g. idempotency)
};

//! {endpoint}{path}?{query} with Content-Type application/json when there is a body.
HttpRequest BuildRestJsonHttpRequest(const RestJsonRequest& call, const std::string& endpoint);

//! Percent-encodes one path label ("my cluster" -> "my%20cluster"; '/' is encoded too).
std::string EncodePathLabel(std::string_view label);

//! Parses a 2xx JSON body; an empty body gives an empty object, a body that is not
//! JSON a MalformedResponse error.
Result<nlohmann::json> ParseJsonResponse(const HttpResponse& response);

}  // namespace strata::aws
