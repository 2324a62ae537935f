#pragma once
// What every sandbox protocol answers with: an HTTP status, a content type, a body and
// headers, and the three wire protocols the sandbox speaks. The writers in this folder
// fill a Response; the server sends it as it is.

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace strata::sandbox {

using Json = nlohmann::json;

//! AWS's wire protocols, as the sandbox's services speak them:
//!   Ec2Query  form-encoded Action=... in, EC2's flat XML out (<XResponse><requestId>)
//!   Query     form-encoded Action=... in, IAM/STS's XML out (<XResponse><XResult>...)
//!   RestJson  the verb and path name the action, JSON in and out (EKS)
//!   AwsJson   POST / with X-Amz-Target "<prefix>.<Action>", JSON in and out
//!             (application/x-amz-json-1.0 or 1.1: SQS, EventBridge, ...)
//!   RestXml   the verb and path name the action, XML in and out (Route 53, S3)
enum class Protocol { Ec2Query, Query, RestJson, AwsJson, RestXml };

//! One answer, error or not.
struct Response {
  int status = 200;
  std::string content_type = "text/xml";
  std::string body;
  std::map<std::string, std::string> headers;
};

}  // namespace strata::sandbox
